/* The compound's internals: pieces, the tree of boxes over them, and the simultaneous descent of
 * two trees that every compound query runs (docs/algorithms/compound.md). */
#ifndef HD_COMPOUND_INTERNAL_H
#define HD_COMPOUND_INTERNAL_H

#include "hedra/compound.h"

/* A node of the tree: the box of its pieces in the body's frame; a leaf holds one piece
 * (piece >= 0), an inner node two children (left, right). */
typedef struct hdi_cnode {
    double lo[3];
    double hi[3];
    int left;
    int right;
    int piece;
} hdi_cnode;

typedef struct hdi_cpiece {
    const hd_polytope *poly;
    hd_pose pose; /* in the body's frame */
} hdi_cpiece;

struct hd_compound {
    int count;
    int owns; /* hd_compound_destroy frees the pieces' polytopes */
    hdi_cpiece *pieces;
    hdi_cnode *nodes; /* 2 count - 1, the root first */
    int depth;        /* levels of the tree, at most HDI_COMPOUND_DEPTH_MAX */
};

/* Levels of a tree of HD_COMPOUND_MAX_PIECES pieces split at the median: 17, and one spare. */
#define HDI_COMPOUND_DEPTH_MAX 18

/* Entries of a descent's stack: each step pops one node pair and pushes at most two, so the
 * stack never holds more than the two trees' depths together, plus one. */
#define HDI_COMPOUND_STACK (2 * HDI_COMPOUND_DEPTH_MAX + 2)

/* Builds the tree of c's pieces (c->pieces set, c->nodes allocated with 2 count - 1 nodes). */
void hdi_compound_tree_build(hd_compound *c, int *order);

/* B's frame relative to A's and the pad every box test adds (rounding and the widest band). */
typedef struct hdi_cframe {
    hd_pose pa; /* body poses (identity for NULL) */
    hd_pose pb;
    double r[9]; /* B's body frame in A's: x_A = r x_B + t */
    double t[3];
    double pad;
} hdi_cframe;

/* What a descent asks of its visitor for one pair of pieces: the lower bound below which a node
 * pair is worth visiting (HUGE_VAL: every pair), updated by the visitor as it finds better, and
 * whether to stop. visit returns a status; anything but HD_OK stops the descent with it. */
typedef struct hdi_cvisit {
    double bound;
    int stop;
    hd_status (*visit)(struct hdi_cvisit *v, int piece_a, int piece_b);
    void *ctx;
} hdi_cvisit;

hd_status hdi_compound_frame(const hd_compound *a, const hd_pose *pose_a, const hd_compound *b,
                             const hd_pose *pose_b, const hd_tolerance *tol, hdi_cframe *out);

/* Visits, in a fixed order (nearer box pairs first), every pair of pieces whose boxes' signed
 * distance (their distance when apart, minus their overlap depth when they overlap) is at most
 * v->bound + frame->pad; counts into stats. */
hd_status hdi_compound_descend(const hd_compound *a, const hd_compound *b, const hdi_cframe *f,
                               hdi_cvisit *v, hd_compound_stats *stats);

/* The options of the piece queries: the caller's (or the defaults) without the cache, which
 * belongs to one pair of polytopes. HD_ERR_INVALID_ARG for a bad tolerance or algorithm. */
hd_status hdi_compound_options(const hd_options *opt, hd_options *out);

/* Compounds a and b posed for a query: the frame (body poses checked with the caller's
 * tolerance) and the piece queries' options, whose pose tolerance admits the composed poses'
 * error. */
typedef struct hdi_cquery {
    const hd_compound *a;
    const hd_compound *b;
    hdi_cframe frame;
    hd_options opt;
} hdi_cquery;

hd_status hdi_compound_query_init(hdi_cquery *q, const hd_compound *a, const hd_pose *pose_a,
                                  const hd_compound *b, const hd_pose *pose_b,
                                  const hd_options *opt);

/* The world pose of piece i of c under the body pose body. */
void hdi_compound_world_pose(const hd_compound *c, const hd_pose *body, int i, hd_pose *out);

#endif
