/* CD-Dual's three searches (Choi, Li, Wang, Cameron, sections 3.3.1-3.3.3) for the face f_opt of M
 * through which the ray c + t r leaves M: the face maximising psi(f) = (n.r) / (h - n.c). psi is
 * linear on the dual polytope (section 3.2), so any strictly ascending walk over M's face adjacency
 * ends at f_opt: SEARCH-FV and SEARCH-VF give a good start, SEARCH-EE walks the true adjacency (FV
 * and VF neighbours included) and expands every face tied with the best (HD_TIE_REL). Each
 * candidate is evaluated once per search (kernel/workspace.h). Why, and where the paper's Theorems
 * 1 and 2 fall short: docs/algorithms/cddual.md, sections 1, 3 and 5. */
#include <math.h>
#include <stddef.h>

#include "cddual/internal.h"
#include "core/math.h"
#include "core/tolerances.h"

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
            if (f >= 0 && hdi_v3_dot(p->face_normal + 3 * f, dir) > bv) {
                bv = hdi_v3_dot(p->face_normal + 3 * f, dir);
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
            double x = hdi_v3_dot(p->face_normal + 3 * g, dir);
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
static hd_status climb(hdi_raysearch *rs, const hd_polytope *p, unsigned kind, int f)
{
    int slot;
    hd_status st = hdi_raysearch_visit(rs, hdi_key(kind, f, 0), &slot);
    if (st != HD_OK || rs->done) {
        return st;
    }
    double cur = rs->map->value[slot];
    int cur_slot = slot;
    hdi_raysearch_record_slot(rs, cur_slot);
    for (int moves = 0; moves < p->face_count; ++moves) {
        int next = -1, next_slot = -1;
        double next_v = cur;
        for (int k = p->face_offset[f]; k < p->face_offset[f + 1]; ++k) {
            int g = p->face_adj[k];
            st = hdi_raysearch_visit(rs, hdi_key(kind, g, 0), &slot);
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
        hdi_raysearch_record_slot(rs, cur_slot);
    }
    if (kind == HD_KEY_FV) {
        rs->fv_face = f;
        rs->fv_vertex = rs->map->aux[cur_slot];
    }
    return HD_OK;
}

/* SEARCH-FV (3.3.1). */
static hd_status search_fv(hdi_raysearch *rs)
{
    const hd_polytope *a = rs->pair->a;
    if (a->face_count == 0) {
        return HD_OK;
    }
    rs->phase = 0;
    int f = rs->start_face;
    if (f < 0 || f >= a->face_count) {
        int u = hdi_pair_support_a(rs->pair, rs->r, &rs->start_a, rs->stats);
        f = heuristic_face(a, u, rs->r);
    }
    return climb(rs, a, HD_KEY_FV, f);
}

/* SEARCH-VF (3.3.2): B's faces, from the face at the vertex where SEARCH-FV ended whose -B
 * normal is closest to that FV face's normal (the paper's "a face incident at v"), or, without
 * SEARCH-FV (A has no faces), the heuristic of 4.2 applied to -B. Directions in B's frame: -B's
 * face g has normal -n_g, so "most aligned with x" is "largest -n_g.x". */
static hd_status search_vf(hdi_raysearch *rs)
{
    const hdi_pair *pair = rs->pair;
    const hd_polytope *b = pair->b;
    if (b->face_count == 0) {
        return HD_OK;
    }
    rs->phase = 1;
    double dir[3], dir_b[3];
    int v;
    if (rs->fv_face >= 0) {
        hdi_v3_neg(dir, pair->a->face_normal + 3 * rs->fv_face);
        v = rs->fv_vertex;
    } else {
        hdi_v3_neg(dir, rs->r);
        v = hdi_pair_support_b(pair, dir, &rs->start_b, rs->stats);
    }
    hdi_pair_dir_to_b(pair, dir, dir_b);
    int g = heuristic_face(b, v, dir_b);
    return climb(rs, b, HD_KEY_VF, g);
}

/* SEARCH-EE (3.3.3) over every kind of neighbour (cddual.md, section 3): expand the best face and
 * every face tied with it until none is left; the stack holds faces pushed when they were found at
 * or near the best. */
static hd_status search_ee(hdi_raysearch *rs)
{
    hdi_facemap *map = rs->map;
    rs->phase = 2;
    if (!hdi_facemap_push(map, rs->best_slot)) {
        return HD_ERR_WORKSPACE_FULL;
    }
    int slot;
    while ((slot = hdi_facemap_pop(map)) >= 0) {
        if ((map->flags[slot] & HD_FACEMAP_EXPANDED) || !(map->flags[slot] & HD_FACEMAP_FACE) ||
            !hdi_raysearch_near_best(rs, map->value[slot])) {
            continue;
        }
        hd_status st = hdi_raysearch_expand(rs, slot);
        if (st != HD_OK || rs->done) {
            return st;
        }
    }
    return HD_OK;
}

hd_status hdi_raysearch_run(hdi_raysearch *rs)
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
