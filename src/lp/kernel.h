/* The revised simplex kernel of the LP method (private).
 *
 * Every linear program of the LP method has the same d + 2 rows: d coordinate rows and the two
 * convexity rows of "On Convex Polytopes, Collision Detection, and the Simplex Method" (problem
 * P1):
 *     sum_i lambda_i s^_i - sum_j mu_j t^_j (+ special columns) = rhs[0..d-1]
 *     sum_i lambda_i                                          = rhs[d]
 *                              sum_j mu_j                     = rhs[d+1]
 * where s^ = sigma (s - centre) and t^ = sigma (t - centre) are the normalized points (sigma a
 * power of two, so the scaling is exact; see lp.md). The columns are never stored: a structural
 * column is generated from its point when needed (pricing folds the normalization into the dual
 * vector, the basis update builds the column explicitly). Besides the structural columns there
 * are d + 2 slack columns e_i (the source's slack variables) and at most HD_LP_MAX_EXTRA extra
 * columns: the l1 residual columns +-e_k (implicit, extra_unit) or one explicit ray column.
 *
 * The kernel keeps the explicit inverse of the (d+2) x (d+2) basis, updated by one elementary
 * row operation per pivot and recomputed from the basic columns (with a step of iterative
 * refinement of x_B) every 32 pivots, after small pivots and when a basic variable turns
 * negative. Pricing is Dantzig's rule (most negative reduced cost) with Bland's rule as the
 * anti-cycling fallback during runs of degenerate pivots. Nothing here allocates: an hd_lp lives
 * on the stack (8.7 KB, sized for d = 16; the fields a 3D phase 1 touches come first and fill
 * about 2 KB).
 */
#ifndef HD_LP_KERNEL_H
#define HD_LP_KERNEL_H

#include <stddef.h>

#include "hedra/lp.h"
#include "core/math.h"
#include "polytope/internal.h"

/* Always-inlined kernels, instantiated for the 3D row count and for the general one. */
#if defined(__GNUC__)
#define HD_LP_INLINE static inline __attribute__((always_inline))
#else
#define HD_LP_INLINE static inline
#endif

#define HD_LP_ROWS (HD_LP_MAX_DIM + 2)
#define HD_LP_MAX_EXTRA (2 * HD_LP_MAX_DIM)

/* Partial pricing: a full scan keeps the HD_LP_TOPK best points of each scanned set as
 * candidates; the following pivots price only those (and the special columns) until none
 * improves, then scan again. Sets of at most HD_LP_PARTIAL_MIN points are always scanned in
 * full. */
#define HD_LP_TOPK 2
#define HD_LP_PARTIAL_MIN 48

/* One vertex set of the LP: count points of dim doubles each; in 3D optionally mapped by
 * x -> rot x + shift (B's vertices in A's frame). poly, when not NULL, is the polytope the points
 * belong to: Dantzig pricing then uses its hill-climbing support mapping instead of a scan. */
typedef struct hd_lp_set {
    const double *pts;
    int count;
    const double *rot;   /* 3x3 row-major, or NULL for the identity (rot needs dim == 3) */
    const double *shift; /* 3 doubles when rot is set */
    const hd_polytope *poly;
    int climb; /* last support vertex: the next climb starts there */
} hd_lp_set;

/* Outcome of one run of the simplex loop. */
typedef enum hd_lp_run_status {
    HD_LP_OPTIMAL = 0, /* no entering column: the basis is optimal */
    HD_LP_TARGET,      /* the objective reached lp->target (phase 1: f = 0) */
    HD_LP_UNBOUNDED,   /* an improving column with no blocking row */
    HD_LP_CAP,         /* the pivot cap was reached */
    HD_LP_BREAKDOWN,   /* the basis became numerically singular twice */
    HD_LP_SEPARATED    /* the separation probe found a plane with gap > probe_gap */
} hd_lp_run_status;

typedef struct hd_lp {
    /* Scalars and the m-vectors every pivot reads (m = rows). */
    int dim;
    int rows;
    int slack_enter; /* 0: slacks may not enter and basic ones are held at 0 */
    int extra_count;
    int extra_unit; /* the extra columns are +-e_k (l1 residuals), implicit */
    int pivots;     /* pivots of this LP (all runs) */
    int cap;        /* pivot cap over all runs */
    int since_refactor;
    int degenerate_run;
    int bland; /* Bland's rule is active */
    int restarts;
    int support_calls;
    int duals_valid; /* y is up to date (kept so by pivots between refactors) */
    int cand_count;
    int priced_full; /* the last pricing searched both whole sets with the
                                        current duals: support[] holds their support points */
    int support[2];  /* argmax_S y_x . s and argmin_T y_x . t (set indices) */
    int probe_hint;  /* with priced_full: the support points' gap along y_x
                                        looked positive */
    double sigma;
    double slack_cost;     /* cost of every slack column */
    double target;         /* stop as soon as the objective is <= target */
    double probe_gap;      /* > -inf: stop once the duals' direction separates the
                                        points by more than this */
    int basis[HD_LP_ROWS]; /* column id of the basic variable of each row */
    double cb[HD_LP_ROWS]; /* cost of each basic variable */
    double xb[HD_LP_ROWS];
    double y[HD_LP_ROWS]; /* duals c_B^T B^-1, valid when duals_valid */
    double rhs[HD_LP_ROWS];
    _Alignas(16) double inv[HD_LP_ROWS][HD_LP_ROWS]; /* B^-1 by columns: inv[j][i] = (B^-1)_ij */
    hd_lp_set set[2]; /* 0: S (convexity row dim), 1: T (row dim + 1, negated) */
    double centre[HD_LP_MAX_DIM];
    int cand[2 * HD_LP_TOPK]; /* partial pricing: candidate column ids */
    int start[HD_LP_ROWS];    /* the starting basis (restored after a breakdown) */
    unsigned char special_basic[HD_LP_ROWS + HD_LP_MAX_EXTRA]; /* slack / extra column is basic */
    /* What the separation probe found (HD_LP_SEPARATED). */
    double probe_normal[HD_LP_MAX_DIM]; /* unit normal */
    double probe_value;                 /* its gap, min_T n.t - max_S n.s on the points */
    double probe_max_s;                 /* max_S n.s */
    /* Explicit extra columns (l1 residuals, ray). */
    double extra_cost[HD_LP_MAX_EXTRA];
    double extra[HD_LP_MAX_EXTRA][HD_LP_ROWS];
} hd_lp;

/* Column ids: [0, ns) points of S, [ns, ns + nt) points of T, then the rows slack columns, then
 * the extra columns. */
static inline int hd_lp_slack_id(const hd_lp *lp, int row)
{
    return lp->set[0].count + lp->set[1].count + row;
}

static inline int hd_lp_extra_id(const hd_lp *lp, int e)
{
    return lp->set[0].count + lp->set[1].count + lp->rows + e;
}

/* Prepares lp for dim-dimensional points: sets, normalization (centre, sigma), pivot cap.
 * Costs, rhs and the starting basis are chosen by one of the hd_lp_setup_* calls below. */
void hd_lp_init(hd_lp *lp, int dim, const hd_lp_set *s, const hd_lp_set *t, const double *centre,
                double sigma, int cap);

/* Point j of a set in the common (unnormalized) frame: rot * pts[j] + shift. */
static inline void hd_lp_set_point(const hd_lp_set *set, int dim, int j, double *out)
{
    const double *p = set->pts + (long)dim * j;
    if (set->rot != NULL) {
        const double *r = set->rot;
        for (int i = 0; i < 3; ++i) {
            out[i] = r[3 * i] * p[0] + r[3 * i + 1] * p[1] + r[3 * i + 2] * p[2] + set->shift[i];
        }
        return;
    }
    for (int i = 0; i < dim; ++i) {
        out[i] = p[i];
    }
}

static inline double hd_lp_dot(const double *a, const double *b, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; ++i) {
        s += a[i] * b[i];
    }
    return s;
}

static inline int hd_lp_structural_count(const hd_lp *lp)
{
    return lp->set[0].count + lp->set[1].count;
}

/* Point j of set k of lp (as above). */
static inline void hd_lp_point(const hd_lp *lp, int k, int j, double *out)
{
    hd_lp_set_point(&lp->set[k], lp->dim, j, out);
}

/* Index of a point of set k maximising u . p, u in the common frame (hill climbing when the set
 * has a polytope, else a scan). */
int hd_lp_support(hd_lp *lp, int k, const double *u);

/* The explicit column of id (rows entries). */
void hd_lp_column(const hd_lp *lp, int id, double *col);

/* The source's problem P2 (phase 1): rhs (0, .., 0, 1, 1), cost 1 on every slack, slack basis. */
void hd_lp_setup_phase1(hd_lp *lp);

/* min |sum lambda s^ - sum mu t^|_1 under the convexity rows: extra columns +-e_k of cost 1,
 * starting basis {s_js, t_jt, the sign-matching e_k} (with js = jt = 0, or a crash basis), whose
 * inverse is written down exactly. Needs ns, nt >= 1. */
void hd_lp_setup_l1(hd_lp *lp, int js, int jt);

/* From basis (a feasible basis of the rhs (0, .., 0, 1, 1) with objective 0, e.g. phase 1's
 * optimum) asks for max rho^ such that rho^ u lies in the normalized conv(S^) - conv(T^) (u a
 * unit vector): one extra column (-u, 0, 0) of cost -1; slacks are held at zero. The raw radius
 * is rho^ / sigma (the centre cancels because both convexity sums are 1). Returns
 * hd_lp_refactor's result. */
int hd_lp_setup_ray(hd_lp *lp, const int *basis, const double *u);

/* Inverts the basis from its columns and recomputes xb. Returns 0, or -1 when it is singular. */
int hd_lp_refactor(hd_lp *lp);

/* After a run: keeps the updated inverse when it is as accurate as a fresh one (measured
 * residual), else re-inverts; x_B is refined either way. Returns 0, or -1 when the basis is
 * singular. */
int hd_lp_settle(hd_lp *lp);

/* Pivots every basic extra column out of the basis (degenerate pivots; x_B unchanged to
 * rounding). Returns 0, or -1 when a row has no structural column to pivot on. The inverse is
 * the product-form update: settle or refactor afterwards. */
int hd_lp_drive_out_extras(hd_lp *lp);

/* Runs the simplex loop from the current basis. */
hd_lp_run_status hd_lp_run(hd_lp *lp);

/* y = c_B^T B^-1 for the current basis. */
void hd_lp_duals(hd_lp *lp);

/* The gap of direction n (any length; the common frame): min_T u.t - max_S u.s with u = n / |n|,
 * evaluated on the points the support mappings pick. -inf for a zero or non-finite n. */
double hd_lp_gap_along(hd_lp *lp, const double *n, double *max_s);

/* The same gap evaluated on given support points: js of S (maximising n . s) and jt of T
 * (minimising n . t), e.g. the ones the last full pricing found for n = y_x. */
double hd_lp_gap_at(const hd_lp *lp, const double *n, int js, int jt, double *max_s);

/* c_B^T x_B. */
double hd_lp_objective(const hd_lp *lp);

/* Cost of column id. */
double hd_lp_cost(const hd_lp *lp, int id);

#endif
