/* The LP method's decision procedure (private), shared by the raw-array API (lp/lp.c) and the
 * polytope-pair query (lp/collide.c). Given two point sets S and T (the columns of problem P1 of
 * Kreuzer's "On Convex Polytopes, Collision Detection, and the Simplex Method"), it runs a phase 1
 * and turns its optimal basis into a verdict with a certificate checked on the input doubles; see
 * docs/algorithms/lp.md for the derivations. */
#ifndef HD_LP_SOLVE_H
#define HD_LP_SOLVE_H

#include "lp/kernel.h"

typedef struct hdi_lp_problem {
    int dim;
    hdi_lp_set s;                    /* points of S (K = conv S) */
    hdi_lp_set t;                    /* points of T (L = conv T) */
    double centre[HD_LP_MAX_DIM];    /* normalization: x^ = sigma (x - centre) */
    double sigma;                    /* a power of two with sigma * extent <= 1 */
    double eps;                      /* half-width of the touching band (absolute) */
    int cap;                         /* pivot cap of each simplex run */
    int early_exit;                  /* stop phase 1 once its duals separate (f_min is
                                              then not the minimum) */
    int crash;                       /* start from the crash basis along crash_dir (the
                                              l1 distance LP; f_min is then its minimum) */
    double crash_dir[HD_LP_MAX_DIM]; /* from S towards T, any length */
    /* Optional ball inside M = K - L (pairs of polytopes: difference of interior points, sum of
     * clearances). ball_radius <= 0: none; the cross-polytope rule is used instead. */
    double ball_centre[HD_LP_MAX_DIM];
    double ball_radius;
    /* Optional, instead of ball_centre / ball_radius: computes them when a depth proof first
     * needs the ball (pairs: the basis bound usually decides without it). */
    void (*ball_fill)(const void *ctx, double *centre, double *radius);
    const void *ball_ctx;
} hdi_lp_problem;

/* What the LP proved. decided = 0 means its evidence left the signed distance delta in the zone
 * it cannot resolve (|delta| <= eps * sqrt(dim) at most); verdict is then HD_TOUCHING as the
 * conservative answer and the caller may refine (pairs: hdi_contact_classify). */
typedef struct hdi_lp_outcome {
    hd_verdict verdict;
    int decided;
    int early;    /* separated before phase 1's optimum */
    double f_min; /* phase 1 minimum (normalized problem) */
    int has_plane;
    double normal[HD_LP_MAX_DIM]; /* unit, from S towards T */
    double gap;                   /* min_T n.t - max_S n.s, recomputed on the points */
    double max_s;                 /* max_S n.s */
    int has_point;
    int count;          /* weights of the point certificate */
    int id[HD_LP_ROWS]; /* column ids: < ns in S, else ns + index in T */
    double w[HD_LP_ROWS];
    double point_s[HD_LP_MAX_DIM]; /* sum w_i s_i and sum w_j t_j */
    double point_t[HD_LP_MAX_DIM];
    double residual;    /* |point_s - point_t| */
    double depth_bound; /* proven lower bound on the penetration depth */
    int pivots;
    int support_calls;
} hdi_lp_outcome;

/* Normalization from the bounding box of every point of S and T (O((ns + nt) dim)). */
void hdi_lp_normalize_scan(hdi_lp_problem *prob);

/* Normalization from a box [lo, hi]. */
void hdi_lp_normalize_box(hdi_lp_problem *prob, const double *lo, const double *hi);

/* Default pivot cap of one simplex run on n points with m rows. */
int hdi_lp_default_cap(long n, int rows);

/* Decides prob. Needs ns, nt >= 1. Errors: HD_ERR_ITERATION_LIMIT (a simplex run reached its cap
 * or broke down). Never allocates. */
hd_status hdi_lp_solve(hdi_lp_problem *prob, hdi_lp_outcome *out);

#endif
