/* Accurate kernels for badly shaped simplices (see kernel/simplex_robust.h): weights by Gaussian
 * elimination with partial pivoting and one refinement step in double-double (backward stable:
 * Higham, "Accuracy and Stability of Numerical Algorithms", Thm. 9.4 and section 12.1), and normals
 * from a cross product kept exactly as pairs of doubles (Dekker 1971, Knuth's two-sum). Why
 * Cramer's rule fails on needles, and the range assumptions: docs/algorithms/gjk.md, section 3. */
#include <float.h>
#include <math.h>
#include <stddef.h>

#include "core/math.h"
#include "core/tolerances.h"
#include "kernel/simplex_robust.h"

typedef struct hdi_dd {
    double hi;
    double lo;
} hdi_dd;

/* a + b = s + e exactly (Knuth). */
static hdi_dd two_sum(double a, double b)
{
    double s = a + b;
    double bb = s - a;
    hdi_dd r = {s, (a - (s - bb)) + (b - bb)};
    return r;
}

/* Veltkamp splitting: a = hi + lo with hi, lo of at most 26 significant bits. */
static void split(double a, double *hi, double *lo)
{
    double c = 134217729.0 * a; /* 2^27 + 1 */
    *hi = c - (c - a);
    *lo = a - *hi;
}

/* a * b = p + e exactly (Dekker). */
static hdi_dd two_prod(double a, double b)
{
    double ah, al, bh, bl;
    split(a, &ah, &al);
    split(b, &bh, &bl);
    double p = a * b;
    hdi_dd r = {p, ((ah * bh - p) + ah * bl + al * bh) + al * bl};
    return r;
}

static hdi_dd dd_renorm(double hi, double lo)
{
    double s = hi + lo;
    hdi_dd r = {s, lo - (s - hi)};
    return r;
}

static hdi_dd dd_mul(hdi_dd a, hdi_dd b)
{
    hdi_dd p = two_prod(a.hi, b.hi);
    return dd_renorm(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi));
}

static hdi_dd dd_sub(hdi_dd a, hdi_dd b)
{
    hdi_dd s = two_sum(a.hi, -b.hi);
    return dd_renorm(s.hi, s.lo + (a.lo - b.lo));
}

static hdi_dd dd_add(hdi_dd a, hdi_dd b)
{
    hdi_dd s = two_sum(a.hi, b.hi);
    return dd_renorm(s.hi, s.lo + (a.lo + b.lo));
}

/* c = e1 x e2 for pairs of doubles, each product and difference in double-double. */
static void dd_cross_dd(const hdi_dd e1[3], const hdi_dd e2[3], hdi_dd c[3])
{
    for (int k = 0; k < 3; ++k) {
        int i = (k + 1) % 3, j = (k + 2) % 3;
        c[k] = dd_sub(dd_mul(e1[i], e2[j]), dd_mul(e1[j], e2[i]));
    }
}

/* m = e1 x e2 for exact pairs of doubles, rounded once to double at the end. */
static void dd_cross(const hdi_dd e1[3], const hdi_dd e2[3], double m[3])
{
    hdi_dd c[3];
    dd_cross_dd(e1, e2, c);
    for (int k = 0; k < 3; ++k) {
        m[k] = c[k].hi + c[k].lo;
    }
}

/* Normalizes m into n; 0 (n untouched) when m is zero or not finite. */
static int unit_or_fail(double m[3], double n[3])
{
    if (!hdi_v3_is_finite(m) || !(hdi_v3_normalize(m) > 0.0)) {
        return 0;
    }
    hdi_v3_copy(n, m);
    return 1;
}

/* |m| / (|e1| |e2|) for m = e1 x e2 rounded from double-double: the sine of the angle between
 * the edges, to a few units of 2^-53 relative (from the edges' leading parts); 0 for a zero edge.
 */
static double edge_sine(const double m[3], const hdi_dd e1[3], const hdi_dd e2[3])
{
    double a[3] = {e1[0].hi, e1[1].hi, e1[2].hi}, b[3] = {e2[0].hi, e2[1].hi, e2[2].hi};
    double ab = hdi_v3_len(a) * hdi_v3_len(b);
    return ab > 0.0 ? hdi_v3_len(m) / ab : 0.0;
}

/* hdi_triangle_unit_normal, with the sine of the angle at x when sine is not NULL. */
static int triangle_normal(const double x[3], const double y[3], const double z[3], double n[3],
                           double *sine)
{
    hdi_dd e1[3], e2[3];
    for (int k = 0; k < 3; ++k) {
        e1[k] = two_sum(y[k], -x[k]);
        e2[k] = two_sum(z[k], -x[k]);
    }
    double m[3];
    dd_cross(e1, e2, m);
    if (sine != NULL) {
        *sine = edge_sine(m, e1, e2);
    }
    return unit_or_fail(m, n);
}

int hdi_triangle_unit_normal(const double x[3], const double y[3], const double z[3], double n[3])
{
    return triangle_normal(x, y, z, n, NULL);
}

int hdi_triangle_normal_sine(const double x[3], const double y[3], const double z[3], double n[3],
                             double *sine)
{
    return triangle_normal(x, y, z, n, sine);
}

/* d = x1 - x0 exactly (two-sum), scaled by a power of two so that its largest part is below 1 in
 * magnitude: the products of two such edges stay far from over- and underflow. */
static void exact_edge(const double x0[3], const double x1[3], hdi_dd d[3])
{
    double m = 0.0;
    for (int k = 0; k < 3; ++k) {
        d[k] = two_sum(x1[k], -x0[k]);
        m = fmax(m, fabs(d[k].hi));
    }
    int shift = 0;
    if (m > 0.0 && isfinite(m)) {
        (void)frexp(m, &shift);
    }
    for (int k = 0; k < 3; ++k) {
        d[k].hi = ldexp(d[k].hi, -shift);
        d[k].lo = ldexp(d[k].lo, -shift);
    }
}

/* hdi_edge_pair_unit_normal, with the sine of the angle between the edges when sine is not NULL. */
static int edge_pair_normal(const double p0[3], const double p1[3], const double q0[3],
                            const double q1[3], const double r[9], double n[3], double *sine)
{
    hdi_dd p[3], qb[3], q[3];
    exact_edge(p0, p1, p);
    exact_edge(q0, q1, qb);
    for (int k = 0; k < 3; ++k) {
        hdi_dd acc = {0.0, 0.0};
        for (int j = 0; j < 3; ++j) {
            hdi_dd t = two_prod(r[3 * k + j], qb[j].hi);
            t.lo += r[3 * k + j] * qb[j].lo;
            acc = dd_add(acc, t);
        }
        q[k] = acc;
    }
    double m[3];
    dd_cross(p, q, m);
    if (sine != NULL) {
        *sine = edge_sine(m, p, q);
    }
    return unit_or_fail(m, n);
}

int hdi_edge_pair_unit_normal(const double p0[3], const double p1[3], const double q0[3],
                              const double q1[3], const double r[9], double n[3])
{
    return edge_pair_normal(p0, p1, q0, q1, r, n, NULL);
}

int hdi_edge_pair_normal_sine(const double p0[3], const double p1[3], const double q0[3],
                              const double q1[3], const double r[9], double n[3], double *sine)
{
    return edge_pair_normal(p0, p1, q0, q1, r, n, sine);
}

/* In double when the triangle is well shaped (see simplex_robust.h), else hdi_triangle_unit_normal.
 */
int hdi_triangle_normal_fast(const double x[3], const double y[3], const double z[3], double n[3])
{
    double e1[3], e2[3];
    hdi_v3_sub(e1, y, x);
    hdi_v3_sub(e2, z, x);
    double m1 = hdi_v3_max_abs(e1), m2 = hdi_v3_max_abs(e2);
    if (m1 > 0.0 && m2 > 0.0 && isfinite(m1) && isfinite(m2)) {
        hdi_v3_scale(e1, e1, 1.0 / m1); /* unit size: no underflow in the products below */
        hdi_v3_scale(e2, e2, 1.0 / m2);
        hdi_v3_cross(n, e1, e2);
        double c2 = hdi_v3_len2(n);
        if (c2 > HD_PLAIN_NORMAL_SINE * HD_PLAIN_NORMAL_SINE * hdi_v3_len2(e1) * hdi_v3_len2(e2)) {
            hdi_v3_scale(n, n, 1.0 / sqrt(c2));
            return 1;
        }
    }
    return hdi_triangle_unit_normal(x, y, z, n);
}

int hdi_triangle_normal_plain(const double x[3], const double y[3], const double z[3], double n[3])
{
    double e1[3], e2[3];
    hdi_v3_sub(e1, y, x);
    hdi_v3_sub(e2, z, x);
    hdi_v3_cross(n, e1, e2);
    double l1 = hdi_v3_len2(e1), l2 = hdi_v3_len2(e2), c2 = hdi_v3_len2(n);
    if (l1 > HD_EPA_PLAIN_EDGE2_MIN && l1 < HD_EPA_PLAIN_EDGE2_MAX && l2 > HD_EPA_PLAIN_EDGE2_MIN &&
        l2 < HD_EPA_PLAIN_EDGE2_MAX && c2 > HD_PLAIN_NORMAL_SINE * HD_PLAIN_NORMAL_SINE * l1 * l2) {
        hdi_v3_scale(n, n, 1.0 / sqrt(c2));
        return 1;
    }
    return hdi_triangle_normal_fast(x, y, z, n);
}

/* LU factorisation with partial pivoting of a 4x4 matrix, in place (unit lower factor below the
 * diagonal); perm[i] is the original row now in row i. 0 when a pivot is zero or not finite. */
static int lu4(double a[4][4], int perm[4])
{
    for (int i = 0; i < 4; ++i) {
        perm[i] = i;
    }
    for (int k = 0; k < 4; ++k) {
        int p = k;
        for (int i = k + 1; i < 4; ++i) {
            if (fabs(a[i][k]) > fabs(a[p][k])) {
                p = i;
            }
        }
        if (!(fabs(a[p][k]) > 0.0) || !isfinite(a[p][k])) {
            return 0;
        }
        if (p != k) {
            for (int j = 0; j < 4; ++j) {
                double t = a[k][j];
                a[k][j] = a[p][j];
                a[p][j] = t;
            }
            int t = perm[k];
            perm[k] = perm[p];
            perm[p] = t;
        }
        for (int i = k + 1; i < 4; ++i) {
            double f = a[i][k] / a[k][k];
            a[i][k] = f;
            for (int j = k + 1; j < 4; ++j) {
                a[i][j] -= f * a[k][j];
            }
        }
    }
    return 1;
}

/* Solves (P^T L U) x = b for the factorisation of lu4 (lu is not modified; not const-qualified
 * only because ISO C before C2X does not convert double (*)[4] to const double (*)[4]); b is in
 * original row order. */
static void lu4_solve(double lu[4][4], const int perm[4], const double b[4], double x[4])
{
    for (int i = 0; i < 4; ++i) {
        x[i] = b[perm[i]];
        for (int j = 0; j < i; ++j) {
            x[i] -= lu[i][j] * x[j];
        }
    }
    for (int i = 3; i >= 0; --i) {
        for (int j = i + 1; j < 4; ++j) {
            x[i] -= lu[i][j] * x[j];
        }
        x[i] /= lu[i][i];
    }
}

/* r = b - A l for the system of hdi_tetra_weights_robust, each row accumulated in double-double:
 * rows 0..2 are -sum l_j w_j[k], row 3 is s (1 - sum l_j). */
static void residual(const double (*w)[3], double s, const double l[4], double r[4])
{
    for (int k = 0; k < 3; ++k) {
        hdi_dd acc = {0.0, 0.0};
        for (int j = 0; j < 4; ++j) {
            acc = dd_add(acc, two_prod(l[j], w[j][k]));
        }
        r[k] = -(acc.hi + acc.lo);
    }
    hdi_dd sum = {1.0, 0.0};
    for (int j = 0; j < 4; ++j) {
        sum = dd_sub(sum, (hdi_dd){l[j], 0.0});
    }
    r[3] = s * (sum.hi + sum.lo);
}

/* The system: sum_j l_j w_j = 0 (three rows) and s sum_j l_j = s (the fourth row, scaled by
 * s = max |w| so that its backward error is relative to the same size as the others'). */
int hdi_tetra_weights_robust(const double (*w)[3], double l[4])
{
    double s = 0.0;
    for (int j = 0; j < 4; ++j) {
        s = fmax(s, hdi_v3_max_abs(w[j]));
    }
    if (!(s > 0.0) || !isfinite(s)) {
        return 0;
    }
    double a[4][4];
    for (int j = 0; j < 4; ++j) {
        for (int k = 0; k < 3; ++k) {
            a[k][j] = w[j][k];
        }
        a[3][j] = s;
    }
    int perm[4];
    if (!lu4(a, perm)) {
        return 0;
    }
    const double b[4] = {0.0, 0.0, 0.0, s};
    double x[4], r[4], dx[4];
    lu4_solve(a, perm, b, x);
    residual(w, s, x, r);
    lu4_solve(a, perm, r, dx);
    for (int j = 0; j < 4; ++j) {
        x[j] += dx[j];
        if (!isfinite(x[j])) {
            return 0;
        }
    }
    for (int j = 0; j < 4; ++j) {
        l[j] = x[j];
    }
    return 1;
}

/* x . y for vectors of pairs of doubles. */
static hdi_dd dd_dot(const hdi_dd x[3], const hdi_dd y[3])
{
    return dd_add(dd_add(dd_mul(x[0], y[0]), dd_mul(x[1], y[1])), dd_mul(x[2], y[2]));
}

/* a / b in double-double (one correction of the double quotient), b nonzero. */
static hdi_dd dd_div(hdi_dd a, hdi_dd b)
{
    double q1 = a.hi / b.hi;
    hdi_dd r = dd_sub(a, dd_mul(b, (hdi_dd){q1, 0.0}));
    return dd_renorm(q1, (r.hi + r.lo) / b.hi);
}

static double dd_value(hdi_dd x)
{
    return x.hi + x.lo;
}

/* The nearest candidate so far: its squared length, point and weights over the simplex. */
typedef struct hdi_nearest {
    double d2;
    double v[3];
    double l[4];
} hdi_nearest;

static void offer(hdi_nearest *best, const hdi_dd p[3], const int idx[3], const double w[3], int n)
{
    double d2 = dd_value(dd_dot(p, p));
    if (!(d2 < best->d2)) {
        return;
    }
    best->d2 = d2;
    for (int k = 0; k < 3; ++k) {
        best->v[k] = dd_value(p[k]);
    }
    best->l[0] = best->l[1] = best->l[2] = best->l[3] = 0.0;
    for (int j = 0; j < n; ++j) {
        best->l[idx[j]] = w[j];
    }
}

/* p / d, d nonzero. */
static void scale_dd(hdi_dd p[3], hdi_dd d)
{
    for (int k = 0; k < 3; ++k) {
        p[k] = dd_div(p[k], d);
    }
}

/* The origin projected on the line through W[i], W[j], offered when it falls on the segment. The
 * foot is e x (W_i x e) / (e . e), e = W_j - W_i: orthogonal to e by construction. Written as
 * W_i + t e it is a difference of terms |e| / |p| times larger than itself, whose rounding (t to
 * 2^-106) is that much larger too: on a segment of length 6 passing 3e-8 from the origin, a
 * relative error of 1e-10 in p, enough to put the support plane through it outside M. */
static void offer_segment(hdi_nearest *best, const hdi_dd (*W)[3], int i, int j)
{
    hdi_dd e[3], p[3];
    for (int k = 0; k < 3; ++k) {
        e[k] = dd_sub(W[j][k], W[i][k]);
    }
    hdi_dd den = dd_dot(e, e), num = dd_dot(W[i], e); /* num negated */
    num.hi = -num.hi;
    num.lo = -num.lo;
    if (!(dd_value(den) > 0.0) || !(dd_value(num) >= 0.0) || !(dd_value(num) <= dd_value(den))) {
        return;
    }
    hdi_dd t = dd_div(num, den), c[3];
    dd_cross_dd(W[i], e, c);
    dd_cross_dd(e, c, p);
    scale_dd(p, den);
    const int idx[3] = {i, j, 0};
    const double w[3] = {1.0 - dd_value(t), dd_value(t), 0.0};
    offer(best, p, idx, w, 2);
}

/* Squared length of W[j] - W[i], roughly (to pick a triangle's base vertex). */
static double edge2(const hdi_dd (*W)[3], int i, int j)
{
    double d2 = 0.0;
    for (int k = 0; k < 3; ++k) {
        double d = W[j][k].hi - W[i][k].hi;
        d2 += d * d;
    }
    return d2;
}

/* The origin projected on the plane of W[i], W[j], W[m], offered when it falls in the triangle:
 * the foot n (n . W_i) / (n . n) along the normal n = e x f, for the reason of offer_segment (a
 * sliver of length 6 and width 1e-8, 3e-8 from the origin: the foot as W_i + s e + t f was 1.4e-10
 * off, relatively, and the polished bounds never met); s and t only decide whether the foot
 * falls inside and give the weights.
 * The two edges from the vertex opposite the longest edge span it: on a needle, a short edge and
 * a long one, whose Gram matrix is well conditioned, where two long nearly parallel edges would
 * lose 14 of double-double's 32 digits to the determinant (a segment of length 12 against a
 * square of side 8e-7: the direction of v 1e-9 off, the support plane through it 1e-8 off). */
static void offer_triangle(hdi_nearest *best, const hdi_dd (*W)[3], int i0, int j0, int m0)
{
    double lij = edge2(W, i0, j0), ljm = edge2(W, j0, m0), lmi = edge2(W, m0, i0);
    int i = i0, j = j0, m = m0;
    if (lij >= ljm && lij >= lmi) {
        i = m0, j = i0, m = j0; /* i j is the longest: base at m */
    } else if (lmi >= ljm && lmi >= lij) {
        i = j0, j = m0, m = i0; /* m i is the longest: base at j */
    }
    hdi_dd e[3], f[3], p[3];
    for (int k = 0; k < 3; ++k) {
        e[k] = dd_sub(W[j][k], W[i][k]);
        f[k] = dd_sub(W[m][k], W[i][k]);
    }
    hdi_dd gee = dd_dot(e, e), gef = dd_dot(e, f), gff = dd_dot(f, f);
    hdi_dd re = dd_dot(W[i], e), rf = dd_dot(W[i], f); /* the right-hand sides, negated */
    hdi_dd det = dd_sub(dd_mul(gee, gff), dd_mul(gef, gef));
    hdi_dd ns = dd_sub(dd_mul(rf, gef), dd_mul(re, gff));
    hdi_dd nt = dd_sub(dd_mul(re, gef), dd_mul(rf, gee));
    double d = dd_value(det), a = dd_value(ns), b = dd_value(nt);
    if (!(d > 0.0) || !(a >= 0.0) || !(b >= 0.0) || !(a + b <= d)) {
        return;
    }
    hdi_dd s = dd_div(ns, det), t = dd_div(nt, det), n[3];
    dd_cross_dd(e, f, n);
    hdi_dd nn = dd_dot(n, n), nw = dd_dot(n, W[i]);
    for (int k = 0; k < 3; ++k) {
        p[k] = dd_mul(n[k], nw);
    }
    scale_dd(p, nn);
    const int idx[3] = {i, j, m};
    const double w[3] = {1.0 - dd_value(s) - dd_value(t), dd_value(s), dd_value(t)};
    offer(best, p, idx, w, 3);
}

/* det[x y z] = x . (y x z), in double-double. */
static hdi_dd dd_det(const hdi_dd x[3], const hdi_dd y[3], const hdi_dd z[3])
{
    hdi_dd c[3];
    dd_cross_dd(y, z, c);
    return dd_dot(x, c);
}

/* Whether the origin lies strictly inside the tetrahedron W[0..3]: its barycentric weights, the
 * origin = W0 + l1 e1 + l2 e2 + l3 e3 solved by Cramer's rule in double-double, all positive;
 * then v = 0 is offered with them. */
static int offer_inside(hdi_nearest *best, const hdi_dd (*W)[3])
{
    hdi_dd e[3][3], o[3];
    for (int k = 0; k < 3; ++k) {
        for (int j = 0; j < 3; ++j) {
            e[j][k] = dd_sub(W[j + 1][k], W[0][k]);
        }
        o[k].hi = -W[0][k].hi;
        o[k].lo = -W[0][k].lo;
    }
    double d = dd_value(dd_det(e[0], e[1], e[2]));
    double l[4] = {1.0, dd_value(dd_det(o, e[1], e[2])) / d, dd_value(dd_det(e[0], o, e[2])) / d,
                   dd_value(dd_det(e[0], e[1], o)) / d};
    l[0] = 1.0 - l[1] - l[2] - l[3];
    if (!(l[0] > 0.0 && l[1] > 0.0 && l[2] > 0.0 && l[3] > 0.0)) {
        return 0;
    }
    best->d2 = 0.0;
    best->v[0] = best->v[1] = best->v[2] = 0.0;
    for (int j = 0; j < 4; ++j) {
        best->l[j] = l[j];
    }
    return 1;
}

int hdi_simplex_nearest_precise(const double (*a)[3], const double (*b)[3], int count, double v[3],
                                double l[4])
{
    hdi_dd W[4][3];
    hdi_nearest best = {DBL_MAX, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0, 0.0}};
    for (int j = 0; j < count; ++j) {
        for (int k = 0; k < 3; ++k) {
            W[j][k] = two_sum(a[j][k], -b[j][k]);
        }
        const int idx[3] = {j, 0, 0};
        const double w[3] = {1.0, 0.0, 0.0};
        offer(&best, W[j], idx, w, 1);
        for (int i = 0; i < j; ++i) {
            offer_segment(&best, (const hdi_dd(*)[3])W, i, j);
            for (int m = 0; m < i; ++m) {
                offer_triangle(&best, (const hdi_dd(*)[3])W, m, i, j);
            }
        }
    }
    if (count == 4) {
        offer_inside(&best, (const hdi_dd(*)[3])W);
    }
    if (!(best.d2 < DBL_MAX)) {
        return 0;
    }
    hdi_v3_copy(v, best.v);
    for (int j = 0; j < 4; ++j) {
        l[j] = best.l[j];
    }
    return 1;
}

/* The projections (x . e1, x . e2) of the points W[0..count-1] in double-double. */
static void project_dd(const hdi_dd (*W)[3], int count, const double e1[3], const double e2[3],
                       hdi_dd p[3][2])
{
    const hdi_dd u[3] = {{e1[0], 0.0}, {e1[1], 0.0}, {e1[2], 0.0}};
    const hdi_dd v[3] = {{e2[0], 0.0}, {e2[1], 0.0}, {e2[2], 0.0}};
    for (int j = 0; j < count; ++j) {
        p[j][0] = dd_dot(W[j], u);
        p[j][1] = dd_dot(W[j], v);
    }
}

/* x[0] y[1] - x[1] y[0] for planar points of pairs of doubles. */
static hdi_dd dd_cross2(const hdi_dd x[2], const hdi_dd y[2])
{
    return dd_sub(dd_mul(x[0], y[1]), dd_mul(x[1], y[0]));
}

/* The weights of the origin's projection in the projected triangle (barycentric: l_j is the
 * signed area of the origin and the other two corners over the triangle's) or, for a segment, of
 * the projected segment's point nearest it; 0 when the projection is degenerate. */
static int plane_weights(hdi_dd p[3][2], int count, hdi_dd l[3])
{
    if (count == 3) {
        hdi_dd area[3], total = {0.0, 0.0};
        for (int j = 0; j < 3; ++j) {
            area[j] = dd_cross2(p[(j + 1) % 3], p[(j + 2) % 3]);
            total = dd_add(total, area[j]);
        }
        if (!(total.hi != 0.0)) {
            return 0;
        }
        for (int j = 0; j < 3; ++j) {
            l[j] = dd_div(area[j], total);
        }
        return 1;
    }
    hdi_dd e[2] = {dd_sub(p[1][0], p[0][0]), dd_sub(p[1][1], p[0][1])};
    hdi_dd ee = dd_add(dd_mul(e[0], e[0]), dd_mul(e[1], e[1]));
    if (!(ee.hi > 0.0)) {
        return 0;
    }
    hdi_dd pe = dd_add(dd_mul(p[0][0], e[0]), dd_mul(p[0][1], e[1]));
    l[1] = dd_div((hdi_dd){-pe.hi, -pe.lo}, ee);
    l[0] = dd_sub((hdi_dd){1.0, 0.0}, l[1]);
    return 1;
}

int hdi_plane_lift_precise(const double (*a)[3], const double (*b)[3], int count,
                           const double e1[3], const double e2[3], double c[3])
{
    hdi_dd W[3][3], p[3][2], l[3] = {{1.0, 0.0}, {0.0, 0.0}, {0.0, 0.0}};
    for (int j = 0; j < count; ++j) {
        for (int k = 0; k < 3; ++k) {
            W[j][k] = two_sum(a[j][k], -b[j][k]);
        }
    }
    project_dd((const hdi_dd(*)[3])W, count, e1, e2, p);
    if (count > 1 && !plane_weights(p, count, l)) {
        return 0;
    }
    for (int k = 0; k < 3; ++k) {
        hdi_dd x = {0.0, 0.0};
        for (int j = 0; j < count; ++j) {
            x = dd_add(x, dd_mul(l[j], W[j][k]));
        }
        c[k] = dd_value(x);
    }
    return hdi_v3_is_finite(c);
}
