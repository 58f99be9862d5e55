/* The candidates of CD-Dual's ray search (cddual/search.c): evaluating a face of M, keeping it in
 * the workspace's map (each candidate at most once per search), and recording the path. */
#include <math.h>
#include <stddef.h>

#include "cddual/internal.h"
#include "core/math.h"
#include "core/tolerances.h"

double hdi_raysearch_value(const hdi_raysearch *rs, const hdi_mface *m)
{
    double num = hdi_v3_dot(m->n, rs->r);
    double den = m->h - hdi_v3_dot(m->n, rs->c);
    if (den > 0.0) {
        return num / den;
    }
    /* c on (or, by rounding, just outside) the plane: the limit from inside M */
    return num > 0.0 ? HUGE_VAL : (num < 0.0 ? -HUGE_VAL : 0.0);
}

int hdi_raysearch_near_best(const hdi_raysearch *rs, double v)
{
    double b = rs->best_value;
    if (b == HUGE_VAL) {
        return v == HUGE_VAL;
    }
    return v >= b - HD_TIE_REL * fabs(b);
}

/* d(f) of Eq. (1) for the ray's target c + r: (psi - 1) / |r|. */
static double dual_distance(const hdi_raysearch *rs, double psi)
{
    return (psi - 1.0) / hdi_v3_len(rs->r);
}

static void record(hdi_raysearch *rs, const hdi_mface *m, double psi)
{
    if (hdi_facemap_recording(rs->map)) {
        hdi_facemap_record(rs->map, rs->phase, m->kind, m->fa, m->fb, dual_distance(rs, psi));
    }
}

/* Records the face of a map slot (only when the path is recorded: it recomputes the face, a
 * support call, which a workspace without recording once paid on every climb step). */
void hdi_raysearch_record_slot(hdi_raysearch *rs, int slot)
{
    hdi_mface m;
    if (hdi_facemap_recording(rs->map) &&
        hdi_mface_of_key(rs->pair, rs->map->keys[slot], rs->map->aux[slot], &m)) {
        record(rs, &m, rs->map->value[slot]);
    }
}

static void count_visit(hdi_raysearch *rs)
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
static int verify_gap(hdi_raysearch *rs, const hdi_mface *m)
{
    const hdi_pair *pair = rs->pair;
    double neg[3], pb[3];
    hdi_v3_neg(neg, m->n);
    int ia = m->sa, ib = m->sb;
    ia = hdi_pair_support_a(pair, m->n, &ia, rs->stats);
    ib = hdi_pair_support_b(pair, neg, &ib, rs->stats);
    hdi_pair_b_vertex(pair, ib, pb);
    double max_a = hdi_v3_dot(m->n, pair->a->verts + 3 * ia);
    double min_b = hdi_v3_dot(m->n, pb);
    if (min_b - max_a > pair->eps) {
        rs->sep_max_a = max_a;
        rs->sep_min_b = min_b;
        return 1;
    }
    return 0;
}

hd_status hdi_raysearch_visit(hdi_raysearch *rs, uint64_t key, int *slot_out)
{
    hdi_facemap *map = rs->map;
    int found;
    int slot = hdi_facemap_slot(map, key, &found);
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
    hdi_mface m;
    int aux = -1;
    switch (hdi_key_kind(key)) {
        case HD_KEY_FV:
            hdi_mface_fv(rs->pair, hdi_key_a(key), &rs->start_b, rs->stats, &m);
            aux = m.sb;
            break;
        case HD_KEY_VF:
            hdi_mface_vf(rs->pair, hdi_key_a(key), &rs->start_a, rs->stats, &m);
            aux = m.sa;
            break;
        default:
            if (!hdi_mface_ee(rs->pair, hdi_key_a(key), hdi_key_b(key), &m)) {
                return HD_OK; /* not a face of M: stays at -inf, never expanded */
            }
            break;
    }
    double v = hdi_raysearch_value(rs, &m);
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
    } else if (!hdi_raysearch_near_best(rs, v)) {
        return HD_OK;
    }
    return hdi_facemap_push(map, slot) ? HD_OK : HD_ERR_WORKSPACE_FULL;
}

int hdi_mface_of_key(const hdi_pair *pair, uint64_t key, int aux, hdi_mface *out)
{
    switch (hdi_key_kind(key)) {
        case HD_KEY_FV: {
            int start = aux;
            hdi_mface_fv(pair, hdi_key_a(key), &start, NULL, out);
            return 1;
        }
        case HD_KEY_VF: {
            int start = aux;
            hdi_mface_vf(pair, hdi_key_a(key), &start, NULL, out);
            return 1;
        }
        default:
            return hdi_mface_ee(pair, hdi_key_a(key), hdi_key_b(key), out);
    }
}
