/* Sweep-and-prune with insertion sort (sap.h). End points are ordered by value, a lower end point
 * before an upper one of equal value, so that two closed intervals overlap exactly when each
 * lower end point precedes the other's upper one. When insertion sort moves end point e to the
 * left past y:
 *   e lower of a, y upper of b: a and b begin to overlap along this axis; the pair is added when
 *     the boxes (their final values) overlap on all three axes;
 *   e upper of a, y lower of b: they stop overlapping along this axis; the pair is dropped.
 * A pair's final order on an axis is the order of its final values, so after the three sorts the
 * table holds exactly the overlapping pairs (appended end points start out "beyond every other").
 */
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "scene/sap.h"
#include "core/tolerances.h"

/* First capacities: end points per axis, and body ids (of `where` and of the active list). */
#define HD_SAP_MIN_ENDS 64
#define HD_SAP_MIN_IDS 32

void hdi_sap_init(hdi_sap *s)
{
    memset(s, 0, sizeof *s);
}

void hdi_sap_free(hdi_sap *s)
{
    for (int k = 0; k < 3; ++k) {
        free(s->axis[k]);
    }
    free(s->where);
    free(s->active);
    hdi_sap_init(s);
}

/* Room for one more body's two end points on each axis and for `body` in `where` (each array
 * kept when a later one fails: only the capacities change). */
static hd_status reserve(hdi_sap *s, int body)
{
    int failed = 0;
    if (s->count + 2 > s->capacity) {
        int cap = hdi_array_grown_capacity(s->capacity, s->count + 2, HD_SAP_MIN_ENDS,
                                           sizeof(hdi_sap_end));
        for (int k = 0; k < 3; ++k) {
            hdi_array_resize(&s->axis[k], cap, sizeof *s->axis[k], &failed);
        }
        s->capacity = failed ? s->capacity : cap;
    }
    /* six end-point places per body id */
    hdi_array_reserve(&s->where, &s->where_ids, body + 1, HD_SAP_MIN_IDS, 6 * sizeof *s->where,
                      &failed);
    return failed ? HD_ERR_NO_MEMORY : HD_OK;
}

hd_status hdi_sap_insert(hdi_sap *s, int body, const hdi_box *box)
{
    hd_status st = reserve(s, body);
    if (st != HD_OK) {
        return st;
    }
    for (int k = 0; k < 3; ++k) {
        hdi_sap_end *a = s->axis[k];
        a[s->count].value = box->lo[k];
        a[s->count].tag = 2 * body;
        a[s->count + 1].value = box->hi[k];
        a[s->count + 1].tag = 2 * body + 1;
        s->where[6 * body + 2 * k] = s->count;
        s->where[6 * body + 2 * k + 1] = s->count + 1;
    }
    s->count += 2;
    return HD_OK;
}

void hdi_sap_remove(hdi_sap *s, int body)
{
    for (int k = 0; k < 3; ++k) {
        s->axis[k][s->where[6 * body + 2 * k]].tag = -1;
        s->axis[k][s->where[6 * body + 2 * k + 1]].tag = -1;
    }
    s->removed += 2;
}

void hdi_sap_move(hdi_sap *s, int body, const hdi_box *box)
{
    for (int k = 0; k < 3; ++k) {
        s->axis[k][s->where[6 * body + 2 * k]].value = box->lo[k];
        s->axis[k][s->where[6 * body + 2 * k + 1]].value = box->hi[k];
    }
}

/* Drops the removed end points, keeping the order. */
static void compact(hdi_sap *s)
{
    int kept = 0, kept_sorted = 0;
    for (int k = 0; k < 3; ++k) {
        hdi_sap_end *a = s->axis[k];
        kept = 0;
        kept_sorted = 0;
        for (int i = 0; i < s->count; ++i) {
            if (a[i].tag < 0) {
                continue;
            }
            kept_sorted += i < s->sorted;
            a[kept] = a[i];
            s->where[3 * (a[kept].tag & ~1) + 2 * k + (a[kept].tag & 1)] = kept;
            kept++;
        }
    }
    s->count = kept;
    s->sorted = kept_sorted;
    s->removed = 0;
}

/* e goes before y: a smaller value, or a lower end point before an upper one of equal value. */
static int before(const hdi_sap_end *e, const hdi_sap_end *y)
{
    return e->value < y->value || (e->value == y->value && (e->tag & 1) < (y->tag & 1));
}

/* The pair event of lower/upper end point e passing y leftwards (sap.c's header). */
static hd_status swap_event(const hdi_sap_end *e, const hdi_sap_end *y, const hdi_box *boxes,
                            hdi_pair_table *pairs)
{
    int a = e->tag >> 1, b = y->tag >> 1;
    if ((e->tag & 1) == (y->tag & 1)) {
        return HD_OK;
    }
    if ((e->tag & 1) == 0) {
        int index;
        const hdi_box *ba = &boxes[a], *bb = &boxes[b];
        if (hdi_box_overlap(ba->lo, ba->hi, bb->lo, bb->hi)) {
            return hdi_pairs_add(pairs, a, b, &index);
        }
        return HD_OK;
    }
    int index = hdi_pairs_find(pairs, a, b);
    if (index >= 0) {
        hdi_pairs_remove_at(pairs, index);
    }
    return HD_OK;
}

/* Insertion sort of axis k with the pair events; the first error is kept, the sort completed. */
static hd_status insertion_sort(hdi_sap *s, int k, const hdi_box *boxes, hdi_pair_table *pairs)
{
    hdi_sap_end *a = s->axis[k];
    int *where = s->where;
    hd_status status = HD_OK;
    for (int i = 1; i < s->count; ++i) {
        hdi_sap_end e = a[i];
        int j = i;
        while (j > 0 && before(&e, &a[j - 1])) {
            hd_status st = swap_event(&e, &a[j - 1], boxes, pairs);
            status = status != HD_OK ? status : st;
            a[j] = a[j - 1];
            where[3 * (a[j].tag & ~1) + 2 * k + (a[j].tag & 1)] = j;
            --j;
        }
        if (j != i) {
            a[j] = e;
            where[3 * (e.tag & ~1) + 2 * k + (e.tag & 1)] = j;
        }
    }
    return status;
}

static int compare_ends(const void *pa, const void *pb)
{
    const hdi_sap_end *a = pa, *b = pb;
    if (before(a, b)) {
        return -1;
    }
    if (before(b, a)) {
        return 1;
    }
    return (a->tag > b->tag) - (a->tag < b->tag);
}

/* Pairs by a sweep along axis 0 (sorted): each lower end point meets the open intervals. Every
 * overlapping pair is marked; the others are then dropped. */
static hd_status sweep(hdi_sap *s, const hdi_box *boxes, hdi_pair_table *pairs)
{
    int failed = 0;
    if (!hdi_array_reserve(&s->active, &s->active_cap, s->count / 2, HD_SAP_MIN_IDS,
                           sizeof *s->active, &failed)) {
        return HD_ERR_NO_MEMORY;
    }
    int open = 0;
    for (int i = 0; i < s->count; ++i) {
        int body = s->axis[0][i].tag >> 1;
        if (s->axis[0][i].tag & 1) {
            int j = 0;
            while (s->active[j] != body) {
                ++j;
            }
            s->active[j] = s->active[--open];
            continue;
        }
        const hdi_box *b = &boxes[body];
        for (int j = 0; j < open; ++j) {
            const hdi_box *o = &boxes[s->active[j]];
            int index;
            if (hdi_box_overlap(b->lo, b->hi, o->lo, o->hi)) {
                hd_status st = hdi_pairs_add(pairs, body, s->active[j], &index);
                if (st != HD_OK) {
                    return st;
                }
                pairs->recs[index].mark = 1;
            }
        }
        s->active[open++] = body;
    }
    for (int i = pairs->count - 1; i >= 0; --i) {
        if (!pairs->recs[i].mark) {
            hdi_pairs_remove_at(pairs, i);
        }
    }
    for (int i = 0; i < pairs->count; ++i) {
        pairs->recs[i].mark = 0;
    }
    return HD_OK;
}

/* Full sort of every axis, then the sweep. */
static hd_status rebuild(hdi_sap *s, const hdi_box *boxes, hdi_pair_table *pairs)
{
    for (int k = 0; k < 3; ++k) {
        hdi_sap_end *a = s->axis[k];
        if (s->count > 1) {
            qsort(a, (size_t)s->count, sizeof *a, compare_ends);
        }
        for (int i = 0; i < s->count; ++i) {
            s->where[3 * (a[i].tag & ~1) + 2 * k + (a[i].tag & 1)] = i;
        }
    }
    s->sorted = s->count;
    hd_status st = sweep(s, boxes, pairs);
    s->rebuild = st != HD_OK;
    return st;
}

hd_status hdi_sap_update(hdi_sap *s, const hdi_box *boxes, hdi_pair_table *pairs)
{
    if (s->removed > 0) {
        compact(s);
    }
    int appended = s->count - s->sorted;
    if (s->rebuild || appended > HD_SAP_REBUILD_MIN + s->sorted / HD_SAP_REBUILD_DIVISOR) {
        return rebuild(s, boxes, pairs);
    }
    hd_status status = HD_OK;
    for (int k = 0; k < 3; ++k) {
        hd_status st = insertion_sort(s, k, boxes, pairs);
        status = status != HD_OK ? status : st;
    }
    s->sorted = s->count;
    s->rebuild = status != HD_OK;
    return status;
}
