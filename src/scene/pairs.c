/* The pair table: dense records plus an open-addressing hash table with linear probing and
 * backward-shift deletion (Knuth, TAOCP vol. 3, section 6.4, Algorithm R), so that no tombstones
 * accumulate however many pairs come and go. Both arrays grow geometrically and never shrink. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "scene/pairs.h"

#define HD_PAIRS_MIN_SLOTS 64

void hdi_pairs_init(hdi_pair_table *t, size_t extra_size)
{
    memset(t, 0, sizeof *t);
    t->slot_mask = -1;
    t->extra_size = extra_size;
}

void hdi_pairs_free(hdi_pair_table *t)
{
    size_t extra_size = t->extra_size;
    free(t->recs);
    free(t->slots);
    free(t->extra);
    hdi_pairs_init(t, extra_size);
}

/* The home slot of a key: a 64-bit mix (the splitmix64 finalizer) of (a, b), a < b. */
static int home(const hdi_pair_table *t, int a, int b)
{
    uint64_t x = ((uint64_t)(uint32_t)a << 32) | (uint32_t)b;
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return (int)(x & (uint64_t)t->slot_mask);
}

/* The slot holding (a, b), or the empty slot where it would go. */
static int probe(const hdi_pair_table *t, int a, int b)
{
    int s = home(t, a, b);
    for (;;) {
        int r = t->slots[s];
        if (r < 0 || (t->recs[r].a == a && t->recs[r].b == b)) {
            return s;
        }
        s = (s + 1) & t->slot_mask;
    }
}

int hdi_pairs_find(const hdi_pair_table *t, int a, int b)
{
    if (a > b) {
        int c = a;
        a = b;
        b = c;
    }
    return t->slot_mask < 0 ? -1 : t->slots[probe(t, a, b)];
}

/* Rebuilds the hash table with slot_count slots (a power of two). */
static hd_status rehash(hdi_pair_table *t, int slot_count)
{
    int *slots = malloc((size_t)slot_count * sizeof *slots);
    if (slots == NULL) {
        return HD_ERR_NO_MEMORY;
    }
    free(t->slots);
    t->slots = slots;
    t->slot_mask = slot_count - 1;
    memset(slots, 0xff, (size_t)slot_count * sizeof *slots); /* every slot -1 */
    for (int i = 0; i < t->count; ++i) {
        t->slots[probe(t, t->recs[i].a, t->recs[i].b)] = i;
    }
    return HD_OK;
}

hd_status hdi_pairs_reserve(hdi_pair_table *t, int count)
{
    if (count > t->capacity) {
        if (count > (1 << 28)) {
            return HD_ERR_NO_MEMORY; /* the hash table's slots would overflow an int */
        }
        int failed = 0;
        int cap = hdi_array_grown_capacity(t->capacity, count, HD_PAIRS_MIN_SLOTS / 2,
                                           sizeof(hdi_pair_rec) + t->extra_size);
        hdi_array_resize(&t->recs, cap, sizeof *t->recs, &failed);
        if (t->extra_size > 0) {
            hdi_array_resize(&t->extra, cap, t->extra_size, &failed);
        }
        if (failed) { /* recs may have grown; the capacity stays: the next call retries */
            return HD_ERR_NO_MEMORY;
        }
        t->capacity = cap;
    }
    int slots = t->slot_mask > 0 ? t->slot_mask + 1 : HD_PAIRS_MIN_SLOTS;
    while (2 * count > slots) {
        slots *= 2;
    }
    return slots > t->slot_mask + 1 ? rehash(t, slots) : HD_OK;
}

hd_status hdi_pairs_add(hdi_pair_table *t, int a, int b, int *index)
{
    if (a > b) {
        int c = a;
        a = b;
        b = c;
    }
    int s = t->slot_mask < 0 ? -1 : probe(t, a, b);
    if (s >= 0 && t->slots[s] >= 0) {
        *index = t->slots[s];
        return HD_OK;
    }
    hd_status st = hdi_pairs_reserve(t, t->count + 1);
    if (st != HD_OK) {
        return st;
    }
    s = probe(t, a, b); /* the table may have been rebuilt */
    hdi_pair_rec *r = &t->recs[t->count];
    memset(r, 0, sizeof *r);
    r->a = a;
    r->b = b;
    r->verdict = HD_SEPARATED;
    hd_cache_reset(&r->cache);
    t->slots[s] = t->count;
    *index = t->count++;
    t->added++;
    return HD_OK;
}

/* Empties slot s and shifts back the entries of its probe run that may fill it. */
static void delete_slot(hdi_pair_table *t, int s)
{
    int hole = s;
    int j = s;
    for (;;) {
        j = (j + 1) & t->slot_mask;
        int r = t->slots[j];
        if (r < 0) {
            break;
        }
        int h = home(t, t->recs[r].a, t->recs[r].b);
        /* the entry at j may move to the hole when its home is not cyclically in (hole, j] */
        int in_between = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j);
        if (!in_between) {
            t->slots[hole] = r;
            hole = j;
        }
    }
    t->slots[hole] = -1;
}

void hdi_pairs_remove_at(hdi_pair_table *t, int index)
{
    hdi_pair_rec *r = &t->recs[index];
    delete_slot(t, probe(t, r->a, r->b));
    int last = t->count - 1;
    if (index != last) {
        t->slots[probe(t, t->recs[last].a, t->recs[last].b)] = index;
        t->recs[index] = t->recs[last];
        if (t->extra_size > 0) {
            memcpy(hdi_pairs_extra(t, index), hdi_pairs_extra(t, last), t->extra_size);
        }
    }
    t->count = last;
    t->removed++;
}
