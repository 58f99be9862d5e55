/* The data of one LP of the LP method (private): the point sets, the basis and its inverse, the
 * special columns; constants and inline accessors shared by the kernel, the columns and the
 * pricing. The problem itself is described in lp/kernel.h and docs/algorithms/lp.md. */
#ifndef HD_LP_PROBLEM_H
#define HD_LP_PROBLEM_H

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
 * improves, then scan again. Sets of at most HD_LP_PARTIAL_MIN points (core/tolerances.h) are
 * always scanned in full. */
#define HD_LP_TOPK 2

/* One vertex set of the LP: count points of dim doubles each; in 3D optionally mapped by
 * x -> rot x + shift (B's vertices in A's frame). poly, when not NULL, is the polytope the points
 * belong to: Dantzig pricing then uses its hill-climbing support mapping instead of a scan. */
typedef struct hdi_lp_set {
    const double *pts;
    int count;
    const double *rot;   /* 3x3 row-major, or NULL for the identity (rot needs dim == 3) */
    const double *shift; /* 3 doubles when rot is set */
    const hd_polytope *poly;
    int climb; /* last support vertex: the next climb starts there */
} hdi_lp_set;

/* Outcome of one run of the simplex loop. */
typedef enum hdi_lp_run_status {
    HD_LP_OPTIMAL = 0, /* no entering column: the basis is optimal */
    HD_LP_TARGET,      /* the objective reached lp->target (phase 1: f = 0) */
    HD_LP_UNBOUNDED,   /* an improving column with no blocking row */
    HD_LP_CAP,         /* the pivot cap was reached */
    HD_LP_BREAKDOWN,   /* the basis became numerically singular twice */
    HD_LP_SEPARATED    /* the separation probe found a plane with gap > probe_gap */
} hdi_lp_run_status;

typedef struct hdi_lp {
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
    hdi_lp_set set[2]; /* 0: S (convexity row dim), 1: T (row dim + 1, negated) */
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
} hdi_lp;

/* Column ids: [0, ns) points of S, [ns, ns + nt) points of T, then the rows slack columns, then
 * the extra columns. */
static inline int hdi_lp_slack_id(const hdi_lp *lp, int row)
{
    return lp->set[0].count + lp->set[1].count + row;
}

static inline int hdi_lp_extra_id(const hdi_lp *lp, int e)
{
    return lp->set[0].count + lp->set[1].count + lp->rows + e;
}

/* Point j of a set in the common (unnormalized) frame: rot * pts[j] + shift. */
static inline void hdi_lp_set_point(const hdi_lp_set *set, int dim, int j, double *out)
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

static inline double hdi_lp_dot(const double *a, const double *b, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; ++i) {
        s += a[i] * b[i];
    }
    return s;
}

static inline int hdi_lp_structural_count(const hdi_lp *lp)
{
    return lp->set[0].count + lp->set[1].count;
}

/* Point j of set k of lp (as above). */
static inline void hdi_lp_point(const hdi_lp *lp, int k, int j, double *out)
{
    hdi_lp_set_point(&lp->set[k], lp->dim, j, out);
}

#endif
