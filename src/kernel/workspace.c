/* hd_workspace: the caller-owned scratch of the CD-Dual searches and the recorded paths (see
 * kernel/workspace.h). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/workspace.h"
#include "support/pair.h"

struct hd_workspace {
    hdi_facemap map;
    int capacity;
    hdi_gjk_trace gjk;      /* GJK's path (18 KB) */
    unsigned char *scratch; /* the contact queries' scratch: HD_WORKSPACE_SCRATCH_PER bytes per
                               unit of capacity, 16-byte aligned */
    size_t scratch_bytes;
};

/* Largest capacity accepted: keeps every size below 2^31 entries and 2^40 bytes. */
#define HD_WORKSPACE_MAX (1 << 26)

/* Extra path entries beyond the capacity: each phase of a search records its start face, which
 * is the only step that may repeat a face already in the map. */
#define HD_PATH_SLACK 16

hd_status hd_workspace_create(int capacity, hd_workspace **out)
{
    if (out == NULL) {
        return HD_ERR_NULL;
    }
    *out = NULL;
    if (capacity < 16) {
        return HD_ERR_INVALID_ARG;
    }
    if (capacity > HD_WORKSPACE_MAX) {
        return HD_ERR_TOO_LARGE;
    }
    size_t index = HD_FACEMAP_INDEX0;
    while (index < 2 * (size_t)capacity) {
        index *= 2;
    }
    size_t cap = (size_t)capacity;
    size_t path_cap = cap + HD_PATH_SLACK;
    size_t stack_cap = cap + 8;
    /* one block, arrays in decreasing order of alignment */
    size_t scratch = cap * HD_WORKSPACE_SCRATCH_PER;
    size_t head = (sizeof(hd_workspace) + 15) / 16 * 16;
    size_t bytes = head + scratch + cap * (sizeof(uint64_t) + sizeof(double)) +
                   path_cap * sizeof(hd_path_step) + (cap + index + stack_cap) * sizeof(int) + cap;
    unsigned char *block = malloc(bytes);
    if (block == NULL) {
        return HD_ERR_NO_MEMORY;
    }
    hd_workspace *ws = (hd_workspace *)block;
    unsigned char *p = block + head;
    ws->scratch = p;
    ws->scratch_bytes = scratch;
    p += scratch;
    hdi_facemap *m = &ws->map;
    m->keys = (uint64_t *)p;
    p += cap * sizeof(uint64_t);
    m->value = (double *)p;
    p += cap * sizeof(double);
    m->path = (hd_path_step *)p;
    p += path_cap * sizeof(hd_path_step);
    m->aux = (int *)p;
    p += cap * sizeof(int);
    m->index = (int *)p;
    p += index * sizeof(int);
    m->stack = (int *)p;
    p += stack_cap * sizeof(int);
    m->flags = p;
    m->capacity = capacity;
    m->index_max = (int)index;
    m->count = 0;
    m->mask = HD_FACEMAP_INDEX0 - 1;
    memset(m->index, 0, HD_FACEMAP_INDEX0 * sizeof(int));
    m->top = 0;
    m->stack_cap = (int)stack_cap;
    m->path_count = 0;
    m->path_cap = (int)path_cap;
    ws->capacity = capacity;
    ws->gjk.count = 0;
    *out = ws;
    return HD_OK;
}

/* The bound of docs/algorithms/cddual.md section 9: a search inserts a candidate into the map only
 * when it evaluates it for the first time, and stops with HD_ERR_ITERATION_LIMIT (answered by the
 * LP method) after max_iterations evaluations; and there are only F_A + F_B + E_A E_B distinct
 * candidates. One entry more than the cap: the entry that trips the cap is inserted first. */
hd_status hd_workspace_capacity_for(const hd_polytope *a, const hd_polytope *b,
                                    const hd_tolerance *tol, int *capacity)
{
    if (capacity == NULL) {
        return HD_ERR_NULL;
    }
    *capacity = 0;
    if (a == NULL || b == NULL) {
        return HD_ERR_NULL;
    }
    hd_tolerance t = tol != NULL ? *tol : hd_tolerance_default();
    hd_status st = hd_tolerance_validate(&t);
    if (st != HD_OK) {
        return st;
    }
    long long cap = t.max_iterations > 0
                        ? t.max_iterations
                        : hdi_pair_iterations_for(a->vertex_count, b->vertex_count);
    long long distinct =
        (long long)a->face_count + b->face_count + (long long)a->edge_count * b->edge_count;
    long long need = (cap < distinct ? cap : distinct) + 1;
    need = need < 16 ? 16 : need;
    *capacity = need > HD_WORKSPACE_MAX ? HD_WORKSPACE_MAX : (int)need;
    return HD_OK;
}

hd_status hd_workspace_create_for(const hd_polytope *a, const hd_polytope *b,
                                  const hd_tolerance *tol, hd_workspace **out)
{
    if (out == NULL) {
        return HD_ERR_NULL;
    }
    *out = NULL;
    int capacity;
    hd_status st = hd_workspace_capacity_for(a, b, tol, &capacity);
    return st == HD_OK ? hd_workspace_create(capacity, out) : st;
}

int hd_workspace_capacity(const hd_workspace *ws)
{
    return ws != NULL ? ws->capacity : 0;
}

void hd_workspace_destroy(hd_workspace *ws)
{
    free(ws);
}

void *hdi_workspace_scratch(hd_workspace *ws, size_t *bytes)
{
    *bytes = ws != NULL ? ws->scratch_bytes : 0;
    return ws != NULL ? ws->scratch : NULL;
}

int hd_workspace_path(const hd_workspace *ws, const hd_path_step **steps)
{
    if (ws == NULL) {
        if (steps != NULL) {
            *steps = NULL;
        }
        return 0;
    }
    if (steps != NULL) {
        *steps = ws->map.path;
    }
    return ws->map.path_count;
}

int hd_workspace_gjk_path(const hd_workspace *ws, const hd_gjk_step **steps)
{
    if (steps != NULL) {
        *steps = ws != NULL ? ws->gjk.steps : NULL;
    }
    return ws != NULL ? ws->gjk.count : 0;
}

hdi_gjk_trace *hdi_workspace_gjk_trace(const hd_options *opt)
{
    if (opt == NULL || opt->workspace == NULL || !(opt->flags & HD_QUERY_RECORD_PATH)) {
        return NULL;
    }
    return &opt->workspace->gjk;
}

void hdi_workspace_paths_reset(hd_workspace *ws)
{
    ws->map.path_count = 0;
    ws->gjk.count = 0;
}

void hdi_facemap_clear(hdi_facemap *map)
{
    int size = map->mask + 1;
    if (size > HD_FACEMAP_INDEX0 || map->count > 0) {
        memset(map->index, 0, (size_t)size * sizeof(int));
    }
    map->mask = HD_FACEMAP_INDEX0 - 1;
    map->count = 0;
    map->top = 0;
}

void hdi_facemap_grow(hdi_facemap *map)
{
    int size = 2 * (map->mask + 1);
    map->mask = size - 1;
    memset(map->index, 0, (size_t)size * sizeof(int));
    for (int id = 0; id < map->count; ++id) {
        int i = hdi_facemap_hash(map->keys[id], map->mask);
        while (map->index[i] != 0) {
            i = (i + 1) & map->mask;
        }
        map->index[i] = id + 1;
    }
}

hdi_facemap *hdi_facemap_open(hd_workspace *ws, hdi_facemap_scratch *scratch, int record)
{
    if (ws != NULL) {
        hdi_facemap *m = &ws->map;
        hdi_facemap_clear(m);
        m->path_count = 0;
        /* the path array stays in place; recording is switched by path_cap */
        m->path_cap = record ? ws->capacity + HD_PATH_SLACK : 0;
        return m;
    }
    hdi_facemap *m = &scratch->map;
    m->keys = scratch->keys;
    m->value = scratch->value;
    m->aux = scratch->aux;
    m->flags = scratch->flags;
    m->index = scratch->index;
    m->stack = scratch->stack;
    m->capacity = HD_FACEMAP_SCRATCH;
    m->index_max = 2 * HD_FACEMAP_SCRATCH;
    m->mask = HD_FACEMAP_INDEX0 - 1;
    memset(m->index, 0, HD_FACEMAP_INDEX0 * sizeof(int));
    m->count = 0;
    m->top = 0;
    m->stack_cap = HD_FACEMAP_SCRATCH + 8;
    m->path = NULL;
    m->path_count = 0;
    m->path_cap = 0;
    return m;
}

int hdi_facemap_push(hdi_facemap *map, int slot)
{
    if (map->top >= map->stack_cap) {
        return 0;
    }
    map->stack[map->top++] = slot;
    return 1;
}

int hdi_facemap_pop(hdi_facemap *map)
{
    return map->top > 0 ? map->stack[--map->top] : -1;
}

void hdi_facemap_record(hdi_facemap *map, int phase, hd_face_kind kind, int feature_a,
                        int feature_b, double dual_distance)
{
    if (map->path == NULL || map->path_count >= map->path_cap) {
        return;
    }
    hd_path_step *s = &map->path[map->path_count++];
    s->kind = kind;
    s->feature_a = feature_a;
    s->feature_b = feature_b;
    s->dual_distance = dual_distance;
    s->phase = phase;
}
