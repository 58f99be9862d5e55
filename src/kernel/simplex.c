/* Sub-simplex solver of GJK (Gilbert, Johnson, Keerthi 1988, the "distance subalgorithm"): the
 * point of the hull of 1..4 points of M closest to the origin and the smallest subset holding it,
 * by the signed volumes of Montanari, Petrinic, Barbieri, "Improving the GJK algorithm for faster
 * and more reliable distance queries between convex objects", ACM TOG 36(3), 2017, section 3,
 * instead of Johnson's recursive determinants, which lose their sign on nearly degenerate
 * simplices. Each level decides from its own signs, so the region tests never contradict each
 * other. The cases and the accuracy of v: docs/algorithms/gjk.md, section 3. */
#include <float.h>
#include <math.h>

#include "kernel/simplex.h"
#include "core/math.h"
#include "kernel/simplex_robust.h"
#include "core/tolerances.h"

typedef hdi_simplex_sub hdi_sub;

/* a and b nonzero and of the same sign. The comparisons are combined with bitwise operators:
 * the signs of the region tests depend on the order of the simplex's points, which no predictor
 * learns, and a branch per comparison mispredicts about half the time. */
static inline int same_sign(double a, double b)
{
    return ((a > 0.0) & (b > 0.0)) | ((a < 0.0) & (b < 0.0));
}

static void sub_point(const double (*w)[3], int i, hdi_sub *out)
{
    out->n = 1;
    out->idx[0] = i;
    out->l[0] = 1.0;
    hdi_v3_copy(out->v, w[i]);
    out->d2 = hdi_v3_len2(out->v);
}

/* The closest point of a line or plane through p, along a direction m normal to it: (m.p / m.m) m.
 * Why not sum l_i w_i: when the origin is close to the element (|v| << |w|), that sum cancels
 * and its direction is off by about 2^-53 |w| / |v| (2e-5 for |v| = 1e-12 |w|), which ruins the
 * lower bound v.w / |v| and the separating plane. A normal built from cross products of edge
 * vectors is orthogonal to the element to within rounding relative to itself, whatever |v| is:
 * for a triangle (b - a) x (c - a); for a segment d x (p x d), whose outer product with d is
 * orthogonal to d even though the inner one cancels. Its length m.p / |m| is then exact to a few
 * units of 2^-53 |p|, which is what "a few ulps of the scale" asks. */
static void project_along(const double m[3], const double p[3], double v[3], double *d2)
{
    double mm = hdi_v3_len2(m);
    if (mm > 0.0) {
        hdi_v3_scale(v, m, hdi_v3_dot(m, p) / mm);
    } else {
        hdi_v3_set(v, 0.0, 0.0, 0.0);
    }
    *d2 = hdi_v3_len2(v);
}

/* Segment p q: the closest point is p + t (q - p), t = -p.d / d.d clamped to [0, 1]; the two
 * unnormalized weights are q.d (for p) and -p.d (for q), which sum to d.d. */
static void solve_segment(const double (*w)[3], int i0, int i1, hdi_sub *out)
{
    const double *p = w[i0];
    const double *q = w[i1];
    double d[3];
    hdi_v3_sub(d, q, p);
    double lq = -hdi_v3_dot(p, d);
    double lp = hdi_v3_dot(q, d);
    if (!(lq > 0.0) || !(hdi_v3_len2(d) > 0.0)) {
        sub_point(w, i0, out);
        return;
    }
    if (!(lp > 0.0)) {
        sub_point(w, i1, out);
        return;
    }
    double t = lq / (lp + lq);
    out->n = 2;
    out->idx[0] = i0;
    out->idx[1] = i1;
    out->l[0] = 1.0 - t;
    out->l[1] = t;
    double c[3], m[3];
    hdi_v3_cross(c, p, d);
    hdi_v3_cross(m, d, c);
    project_along(m, p, out->v, &out->d2);
}

static void keep_nearest(hdi_sub *best, const hdi_sub *cand)
{
    if (cand->d2 < best->d2) {
        *best = *cand;
    }
}

/* 2D cross product of (a - o) and (b - o) in the coordinate plane (x, y). */
static double area2(const double o[3], const double a[3], const double b[3], int x, int y)
{
    return (a[x] - o[x]) * (b[y] - o[y]) - (a[y] - o[y]) * (b[x] - o[x]);
}

/* The triangle's own closest point is kept when every signed area has the sign of mu, or
 * disagrees by no more than its rounding. Area j, of p0 and the edge q r opposite vertex j, is a
 * difference of products of q - p0 and r - p0 (relative rounding: a few units of 2^-53 lq lr, lq
 * and lr their lengths) taken from a projected point known to about 2^-53 (L + W) (L the longest
 * edge, W the largest coordinate), which moves it by that times |q - r|; 16 DBL_EPSILON
 * (lq lr + (L + W) |q - r|) bounds it with margin, capped by the triangle-wide bound
 * 16 DBL_EPSILON L (L + W). The bound is per area: a short edge of a long triangle (a needle far
 * from the origin) has an area far below L (L + W), and taking that as its rounding kept the
 * triangle when the origin was plainly beyond the short edge, with |v| far below the distance.
 * Why not leave such a case to the edge, as the exact sign rule would: when the origin projects
 * onto an edge to within rounding (a face diagonal of M, typical of symmetric contacts), the edge's
 * closest point is orthogonal to the edge but its rotation about the edge is off by about
 * 2^-53 W / |v|; the third point then shows a spurious negative excess v.w - |v|^2, GJK adds it
 * back, the exact rule drops it again, and the loop never ends. The triangle's normal has no such
 * freedom. The clamped weight is 0 and the distance changes by rounding only. (Called only when
 * some area does not have the sign of mu strictly.) */
static int keep_triangle(const double c3[3], double mu, const double p0[3], const double *t[3])
{
    double e[3][3], len = 0.0, big = 0.0;
    for (int j = 0; j < 3; ++j) {
        hdi_v3_sub(e[j], t[(j + 2) % 3], t[(j + 1) % 3]); /* the edge opposite vertex j */
        len = hdi_max(len, hdi_v3_max_abs(e[j]));
        big = hdi_max(big, hdi_v3_max_abs(t[j]));
    }
    double unit = HD_SIMPLEX_AREA_UNITS * DBL_EPSILON;
    double sign = mu > 0.0 ? 1.0 : -1.0;
    int strict = 0;
    for (int j = 0; j < 3; ++j) {
        double dq[3], dr[3];
        hdi_v3_sub(dq, t[(j + 1) % 3], p0);
        hdi_v3_sub(dr, t[(j + 2) % 3], p0);
        double local = hdi_v3_max_abs(dq) * hdi_v3_max_abs(dr) + (len + big) * hdi_v3_max_abs(e[j]);
        double slack = unit * hdi_min(local, len * (len + big));
        double x = sign * c3[j];
        if (x < -slack) {
            return 0;
        }
        strict += x > 0.0;
    }
    return strict >= 2; /* at least an edge's worth of genuine area: not a vertex case */
}

/* The closest point of a triangle: the origin's projection p0 = (n.a / n.n) n on its plane
 * (n = (b - a) x (c - a)), whose signed sub-areas in the dominant coordinate plane give the
 * barycentric weights; p0 is also the projection along the exact normal (see project_along). */
static void solve_triangle(const double (*w)[3], int i0, int i1, int i2, hdi_sub *out)
{
    const int id[3] = {i0, i1, i2};
    const double *a = w[i0], *b = w[i1], *c = w[i2];
    double e1[3], e2[3], n[3];
    hdi_v3_sub(e1, b, a);
    hdi_v3_sub(e2, c, a);
    hdi_v3_cross(n, e1, e2);
    double nn = hdi_v3_len2(n);
    double c3[3] = {0.0, 0.0, 0.0};
    double mu = 0.0;
    if (nn > 0.0) {
        double p0[3];
        hdi_v3_scale(p0, n, hdi_v3_dot(n, a) / nn);
        /* the dominant axis (the first of equals) and the sign of mu (not 0: nn > 0), chosen by
         * comparisons and selects rather than branches: the normal's direction is data */
        double ax = fabs(n[0]), ay = fabs(n[1]);
        int k = ay > ax;
        k = fabs(n[2]) > hdi_max(ax, ay) ? 2 : k;
        int x = (k + 1) % 3, y = (k + 2) % 3;
        mu = n[k];
        c3[0] = area2(p0, b, c, x, y);
        c3[1] = area2(p0, c, a, x, y);
        c3[2] = area2(p0, a, b, x, y);
        double sign = copysign(1.0, mu);
        double s0 = sign * c3[0], s1 = sign * c3[1], s2 = sign * c3[2];
        const double *t[3] = {a, b, c};
        /* one branch for the three signs, not three (see same_sign) */
        if (((s0 > 0.0) & (s1 > 0.0) & (s2 > 0.0)) || keep_triangle(c3, mu, p0, t)) {
            s0 = hdi_max(s0, 0.0);
            s1 = hdi_max(s1, 0.0);
            s2 = hdi_max(s2, 0.0);
            double inv = 1.0 / (s0 + s1 + s2);
            out->n = 3;
            out->idx[0] = i0;
            out->idx[1] = i1;
            out->idx[2] = i2;
            out->l[0] = s0 * inv;
            out->l[1] = s1 * inv;
            out->l[2] = s2 * inv;
            hdi_v3_copy(out->v, p0);
            out->d2 = hdi_v3_len2(p0);
            return;
        }
    }
    /* The closest point is on an edge opposite a vertex whose sign disagrees (every edge when the
     * triangle is degenerate, mu = 0). */
    out->d2 = DBL_MAX;
    for (int j = 0; j < 3; ++j) {
        if (!same_sign(c3[j], mu)) {
            hdi_sub cand;
            solve_segment(w, id[j == 0 ? 1 : 0], id[j == 2 ? 1 : 2], &cand);
            keep_nearest(out, &cand);
        }
    }
}

/* The signed volumes of Montanari et al.: c[j] = det with vertex j replaced by the origin, and
 * the volume det = sum c[j] (computed directly); the barycentric coordinates are c[j] / det. */
static double tetra_volumes(const double p0[3], const double p1[3], const double p2[3],
                            const double p3[3], double c[4])
{
    double d1[3], d2[3], d3[3], m0[3];
    hdi_v3_sub(d1, p1, p0);
    hdi_v3_sub(d2, p2, p0);
    hdi_v3_sub(d3, p3, p0);
    hdi_v3_neg(m0, p0);
    c[0] = hdi_det3(p1, p2, p3);
    c[1] = hdi_det3(m0, d2, d3);
    c[2] = hdi_det3(d1, m0, d3);
    c[3] = hdi_det3(d1, d2, m0);
    return hdi_det3(d1, d2, d3);
}

void hdi_weights_renormalize_positive(double *l, int n)
{
    double sum = 0.0;
    int positive = 1;
    for (int j = 0; j < n; ++j) {
        sum += l[j];
        positive = positive && l[j] > 0.0;
    }
    for (int j = 0; positive && j < n; ++j) {
        l[j] /= sum;
    }
}

double hdi_tetra_barycentric(const double p0[3], const double p1[3], const double p2[3],
                             const double p3[3], double l[4])
{
    double c[4];
    double det = tetra_volumes(p0, p1, p2, p3, c);
    if (det == 0.0) {
        return 0.0;
    }
    /* the weights from a backward-stable solve (see hdi_simplex_polish); the signed volumes
     * c[j] / det only when that solve finds the system singular */
    const double w[4][3] = {
        {p0[0], p0[1], p0[2]}, {p1[0], p1[1], p1[2]}, {p2[0], p2[1], p2[2]}, {p3[0], p3[1], p3[2]}};
    if (!hdi_tetra_weights_robust(w, l)) {
        for (int j = 0; j < 4; ++j) {
            l[j] = c[j] / det;
        }
    }
    hdi_weights_renormalize_positive(l, 4);
    return det;
}

double hdi_tetra_signed_weights(const double p0[3], const double p1[3], const double p2[3],
                                const double p3[3], double l[4])
{
    double c[4];
    double det = tetra_volumes(p0, p1, p2, p3, c);
    double sum = c[0] + c[1] + c[2] + c[3];
    if (det == 0.0 || sum == 0.0) {
        return 0.0;
    }
    for (int j = 0; j < 4; ++j) {
        l[j] = c[j] / sum;
    }
    return det;
}

/* Tetrahedron: the origin is inside when every c[j] has the sign of det (c[j] / det > 0); the
 * weights are then c[j] / sum c. Otherwise the faces opposite the vertices whose sign disagrees
 * (all four when det = 0) are solved as triangles and the nearest answer wins. */
static void solve_tetra(const double (*w)[3], hdi_sub *out)
{
    double c[4];
    double det = tetra_volumes(w[0], w[1], w[2], w[3], c);
    int agree[4];
    for (int j = 0; j < 4; ++j) {
        agree[j] = same_sign(c[j], det);
    }
    if (agree[0] & agree[1] & agree[2] & agree[3]) { /* one branch, not four (see same_sign) */
        double inv = 1.0 / (c[0] + c[1] + c[2] + c[3]);
        out->n = 4;
        for (int j = 0; j < 4; ++j) {
            out->idx[j] = j;
            out->l[j] = c[j] * inv;
        }
        hdi_v3_set(out->v, 0.0, 0.0, 0.0);
        out->d2 = 0.0;
        return;
    }
    static const int face[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
    out->d2 = DBL_MAX;
    for (int j = 0; j < 4; ++j) {
        if (!agree[j]) {
            hdi_sub cand;
            solve_triangle(w, face[j][0], face[j][1], face[j][2], &cand);
            keep_nearest(out, &cand);
        }
    }
}

void hdi_simplex_solve_sub(const hdi_simplex *s, hdi_simplex_sub *sub)
{
    const double(*w)[3] = (const double(*)[3])s->w;
    switch (s->count) {
        case 1:
            sub_point(w, 0, sub);
            break;
        case 2:
            solve_segment(w, 0, 1, sub);
            break;
        case 3:
            solve_triangle(w, 0, 1, 2, sub);
            break;
        default:
            solve_tetra(w, sub);
            break;
    }
}

void hdi_simplex_commit(hdi_simplex *s, const hdi_simplex_sub *sub)
{
    /* every solver lists the kept indices in increasing order, so idx[j] >= j and the
     * simplex can be compacted in place */
    s->count = sub->n;
    for (int j = 0; j < sub->n; ++j) {
        int i = sub->idx[j];
        if (i != j) {
            hdi_v3_copy(s->w[j], s->w[i]);
            s->ia[j] = s->ia[i];
            s->ib[j] = s->ib[i];
        }
        s->lambda[j] = sub->l[j];
    }
}

void hdi_simplex_solve(hdi_simplex *s, double v[3])
{
    hdi_sub sub;
    hdi_simplex_solve_sub(s, &sub);
    hdi_simplex_commit(s, &sub);
    hdi_v3_copy(v, sub.v);
}

void hdi_simplex_witnesses(const hdi_simplex *s, const hdi_pair *pair, double on_a[3],
                           double on_b[3])
{
    hdi_v3_set(on_a, 0.0, 0.0, 0.0);
    hdi_v3_set(on_b, 0.0, 0.0, 0.0);
    for (int j = 0; j < s->count; ++j) {
        double pb[3];
        hdi_pair_b_vertex(pair, s->ib[j], pb);
        hdi_v3_madd(on_a, on_a, s->lambda[j], pair->a->verts + 3 * s->ia[j]);
        hdi_v3_madd(on_b, on_b, s->lambda[j], pb);
    }
}

static void add_weight(hd_combination *c, int index, double weight)
{
    for (int k = 0; k < c->count; ++k) {
        if (c->index[k] == index) {
            c->weight[k] += weight;
            return;
        }
    }
    c->index[c->count] = index;
    c->weight[c->count] = weight;
    c->count++;
}

/* max |sum l_j w_j| over the coordinates, in double: the certificate's residual to within a few
 * units of 2^-53 max |w|. */
static double weights_residual(const hdi_simplex *s, const double l[4])
{
    double r[3] = {0.0, 0.0, 0.0};
    for (int j = 0; j < s->count; ++j) {
        hdi_v3_madd(r, r, l[j], s->w[j]);
    }
    return hdi_v3_max_abs(r);
}

/* Clamps weights that rounding pushed below 0 and renormalizes them to sum 1; 0 when nothing
 * positive is left. */
static int clamp_weights(double l[4], int n)
{
    double sum = 0.0;
    for (int j = 0; j < n; ++j) {
        l[j] = hdi_max(l[j], 0.0);
        sum += l[j];
    }
    if (!(sum > 0.0)) {
        return 0;
    }
    for (int j = 0; j < n; ++j) {
        l[j] /= sum;
    }
    return 1;
}

/* The weights of a tetrahedron holding the origin, recomputed backward stably
 * (hdi_tetra_weights_robust): the signed volumes l_j = C_j / det lose every digit on a needle or
 * sliver far from the origin (the common point sum l_j a_j - sum l_j b_j = sum l_j w_j must be
 * within eps of zero), the backward-stable solution keeps sum l_j w_j at a few units of
 * 2^-53 max |w| whatever the shape. Weights that rounding pushed a hair below 0 are clamped; the
 * new weights replace the old ones only when their residual is not larger. */
void hdi_simplex_polish(hdi_simplex *s)
{
    double l[4];
    if (s->count != 4 || !hdi_tetra_weights_robust((const double(*)[3])s->w, l) ||
        !clamp_weights(l, 4)) {
        return;
    }
    if (weights_residual(s, l) <= weights_residual(s, s->lambda)) {
        for (int j = 0; j < 4; ++j) {
            s->lambda[j] = l[j];
        }
    }
}

/* Keeps merged weights in [0, 1] (rounding of the renormalization can push a sum of weights of
 * one vertex a unit above 1); a single entry gets weight exactly 1. */
static void combination_clamp(hd_combination *c)
{
    for (int k = 0; k < c->count; ++k) {
        c->weight[k] = c->count == 1 ? 1.0 : hdi_min(hdi_max(c->weight[k], 0.0), 1.0);
    }
}

void hdi_combination_from_weights(const double *lambda, const int *index, int count,
                                  hd_combination *out)
{
    double sum = 0.0;
    out->count = 0;
    for (int j = 0; j < count; ++j) {
        sum += lambda[j];
    }
    for (int j = 0; j < count; ++j) {
        add_weight(out, index[j], lambda[j] / sum);
    }
    combination_clamp(out);
}

void hdi_combinations_from_weights(const double *lambda, const int *ia, const int *ib, int count,
                                   hd_combination *on_a, hd_combination *on_b)
{
    hdi_combination_from_weights(lambda, ia, count, on_a);
    hdi_combination_from_weights(lambda, ib, count, on_b);
}

void hdi_simplex_combinations(const hdi_simplex *s, hd_combination *on_a, hd_combination *on_b)
{
    hdi_combinations_from_weights(s->lambda, s->ia, s->ib, s->count, on_a, on_b);
}

/* The weights for the containment proof of hdi_simplex_inner_depth: the solver's own (free) when
 * their residual is within the rounding, else the backward-stable ones. 0 when neither is. */
static int inner_weights(const hdi_simplex *s, double slack, double l[4], double *residual)
{
    for (int j = 0; j < 4; ++j) {
        l[j] = s->lambda[j];
    }
    if (clamp_weights(l, 4) && (*residual = weights_residual(s, l)) <= slack) {
        return 1;
    }
    if (!hdi_tetra_weights_robust((const double(*)[3])s->w, l) || !clamp_weights(l, 4)) {
        return 0;
    }
    *residual = weights_residual(s, l);
    return *residual <= slack;
}

/* The depth of the origin in the tetrahedron T, proven rather than assumed from signs:
 *   - dist(0, triangle F) >= min over F's vertices of n.x for ANY unit n (the nearest point q of F
 *     is a convex combination of them and n.q <= |q|), so b = min over the faces of that minimum
 *     bounds dist(0, boundary of T) from below whatever rounding did to the normals; with n the
 *     outward normal it is the plane distance, so accurate normals (hdi_triangle_unit_normal) make
 *     it tight even for needles and slivers whose double-precision normals are far off;
 *   - the origin is inside T: the backward-stable weights give a point p = sum l_j w_j of T
 *     (l_j >= 0, sum 1) with |p| < b, so the segment from p to the origin does not meet the
 *     boundary.
 * Then the ball of radius b about the origin lies in T. Each n.x carries a rounding of a few
 * units of 2^-53 max |w| (and so does |p|), subtracted as HD_INNER_ROUNDING units. The point p
 * must also be a certificate by itself (hdi_gjk_point names it): |p| beyond that rounding, which a
 * backward-stable solve does not produce, means the weights are not trusted and 0 is returned. */
double hdi_simplex_inner_depth(const hdi_simplex *s)
{
    if (s->count != 4) {
        return 0.0;
    }
    double big = 0.0;
    for (int j = 0; j < 4; ++j) {
        big = hdi_max(big, hdi_v3_max_abs(s->w[j]));
    }
    double slack = HD_INNER_ROUNDING * big;
    double l[4], p = 0.0;
    if (!inner_weights(s, slack, l, &p)) {
        return 0.0;
    }
    /* the face opposite vertex j: vertices j + 1, j + 2, j + 3 (mod 4), in that order */
    static const int face[4][3] = {{1, 2, 3}, {2, 3, 0}, {3, 0, 1}, {0, 1, 2}};
    double bound = DBL_MAX;
    for (int j = 0; j < 4; ++j) {
        const double *x = s->w[face[j][0]], *y = s->w[face[j][1]], *z = s->w[face[j][2]];
        double n[3], to_j[3];
        if (!hdi_triangle_normal_plain(x, y, z, n)) {
            return 0.0;
        }
        hdi_v3_sub(to_j, s->w[j], x);
        /* outward: away from vertex j. Which way the normal points depends on the order of the
         * points, a coin toss for a branch predictor, so the sign multiplies the products instead
         * (negation is exact: out (n.x) is (-n).x to the bit) */
        double out = 1.0 - 2.0 * (hdi_v3_dot(n, to_j) > 0.0);
        double nx = out * hdi_v3_dot(n, x), ny = out * hdi_v3_dot(n, y),
               nz = out * hdi_v3_dot(n, z);
        bound = hdi_min(bound, hdi_min(nx, hdi_min(ny, nz)));
    }
    /* |p| is a max-norm; sqrt(3) of it bounds the Euclidean length */
    bound -= slack;
    return bound > 1.7320508075688772 * p + slack ? bound : 0.0;
}
