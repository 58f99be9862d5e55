/* The dynamic AABB tree (tree.h). Insertion descends greedily by the surface-area heuristic: at
 * each internal node it compares the cost of making that node the new leaf's sibling (a new
 * parent of area SA(node + leaf)) with the cost of descending into either child (the growth of
 * the node, inherited, plus the growth of the child). On the way back up every ancestor is
 * refitted and offered a rotation: swapping a child with a grandchild on the other side when
 * that shrinks the area of the subtree below (Kopta et al., "Fast, Effective BVH Updates for
 * Animated Scenes", I3D 2012; as in Catto's GDC 2019 talk and Box2D v3). A leaf whose new box
 * stays within its few lowest ancestors is enlarged in place instead (hdi_tree_update). */
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "scene/box.h"
#include "scene/tree.h"
#include "core/tolerances.h"

#define HD_TREE_MIN_NODES 16

_Static_assert(sizeof(hdi_tree_node) == 64, "a tree node fills one cache line");

void hdi_tree_init(hdi_tree *t)
{
    t->nodes = NULL;
    t->items = NULL;
    t->capacity = 0;
    t->used = 0;
    t->free_list = -1;
    t->root = -1;
    t->leaves = 0;
}

void hdi_tree_free(hdi_tree *t)
{
    free(t->nodes);
    free(t->items);
    hdi_tree_init(t);
}

hd_status hdi_tree_reserve(hdi_tree *t, int leaves)
{
    if (leaves > (1 << 28)) {
        return HD_ERR_NO_MEMORY;
    }
    int need = 2 * leaves;
    if (need <= t->capacity) {
        return HD_OK;
    }
    /* aligned_alloc and a copy, not realloc: the nodes stay on cache-line boundaries */
    int cap = hdi_array_grown_capacity(t->capacity, need, HD_TREE_MIN_NODES, sizeof(hdi_tree_node));
    hdi_tree_node *nodes = aligned_alloc(64, (size_t)cap * sizeof *nodes);
    hdi_tree_item *items = malloc((size_t)(cap / 2) * sizeof *items);
    if (nodes == NULL || items == NULL) {
        free(nodes);
        free(items);
        return HD_ERR_NO_MEMORY;
    }
    free(t->items); /* scratch of a build: nothing to keep */
    t->items = items;
    if (t->used > 0) {
        memcpy(nodes, t->nodes, (size_t)t->used * sizeof *nodes);
    }
    free(t->nodes);
    t->nodes = nodes;
    t->capacity = cap;
    return HD_OK;
}

/* A free node: from the free list, else the next never used one (room was reserved). */
static int alloc_node(hdi_tree *t)
{
    int n = t->free_list;
    if (n >= 0) {
        t->free_list = t->nodes[n].parent;
    } else {
        n = t->used++;
    }
    hdi_tree_node *node = &t->nodes[n];
    node->parent = node->child1 = node->child2 = -1;
    node->height = 0;
    return n;
}

static void free_node(hdi_tree *t, int n)
{
    t->nodes[n].parent = t->free_list;
    t->nodes[n].height = -1;
    t->free_list = n;
}

static int max_int(int a, int b)
{
    return a > b ? a : b;
}

/* Box and height of an internal node from its children. */
static void refit(hdi_tree *t, int n)
{
    hdi_tree_node *node = &t->nodes[n];
    const hdi_tree_node *c1 = &t->nodes[node->child1], *c2 = &t->nodes[node->child2];
    hdi_box_union(node->lo, node->hi, c1->lo, c1->hi, c2->lo, c2->hi);
    node->height = 1 + max_int(c1->height, c2->height);
}

/* Refits n; 1 when its box or height changed (its ancestors then need refitting too). */
static int refit_changed(hdi_tree *t, int n)
{
    hdi_tree_node before = t->nodes[n];
    refit(t, n);
    const hdi_tree_node *after = &t->nodes[n];
    return before.height != after->height || memcmp(before.lo, after->lo, sizeof before.lo) ||
           memcmp(before.hi, after->hi, sizeof before.hi);
}

/* The cost of descending into child c to place a leaf of box [lo, hi] below it: the area the
 * new parent would have (a leaf child) or the child's growth (an internal child). */
static double descent_cost(const hdi_tree *t, int c, const double lo[3], const double hi[3])
{
    const hdi_tree_node *n = &t->nodes[c];
    double grown = hdi_box_union_area(n->lo, n->hi, lo, hi);
    return n->child1 < 0 ? grown : grown - hdi_box_area(n->lo, n->hi);
}

/* The sibling of a new leaf, by the greedy surface-area descent from node start. */
static int pick_sibling(const hdi_tree *t, int start, const double lo[3], const double hi[3])
{
    int n = start;
    while (t->nodes[n].child1 >= 0) {
        const hdi_tree_node *node = &t->nodes[n];
        double area = hdi_box_area(node->lo, node->hi);
        double combined = hdi_box_union_area(node->lo, node->hi, lo, hi);
        double here = 2.0 * combined;
        double inherited = 2.0 * (combined - area);
        double cost1 = descent_cost(t, node->child1, lo, hi) + inherited;
        double cost2 = descent_cost(t, node->child2, lo, hi) + inherited;
        if (here < cost1 && here < cost2) {
            break;
        }
        n = cost1 <= cost2 ? node->child1 : node->child2;
    }
    return n;
}

/* Replaces child old of node p (or the root when p < 0) by child new. */
static void replace_child(hdi_tree *t, int p, int old, int new_child)
{
    if (p < 0) {
        t->root = new_child;
    } else if (t->nodes[p].child1 == old) {
        t->nodes[p].child1 = new_child;
    } else {
        t->nodes[p].child2 = new_child;
    }
    t->nodes[new_child].parent = p;
}

/* Area saved by swapping child x of a node with grandchild g (a child of the node's other child
 * y, whose other child is k): y would become the parent of x and k. */
static double swap_gain(const hdi_tree *t, int x, int y, int k)
{
    const hdi_tree_node *nx = &t->nodes[x], *ny = &t->nodes[y], *nk = &t->nodes[k];
    return hdi_box_area(ny->lo, ny->hi) - hdi_box_union_area(nx->lo, nx->hi, nk->lo, nk->hi);
}

/* Swaps child x of node a with grandchild g below a's other child y. */
static void swap_down(hdi_tree *t, int a, int x, int y, int g)
{
    replace_child(t, a, x, g);
    replace_child(t, y, g, x);
    refit(t, y);
    refit(t, a);
}

/* The best rotation at internal node a, applied when it shrinks the tree; 1 when applied. */
static int rotate(hdi_tree *t, int a)
{
    int b = t->nodes[a].child1, c = t->nodes[a].child2;
    int best_x = -1, best_y = -1, best_g = -1;
    double best = 0.0;
    for (int side = 0; side < 2; ++side) {
        int x = side == 0 ? b : c, y = side == 0 ? c : b;
        if (t->nodes[y].child1 < 0) {
            continue; /* y is a leaf: no grandchild to swap with */
        }
        for (int which = 0; which < 2; ++which) {
            int g = which == 0 ? t->nodes[y].child1 : t->nodes[y].child2;
            int k = which == 0 ? t->nodes[y].child2 : t->nodes[y].child1;
            double gain = swap_gain(t, x, y, k);
            if (gain > best) {
                best = gain;
                best_x = x;
                best_y = y;
                best_g = g;
            }
        }
    }
    if (best_x >= 0) {
        swap_down(t, a, best_x, best_y, best_g);
    }
    return best_x >= 0;
}

/* Inserts a leaf below node start (the root, or a node whose box contains the leaf's). */
static int insert_below(hdi_tree *t, int start, const double lo[3], const double hi[3], int body)
{
    int leaf = alloc_node(t);
    hdi_tree_node *l = &t->nodes[leaf];
    for (int k = 0; k < 3; ++k) {
        l->lo[k] = lo[k];
        l->hi[k] = hi[k];
    }
    l->child2 = body;
    t->leaves++;
    if (t->root < 0) {
        t->root = leaf;
        return leaf;
    }
    int sibling = pick_sibling(t, start, lo, hi);
    int old_parent = t->nodes[sibling].parent;
    int parent = alloc_node(t);
    replace_child(t, old_parent, sibling, parent);
    t->nodes[parent].child1 = sibling;
    t->nodes[parent].child2 = leaf;
    t->nodes[sibling].parent = parent;
    t->nodes[leaf].parent = parent;
    /* refit and rotate upwards; above a node that neither changed nor rotated, nothing does */
    refit(t, parent);
    rotate(t, parent);
    for (int n = t->nodes[parent].parent; n >= 0; n = t->nodes[n].parent) {
        int changed = refit_changed(t, n);
        if (!(rotate(t, n) || changed)) {
            break;
        }
    }
    return leaf;
}

int hdi_tree_insert(hdi_tree *t, const double lo[3], const double hi[3], int body)
{
    return insert_below(t, t->root, lo, hi, body);
}

int hdi_tree_move(hdi_tree *t, int leaf, const double lo[3], const double hi[3])
{
    int body = t->nodes[leaf].child2, parent = t->nodes[leaf].parent;
    if (parent < 0) {
        hdi_tree_remove(t, leaf);
        return insert_below(t, t->root, lo, hi, body);
    }
    int start = t->nodes[parent].child1 == leaf ? t->nodes[parent].child2 : t->nodes[parent].child1;
    hdi_tree_remove(t, leaf); /* start, the old sibling, takes the parent's place */
    while (start != t->root && !hdi_box_inside(lo, hi, t->nodes[start].lo, t->nodes[start].hi)) {
        start = t->nodes[start].parent;
    }
    return insert_below(t, start, lo, hi, body);
}

/* Box2D v3 enlarges a leaf's ancestors up to the first that contains the new box, however high,
 * and rebuilds the enlarged part of the tree later; here the enlargement is bounded instead (a
 * body that drifts on is reinserted once it leaves its few lowest ancestors), so no rebuild is
 * needed and a box grows only where the leaf already is. */
int hdi_tree_update(hdi_tree *t, int leaf, const double lo[3], const double hi[3])
{
    int top = t->nodes[leaf].parent, levels = 0;
    while (top >= 0 && !hdi_box_inside(lo, hi, t->nodes[top].lo, t->nodes[top].hi)) {
        if (++levels > HD_TREE_ENLARGE_LEVELS) {
            return hdi_tree_move(t, leaf, lo, hi);
        }
        top = t->nodes[top].parent;
    }
    hdi_tree_node *l = &t->nodes[leaf];
    memcpy(l->lo, lo, sizeof l->lo);
    memcpy(l->hi, hi, sizeof l->hi);
    for (int n = l->parent; n != top; n = t->nodes[n].parent) {
        hdi_tree_node *node = &t->nodes[n];
        hdi_box_union(node->lo, node->hi, node->lo, node->hi, lo, hi);
    }
    return leaf;
}

void hdi_tree_remove(hdi_tree *t, int leaf)
{
    t->leaves--;
    int parent = t->nodes[leaf].parent;
    free_node(t, leaf);
    if (parent < 0) {
        t->root = -1;
        return;
    }
    const hdi_tree_node *p = &t->nodes[parent];
    int sibling = p->child1 == leaf ? p->child2 : p->child1;
    int grand = p->parent;
    replace_child(t, grand, parent, sibling);
    free_node(t, parent);
    for (int n = grand; n >= 0 && refit_changed(t, n); n = t->nodes[n].parent) {
    }
}

/* The walk's next subtree after n's: climb until n is a first child, then go to its sibling. */
static int next_subtree(const hdi_tree *t, int n)
{
    int p = t->nodes[n].parent;
    while (p >= 0 && t->nodes[p].child2 == n) {
        n = p;
        p = t->nodes[n].parent;
    }
    return p >= 0 ? t->nodes[p].child2 : -1;
}

/* What a walk keeps: a node's box against a query box, or against a segment. */
typedef struct walk_filter {
    const double *lo, *hi;       /* the box, when o is NULL */
    const double *o, *d, *t_max; /* the segment o + t d, 0 <= t <= *t_max */
} walk_filter;

static inline int keeps(const walk_filter *f, const hdi_tree_node *node)
{
    return f->o == NULL ? hdi_box_overlap(node->lo, node->hi, f->lo, f->hi)
                        : hdi_box_ray(node->lo, node->hi, f->o, f->d, *f->t_max);
}

/* The stackless walk (parent links) of both queries; inlined into each, so the box query keeps
 * its test without a call. */
static inline int walk(const hdi_tree *t, const walk_filter *f, hdi_tree_visit visit, void *ctx)
{
    int n = t->root;
    while (n >= 0) {
        const hdi_tree_node *node = &t->nodes[n];
        if (keeps(f, node)) {
            if (node->child1 >= 0) {
                /* child2 is visited next after child1's subtree: its load overlaps that walk */
                hdi_scene_prefetch(&t->nodes[node->child2]);
                n = node->child1;
                continue;
            }
            int r = visit(ctx, node->child2);
            if (r != 0) {
                return r;
            }
        }
        n = next_subtree(t, n);
    }
    return 0;
}

int hdi_tree_query(const hdi_tree *t, const double lo[3], const double hi[3], hdi_tree_visit visit,
                   void *ctx)
{
    walk_filter f = {lo, hi, NULL, NULL, NULL};
    return walk(t, &f, visit, ctx);
}

int hdi_tree_query_ray(const hdi_tree *t, const double o[3], const double d[3], const double *t_max,
                       hdi_tree_visit visit, void *ctx)
{
    walk_filter f = {NULL, NULL, o, d, t_max};
    return walk(t, &f, visit, ctx);
}

int hdi_tree_height(const hdi_tree *t)
{
    return t->root < 0 ? -1 : t->nodes[t->root].height;
}

/* Checks the subtree of n (recursively: for tests only); returns its leaf count or -1. */
static int check_node(const hdi_tree *t, int n, int parent)
{
    if (n < 0 || n >= t->used || t->nodes[n].parent != parent) {
        return -1;
    }
    const hdi_tree_node *node = &t->nodes[n];
    if (node->child1 < 0) {
        return node->height == 0 && node->child2 >= 0 ? 1 : -1;
    }
    int l1 = check_node(t, node->child1, n), l2 = check_node(t, node->child2, n);
    const hdi_tree_node *c1 = &t->nodes[node->child1], *c2 = &t->nodes[node->child2];
    if (l1 < 0 || l2 < 0 || node->height != 1 + max_int(c1->height, c2->height) ||
        !hdi_box_inside(c1->lo, c1->hi, node->lo, node->hi) ||
        !hdi_box_inside(c2->lo, c2->hi, node->lo, node->hi)) {
        return -1;
    }
    return l1 + l2;
}

int hdi_tree_check(const hdi_tree *t)
{
    if (t->root < 0) {
        return t->leaves == 0;
    }
    return check_node(t, t->root, -1) == t->leaves;
}

/* Reorders items so that items[mid] holds the element of rank mid by centre along axis k,
 * smaller ones before it and larger ones after (Hoare's selection, FIND, CACM 1961). */
static void select_median(hdi_tree_item *items, int n, int mid, int k)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        double pivot = items[lo + (hi - lo) / 2].c[k];
        int i = lo, j = hi;
        while (i <= j) {
            while (items[i].c[k] < pivot) {
                ++i;
            }
            while (items[j].c[k] > pivot) {
                --j;
            }
            if (i <= j) {
                hdi_tree_item swap = items[i];
                items[i++] = items[j];
                items[j--] = swap;
            }
        }
        if (mid <= j) {
            hi = j;
        } else if (mid >= i) {
            lo = i;
        } else {
            return;
        }
    }
}

/* A fresh node at index n of a build (its links cleared). */
static hdi_tree_node *build_node(hdi_tree *t, int n)
{
    hdi_tree_node *node = &t->nodes[n];
    node->parent = node->child1 = node->child2 = -1;
    node->height = 0;
    return node;
}

/* Reorders items[0 .. n-1] (n >= 2) about their median along the axis of the largest spread of
 * their centres (one pass for the three axes); returns the split, n / 2. */
static int split_median(hdi_tree_item *items, int n)
{
    double lo0 = items[0].c[0], lo1 = items[0].c[1], lo2 = items[0].c[2];
    double hi0 = lo0, hi1 = lo1, hi2 = lo2;
    for (int i = 1; i < n; ++i) { /* the three axes written out: one pass, no inner loop */
        const double *c = items[i].c;
        lo0 = c[0] < lo0 ? c[0] : lo0;
        hi0 = c[0] > hi0 ? c[0] : hi0;
        lo1 = c[1] < lo1 ? c[1] : lo1;
        hi1 = c[1] > hi1 ? c[1] : hi1;
        lo2 = c[2] < lo2 ? c[2] : lo2;
        hi2 = c[2] > hi2 ? c[2] : hi2;
    }
    double spread[3] = {hi0 - lo0, hi1 - lo1, hi2 - lo2};
    int axis = spread[1] > spread[0] ? 1 : 0;
    axis = spread[2] > spread[axis] ? 2 : axis;
    select_median(items, n, n / 2, axis);
    return n / 2;
}

/* Internal node at index node over the subtrees a and b. */
static void link_children(hdi_tree *t, int node, int a, int b)
{
    build_node(t, node);
    t->nodes[node].child1 = a;
    t->nodes[node].child2 = b;
    t->nodes[a].parent = node;
    t->nodes[b].parent = node;
    refit(t, node);
}

/* Where a build puts its leaves: the items, in order, become bodies[k] with leaf leaves[k]. */
typedef struct build_out {
    const hdi_box *boxes;
    int *bodies;
    int *leaves;
} build_out;

/* The subtree over items[0 .. n-1] (n >= 1), item 0 being leaf `first` of the build: halves at
 * the median of the centres along the axis of their largest spread. Depth ceil(log2 n) + 1. Its
 * nodes are numbered in post-order from base (the left subtree of m leaves takes base .. base +
 * 2m - 2, the root base + 2n - 2), so that subtrees built on different threads never share a
 * node and the tree is the same for any number of threads. */
static int build_at(hdi_tree *t, hdi_tree_item *items, int first, int n, const build_out *out,
                    int base)
{
    if (n == 1) {
        int body = items[0].body;
        hdi_tree_node *l = build_node(t, base);
        memcpy(l->lo, out->boxes[body].lo, sizeof l->lo);
        memcpy(l->hi, out->boxes[body].hi, sizeof l->hi);
        l->child2 = body;
        out->bodies[first] = body;
        out->leaves[first] = base;
        return base;
    }
    int mid = split_median(items, n);
    int a = build_at(t, items, first, mid, out, base);
    int b = build_at(t, items + mid, first + mid, n - mid, out, base + 2 * mid - 1);
    link_children(t, base + 2 * n - 2, a, b);
    return base + 2 * n - 2;
}

/* The top `levels` levels split, their subtrees listed as jobs in order. */
static void split_at(hdi_tree_item *items, int first, int n, int base, int levels,
                     hdi_tree_jobs *jobs)
{
    if (levels == 0 || n < 2) {
        jobs->job[jobs->count++] = (hdi_tree_job){first, n, base, -1};
        return;
    }
    int mid = split_median(items + first, n);
    split_at(items, first, mid, base, levels - 1, jobs);
    split_at(items, first + mid, n - mid, base + 2 * mid - 1, levels - 1, jobs);
}

void hdi_tree_build_split(hdi_tree *t, int *bodies, int count, const hdi_box *boxes,
                          hdi_tree_jobs *jobs)
{
    t->used = count > 0 ? 2 * count - 1 : 0;
    t->free_list = -1;
    t->root = -1;
    t->leaves = count;
    jobs->count = 0;
    for (int i = 0; i < count; ++i) {
        const hdi_box *b = &boxes[bodies[i]];
        hdi_tree_item *item = &t->items[i];
        for (int k = 0; k < 3; ++k) {
            item->c[k] = b->lo[k] + b->hi[k];
        }
        item->body = bodies[i];
        item->unused = 0;
    }
    if (count > 0) {
        split_at(t->items, 0, count, 0, HD_TREE_BUILD_LEVELS, jobs);
    }
}

void hdi_tree_build_job(hdi_tree *t, int *bodies, const hdi_box *boxes, hdi_tree_job *job,
                        int *leaves)
{
    build_out out = {boxes, bodies, leaves};
    job->root = build_at(t, t->items + job->first, job->first, job->count, &out, job->base);
}

/* The top levels over the jobs' subtrees, in the order split_at listed them. */
static int join_at(hdi_tree *t, int n, int base, int levels, const hdi_tree_jobs *jobs, int *next)
{
    if (levels == 0 || n < 2) {
        return jobs->job[(*next)++].root;
    }
    int mid = n / 2;
    int a = join_at(t, mid, base, levels - 1, jobs, next);
    int b = join_at(t, n - mid, base + 2 * mid - 1, levels - 1, jobs, next);
    link_children(t, base + 2 * n - 2, a, b);
    return base + 2 * n - 2;
}

void hdi_tree_build_join(hdi_tree *t, const hdi_tree_jobs *jobs)
{
    int next = 0;
    if (t->leaves > 0) {
        t->root = join_at(t, t->leaves, 0, HD_TREE_BUILD_LEVELS, jobs, &next);
        t->nodes[t->root].parent = -1;
    }
}

void hdi_tree_build(hdi_tree *t, int *bodies, int count, const hdi_box *boxes, int *leaves)
{
    hdi_tree_jobs jobs;
    hdi_tree_build_split(t, bodies, count, boxes, &jobs);
    for (int j = 0; j < jobs.count; ++j) {
        hdi_tree_build_job(t, bodies, boxes, &jobs.job[j], leaves);
    }
    hdi_tree_build_join(t, &jobs);
}

/* Every pair of leaves, one below a and one below b, whose boxes overlap. */
static int cross_pairs(const hdi_tree *t, int a, int b, hdi_tree_visit_pair visit, void *ctx)
{
    const hdi_tree_node *na = &t->nodes[a], *nb = &t->nodes[b];
    if (!hdi_box_overlap(na->lo, na->hi, nb->lo, nb->hi)) {
        return 0;
    }
    if (na->child1 < 0 && nb->child1 < 0) {
        return visit(ctx, na->child2, nb->child2);
    }
    if (na->child1 < 0 ||
        (nb->child1 >= 0 && hdi_box_area(nb->lo, nb->hi) > hdi_box_area(na->lo, na->hi))) {
        int r = cross_pairs(t, a, nb->child1, visit, ctx);
        return r != 0 ? r : cross_pairs(t, a, nb->child2, visit, ctx);
    }
    int r = cross_pairs(t, na->child1, b, visit, ctx);
    return r != 0 ? r : cross_pairs(t, na->child2, b, visit, ctx);
}

static int self_pairs(const hdi_tree *t, int n, hdi_tree_visit_pair visit, void *ctx)
{
    const hdi_tree_node *node = &t->nodes[n];
    if (node->child1 < 0) {
        return 0;
    }
    int r = self_pairs(t, node->child1, visit, ctx);
    r = r != 0 ? r : self_pairs(t, node->child2, visit, ctx);
    return r != 0 ? r : cross_pairs(t, node->child1, node->child2, visit, ctx);
}

int hdi_tree_pairs(const hdi_tree *t, hdi_tree_visit_pair visit, void *ctx)
{
    return t->root < 0 ? 0 : self_pairs(t, t->root, visit, ctx);
}

int hdi_tree_pair_task_count(const hdi_tree_jobs *jobs)
{
    return jobs->count * (jobs->count + 1) / 2;
}

int hdi_tree_pair_task(const hdi_tree *t, const hdi_tree_jobs *jobs, int task,
                       hdi_tree_visit_pair visit, void *ctx)
{
    int i = 0, n = jobs->count;
    while (task >= n - i) { /* row i holds the tasks (i, i), (i, i + 1), ..., (i, n - 1) */
        task -= n - i;
        ++i;
    }
    int a = jobs->job[i].root, b = jobs->job[i + task].root;
    return task == 0 ? self_pairs(t, a, visit, ctx) : cross_pairs(t, a, b, visit, ctx);
}
