/* The LP method's decision procedure (Kreuzer, "On Convex Polytopes, Collision Detection, and the
 * Simplex Method", sections "Collision Detection" and "Simplex Method"): K = conv S and L = conv T
 * meet iff A x = b, x >= 0 (problem P1) is solvable, decided by the article's phase 1 (problem P2)
 * from the slack basis, or for polytope pairs from a crash basis of two support points
 * (solve_crash); then certificates read off the final basis and checked on the input doubles.
 * Derivations: docs/algorithms/lp.md, sections 1 and 3. */
#include <math.h>
#include <string.h>

#include "lp/solve.h"
#include "lp/price.h"
#include "core/tolerances.h"

static void set_sigma(hdi_lp_problem *prob, double extent)
{
    if (!(extent > 0.0) || !isfinite(extent)) {
        prob->sigma = 1.0;
        return;
    }
    int e;
    (void)frexp(extent, &e); /* extent = f 2^e, f in [0.5, 1) */
    if (e < -1000) {
        e = -1000;
    }
    if (e > 1000) {
        e = 1000;
    }
    prob->sigma = ldexp(1.0, -e);
}

void hdi_lp_normalize_box(hdi_lp_problem *prob, const double *lo, const double *hi)
{
    double extent = 0.0;
    for (int k = 0; k < prob->dim; ++k) {
        prob->centre[k] = 0.5 * lo[k] + 0.5 * hi[k];
        extent = hdi_max(extent, 0.5 * hi[k] - 0.5 * lo[k]);
    }
    set_sigma(prob, 2.0 * extent);
}

static void box_add(const hdi_lp_set *set, int dim, double *lo, double *hi)
{
    for (int j = 0; j < set->count; ++j) {
        double p[HD_LP_MAX_DIM];
        hdi_lp_set_point(set, dim, j, p);
        for (int k = 0; k < dim; ++k) {
            lo[k] = hdi_min(lo[k], p[k]);
            hi[k] = hdi_max(hi[k], p[k]);
        }
    }
}

void hdi_lp_normalize_scan(hdi_lp_problem *prob)
{
    double lo[HD_LP_MAX_DIM], hi[HD_LP_MAX_DIM];
    for (int k = 0; k < prob->dim; ++k) {
        lo[k] = INFINITY;
        hi[k] = -INFINITY;
    }
    box_add(&prob->s, prob->dim, lo, hi);
    box_add(&prob->t, prob->dim, lo, hi);
    hdi_lp_normalize_box(prob, lo, hi);
}

int hdi_lp_default_cap(long n, int rows)
{
    long cap = 1000 + 50L * rows * rows + 4 * n;
    return cap > 1000000000L ? 1000000000 : (int)cap;
}

static double norm_n(const double *a, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; ++i) {
        s += a[i] * a[i];
    }
    return sqrt(s);
}

/* Separating-plane candidate with normal direction n: the gap of the unit normal is recomputed
 * on the points (max_S u.s, min_T u.t), so that it is a fact about the input, not about the
 * LP's arithmetic. The best (largest gap) candidate is kept. */
static void keep_plane(const hdi_lp *lp, const double *n, double gap, double max_s,
                       hdi_lp_outcome *out)
{
    if (gap == -INFINITY || (out->has_plane && !(gap > out->gap))) {
        return;
    }
    double len = norm_n(n, lp->dim);
    out->has_plane = 1;
    for (int k = 0; k < lp->dim; ++k) {
        out->normal[k] = n[k] / len;
    }
    out->gap = gap;
    out->max_s = max_s;
}

static void try_plane(hdi_lp *lp, const double *n, hdi_lp_outcome *out)
{
    double max_s = 0.0, gap = hdi_lp_gap_along(lp, n, &max_s);
    keep_plane(lp, n, gap, max_s, out);
}

/* The plane of the current duals' direction y_x. When the last pricing searched both sets in
 * full with these duals (always so at an optimum found by Dantzig's rule), its support points
 * are those of y_x and give the gap without searching again. */
static void try_dual_plane(hdi_lp *lp, hdi_lp_outcome *out)
{
    if (!lp->priced_full) {
        hdi_lp_duals(lp);
        try_plane(lp, lp->y, out);
        return;
    }
    double max_s = 0.0;
    double gap = hdi_lp_gap_at(lp, lp->y, lp->support[0], lp->support[1], &max_s);
    keep_plane(lp, lp->y, gap, max_s, out);
}

/* The convex weights of the current basic solution and the two points they give. */
static void take_point(hdi_lp *lp, hdi_lp_outcome *out)
{
    int ns = lp->set[0].count, nt = lp->set[1].count, d = lp->dim;
    double sum[2] = {0.0, 0.0};
    out->count = 0;
    for (int i = 0; i < lp->rows; ++i) {
        int id = lp->basis[i];
        if (id < ns + nt && lp->xb[i] > 0.0) {
            out->id[out->count] = id;
            out->w[out->count++] = lp->xb[i];
            sum[id < ns ? 0 : 1] += lp->xb[i];
        }
    }
    if (!(sum[0] > 0.0) || !(sum[1] > 0.0)) {
        out->has_point = 0;
        return;
    }
    for (int k = 0; k < d; ++k) {
        out->point_s[k] = out->point_t[k] = 0.0;
    }
    for (int c = 0; c < out->count; ++c) {
        int k = out->id[c] < ns ? 0 : 1;
        double p[HD_LP_MAX_DIM];
        out->w[c] /= sum[k];
        hdi_lp_point(lp, k, out->id[c] - k * ns, p);
        double *acc = k == 0 ? out->point_s : out->point_t;
        for (int i = 0; i < d; ++i) {
            acc[i] += out->w[c] * p[i];
        }
    }
    double diff[HD_LP_MAX_DIM];
    for (int k = 0; k < d; ++k) {
        diff[k] = out->point_s[k] - out->point_t[k];
    }
    out->residual = norm_n(diff, d);
    out->has_point = 1;
}

/* One simplex run with its own pivot cap. */
static hdi_lp_run_status run_capped(hdi_lp *lp, int cap)
{
    lp->cap = lp->pivots + cap;
    return hdi_lp_run(lp);
}

/* Basis bound (lp.md, "depth from the basis"): with B^-1 = [P | Q] (P: the coordinate columns),
 * moving the rhs from (0, 1, 1) to (q^, 1, 1) moves the basic solution to x_B + P q^, which stays
 * >= 0 -- so q lies in M -- while |q^| <= min_i x_i / |P_i|. Hence the ball of that radius
 * around the origin lies in M: a lower bound on the depth, in normalized units. */
static double basis_depth(const hdi_lp *lp)
{
    int d = lp->dim, m = lp->rows;
    double r = INFINITY, inv_norm = 0.0;
    for (int i = 0; i < m; ++i) {
        if (lp->basis[i] >= hdi_lp_structural_count(lp)) {
            return 0.0; /* a slack or extra column: not a basis of points */
        }
        double pn = 0.0, row = 0.0;
        for (int j = 0; j < m; ++j) {
            double v = lp->inv[j][i];
            pn += j < d ? v * v : 0.0;
            row += fabs(v);
        }
        pn = sqrt(pn);
        inv_norm = hdi_max(inv_norm, row);
        if (pn > 0.0) {
            r = hdi_min(r, hdi_max(lp->xb[i], 0.0) / pn);
        }
    }
    /* Every column has entries of magnitude <= 1, so ||B||_inf <= m; the inverse is as accurate
     * as a fresh one (hdi_lp_settle: residual ||I - B X||_inf <= cond 2^-50), its relative error
     * is below cond 2^-50: the bound is shrunk by that much. */
    double cond = inv_norm * m;
    if (!(cond <= HD_LP_COND_MAX) || r == INFINITY) {
        return 0.0;
    }
    return r * (1.0 - cond * 0x1.0p-50);
}

/* The point of M given by the basic weights (normalized to convex weights) minus rho u: how far
 * the LP's exit point rho u is from a point that is exactly in M. */
static double exit_residual(hdi_lp *lp, const double *u, double rho)
{
    hdi_lp_outcome tmp;
    tmp.has_point = 0;
    take_point(lp, &tmp);
    if (!tmp.has_point) {
        return INFINITY;
    }
    double q = 0.0;
    for (int k = 0; k < lp->dim; ++k) {
        double e = tmp.point_s[k] - tmp.point_t[k] - rho * u[k];
        q += e * e;
    }
    return sqrt(q);
}

/* max rho such that rho u lies in M (u a unit raw vector), from the phase-1 basis; the exit
 * facet's plane (the ray LP's duals: n.m^ <= rho^ on M^) is offered to try_plane. Returns 0 with
 * *rho (raw units) and *res, the distance from rho u to the point of M the LP's weights give;
 * 1 when no bound could be had; -1 when the pivot cap was reached. */
static int ray_exit(hdi_lp *lp, const int *basis, const double *u, int cap, double *rho,
                    double *res, hdi_lp_outcome *out)
{
    if (hdi_lp_setup_ray(lp, basis, u) != 0) {
        return 1;
    }
    hdi_lp_run_status st = run_capped(lp, cap);
    if (st == HD_LP_CAP) {
        return -1;
    }
    if (st != HD_LP_OPTIMAL || hdi_lp_settle(lp) != 0) {
        return 1;
    }
    *rho = -hdi_lp_objective(lp) / lp->sigma;
    *res = exit_residual(lp, u, *rho);
    hdi_lp_duals(lp);
    try_plane(lp, lp->y, out);
    return *rho >= 0.0 && isfinite(*res) ? 0 : 1;
}

/* Depth bound from a ball B(c, R) inside M (lp.md, "depth from an interior ball"): if the ray
 * from c through the origin leaves M at x = rho u (u = -c/|c|), the cone conv(B(c, R) U {x})
 * lies in M and contains the ball of radius R rho / (|c| + rho) around the origin. The LP's
 * exit point is within res of a point x' of M; the cone on x' contains a ball of that radius
 * around a point within res of the origin, hence the bound minus res. */
static int depth_from_ball(hdi_lp *lp, const hdi_lp_problem *prob, const double *centre,
                           double radius, const int *basis, double *bound, hdi_lp_outcome *out)
{
    int d = prob->dim;
    double c = norm_n(centre, d), rho = 0.0, res = 0.0;
    if (c < radius) {
        *bound = radius - c;
        return 0;
    }
    double u[HD_LP_MAX_DIM];
    for (int k = 0; k < d; ++k) {
        u[k] = -centre[k] / c;
    }
    int st = ray_exit(lp, basis, u, prob->cap, &rho, &res, out);
    if (st == 0) {
        *bound = radius * rho / (c + rho) - res;
    }
    return st < 0 ? -1 : 0;
}

/* Depth bound without a known ball (lp.md, "the cross-polytope rule"): the 2d rays +-e_k leave
 * M at radii rho_k^+-, so M contains the cross-polytope with radii r_k = min(rho_k^+, rho_k^-)
 * (up to the exit points' residuals, subtracted at the end), whose inradius is
 * 1 / sqrt(sum 1 / r_k^2) >= depth / sqrt(d). Stops early once an exit facet shows the depth is
 * at most eps. */
static int depth_from_cross(hdi_lp *lp, const hdi_lp_problem *prob, const int *basis, double *bound,
                            hdi_lp_outcome *out)
{
    int d = prob->dim;
    double inv2 = 0.0, worst = 0.0;
    for (int k = 0; k < d; ++k) {
        double rmin = INFINITY;
        for (int sg = -1; sg <= 1; sg += 2) {
            double u[HD_LP_MAX_DIM] = {0}, rho = 0.0, res = 0.0;
            u[k] = sg;
            int st = ray_exit(lp, basis, u, prob->cap, &rho, &res, out);
            if (st != 0) {
                return st < 0 ? -1 : 0;
            }
            if (out->has_plane && out->gap >= -prob->eps) {
                return 0; /* an exit facet within eps: the depth cannot exceed eps */
            }
            rmin = hdi_min(rmin, rho);
            worst = hdi_max(worst, res);
        }
        if (!(rmin > 0.0)) {
            return 0;
        }
        inv2 += 1.0 / (rmin * rmin);
    }
    *bound = 1.0 / sqrt(inv2) - worst;
    return 0;
}

static hd_status nearest_l1(hdi_lp *lp, const hdi_lp_problem *prob, hdi_lp_outcome *out);

/* f* = 0: a common point; now prove the depth (> eps: intersecting) or an exit plane within eps
 * (touching). The basic slacks of a degenerate phase-1 optimum stay in the basis (held at zero
 * by the ray LPs); the basis bound needs a basis without them. */
static hd_status meeting(hdi_lp *lp, const hdi_lp_problem *prob, hdi_lp_outcome *out)
{
    if (hdi_lp_settle(lp) != 0) {
        return nearest_l1(lp, prob, out); /* a singular final basis: no point to read */
    }
    take_point(lp, out);
    double residual = out->has_point ? out->residual : INFINITY;
    double bound = basis_depth(lp) / lp->sigma * HD_LP_BOUND_SHRINK - residual;
    if (!(bound > prob->eps) && out->has_point) {
        int basis[HD_LP_ROWS], st;
        double b2 = 0.0;
        memcpy(basis, lp->basis, sizeof basis);
        double centre[HD_LP_MAX_DIM], radius = prob->ball_radius;
        memcpy(centre, prob->ball_centre, sizeof centre);
        if (prob->ball_fill != NULL) {
            prob->ball_fill(prob->ball_ctx, centre, &radius);
        }
        if (radius > 0.0) {
            st = depth_from_ball(lp, prob, centre, radius, basis, &b2, out);
        } else {
            st = depth_from_cross(lp, prob, basis, &b2, out);
        }
        if (st < 0) {
            return HD_ERR_ITERATION_LIMIT;
        }
        bound = hdi_max(bound, b2 * HD_LP_BOUND_SHRINK - residual);
    }
    out->depth_bound = hdi_max(bound, 0.0);
    if (bound > prob->eps) {
        out->verdict = HD_INTERSECTING;
        out->decided = 1;
        return HD_OK;
    }
    out->depth_bound = 0.0;
    if (out->has_plane && out->gap > prob->eps) {
        out->verdict = HD_SEPARATED; /* an exit facet separates: f = 0 was rounding */
        out->decided = 1;
        return HD_OK;
    }
    if (out->has_point && residual <= prob->eps) {
        out->verdict = HD_TOUCHING;
        out->decided = out->has_plane && out->gap >= -prob->eps;
        return HD_OK;
    }
    /* f reached 0 but the basic weights give no common point within eps: on an ill-conditioned
     * basis (pivots on elements of the size of the gap) the rounding of x_B alone can make
     * phase 1 look feasible for sets that are apart. Decide as for f > 0. */
    return nearest_l1(lp, prob, out);
}

/* Conclusion at the l1 distance LP's optimum: its duals' plane and its near points. */
static void conclude_l1(hdi_lp *lp, const hdi_lp_problem *prob, hdi_lp_outcome *out)
{
    out->verdict = HD_TOUCHING;
    out->decided = 0;
    if (hdi_lp_settle(lp) != 0) {
        return;
    }
    hdi_lp_duals(lp);
    try_plane(lp, lp->y, out);
    take_point(lp, out);
    if (out->has_plane && out->gap > prob->eps) {
        out->verdict = HD_SEPARATED;
        out->decided = 1;
    } else {
        out->decided = out->has_point && out->residual <= prob->eps && out->has_plane &&
                       out->gap >= -prob->eps;
    }
}

/* The l1 distance LP: the plane of largest box-normalized gap, within a factor sqrt(d) of the
 * distance, and a pair of near points (lp.md, "when the gap is not above eps"). */
static hd_status nearest_l1(hdi_lp *lp, const hdi_lp_problem *prob, hdi_lp_outcome *out)
{
    out->verdict = HD_TOUCHING;
    out->decided = 0;
    hdi_lp_setup_l1(lp, 0, 0);
    hdi_lp_run_status st = run_capped(lp, prob->cap);
    if (st == HD_LP_CAP) {
        return HD_ERR_ITERATION_LIMIT;
    }
    if (st == HD_LP_OPTIMAL) {
        conclude_l1(lp, prob, out);
    }
    return HD_OK;
}

/* f* > 0: the phase-1 duals give a separating plane (lp.md, "the separating plane"); if its gap
 * is not above eps, the l1 distance LP decides. */
static hd_status apart(hdi_lp *lp, const hdi_lp_problem *prob, hdi_lp_outcome *out)
{
    try_dual_plane(lp, out);
    if (out->has_plane && out->gap > prob->eps) {
        out->verdict = HD_SEPARATED;
        out->decided = 1;
        return HD_OK;
    }
    return nearest_l1(lp, prob, out);
}

/* The separation probe stopped a run: its plane is the certificate. */
static hd_status probed(hdi_lp *lp, const hdi_lp_problem *prob, hdi_lp_outcome *out)
{
    out->f_min = hdi_max(hdi_lp_objective(lp), 0.0);
    out->early = 1;
    keep_plane(lp, lp->probe_normal, lp->probe_value, lp->probe_max_s, out);
    out->verdict = HD_SEPARATED;
    out->decided = out->has_plane && out->gap > prob->eps;
    return out->decided ? HD_OK : apart(lp, prob, out);
}

/* The source's phase 1 (problem P2 from the slack basis). */
static hd_status solve_phase1(hdi_lp *lp, const hdi_lp_problem *prob, hdi_lp_outcome *out)
{
    lp->restarts = 0; /* a fallback from the crash basis starts afresh */
    hdi_lp_setup_phase1(lp);
    lp->target = HD_LP_F_ZERO;
    lp->probe_gap = prob->early_exit ? prob->eps : -INFINITY;
    hdi_lp_run_status st = run_capped(lp, prob->cap);
    lp->probe_gap = -INFINITY;
    if (st == HD_LP_CAP || st == HD_LP_BREAKDOWN || st == HD_LP_UNBOUNDED) {
        return HD_ERR_ITERATION_LIMIT;
    }
    if (st == HD_LP_SEPARATED) {
        return probed(lp, prob, out);
    }
    out->f_min = hdi_max(hdi_lp_objective(lp), 0.0);
    lp->target = -INFINITY;
    return st == HD_LP_TARGET ? meeting(lp, prob, out) : apart(lp, prob, out);
}

/* Phase 1 from a crash basis (lp.md, "crash basis"): the l1 distance LP started from the
 * support points s_0 of S along the crash direction and t_0 of T against it, so that two of the
 * d + 2 basic columns are points from the start. At f = 0 its basic residual columns (at level
 * zero) are pivoted out, which leaves a basis of points that meeting() treats like phase 1's.
 * Returns 1 when it decided (status in *status), 0 when the caller must fall back to the
 * source's phase 1 (a breakdown, a residual column that cannot leave). */
static int solve_crash(hdi_lp *lp, const hdi_lp_problem *prob, hdi_lp_outcome *out,
                       hd_status *status)
{
    double nu[HD_LP_MAX_DIM];
    for (int k = 0; k < prob->dim; ++k) {
        nu[k] = -prob->crash_dir[k];
    }
    int js = hdi_lp_support(lp, 0, prob->crash_dir), jt = hdi_lp_support(lp, 1, nu);
    hdi_lp_setup_l1(lp, js, jt);
    lp->target = HD_LP_F_ZERO;
    lp->probe_gap = prob->early_exit ? prob->eps : -INFINITY;
    hdi_lp_run_status st = run_capped(lp, prob->cap);
    lp->probe_gap = -INFINITY;
    lp->target = -INFINITY;
    *status = HD_OK;
    if (st == HD_LP_CAP) {
        *status = HD_ERR_ITERATION_LIMIT;
        return 1;
    }
    if (st == HD_LP_SEPARATED) {
        *status = probed(lp, prob, out);
        return 1;
    }
    if (st == HD_LP_OPTIMAL) {
        out->f_min = hdi_max(hdi_lp_objective(lp), 0.0);
        conclude_l1(lp, prob, out);
        return 1;
    }
    if (st != HD_LP_TARGET || hdi_lp_drive_out_extras(lp) != 0) {
        return 0;
    }
    out->f_min = 0.0;
    lp->extra_count = 0;
    lp->extra_unit = 0;
    *status = meeting(lp, prob, out);
    return 1;
}

/* An empty outcome: the arrays are read only under has_plane / has_point, so only the scalars
 * are cleared (the arrays span a dozen cache lines). */
static void outcome_clear(hdi_lp_outcome *out)
{
    out->verdict = HD_SEPARATED;
    out->decided = 0;
    out->early = 0;
    out->f_min = 0.0;
    out->has_plane = 0;
    out->gap = 0.0;
    out->max_s = 0.0;
    out->has_point = 0;
    out->count = 0;
    out->residual = 0.0;
    out->depth_bound = 0.0;
    out->pivots = 0;
    out->support_calls = 0;
}

hd_status hdi_lp_solve(hdi_lp_problem *prob, hdi_lp_outcome *out)
{
    outcome_clear(out);
    hdi_lp lp;
    hdi_lp_init(&lp, prob->dim, &prob->s, &prob->t, prob->centre, prob->sigma, prob->cap);
    hd_status status = HD_OK;
    if (!prob->crash || !solve_crash(&lp, prob, out, &status)) {
        outcome_clear(out);
        status = solve_phase1(&lp, prob, out);
    }
    out->pivots = lp.pivots;
    out->support_calls = lp.support_calls;
    prob->s.climb = lp.set[0].climb;
    prob->t.climb = lp.set[1].climb;
    return status;
}
