/* The scratch memory of the CD-Dual searches (cddual/): a map of the candidate faces of
 * M = A - B already examined in one search (faces of A or B with their supporting vertex, and edge
 * pairs), a stack of faces still to expand, and the search path; and GJK's recorded path
 * (kernel/gjk_core.c). Queries never allocate: the map lives in a caller-owned hd_workspace
 * (hd_workspace_create, the only allocation) or in an hdi_facemap_scratch on the caller's stack;
 * both have a fixed capacity, and a search that needs more returns HD_ERR_WORKSPACE_FULL (which
 * hd_collide answers with GJK; hd_workspace_capacity_for is the size that never runs out). */
#ifndef HD_WORKSPACE_H
#define HD_WORKSPACE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "hedra/query.h"

/* flags of a map entry */
#define HD_FACEMAP_FACE 1u     /* the candidate is a face of M (an edge pair may not be) */
#define HD_FACEMAP_EXPANDED 2u /* its neighbours have been examined (SEARCH-EE) */

/* Initial size of the hash index (a power of two). */
#define HD_FACEMAP_INDEX0 256

/* Entries are dense arrays indexed by an id in insertion order (stable: the stack holds ids); an
 * open-addressing hash index with linear probing maps a key (never 0: its top two bits hold the
 * face kind, 1..3) to id + 1. The index starts at HD_FACEMAP_INDEX0 slots and doubles when half
 * full, up to twice the capacity, so emptying the map clears only a small index. */
typedef struct hdi_facemap {
    uint64_t *keys; /* entry id -> key */
    double *value;  /* objective of the search (psi), -inf when not a face */
    int *aux;       /* the supporting vertex found with the face (FV: of B, VF: of A) */
    unsigned char *flags;
    int count;     /* entries in use (ids 0 .. count-1) */
    int capacity;  /* largest count allowed */
    int *index;    /* hash index: id + 1, 0 when empty; room for index_max slots */
    int mask;      /* current index size - 1 */
    int index_max; /* largest index size (a power of two >= 2 capacity) */
    int *stack;    /* entry ids waiting for expansion */
    int top;
    int stack_cap;
    hd_path_step *path; /* NULL when the path is not recorded */
    int path_count;
    int path_cap;
} hdi_facemap;

/* Size of the stack scratch used when hd_options.workspace is NULL: 1024 candidates (faces and
 * edge pairs) per search, about 34 KB. A query on two 1000-vertex ellipsoids examines 10 to 100
 * (docs/algorithms/cddual.md); larger searches fall back to GJK without a sized workspace. */
#define HD_FACEMAP_SCRATCH 1024

typedef struct hdi_facemap_scratch {
    hdi_facemap map;
    uint64_t keys[HD_FACEMAP_SCRATCH];
    double value[HD_FACEMAP_SCRATCH];
    int aux[HD_FACEMAP_SCRATCH];
    int index[2 * HD_FACEMAP_SCRATCH];
    int stack[HD_FACEMAP_SCRATCH + 8];
    unsigned char flags[HD_FACEMAP_SCRATCH];
} hdi_facemap_scratch;

/* Bytes of plain scratch memory a workspace holds per unit of capacity, for the contact queries
 * (hedra/contact.h): the expanding polytope's arrays and the manifold's clipping buffers. */
#define HD_WORKSPACE_SCRATCH_PER 64

/* The workspace's scratch (16-byte aligned) and its size; NULL and 0 for a NULL workspace. */
void *hdi_workspace_scratch(hd_workspace *ws, size_t *bytes);

/* The map of a query: the workspace's when ws is not NULL (its path is recorded when record is
 * set, and reset here), else the scratch's (no path). The map is returned empty. */
hdi_facemap *hdi_facemap_open(hd_workspace *ws, hdi_facemap_scratch *scratch, int record);

/* Empties the entries and the stack (the path is kept). */
void hdi_facemap_clear(hdi_facemap *map);

/* Doubles the hash index and rehashes (kernel/workspace.c); called when it is half full. */
void hdi_facemap_grow(hdi_facemap *map);

static inline int hdi_facemap_hash(uint64_t key, int mask)
{
    return (int)(((key * 0x9E3779B97F4A7C15ull) >> 29) & (uint64_t)mask);
}

/* The entry id of key. When absent it is inserted (value -inf, aux -1, flags 0) and *found = 0;
 * returns -1 when the map is full. */
static inline int hdi_facemap_slot(hdi_facemap *map, uint64_t key, int *found)
{
    int i = hdi_facemap_hash(key, map->mask);
    for (;;) {
        int id = map->index[i] - 1;
        if (id < 0) {
            break;
        }
        if (map->keys[id] == key) {
            *found = 1;
            return id;
        }
        i = (i + 1) & map->mask;
    }
    *found = 0;
    if (map->count >= map->capacity) {
        return -1;
    }
    int id = map->count++;
    map->keys[id] = key;
    map->value[id] = -HUGE_VAL;
    map->aux[id] = -1;
    map->flags[id] = 0;
    map->index[i] = id + 1;
    if (2 * map->count > map->mask + 1 && map->mask + 1 < map->index_max) {
        hdi_facemap_grow(map);
    }
    return id;
}

/* Pushes an entry id for expansion; 0 when the stack is full. */
int hdi_facemap_push(hdi_facemap *map, int slot);

/* Pops an entry id; -1 when the stack is empty. */
int hdi_facemap_pop(hdi_facemap *map);

/* Whether the path is recorded: a workspace's path array is always there, recording is switched
 * by its capacity (hdi_facemap_open). */
static inline int hdi_facemap_recording(const hdi_facemap *map)
{
    return map->path != NULL && map->path_cap > 0;
}

/* Appends a step to the path when it is recorded (silently ignored otherwise). */
void hdi_facemap_record(hdi_facemap *map, int phase, hd_face_kind kind, int feature_a,
                        int feature_b, double dual_distance);

/* GJK's recorded path (hd_workspace_gjk_path), inside the workspace: a fixed array, so that
 * recording never allocates. */
typedef struct hdi_gjk_trace {
    hd_gjk_step steps[HD_GJK_PATH_MAX];
    int count;
} hdi_gjk_trace;

/* The workspace's GJK trace when opt asks for the path (HD_QUERY_RECORD_PATH with a workspace),
 * else NULL: GJK records into it (kernel/gjk_core.c). opt may be NULL. */
hdi_gjk_trace *hdi_workspace_gjk_trace(const hd_options *opt);

/* Empties both recorded paths; called by every query that asks for them (query/query.c). */
void hdi_workspace_paths_reset(hd_workspace *ws);

#endif
