/* Rotations at constant angular velocity: exp and log of SO(3), and a motion's pose at t
 * (docs/algorithms/motion.md, section 1). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "core/math.h"
#include "core/tolerances.h"
#include "motion/twist.h"

/* sin(x) / x, accurate down to x = 0 (sin x rounds to x there). */
static double sinc(double x)
{
    return x == 0.0 ? 1.0 : sin(x) / x;
}

/* Rodrigues: exp([w]x) = I + a [w]x + b [w]x^2 with a = sin(th) / th and
 * b = (1 - cos th) / th^2 = (sin(th/2) / (th/2))^2 / 2, the half-angle form that has no
 * cancellation near 0 (Murray, Li, Sastry 1994, "A Mathematical Introduction to Robotic
 * Manipulation", section 2.2, eq. 2.14). */
void hdi_so3_exp(const double w[3], double r[9])
{
    double th = hdi_v3_len(w);
    double a = sinc(th);
    double h = sinc(0.5 * th);
    double b = 0.5 * h * h;
    double x = w[0], y = w[1], z = w[2];
    r[0] = 1.0 - b * (y * y + z * z);
    r[1] = b * x * y - a * z;
    r[2] = b * x * z + a * y;
    r[3] = b * x * y + a * z;
    r[4] = 1.0 - b * (x * x + z * z);
    r[5] = b * y * z - a * x;
    r[6] = b * x * z - a * y;
    r[7] = b * y * z + a * x;
    r[8] = 1.0 - b * (x * x + y * y);
}

/* Near pi the skew part vanishes and cannot give the axis: r + r^T = 2 c I + 2 (1 - c) k k^T,
 * so k is the normalized column of r + r^T - 2 c I with the largest diagonal entry, signed to
 * agree with the skew part s (at exactly pi both signs are the same rotation). */
static void axis_from_symmetric(const double r[9], double c, const double s[3], double k[3])
{
    double m[9];
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            m[3 * i + j] = r[3 * i + j] + r[3 * j + i] - (i == j ? 2.0 * c : 0.0);
        }
    }
    int col = 0;
    for (int i = 1; i < 3; ++i) {
        if (m[4 * i] > m[4 * col]) {
            col = i;
        }
    }
    hdi_v3_set(k, m[col], m[3 + col], m[6 + col]);
    hdi_v3_normalize(k);
    if (hdi_v3_dot(k, s) < 0.0) {
        hdi_v3_neg(k, k);
    }
}

/* The angle from atan2(|s|, c), accurate at every angle, with s the skew part's vector
 * (sin th times the axis) and c = (trace - 1) / 2; the axis from s below a right angle, from the
 * symmetric part above it, where s loses its relative accuracy. */
void hdi_so3_log(const double r[9], double w[3])
{
    double s[3] = {0.5 * (r[7] - r[5]), 0.5 * (r[2] - r[6]), 0.5 * (r[3] - r[1])};
    double c = 0.5 * (r[0] + r[4] + r[8] - 1.0);
    double sn = hdi_v3_len(s);
    double th = atan2(sn, c);
    if (th == 0.0) {
        hdi_v3_set(w, 0.0, 0.0, 0.0);
        return;
    }
    if (c >= 0.0) {
        hdi_v3_scale(w, s, th / sn);
        return;
    }
    double k[3];
    axis_from_symmetric(r, hdi_max(c, -1.0), s, k);
    hdi_v3_scale(w, k, th);
}

static void m3_mul(double out[9], const double a[9], const double b[9])
{
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            out[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
        }
    }
}

hd_status hdi_motion_validate(const hd_motion *m)
{
    if (m == NULL) {
        return HD_ERR_NULL;
    }
    if (!hdi_v3_is_finite(m->v) || !hdi_v3_is_finite(m->w) || !hdi_v3_is_finite(m->c)) {
        return HD_ERR_NONFINITE;
    }
    return hd_pose_validate(&m->pose0, 0.0);
}

/* R(t) = exp(t [w]x) R0, T(t) = c + exp(t [w]x) (T0 - c) + t v. */
void hdi_motion_pose_at(const hd_motion *m, double t, hd_pose *out)
{
    double tw[3], e[9], d[3], rd[3];
    hdi_v3_scale(tw, m->w, t);
    hdi_so3_exp(tw, e);
    m3_mul(out->r, e, m->pose0.r);
    hdi_v3_sub(d, m->pose0.t, m->c);
    hdi_m3_mul_v(rd, e, d);
    for (int i = 0; i < 3; ++i) {
        out->t[i] = m->c[i] + rd[i] + t * m->v[i];
    }
}

/* max |R0 p + T0 - c| over the hull vertices, plus the radius, widened by the rounding of the
 * posing and the norm (HD_MOTION_REACH_UNITS of the magnitudes involved). */
double hdi_motion_reach(const hd_polytope *p, const hd_motion *m)
{
    const double *v = hd_polytope_vertices(p);
    int n = hd_polytope_vertex_count(p);
    double best = 0.0, mag = hdi_v3_max_abs(m->c) + hdi_v3_max_abs(m->pose0.t);
    for (int i = 0; i < n; ++i) {
        double q[3];
        hd_pose_apply(&m->pose0, v + 3 * i, q);
        hdi_v3_sub(q, q, m->c);
        best = hdi_max(best, hdi_v3_len(q));
        mag = hdi_max(mag, hdi_v3_max_abs(v + 3 * i));
    }
    best += hd_polytope_radius(p); /* a rounded body's points lie within r of its core's */
    return best * (1.0 + HD_MOTION_REACH_UNITS * DBL_EPSILON) +
           HD_MOTION_REACH_UNITS * DBL_EPSILON * mag;
}
