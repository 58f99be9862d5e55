/* CD-Dual's three searches (sections 3.3.1-3.3.3) for the face of M through which the ray
 * c + t r (t > 0) leaves M, i.e. the face maximising psi(f) = (n.r) / (h - n.c).
 *
 * Why a local search finds the global maximum (section 3.2): translate c to the origin and
 * dualise. A face with plane n.x = h becomes the dual vertex v(f) = n / (h - n.c), a vertex of the
 * convex polytope M^ (the polar of M - c), and psi(f) = r.v(f) is a linear function on it. Faces
 * adjacent in M (sharing an edge) are dual vertices joined by an edge of M^, and a vertex of a
 * convex polytope at which no edge increases a linear function maximises it. So: from any face,
 * moving to a strictly better neighbour ends at the optimum, whatever the start. Geometrically
 * 1/psi(f) is where the ray meets f's plane; the largest psi is the nearest plane, which for a
 * convex M is the face the ray leaves through.
 *
 * The searches:
 *   SEARCH-FV (3.3.1) climbs over A's faces (FV faces, neighbours across A's edges), from the
 *     face of A whose normal is most aligned with r (4.2) or the cached face (4.4);
 *   SEARCH-VF (3.3.2) climbs over B's faces (VF faces), from a face of B at the vertex where
 *     SEARCH-FV ended;
 *   SEARCH-EE (3.3.3) continues from the best face found, over every kind of neighbour.
 * Theorems 1 and 2 (appendix) claim each climb is exact within its own class; that holds when B
 * (resp. A) is a point, but in general the FV faces adjacent in A need not be adjacent in M, and
 * a climb can stop at a local maximum of its class. This is harmless here: the first two phases
 * only provide a good start, and SEARCH-EE walks the true adjacency of M, including the FV and
 * VF neighbours of EE faces (Lemma 4's "white" vertices), so the final face is optimal by the
 * argument above. The neighbours of a face are generated in cddual_neighbours.c.
 *
 * Ties: faces with equal psi (the same face of M reached through different features, e.g. FV
 * and EE representations of a face with parallel features, or several faces meeting the ray at
 * an edge) are all expanded, so the neighbour test is done on the whole plateau. "Equal" allows
 * HD_TIE_REL relative to |psi|: the same plane computed two ways differs by rounding.
 *
 * Each candidate (face of A, face of B, or edge pair) is evaluated at most once per search: the
 * map (workspace.h) keeps its value; no memory is allocated. */
#include <math.h>
#include <stddef.h>

#include "cddual_internal.h"
#include "hd_math.h"

#define HD_TIE_REL 1e-10

double hd_raysearch_value(const hd_raysearch *rs, const hd_mface *m)
{
    double num = hd_v3_dot(m->n, rs->r);
    double den = m->h - hd_v3_dot(m->n, rs->c);
    if (den > 0.0) {
        return num / den;
    }
    /* c on (or, by rounding, just outside) the plane: the limit from inside M */
    return num > 0.0 ? HUGE_VAL : (num < 0.0 ? -HUGE_VAL : 0.0);
}

static int near_best(const hd_raysearch *rs, double v)
{
    double b = rs->best_value;
    if (b == HUGE_VAL) {
        return v == HUGE_VAL;
    }
    return v >= b - HD_TIE_REL * fabs(b);
}

/* d(f) of Eq. (1) for the ray's target c + r: (psi - 1) / |r|. */
static double dual_distance(const hd_raysearch *rs, double psi)
{
    return (psi - 1.0) / hd_v3_len(rs->r);
}

static void record(hd_raysearch *rs, const hd_mface *m, double psi)
{
    if (rs->map->path != NULL) {
        hd_facemap_record(rs->map, rs->phase, m->kind, m->fa, m->fb, dual_distance(rs, psi));
    }
}

/* Records the face of a map slot (only when the path is recorded: it recomputes the face). */
static void record_slot(hd_raysearch *rs, int slot)
{
    hd_mface m;
    if (rs->map->path != NULL &&
        hd_mface_of_key(rs->pair, rs->map->keys[slot], rs->map->aux[slot], &m)) {
        record(rs, &m, rs->map->value[slot]);
    }
}

static void count_visit(hd_raysearch *rs)
{
    if (rs->stats == NULL) {
        return;
    }
    rs->stats->iterations++;
    if (rs->phase == 0) {
        rs->stats->visits_fv++;
    } else if (rs->phase == 1) {
        rs->stats->visits_vf++;
    } else {
        rs->stats->visits_ee++;
    }
}

/* The early exit of section 3.3 with the tolerance band: a face whose plane leaves the origin
 * outside is a separating plane, but the verdict needs gap > eps for the plane as reported,
 * i.e. with the exact extremes of A and B along n (both support mappings, from the face's own
 * vertices, where they usually stop at once). */
static int verify_gap(hd_raysearch *rs, const hd_mface *m)
{
    const hd_pair *pair = rs->pair;
    double neg[3], pb[3];
    hd_v3_neg(neg, m->n);
    int ia = m->sa, ib = m->sb;
    ia = hd_pair_support_a(pair, m->n, &ia, rs->stats);
    ib = hd_pair_support_b(pair, neg, &ib, rs->stats);
    hd_pair_b_vertex(pair, ib, pb);
    double max_a = hd_v3_dot(m->n, pair->a->verts + 3 * ia);
    double min_b = hd_v3_dot(m->n, pb);
    if (min_b - max_a > pair->eps) {
        rs->sep_max_a = max_a;
        rs->sep_min_b = min_b;
        return 1;
    }
    return 0;
}

hd_status hd_raysearch_visit(hd_raysearch *rs, uint64_t key, int *slot_out)
{
    hd_facemap *map = rs->map;
    int found;
    int slot = hd_facemap_slot(map, key, &found);
    if (slot < 0) {
        return HD_ERR_WORKSPACE_FULL;
    }
    *slot_out = slot;
    if (found) {
        return HD_OK;
    }
    if (++rs->evals > rs->max_evals) {
        return HD_ERR_ITERATION_LIMIT;
    }
    count_visit(rs);
    hd_mface m;
    int aux = -1;
    switch (hd_key_kind(key)) {
    case HD_KEY_FV:
        hd_mface_fv(rs->pair, hd_key_a(key), &rs->start_b, rs->stats, &m);
        aux = m.sb;
        break;
    case HD_KEY_VF:
        hd_mface_vf(rs->pair, hd_key_a(key), &rs->start_a, rs->stats, &m);
        aux = m.sa;
        break;
    default:
        if (!hd_mface_ee(rs->pair, hd_key_a(key), hd_key_b(key), &m)) {
            return HD_OK; /* not a face of M: stays at -inf, never expanded */
        }
        break;
    }
    double v = hd_raysearch_value(rs, &m);
    map->value[slot] = v;
    map->aux[slot] = aux;
    map->flags[slot] = HD_FACEMAP_FACE;
    if (rs->stop_on_gap && -m.h > rs->pair->eps && verify_gap(rs, &m)) {
        rs->best = m;
        rs->best_value = v;
        rs->best_slot = slot;
        rs->separated = 1;
        rs->done = 1;
        record(rs, &m, v);
        return HD_OK;
    }
    if (v > rs->best_value) {
        rs->best = m;
        rs->best_value = v;
        rs->best_slot = slot;
        if (rs->phase == 2) {
            record(rs, &m, v);
        }
        rs->done = v == HUGE_VAL;
    } else if (!near_best(rs, v)) {
        return HD_OK;
    }
    return hd_facemap_push(map, slot) ? HD_OK : HD_ERR_WORKSPACE_FULL;
}

/* Incident faces of vertex v are the faces of its edges; the one whose normal is most aligned
 * with dir, then a climb over face adjacency on n.dir (section 4.2's heuristic, without scanning
 * every face: the best face is near the support vertex in direction dir, and the climb fixes the
 * rest; any start is correct, this one is only meant to be close). */
static int heuristic_face(const hd_polytope *p, int v, const double dir[3])
{
    int best = -1;
    double bv = -HUGE_VAL;
    for (int k = p->vert_offset[v]; k < p->vert_offset[v + 1]; ++k) {
        int e = p->vert_edges[k];
        for (int side = 0; side < 2; ++side) {
            int f = p->edge_faces[2 * e + side];
            if (f >= 0 && hd_v3_dot(p->face_normal + 3 * f, dir) > bv) {
                bv = hd_v3_dot(p->face_normal + 3 * f, dir);
                best = f;
            }
        }
    }
    if (best < 0) {
        return p->face_count > 0 ? 0 : -1;
    }
    for (int moves = 0; moves < p->face_count; ++moves) {
        int next = -1;
        for (int k = p->face_offset[best]; k < p->face_offset[best + 1]; ++k) {
            int g = p->face_adj[k];
            double x = hd_v3_dot(p->face_normal + 3 * g, dir);
            if (x > bv) {
                bv = x;
                next = g;
            }
        }
        if (next < 0) {
            break;
        }
        best = next;
    }
    return best;
}

/* Steepest ascent over the faces of A (FV) or of B (VF) from face f: evaluates every face
 * adjacent to the current one and moves to the best while it improves (the paper's loop). */
static hd_status climb(hd_raysearch *rs, const hd_polytope *p, unsigned kind, int f)
{
    int slot;
    hd_status st = hd_raysearch_visit(rs, hd_key(kind, f, 0), &slot);
    if (st != HD_OK || rs->done) {
        return st;
    }
    double cur = rs->map->value[slot];
    int cur_slot = slot;
    record_slot(rs, cur_slot);
    for (int moves = 0; moves < p->face_count; ++moves) {
        int next = -1, next_slot = -1;
        double next_v = cur;
        for (int k = p->face_offset[f]; k < p->face_offset[f + 1]; ++k) {
            int g = p->face_adj[k];
            st = hd_raysearch_visit(rs, hd_key(kind, g, 0), &slot);
            if (st != HD_OK || rs->done) {
                return st;
            }
            if (rs->map->value[slot] > next_v) {
                next_v = rs->map->value[slot];
                next = g;
                next_slot = slot;
            }
        }
        if (next < 0) {
            break;
        }
        f = next;
        cur = next_v;
        cur_slot = next_slot;
        record_slot(rs, cur_slot);
    }
    if (kind == HD_KEY_FV) {
        rs->fv_face = f;
        rs->fv_vertex = rs->map->aux[cur_slot];
    }
    return HD_OK;
}

/* SEARCH-FV (3.3.1). */
static hd_status search_fv(hd_raysearch *rs)
{
    const hd_polytope *a = rs->pair->a;
    if (a->face_count == 0) {
        return HD_OK;
    }
    rs->phase = 0;
    int f = rs->start_face;
    if (f < 0 || f >= a->face_count) {
        int u = hd_pair_support_a(rs->pair, rs->r, &rs->start_a, rs->stats);
        f = heuristic_face(a, u, rs->r);
    }
    return climb(rs, a, HD_KEY_FV, f);
}

/* SEARCH-VF (3.3.2): B's faces, from the face at the vertex where SEARCH-FV ended whose -B
 * normal is closest to that FV face's normal (the paper's "a face incident at v"), or, without
 * SEARCH-FV (A has no faces), the heuristic of 4.2 applied to -B. Directions in B's frame: -B's
 * face g has normal -n_g, so "most aligned with x" is "largest -n_g.x". */
static hd_status search_vf(hd_raysearch *rs)
{
    const hd_pair *pair = rs->pair;
    const hd_polytope *b = pair->b;
    if (b->face_count == 0) {
        return HD_OK;
    }
    rs->phase = 1;
    double dir[3], dir_b[3];
    int v;
    if (rs->fv_face >= 0) {
        hd_v3_neg(dir, pair->a->face_normal + 3 * rs->fv_face);
        v = rs->fv_vertex;
    } else {
        hd_v3_neg(dir, rs->r);
        v = hd_pair_support_b(pair, dir, &rs->start_b, rs->stats);
    }
    hd_pair_dir_to_b(pair, dir, dir_b);
    int g = heuristic_face(b, v, dir_b);
    return climb(rs, b, HD_KEY_VF, g);
}

/* SEARCH-EE (3.3.3), generalised as above: expand the best face and every face tied with it
 * until none is left; the stack holds faces pushed when they were found at or near the best. */
static hd_status search_ee(hd_raysearch *rs)
{
    hd_facemap *map = rs->map;
    rs->phase = 2;
    if (!hd_facemap_push(map, rs->best_slot)) {
        return HD_ERR_WORKSPACE_FULL;
    }
    int slot;
    while ((slot = hd_facemap_pop(map)) >= 0) {
        if ((map->flags[slot] & HD_FACEMAP_EXPANDED) || !(map->flags[slot] & HD_FACEMAP_FACE) ||
            !near_best(rs, map->value[slot])) {
            continue;
        }
        hd_status st = hd_raysearch_expand(rs, slot);
        if (st != HD_OK || rs->done) {
            return st;
        }
    }
    return HD_OK;
}

hd_status hd_raysearch_run(hd_raysearch *rs)
{
    rs->best_value = -HUGE_VAL;
    rs->best_slot = -1;
    rs->separated = 0;
    rs->done = 0;
    rs->evals = 0;
    rs->fv_face = -1;
    rs->fv_vertex = -1;
    hd_status st = search_fv(rs);
    if (st == HD_OK && !rs->done) {
        st = search_vf(rs);
    }
    if (st != HD_OK || rs->done) {
        return st;
    }
    if (rs->best_slot < 0) {
        return HD_ERR_UNSUPPORTED; /* neither polytope has a face: the caller never asks this */
    }
    return search_ee(rs);
}
