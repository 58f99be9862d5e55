/* A dynamic AABB tree (bounding volume hierarchy) over the bodies of a scene: one leaf per body
 * holding its fattened box, internal nodes holding the union of their children. Insertion picks
 * the sibling by the surface-area heuristic and tree rotations keep the hierarchy tight as leaves
 * come and go (Catto, "Dynamic Bounding Volume Hierarchies", GDC 2019; Box2D v3's dynamic tree).
 * docs/algorithms/scene.md gives the costs. */
#ifndef HD_SCENE_TREE_H
#define HD_SCENE_TREE_H

#include "hedra/core.h"
#include "scene/box.h"

/* One node per cache line (64 bytes; the array is 64-byte aligned). */
typedef struct hdi_tree_node {
    double lo[3];
    double hi[3];
    int parent; /* -1 at the root; in the free list, the next free node */
    int child1; /* -1 for a leaf */
    int child2; /* a leaf's body id */
    int height; /* 0 for a leaf */
} hdi_tree_node;

/* A leaf of a build: its box's centre (doubled) and its body, moved together by the median
 * splits so that they read and write one contiguous array, not the boxes at random. */
typedef struct hdi_tree_item {
    double c[3];
    int body;
    int unused;
} hdi_tree_item;

typedef struct hdi_tree {
    hdi_tree_node *nodes;
    hdi_tree_item *items; /* the builds' leaves, capacity / 2 */
    int capacity;
    int used;      /* high-water mark of node indices */
    int free_list; /* -1 when empty */
    int root;      /* -1 when empty */
    int leaves;
} hdi_tree;

void hdi_tree_init(hdi_tree *t);
void hdi_tree_free(hdi_tree *t);

/* Room for leaves leaves (2 leaves - 1 nodes, and as many build items), so that the next
 * insertions and builds cannot fail.
 * HD_ERR_NO_MEMORY leaves the tree as it was. */
hd_status hdi_tree_reserve(hdi_tree *t, int leaves);

/* Inserts a leaf for body with box [lo, hi]; returns its node. The caller has reserved room. */
int hdi_tree_insert(hdi_tree *t, const double lo[3], const double hi[3], int body);

/* Gives a leaf a new box: it is removed, then inserted by the same descent below the lowest
 * ancestor of its old place whose box contains the new one (the root when none does). With
 * coherent motion that ancestor is a few levels up: a local reinsertion instead of a global one.
 * Returns the leaf's new node. The caller has reserved room. */
int hdi_tree_move(hdi_tree *t, int leaf, const double lo[3], const double hi[3]);

/* Gives a leaf a new box in place when one of its few lowest ancestors contains it: the
 * ancestors below that one are enlarged to cover it (no node moves; Box2D v3's proxy
 * enlargement), else as hdi_tree_move. Returns the leaf's node. */
int hdi_tree_update(hdi_tree *t, int leaf, const double lo[3], const double hi[3]);

/* Removes a leaf. */
void hdi_tree_remove(hdi_tree *t, int leaf);

/* Calls visit(ctx, body) for each leaf whose box overlaps [lo, hi] (closed boxes), without a
 * stack (parent links). Stops at, and returns, the first non-zero value visit returns; else 0. */
typedef int (*hdi_tree_visit)(void *ctx, int body);
int hdi_tree_query(const hdi_tree *t, const double lo[3], const double hi[3], hdi_tree_visit visit,
                   void *ctx);

/* Builds the tree anew over count leaves, body bodies[k] with box boxes[bodies[k]], top down:
 * each node halves its leaves at the median of their centres along the axis of their largest
 * spread, so the height is ceil(log2 count). Much faster than count insertions, for the first
 * frame and large batches of new bodies. bodies is reordered; leaves[k] receives the leaf of
 * bodies[k] (after the reordering). The caller has reserved room for count leaves. */
void hdi_tree_build(hdi_tree *t, int *bodies, int count, const hdi_box *boxes, int *leaves);

/* The same build on several threads. hdi_tree_build_split splits the top HD_TREE_BUILD_LEVELS
 * levels (serially) and lists their subtrees as jobs, in order; hdi_tree_build_job builds one
 * job's subtree (jobs may run at once on different threads: their nodes are disjoint);
 * hdi_tree_build_join links the top levels over them. The tree is exactly hdi_tree_build's. */
#define HD_TREE_BUILD_LEVELS 3
#define HD_TREE_BUILD_JOBS (1 << HD_TREE_BUILD_LEVELS)
typedef struct hdi_tree_job {
    int first; /* its leaves are bodies[first .. first + count - 1] */
    int count;
    int base; /* its first node */
    int root; /* its subtree's root, set by hdi_tree_build_job */
} hdi_tree_job;
typedef struct hdi_tree_jobs {
    int count;
    hdi_tree_job job[HD_TREE_BUILD_JOBS];
} hdi_tree_jobs;
void hdi_tree_build_split(hdi_tree *t, int *bodies, int count, const hdi_box *boxes,
                          hdi_tree_jobs *jobs);
void hdi_tree_build_job(hdi_tree *t, int *bodies, const hdi_box *boxes, hdi_tree_job *job,
                        int *leaves);
void hdi_tree_build_join(hdi_tree *t, const hdi_tree_jobs *jobs);

/* Calls visit(ctx, a, b) once for every pair of leaves (bodies a, b) whose boxes overlap, by a
 * simultaneous descent of the tree against itself; stops at, and returns, the first non-zero
 * value visit returns. Recursive to twice the tree's height: for a tree just built by
 * hdi_tree_build. */
typedef int (*hdi_tree_visit_pair)(void *ctx, int a, int b);
int hdi_tree_pairs(const hdi_tree *t, hdi_tree_visit_pair visit, void *ctx);

/* The same pairs cut into tasks over a built tree's jobs (hdi_tree_build_split): task k of
 * hdi_tree_pair_task_count is the pairs within one job's subtree or between two jobs'
 * subtrees, so the tasks may run at once on different threads, and together visit every pair
 * once. */
int hdi_tree_pair_task_count(const hdi_tree_jobs *jobs);
int hdi_tree_pair_task(const hdi_tree *t, const hdi_tree_jobs *jobs, int task,
                       hdi_tree_visit_pair visit, void *ctx);

/* Height of the root (0 for a single leaf, -1 when empty). */
/* The same for the leaves whose box the segment o + t d, 0 <= t <= *t_max, meets; visit may lower
 * *t_max (a nearest-hit query), which prunes the rest of the walk. */
int hdi_tree_query_ray(const hdi_tree *t, const double o[3], const double d[3], const double *t_max,
                       hdi_tree_visit visit, void *ctx);

int hdi_tree_height(const hdi_tree *t);

/* Full structural check, for the tests: links, heights, every box containing its children's,
 * leaf count. 1 when valid. */
int hdi_tree_check(const hdi_tree *t);

#endif
