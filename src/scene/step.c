/* One frame of a scene: sync, then the narrow phase on every thread, then the contacts sorted by
 * body ids. A pair is queried when it is new or one of its bodies moved since the last step
 * (I-COLLIDE's frame coherence: the other pairs keep their verdict); each query warm-starts from
 * the pair's own cache and writes only the pair's record, so the records a thread writes are
 * disjoint from every other thread's and the answers do not depend on who ran them. */
#include <stdlib.h>
#include <string.h>

#include "scene/internal.h"

/* Pairs per chunk of the parallel narrow phase (a query costs 0.2 to a few us) and of the scans
 * of the pair table (a few ns per pair). */
#define HD_SCENE_PAIR_CHUNK 16
#define HD_SCENE_SCAN_CHUNK 2048

/* The radix sort of the contacts: digits of 11 bits (2048 buckets), from 256 contacts on. */
#define HD_SCENE_RADIX_BITS 11
#define HD_SCENE_RADIX (1 << HD_SCENE_RADIX_BITS)
#define HD_SCENE_RADIX_MIN 256

/* A pair found in contact, with a detail level: hd_signed_distance or hd_contact_manifold on the
 * same worker, warm-started from the pair's cache (which hd_collide just updated), into the
 * pair's extra bytes. */
static hd_status contact_query(const hd_scene *s, int index, const hd_options *opt)
{
    const hd_pair_rec *r = &s->pairs.recs[index];
    const hd_body *a = &s->bodies[r->a], *b = &s->bodies[r->b];
    hd_pair_detail *d = hd_pairs_extra(&s->pairs, index);
    if (s->opt.detail == HD_SCENE_MANIFOLD) {
        return hd_contact_manifold(a->shape, &a->pose, b->shape, &b->pose, opt, &d->contact,
                                   &d->manifold);
    }
    return hd_signed_distance(a->shape, &a->pose, b->shape, &b->pose, opt, &d->contact);
}

static void narrow_chunk(void *ctx, int worker, int begin, int end)
{
    hd_scene *s = ctx;
    hd_options opt = hd_options_default();
    opt.algo = s->opt.algo;
    opt.tol = s->opt.tol;
    opt.workspace = s->opt.algo == HD_ALGO_CDDUAL ? s->ws[worker] : NULL;
    hd_options copt = opt; /* the contact queries' */
    copt.workspace = s->ws != NULL ? s->ws[worker] : NULL;
    for (int i = begin; i < end; ++i) {
        int index = s->work.ids[i];
        hd_pair_rec *r = &s->pairs.recs[index];
        const hd_box *ba = &s->boxes[r->a], *bb = &s->boxes[r->b];
        if (!hd_box_overlap(ba->lo, ba->hi, bb->lo, bb->hi)) {
            r->verdict = HD_SEPARATED; /* the boxes part by more than the touching band */
            r->status = HD_OK;
            r->tested = 1;
            continue;
        }
        const hd_body *a = &s->bodies[r->a], *b = &s->bodies[r->b];
        hd_result res;
        opt.cache = copt.cache = &r->cache;
        r->status = hd_collide(a->shape, &a->pose, b->shape, &b->pose, &opt, &res);
        r->verdict = r->status == HD_OK ? res.verdict : HD_SEPARATED;
        if (r->verdict != HD_SEPARATED && s->opt.detail != HD_SCENE_VERDICT) {
            r->status = contact_query(s, index, &copt);
        }
        r->tested = r->status == HD_OK; /* a failed pair is asked again next step */
    }
}

/* Room for one more contact in a lane (grown here, on the worker's thread). */
static int lane_contact_room(hd_lane *lane)
{
    if (lane->contact_count < lane->contact_capacity) {
        return 1;
    }
    int cap = lane->contact_capacity > 0 ? 2 * lane->contact_capacity : 64;
    hd_scene_contact *c = realloc(lane->contacts, (size_t)cap * sizeof *c);
    if (c == NULL) {
        lane->status = HD_ERR_NO_MEMORY;
        return 0;
    }
    lane->contacts = c;
    lane->contact_capacity = cap;
    return 1;
}

static int push(hd_lane *lane, hd_idlist *list, int value)
{
    if (hd_idlist_push(list, value) != HD_OK) {
        lane->status = HD_ERR_NO_MEMORY;
        return 0;
    }
    return 1;
}

/* Each pair, on every thread: dropped (tree: a body was refattened and the fattened boxes parted),
 * to be queried (new, or a body moved), or kept as it is. */
static void classify_chunk(void *ctx, int worker, int begin, int end)
{
    hd_scene *s = ctx;
    hd_lane *lane = &s->lanes[worker];
    for (int i = begin; i < end && lane->status == HD_OK; ++i) {
        const hd_pair_rec *r = &s->pairs.recs[i];
        unsigned flags = s->flags[r->a] | s->flags[r->b];
        if (flags & HD_BODY_REFAT) {
            const hd_box *a = &s->fat[r->a], *b = &s->fat[r->b];
            if (!hd_box_overlap(a->lo, a->hi, b->lo, b->hi)) {
                push(lane, &lane->drop, i);
                continue;
            }
        }
        if (!r->tested || (flags & HD_BODY_MOVED)) {
            push(lane, &lane->work, i);
        }
    }
}

/* Is (a, b) before (c, d)? */
static int pair_less(int a, int b, int c, int d)
{
    return a < c || (a == c && b < d);
}

/* A failed pair in a lane's counters: the first by ids is kept. */
static void note_failure(hd_lane *lane, const hd_pair_rec *r)
{
    if (lane->failures++ == 0 || pair_less(r->a, r->b, lane->failed_a, lane->failed_b)) {
        lane->failed_a = r->a;
        lane->failed_b = r->b;
        lane->failed_status = r->status;
    }
}

/* The pairs in contact, on every thread (the dropped pairs are marked and skipped). */
static void gather_chunk(void *ctx, int worker, int begin, int end)
{
    hd_scene *s = ctx;
    hd_lane *lane = &s->lanes[worker];
    for (int i = begin; i < end && lane->status == HD_OK; ++i) {
        const hd_pair_rec *r = &s->pairs.recs[i];
        if (r->mark) {
            continue;
        }
        if (r->status != HD_OK) {
            note_failure(lane, r);
        } else if (r->verdict != HD_SEPARATED && lane_contact_room(lane)) {
            hd_scene_contact *c = &lane->contacts[lane->contact_count++];
            c->a = r->a;
            c->b = r->b;
            c->verdict = r->verdict;
            c->user_a = s->bodies[r->a].user;
            c->user_b = s->bodies[r->b].user;
            /* the pair's own record for now; copy_details moves it out of the table */
            const hd_pair_detail *d =
                s->opt.detail != HD_SCENE_VERDICT ? hd_pairs_extra(&s->pairs, i) : NULL;
            c->contact = d != NULL ? &d->contact : NULL;
            c->manifold = s->opt.detail == HD_SCENE_MANIFOLD ? &d->manifold : NULL;
        }
    }
}

static int compare_contacts(const void *pa, const void *pb)
{
    const hd_scene_contact *a = pa, *b = pb;
    if (a->a != b->a) {
        return a->a < b->a ? -1 : 1;
    }
    return (a->b > b->b) - (a->b < b->b);
}

static int compare_desc(const void *pa, const void *pb)
{
    int a = *(const int *)pa, b = *(const int *)pb;
    return (a < b) - (a > b);
}

/* Runs fn over the pairs on every thread with fresh lanes; the first lane error, else HD_OK. */
static hd_status run_lanes(hd_scene *s, hd_pool_fn fn)
{
    int threads = hd_pool_threads(s->pool);
    for (int w = 0; w < threads; ++w) {
        hd_lane *lane = &s->lanes[w];
        lane->status = HD_OK;
        lane->work.count = lane->drop.count = lane->contact_count = lane->failures = 0;
    }
    hd_pool_run(s->pool, fn, s, s->pairs.count, HD_SCENE_SCAN_CHUNK);
    for (int w = 0; w < threads; ++w) {
        if (s->lanes[w].status != HD_OK) {
            return s->lanes[w].status;
        }
    }
    return HD_OK;
}

/* The lanes' work lists into s->work; the dropped pairs marked, their indices into s->scratch. */
static hd_status merge_work(hd_scene *s)
{
    int threads = hd_pool_threads(s->pool);
    s->work.count = s->scratch.count = 0;
    for (int w = 0; w < threads; ++w) {
        const hd_lane *lane = &s->lanes[w];
        hd_status st = hd_idlist_reserve(&s->scratch, s->scratch.count + lane->drop.count);
        if (st != HD_OK) {
            return st;
        }
        if (lane->work.count > 0) {
            memcpy(s->work.ids + s->work.count, lane->work.ids,
                   (size_t)lane->work.count * sizeof(int));
            s->work.count += lane->work.count;
        }
        for (int k = 0; k < lane->drop.count; ++k) {
            s->pairs.recs[lane->drop.ids[k]].mark = 1;
            s->scratch.ids[s->scratch.count++] = lane->drop.ids[k];
        }
    }
    return HD_OK;
}

/* One stable pass of the radix sort: the contacts from `from` to `to` by the digit of a
 * (key 1) or b (key 0) at bit `shift`. 0 when every contact has the same digit (nothing
 * moved). */
static int radix_pass(const hd_scene_contact *from, hd_scene_contact *to, int count, int key,
                      int shift)
{
    int start[HD_SCENE_RADIX + 1] = {0};
    const unsigned mask = HD_SCENE_RADIX - 1;
    for (int i = 0; i < count; ++i) {
        start[(((unsigned)(key ? from[i].a : from[i].b)) >> shift & mask) + 1]++;
    }
    for (int d = 0; d < HD_SCENE_RADIX; ++d) {
        if (start[d + 1] == count) {
            return 0;
        }
        start[d + 1] += start[d];
    }
    for (int i = 0; i < count; ++i) {
        to[start[((unsigned)(key ? from[i].a : from[i].b)) >> shift & mask]++] = from[i];
    }
    return 1;
}

/* The contacts sorted by (a, b): a least-significant-digit radix sort (Knuth, TAOCP vol. 3,
 * section 5.2.5), b's digits then a's, over the bits the ids use, each pass stable; short lists
 * by qsort. */
static void sort_contacts(hd_scene *s)
{
    int n = s->contact_count;
    if (n < HD_SCENE_RADIX_MIN) {
        if (n > 1) {
            qsort(s->contacts, (size_t)n, sizeof *s->contacts, compare_contacts);
        }
        return;
    }
    int bits = 1;
    while (bits < 31 && (1 << bits) < s->body_ids) {
        bits++;
    }
    hd_scene_contact *from = s->contacts, *to = s->contact_tmp;
    for (int key = 0; key < 2; ++key) {
        for (int shift = 0; shift < bits; shift += HD_SCENE_RADIX_BITS) {
            if (radix_pass(from, to, n, key, shift)) {
                hd_scene_contact *t = from;
                from = to;
                to = t;
            }
        }
    }
    if (from != s->contacts) {
        memcpy(s->contacts, from, (size_t)n * sizeof *from);
    }
}

/* The lanes' contacts into s->contacts, sorted; the failures combined. */
static void merge_contacts(hd_scene *s)
{
    int threads = hd_pool_threads(s->pool);
    hd_scene_stats *st = &s->stats;
    s->contact_count = 0;
    st->failures = 0; /* a step repeated after HD_ERR_NO_MEMORY counts them once */
    for (int w = 0; w < threads; ++w) {
        const hd_lane *lane = &s->lanes[w];
        if (lane->contact_count > 0) {
            memcpy(s->contacts + s->contact_count, lane->contacts,
                   (size_t)lane->contact_count * sizeof *s->contacts);
            s->contact_count += lane->contact_count;
        }
        if (lane->failures > 0 && (st->failures == 0 || pair_less(lane->failed_a, lane->failed_b,
                                                                  st->failed_a, st->failed_b))) {
            st->failed_a = lane->failed_a;
            st->failed_b = lane->failed_b;
            st->failed_status = lane->failed_status;
        }
        st->failures += lane->failures;
    }
    sort_contacts(s);
}

/* Details of contacts [begin, end) copied from the pair records to the scene's own arrays, by
 * place in the sorted contacts (disjoint slots), before remove_dropped moves records. */
static void copy_chunk(void *ctx, int worker, int begin, int end)
{
    hd_scene *s = ctx;
    (void)worker;
    for (int i = begin; i < end; ++i) {
        hd_scene_contact *c = &s->contacts[i];
        s->out_contact[i] = *c->contact;
        c->contact = &s->out_contact[i];
        if (c->manifold != NULL) {
            s->out_manifold[i] = *c->manifold;
            c->manifold = &s->out_manifold[i];
        }
    }
}

/* Room for the details of every contact (grown geometrically, as the contacts). */
static hd_status reserve_details(hd_scene *s)
{
    if (s->opt.detail == HD_SCENE_VERDICT || s->out_capacity >= s->contact_count) {
        return HD_OK;
    }
    int cap = s->out_capacity > 0 ? s->out_capacity : 64;
    while (cap < s->contact_count) {
        cap *= 2;
    }
    hd_contact *c = realloc(s->out_contact, (size_t)cap * sizeof *c);
    if (c == NULL) {
        return HD_ERR_NO_MEMORY;
    }
    s->out_contact = c;
    if (s->opt.detail == HD_SCENE_MANIFOLD) {
        hd_manifold *m = realloc(s->out_manifold, (size_t)cap * sizeof *m);
        if (m == NULL) {
            return HD_ERR_NO_MEMORY;
        }
        s->out_manifold = m;
    }
    s->out_capacity = cap;
    return HD_OK;
}

static void unmark_dropped(hd_scene *s)
{
    for (int k = 0; k < s->scratch.count; ++k) {
        s->pairs.recs[s->scratch.ids[k]].mark = 0;
    }
    s->scratch.count = 0;
}

/* Removes the dropped pairs, largest index first (a removal moves the last record, which is
 * then never a dropped one). */
static void remove_dropped(hd_scene *s)
{
    if (s->scratch.count > 1) {
        qsort(s->scratch.ids, (size_t)s->scratch.count, sizeof(int), compare_desc);
    }
    for (int k = 0; k < s->scratch.count; ++k) {
        hd_pairs_remove_at(&s->pairs, s->scratch.ids[k]);
    }
    s->scratch.count = 0;
}

/* Room for the work list and the contacts of every pair in the table. */
static hd_status reserve_results(hd_scene *s)
{
    hd_status st = hd_idlist_reserve(&s->work, s->pairs.count);
    if (st != HD_OK || s->contact_capacity >= s->pairs.count) {
        return st;
    }
    int cap = s->contact_capacity > 0 ? s->contact_capacity : 64;
    while (cap < s->pairs.count) {
        cap *= 2;
    }
    hd_scene_contact *c = realloc(s->contacts, (size_t)cap * sizeof *c);
    if (c == NULL) {
        return HD_ERR_NO_MEMORY;
    }
    s->contacts = c;
    c = realloc(s->contact_tmp, (size_t)cap * sizeof *c);
    if (c == NULL) {
        return HD_ERR_NO_MEMORY;
    }
    s->contact_tmp = c;
    s->contact_capacity = cap;
    return HD_OK;
}

/* End of the step: counters out, moved flags cleared, removed ids freed. */
static void finish(hd_scene *s, hd_scene_stats *out)
{
    hd_scene_stats *st = &s->stats;
    st->bodies = s->live;
    st->moved = hd_scene_clear_flags(s, &s->moved, HD_BODY_MOVED | HD_BODY_REFAT);
    s->moved.count = 0;
    for (int i = 0; i < s->removed.count; ++i) {
        hd_body *b = &s->bodies[s->removed.ids[i]];
        b->state = HD_BODY_FREE;
        s->flags[s->removed.ids[i]] = 0;
        b->next_free = s->free_head;
        s->free_head = s->removed.ids[i];
    }
    s->removed.count = 0;
    st->pairs = s->pairs.count;
    st->pairs_added = s->pairs.added;
    st->pairs_removed = s->pairs.removed;
    st->tested = s->work.count;
    st->contacts = s->contact_count;
    st->threads = hd_pool_threads(s->pool);
    if (out != NULL) {
        *out = *st;
    }
    s->pairs.added = s->pairs.removed = 0;
    hd_scene_stats zero = {0};
    *st = zero;
}

hd_status hd_scene_step(hd_scene *s, const hd_scene_contact **contacts, int *count,
                        hd_scene_stats *stats)
{
    if (contacts != NULL) {
        *contacts = NULL;
    }
    if (count != NULL) {
        *count = 0;
    }
    if (s == NULL || contacts == NULL || count == NULL) {
        return HD_ERR_NULL;
    }
    hd_status st = hd_scene_sync(s);
    if (st == HD_OK) {
        st = reserve_results(s);
    }
    long long t0 = hd_scene_now_ns();
    s->scratch.count = 0;
    if (st == HD_OK && (st = run_lanes(s, classify_chunk)) == HD_OK) {
        st = merge_work(s);
    }
    if (st == HD_OK) {
        hd_pool_run(s->pool, narrow_chunk, s, s->work.count, HD_SCENE_PAIR_CHUNK);
    }
    long long t1 = hd_scene_now_ns();
    if (st == HD_OK) {
        st = run_lanes(s, gather_chunk);
    }
    if (st == HD_OK) {
        merge_contacts(s);
        st = reserve_details(s);
    }
    if (st != HD_OK) {
        unmark_dropped(s); /* nothing was removed: the step may be repeated */
        return st;
    }
    if (s->opt.detail != HD_SCENE_VERDICT) {
        hd_pool_run(s->pool, copy_chunk, s, s->contact_count, HD_SCENE_PAIR_CHUNK * 4);
    }
    remove_dropped(s);
    s->stats.narrow_ns += t1 - t0;
    s->stats.sort_ns += hd_scene_now_ns() - t1;
    hd_status failed = s->stats.failures > 0 ? s->stats.failed_status : HD_OK;
    finish(s, stats);
    *contacts = s->contacts;
    *count = s->contact_count;
    return failed;
}
