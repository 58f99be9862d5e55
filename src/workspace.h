/* The scratch memory of the CD-Dual searches (cddual*.c, gap.c): a map of the candidate faces of
 * the Minkowski difference M = A - B already examined in one search (faces of A or B with their
 * supporting vertex, and edge pairs), a stack of faces still to expand, and the search path.
 *
 * Queries never allocate: the map lives either in a caller-owned hd_workspace (created once by
 * hd_workspace_create, the only allocation) or in an hd_facemap_scratch on the caller's stack.
 * Both have a fixed capacity; a search that needs more returns HD_ERR_WORKSPACE_FULL.
 *
 * The map is an open-addressing hash table with linear probing and no deletion; a key is never 0
 * (its top two bits hold the face kind, 1..3), so 0 marks an empty slot. Slots in use are listed
 * in `used` so that emptying the map costs O(entries), not O(table). */
#ifndef HD_WORKSPACE_H
#define HD_WORKSPACE_H

#include <math.h>
#include <stdint.h>

#include "hedra/query.h"

/* flags of a map entry */
#define HD_FACEMAP_FACE 1u     /* the candidate is a face of M (an edge pair may not be) */
#define HD_FACEMAP_EXPANDED 2u /* its neighbours have been examined (SEARCH-EE) */

typedef struct hd_facemap {
    uint64_t *keys;
    double *value;        /* objective of the search (psi), -inf when not a face */
    int *aux;             /* the supporting vertex found with the face (FV: of B, VF: of A) */
    unsigned char *flags;
    int mask;             /* table size - 1 (a power of two minus one) */
    int count;            /* entries in use */
    int capacity;         /* largest count allowed */
    int *used;            /* the slots in use, capacity entries */
    int *stack;           /* slots waiting for expansion */
    int top;
    int stack_cap;
    hd_path_step *path;   /* NULL when the path is not recorded */
    int path_count;
    int path_cap;
} hd_facemap;

/* Size of the stack scratch used when hd_options.workspace is NULL: 1024 candidates (faces and
 * edge pairs) per search, about 40 KB. A query on two 1000-vertex ellipsoids near contact
 * examines a few hundred (docs/algorithms/cddual.md); larger or more elongated inputs may need a
 * workspace. */
#define HD_FACEMAP_SCRATCH 1024

typedef struct hd_facemap_scratch {
    hd_facemap map;
    uint64_t keys[2 * HD_FACEMAP_SCRATCH];
    double value[2 * HD_FACEMAP_SCRATCH];
    int aux[2 * HD_FACEMAP_SCRATCH];
    int used[HD_FACEMAP_SCRATCH];
    int stack[HD_FACEMAP_SCRATCH + 8];
    unsigned char flags[2 * HD_FACEMAP_SCRATCH];
} hd_facemap_scratch;

/* The map of a query: the workspace's when ws is not NULL (its path is recorded when record is
 * set, and reset here), else the scratch's (no path). The map is returned empty. */
hd_facemap *hd_facemap_open(hd_workspace *ws, hd_facemap_scratch *scratch, int record);

/* Empties the entries and the stack (the path is kept). */
void hd_facemap_clear(hd_facemap *map);

/* The slot of key. When absent it is inserted (value -inf, aux -1, flags 0) and *found = 0;
 * returns -1 when the map is full. */
static inline int hd_facemap_slot(hd_facemap *map, uint64_t key, int *found)
{
    uint64_t h = (key * 0x9E3779B97F4A7C15ull) >> 29;
    int i = (int)(h & (uint64_t)map->mask);
    for (;;) {
        uint64_t k = map->keys[i];
        if (k == key) {
            *found = 1;
            return i;
        }
        if (k == 0) {
            break;
        }
        i = (i + 1) & map->mask;
    }
    *found = 0;
    if (map->count >= map->capacity) {
        return -1;
    }
    map->keys[i] = key;
    map->value[i] = -HUGE_VAL;
    map->aux[i] = -1;
    map->flags[i] = 0;
    map->used[map->count++] = i;
    return i;
}

/* Pushes a slot for expansion; 0 when the stack is full. */
int hd_facemap_push(hd_facemap *map, int slot);

/* Pops a slot; -1 when the stack is empty. */
int hd_facemap_pop(hd_facemap *map);

/* Appends a step to the path when it is recorded (silently ignored otherwise). */
void hd_facemap_record(hd_facemap *map, hd_face_kind kind, int feature_a, int feature_b,
                       double dual_distance);

#endif
