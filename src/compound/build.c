/* Construction of a compound: the pieces at their poses in the body's frame, and the tree of
 * boxes over them, split at the median of the pieces' centres along the longest axis, so that its
 * depth is ceil(log2 n) + 1 (docs/algorithms/compound.md, section 2). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compound/internal.h"
#include "core/math.h"

/* The box of a polytope at a pose: every hull vertex moved. */
static void piece_box(const hdi_cpiece *p, double lo[3], double hi[3])
{
    const double *v = hd_polytope_vertices(p->poly);
    int n = hd_polytope_vertex_count(p->poly);
    for (int k = 0; k < 3; ++k) {
        lo[k] = HUGE_VAL;
        hi[k] = -HUGE_VAL;
    }
    for (int i = 0; i < n; ++i) {
        double x[3];
        hd_pose_apply(&p->pose, v + 3 * i, x);
        for (int k = 0; k < 3; ++k) {
            lo[k] = fmin(lo[k], x[k]);
            hi[k] = fmax(hi[k], x[k]);
        }
    }
    double r = hd_polytope_radius(p->poly); /* a rounded piece: its core's box grown by r */
    for (int k = 0; k < 3; ++k) {
        lo[k] -= r;
        hi[k] += r;
    }
}

/* The tree's builder: the pieces' boxes and centres, and the next free node. */
typedef struct hdi_tree_build {
    hd_compound *c;
    double (*box)[6];
    int *order;
    int next;
} hdi_tree_build;

static double centre(const hdi_tree_build *t, int piece, int axis)
{
    return t->box[piece][axis] + t->box[piece][3 + axis];
}

/* Whether piece p comes before piece q along axis (ties by index, so the tree is the same on
 * every run). */
static int before(const hdi_tree_build *t, int p, int q, int axis)
{
    double cp = centre(t, p, axis), cq = centre(t, q, axis);
    return cp < cq || (cp == cq && p < q);
}

/* Reorders order[0 .. n - 1] so that the k-th smallest is at k, the smaller before it
 * (Hoare's selection). */
static void select_kth(const hdi_tree_build *t, int *order, int n, int k, int axis)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        int pivot = order[(lo + hi) / 2], i = lo, j = hi;
        while (i <= j) {
            while (before(t, order[i], pivot, axis)) {
                ++i;
            }
            while (before(t, pivot, order[j], axis)) {
                --j;
            }
            if (i <= j) {
                int tmp = order[i];
                order[i++] = order[j];
                order[j--] = tmp;
            }
        }
        if (k <= j) {
            hi = j;
        } else if (k >= i) {
            lo = i;
        } else {
            return;
        }
    }
}

/* The longest axis of the box of the centres of order[0 .. n - 1]. */
static int split_axis(const hdi_tree_build *t, const int *order, int n)
{
    double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (int i = 0; i < n; ++i) {
        for (int k = 0; k < 3; ++k) {
            lo[k] = fmin(lo[k], centre(t, order[i], k));
            hi[k] = fmax(hi[k], centre(t, order[i], k));
        }
    }
    int axis = 0;
    for (int k = 1; k < 3; ++k) {
        if (hi[k] - lo[k] > hi[axis] - lo[axis]) {
            axis = k;
        }
    }
    return axis;
}

/* Builds the subtree of order[0 .. n - 1] at node index `at`; returns its depth. */
static int build_node(hdi_tree_build *t, int at, int *order, int n)
{
    hdi_cnode *node = &t->c->nodes[at];
    if (n == 1) {
        memcpy(node->lo, t->box[order[0]], sizeof node->lo);
        memcpy(node->hi, t->box[order[0]] + 3, sizeof node->hi);
        node->left = node->right = -1;
        node->piece = order[0];
        return 1;
    }
    int half = n / 2;
    select_kth(t, order, n, half, split_axis(t, order, n));
    node->piece = -1;
    node->left = t->next++;
    node->right = t->next++;
    int dl = build_node(t, node->left, order, half);
    int dr = build_node(t, node->right, order + half, n - half);
    const hdi_cnode *l = &t->c->nodes[node->left], *r = &t->c->nodes[node->right];
    for (int k = 0; k < 3; ++k) {
        node->lo[k] = fmin(l->lo[k], r->lo[k]);
        node->hi[k] = fmax(l->hi[k], r->hi[k]);
    }
    return 1 + (dl > dr ? dl : dr);
}

void hdi_compound_tree_build(hd_compound *c, int *order)
{
    hdi_tree_build t = {c, (double(*)[6])(void *)(order + 2 * c->count), order, 1};
    for (int i = 0; i < c->count; ++i) {
        piece_box(&c->pieces[i], t.box[i], t.box[i] + 3);
        order[i] = i;
    }
    c->depth = build_node(&t, 0, order, c->count);
}

static hd_status check_pieces(const hd_polytope *const *pieces, const hd_pose *poses, int count)
{
    if (count <= 0) {
        return HD_ERR_EMPTY;
    }
    if (count > HD_COMPOUND_MAX_PIECES) {
        return HD_ERR_TOO_LARGE;
    }
    for (int i = 0; i < count; ++i) {
        if (pieces[i] == NULL) {
            return HD_ERR_NULL;
        }
        hd_status st = poses != NULL ? hd_pose_validate(&poses[i], 0.0) : HD_OK;
        if (st != HD_OK) {
            return st;
        }
    }
    return HD_OK;
}

/* Whether every posed box stays inside the supported range. */
static int in_range(const hd_compound *c)
{
    const hdi_cnode *root = &c->nodes[0];
    return fmax(hdi_v3_max_abs(root->lo), hdi_v3_max_abs(root->hi)) <= HD_MAX_COORD;
}

/* One allocation for the compound, its pieces and its nodes; a scratch for the build beside. */
static hd_status allocate(int count, hd_compound **out, int **scratch)
{
    size_t head = sizeof(hd_compound), pieces = (size_t)count * sizeof(hdi_cpiece);
    hd_compound *c = calloc(1, head + pieces + (2 * (size_t)count - 1) * sizeof(hdi_cnode));
    /* the order of the pieces, then their boxes (6 doubles each, aligned after 2 ints each) */
    *scratch = malloc((size_t)count * (2 * sizeof(int) + 6 * sizeof(double)));
    if (c == NULL || *scratch == NULL) {
        free(c);
        free(*scratch);
        return HD_ERR_NO_MEMORY;
    }
    c->count = count;
    c->pieces = (hdi_cpiece *)(void *)((char *)c + head);
    c->nodes = (hdi_cnode *)(void *)((char *)c->pieces + pieces);
    *out = c;
    return HD_OK;
}

hd_status hd_compound_build(const hd_polytope *const *pieces, const hd_pose *poses, int count,
                            hd_compound **out)
{
    if (out != NULL) {
        *out = NULL;
    }
    if (pieces == NULL || out == NULL) {
        return HD_ERR_NULL;
    }
    hd_status st = check_pieces(pieces, poses, count);
    hd_compound *c = NULL;
    int *scratch = NULL;
    if (st != HD_OK || (st = allocate(count, &c, &scratch)) != HD_OK) {
        return st;
    }
    for (int i = 0; i < count; ++i) {
        c->pieces[i].poly = pieces[i];
        c->pieces[i].pose = poses != NULL ? poses[i] : hd_pose_identity();
    }
    hdi_compound_tree_build(c, scratch);
    free(scratch);
    if (!in_range(c)) {
        free(c);
        return HD_ERR_RANGE;
    }
    *out = c;
    return HD_OK;
}

void hd_compound_destroy(hd_compound *compound)
{
    if (compound == NULL) {
        return;
    }
    for (int i = 0; compound->owns && i < compound->count; ++i) {
        hd_polytope_destroy((hd_polytope *)(void *)compound->pieces[i].poly);
    }
    free(compound);
}

int hd_compound_piece_count(const hd_compound *compound)
{
    return compound != NULL ? compound->count : 0;
}

const hd_polytope *hd_compound_piece(const hd_compound *compound, int i, hd_pose *pose)
{
    if (compound == NULL || i < 0 || i >= compound->count) {
        return NULL;
    }
    if (pose != NULL) {
        *pose = compound->pieces[i].pose;
    }
    return compound->pieces[i].poly;
}

void hd_compound_bounds(const hd_compound *compound, double lo[3], double hi[3])
{
    if (compound != NULL && lo != NULL && hi != NULL) {
        hdi_v3_copy(lo, compound->nodes[0].lo);
        hdi_v3_copy(hi, compound->nodes[0].hi);
    }
}
