/* The persistent pair table of a scene: one record per pair of bodies whose boxes overlap, kept
 * from frame to frame with its warm-start cache and last verdict (I-COLLIDE's frame coherence;
 * CD-Dual section 4.4). Records are dense (a removal moves the last record into the hole) so the
 * narrow phase runs over one array; a hash table maps the key (a, b) to its record. */
#ifndef HD_SCENE_PAIRS_H
#define HD_SCENE_PAIRS_H

#include <stddef.h>

#include "hedra/query.h"

typedef struct hdi_pair_rec {
    int a; /* body ids, a < b */
    int b;
    int tested; /* verdict and cache come from a query; 0 for a new pair */
    int mark;   /* scratch of the broad phase (SAP's rebuild) */
    int near;   /* separated, within the scene's proximity (its answer in the extra bytes) */
    hd_verdict verdict;
    hd_status status; /* of the last query */
    int piece_a;      /* compound bodies: the deciding pieces (-1: none, or a plain body) */
    int piece_b;
    double toi; /* a swept pair's time of impact, 1 otherwise */
    hd_cache cache;
} hdi_pair_rec;

typedef struct hdi_pair_table {
    hdi_pair_rec *recs;
    int count;
    int capacity;
    int *slots;    /* open addressing, linear probing: a record index or -1 */
    int slot_mask; /* slot count - 1 (a power of two, at least twice count) */
    int added;     /* counters since the last hdi_pairs_clear_counters */
    int removed;
    unsigned char *extra; /* extra_size bytes per record, kept beside it (the scene's contact
                             details); NULL when extra_size is 0 */
    size_t extra_size;
} hdi_pair_table;

/* An empty table whose records carry extra_size bytes each (0: none). */
void hdi_pairs_init(hdi_pair_table *t, size_t extra_size);

/* The extra bytes of record index. */
static inline void *hdi_pairs_extra(const hdi_pair_table *t, int index)
{
    return t->extra + (size_t)index * t->extra_size;
}
void hdi_pairs_free(hdi_pair_table *t);

/* The record index of (a, b) (in either order), or -1. */
int hdi_pairs_find(const hdi_pair_table *t, int a, int b);

/* Finds or inserts (a, b) (in either order, a != b); *index is its record. A new record is
 * untested with a reset cache. HD_ERR_NO_MEMORY leaves the table as it was. */
hd_status hdi_pairs_add(hdi_pair_table *t, int a, int b, int *index);

/* Room for count records in all, the hash table at most half full, so that adding up to that
 * many cannot fail (a batch of pairs known in advance grows the table once). HD_ERR_NO_MEMORY
 * leaves the table usable as it was. */
hd_status hdi_pairs_reserve(hdi_pair_table *t, int count);

/* Removes record index; the last record moves into its place. */
void hdi_pairs_remove_at(hdi_pair_table *t, int index);

#endif
