/* Private inline 3-vector and 3x3 matrix helpers. Vectors are double[3]; matrices row-major
 * double[9]. */
#ifndef HD_MATH_H
#define HD_MATH_H

#include <math.h>

static inline void hdi_v3_set(double out[3], double x, double y, double z)
{
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

static inline void hdi_v3_copy(double out[3], const double a[3])
{
    out[0] = a[0];
    out[1] = a[1];
    out[2] = a[2];
}

static inline void hdi_v3_add(double out[3], const double a[3], const double b[3])
{
    out[0] = a[0] + b[0];
    out[1] = a[1] + b[1];
    out[2] = a[2] + b[2];
}

static inline void hdi_v3_sub(double out[3], const double a[3], const double b[3])
{
    out[0] = a[0] - b[0];
    out[1] = a[1] - b[1];
    out[2] = a[2] - b[2];
}

static inline void hdi_v3_scale(double out[3], const double a[3], double s)
{
    out[0] = a[0] * s;
    out[1] = a[1] * s;
    out[2] = a[2] * s;
}

/* out = a + s * b */
static inline void hdi_v3_madd(double out[3], const double a[3], double s, const double b[3])
{
    out[0] = a[0] + s * b[0];
    out[1] = a[1] + s * b[1];
    out[2] = a[2] + s * b[2];
}

static inline void hdi_v3_neg(double out[3], const double a[3])
{
    out[0] = -a[0];
    out[1] = -a[1];
    out[2] = -a[2];
}

static inline double hdi_v3_dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void hdi_v3_cross(double out[3], const double a[3], const double b[3])
{
    double x = a[1] * b[2] - a[2] * b[1];
    double y = a[2] * b[0] - a[0] * b[2];
    double z = a[0] * b[1] - a[1] * b[0];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

static inline double hdi_v3_len2(const double a[3])
{
    return hdi_v3_dot(a, a);
}

static inline double hdi_v3_len(const double a[3])
{
    return sqrt(hdi_v3_dot(a, a));
}

static inline double hdi_v3_dist(const double a[3], const double b[3])
{
    double d[3];
    hdi_v3_sub(d, a, b);
    return hdi_v3_len(d);
}

/* Normalizes in place; returns the former length (0 leaves a unchanged). The vector is first
 * divided by its largest component, so that huge or subnormal vectors normalize too (the
 * returned length may then overflow to infinity, the direction does not). */
static inline double hdi_v3_normalize(double a[3])
{
    double m = fabs(a[0]) > fabs(a[1]) ? fabs(a[0]) : fabs(a[1]);
    m = fabs(a[2]) > m ? fabs(a[2]) : m;
    if (!(m > 0.0) || !isfinite(m)) {
        return m == 0.0 ? 0.0 : m;
    }
    a[0] /= m; /* divisions, not a multiplication by 1/m: 1/m overflows for subnormal m */
    a[1] /= m;
    a[2] /= m;
    double len = hdi_v3_len(a);
    hdi_v3_scale(a, a, 1.0 / len);
    return len * m;
}

/* max(a, b) and min(a, b) for numbers that are never NaN, inline (fmax and fmin are library
 * calls at -O2); a NaN first argument gives b. */
static inline double hdi_max(double a, double b)
{
    return a > b ? a : b;
}

static inline double hdi_min(double a, double b)
{
    return a < b ? a : b;
}

static inline double hdi_v3_max_abs(const double a[3])
{
    double m = fabs(a[0]);
    if (fabs(a[1]) > m) {
        m = fabs(a[1]);
    }
    if (fabs(a[2]) > m) {
        m = fabs(a[2]);
    }
    return m;
}

static inline int hdi_v3_is_finite(const double a[3])
{
    return isfinite(a[0]) && isfinite(a[1]) && isfinite(a[2]);
}

static inline int hdi_v3_is_zero(const double a[3])
{
    return a[0] == 0.0 && a[1] == 0.0 && a[2] == 0.0;
}

/* det [a b c] = a . (b x c), the signed volume of the parallelepiped spanned by a, b, c. */
static inline double hdi_det3(const double a[3], const double b[3], const double c[3])
{
    double bc[3];
    hdi_v3_cross(bc, b, c);
    return hdi_v3_dot(a, bc);
}

/* out = R v */
static inline void hdi_m3_mul_v(double out[3], const double r[9], const double v[3])
{
    double x = r[0] * v[0] + r[1] * v[1] + r[2] * v[2];
    double y = r[3] * v[0] + r[4] * v[1] + r[5] * v[2];
    double z = r[6] * v[0] + r[7] * v[1] + r[8] * v[2];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

/* out = R^T v */
static inline void hdi_m3_tmul_v(double out[3], const double r[9], const double v[3])
{
    double x = r[0] * v[0] + r[3] * v[1] + r[6] * v[2];
    double y = r[1] * v[0] + r[4] * v[1] + r[7] * v[2];
    double z = r[2] * v[0] + r[5] * v[1] + r[8] * v[2];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

/* out = A^T B (out must not alias) */
static inline void hdi_m3_tmul_m(double out[9], const double a[9], const double b[9])
{
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            out[3 * i + j] = a[i] * b[j] + a[3 + i] * b[3 + j] + a[6 + i] * b[6 + j];
        }
    }
}

/* Whether a rotation r and translation t pass hd_pose_validate's checks with tolerance tol (in
 * (0, HD_TOL_REL_MAX]), in one branch-light pass: R^T R is symmetric in floating point too, so
 * six of its entries decide; a non-finite entry of R makes a diagonal entry of R^T R infinite or
 * NaN, and one of t makes t.0 NaN, both of which fail the comparisons; the determinant is the
 * same expression. 0 only says "check entry by entry", which then names the status. */
static inline int hdi_pose_passes(const double r[9], const double t[3], double tol)
{
    if (!(t[0] * 0.0 + t[1] * 0.0 + t[2] * 0.0 == 0.0)) {
        return 0;
    }
    for (int i = 0; i < 3; ++i) {
        for (int j = i; j < 3; ++j) {
            double x = r[i] * r[j] + r[3 + i] * r[3 + j] + r[6 + i] * r[6 + j];
            if (!(fabs(x - (i == j ? 1.0 : 0.0)) <= tol)) {
                return 0;
            }
        }
    }
    return hdi_det3(r, r + 3, r + 6) > 0.0;
}

#endif
