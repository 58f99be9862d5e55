/* One frame of a scene: the boxes, the broad phase and the narrow phase on every thread, then the
 * contacts sorted by body ids. A pair is queried when it is new or one of its bodies moved since
 * the last step (I-COLLIDE's frame coherence: the other pairs keep their verdict); each query
 * warm-starts from the pair's own cache and writes only the pair's record, so the records a thread
 * writes are disjoint from every other thread's and the answers do not depend on who ran them.
 * With the tree, the pairs already in the table are queried while the caller's thread places
 * the bodies that left their fattened boxes and looks for their new pairs (the serial part of the
 * broad phase); the pairs it finds are queried after it. */
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "scene/internal.h"
#include "core/tolerances.h"

/* Pairs per chunk of the parallel narrow phase, from 16 up to 256 (hdi_scene_chunk): most pairs
 * are only scanned, a moved pair's query costs far more, so small chunks keep the threads even. */
#define HD_SCENE_PAIR_CHUNK 16
#define HD_SCENE_PAIR_CHUNK_MAX 256

/* The radix sort of the contacts' keys: digits of 8 bits (256 buckets). */
#define HD_SCENE_RADIX_BITS 8
#define HD_SCENE_RADIX (1 << HD_SCENE_RADIX_BITS)

/* A pair found in contact, with a detail level: hd_signed_distance or hd_contact_manifold on the
 * same worker, warm-started from the pair's cache (which hd_collide just updated), into the
 * pair's extra bytes. */
static hd_status contact_query(const hd_scene *s, int index, const hd_options *opt)
{
    const hdi_pair_rec *r = &s->pairs.recs[index];
    const hdi_body *a = &s->bodies[r->a], *b = &s->bodies[r->b];
    hdi_pair_detail *d = hdi_pairs_extra(&s->pairs, index);
    if (s->opt.detail == HD_SCENE_MANIFOLD) {
        return hd_contact_manifold(a->shape, &a->pose, b->shape, &b->pose, opt, &d->contact,
                                   &d->manifold);
    }
    return hd_signed_distance(a->shape, &a->pose, b->shape, &b->pose, opt, &d->contact);
}

/* Room for one more contact in a lane (grown here, on the worker's thread: its own flag). */
static int lane_contact_room(hdi_lane *lane)
{
    return hdi_array_reserve(&lane->contacts, &lane->contact_capacity, lane->contact_count + 1,
                             HD_SCENE_MIN_CONTACTS, sizeof *lane->contacts, &lane->out_of_memory);
}

/* Is (a, b) before (c, d)? */
static int pair_less(int a, int b, int c, int d)
{
    return a < c || (a == c && b < d);
}

/* A failed pair in a lane's counters: the first by ids is kept. */
static void note_failure(hdi_lane *lane, const hdi_pair_rec *r)
{
    if (lane->failures++ == 0 || pair_less(r->a, r->b, lane->failed_a, lane->failed_b)) {
        lane->failed_a = r->a;
        lane->failed_b = r->b;
        lane->failed_status = r->status;
    }
}

/* Pair `index` into the lane's contacts when it is in contact, or its failure into the lane's
 * counters. The contact's details are found by copy_chunk once the table stops growing. */
static void emit(const hd_scene *s, hdi_lane *lane, int index)
{
    const hdi_pair_rec *r = &s->pairs.recs[index];
    if (r->status != HD_OK) {
        note_failure(lane, r);
    } else if ((r->verdict != HD_SEPARATED || r->near) && lane_contact_room(lane)) {
        hd_scene_contact *c = &lane->contacts[lane->contact_count++];
        c->a = r->a;
        c->b = r->b;
        c->verdict = r->verdict;
        c->user_a = s->bodies[r->a].user;
        c->user_b = s->bodies[r->b].user;
        c->contact = NULL;
        c->manifold = NULL;
        c->piece_a = r->piece_a;
        c->piece_b = r->piece_b;
        c->point_pieces = NULL;
        c->toi = r->toi;
    }
}

/* The options of the queries on a worker: the scene's algorithm and tolerances, its workspace. */
static void narrow_options(const hd_scene *s, int worker, hd_options *opt, hd_options *copt)
{
    *opt = hd_options_default();
    opt->algo = s->opt.algo;
    opt->tol = s->opt.tol;
    opt->workspace = s->opt.algo == HD_ALGO_CDDUAL ? s->ws[worker] : NULL;
    *copt = *opt; /* the contact queries' */
    copt->workspace = s->ws != NULL ? s->ws[worker] : NULL;
    copt->flags |= s->opt.gradient ? HD_QUERY_GRADIENT : 0u;
}

/* A separated pair whose separating plane leaves a gap below the proximity: its signed distance
 * (the gap is a lower bound on the distance, so the other pairs are proven farther apart). */
static void proximity_query(const hd_scene *s, int index, const hd_collide_result *res,
                            const hd_options *copt)
{
    hdi_pair_rec *r = &s->pairs.recs[index];
    if (res->cert.has_plane && res->cert.gap >= s->opt.proximity) {
        return;
    }
    r->status = contact_query(s, index, copt);
    const hdi_pair_detail *d = hdi_pairs_extra(&s->pairs, index);
    r->near = r->status == HD_OK && d->contact.signed_distance < s->opt.proximity;
}

/* The pieces of a compound answer as the contact reports them: -1 on a plain body's side. */
static void set_pieces(hdi_pair_rec *r, const hdi_body *a, const hdi_body *b, int pa, int pb)
{
    r->piece_a = a->compound != NULL ? pa : -1;
    r->piece_b = b->compound != NULL ? pb : -1;
}

/* A compound pair's detail: hd_compound_signed_distance (or the manifold) into the pair's extra
 * bytes, the deciding pieces into its record. The manifold's points keep their pieces; their
 * normals, each its pair's own, give way to the manifold's (the deepest pair's). */
static hd_status compound_detail(const hd_scene *s, int index, const hd_options *copt)
{
    hdi_pair_rec *r = &s->pairs.recs[index];
    const hdi_body *a = &s->bodies[r->a], *b = &s->bodies[r->b];
    const hd_compound *ca = hdi_body_as_compound(a), *cb = hdi_body_as_compound(b);
    hdi_pair_detail *d = hdi_pairs_extra(&s->pairs, index);
    hd_compound_signed_distance_result csd;
    hd_status st;
    if (s->opt.detail == HD_SCENE_MANIFOLD) {
        hd_compound_manifold m;
        st = hd_compound_contact_manifold(ca, &a->pose, cb, &b->pose, copt, &csd, &m);
        d->manifold.count = st == HD_OK ? m.count : 0;
        for (int k = 0; k < 3 && st == HD_OK; ++k) {
            d->manifold.normal[k] = m.normal[k];
        }
        for (int i = 0; i < d->manifold.count; ++i) {
            d->manifold.points[i] = m.points[i].contact;
            d->pieces[2 * i] = a->compound != NULL ? m.points[i].piece_a : -1;
            d->pieces[2 * i + 1] = b->compound != NULL ? m.points[i].piece_b : -1;
        }
    } else {
        st = hd_compound_signed_distance(ca, &a->pose, cb, &b->pose, copt, &csd);
    }
    if (st == HD_OK) {
        d->contact = csd.pair;
        d->contact.signed_distance = csd.signed_distance;
        set_pieces(r, a, b, csd.piece_a, csd.piece_b);
    }
    return st;
}

/* A pair with a compound body: hd_compound_collide, then its detail or its proximity. */
static void test_compound_pair(const hd_scene *s, int index, hd_options *opt, hd_options *copt)
{
    hdi_pair_rec *r = &s->pairs.recs[index];
    const hdi_body *a = &s->bodies[r->a], *b = &s->bodies[r->b];
    hd_compound_collide_result res;
    opt->cache = copt->cache = NULL; /* the piece queries start cold (hedra/compound.h) */
    r->status = hd_compound_collide(hdi_body_as_compound(a), &a->pose, hdi_body_as_compound(b),
                                    &b->pose, opt, &res);
    r->verdict = r->status == HD_OK ? res.verdict : HD_SEPARATED;
    if (r->verdict != HD_SEPARATED) {
        set_pieces(r, a, b, res.piece_a, res.piece_b);
    }
    if (r->verdict != HD_SEPARATED && s->opt.detail != HD_SCENE_VERDICT) {
        r->status = compound_detail(s, index, copt);
    } else if (r->status == HD_OK && s->opt.proximity > 0.0) {
        r->status = compound_detail(s, index, copt);
        const hdi_pair_detail *d = hdi_pairs_extra(&s->pairs, index);
        r->near = r->status == HD_OK && d->contact.signed_distance < s->opt.proximity;
    }
}

/* The earliest impact over the pairs of pieces of a swept pair (each piece moves with its body's
 * twist about the body's frame origin): hd_toi for two plain bodies, hd_compound_toi (the piece
 * trees' pruning) when either is a compound; best->hit stays false when none meets. */
static hd_status earliest_impact(const hdi_body *a, const hdi_body *b, const hd_toi_options *to,
                                 hd_toi_result *best, int *best_a, int *best_b)
{
    hd_motion ma, mb;
    hdi_body_motion(a, &ma);
    hdi_body_motion(b, &mb);
    if (a->compound == NULL && b->compound == NULL) {
        *best_a = *best_b = 0;
        return hd_toi(a->shape, &ma, b->shape, &mb, to, best);
    }
    hd_compound_toi_result res;
    hd_status st =
        hd_compound_toi(hdi_body_as_compound(a), &ma, hdi_body_as_compound(b), &mb, to, &res);
    *best = res.toi;
    *best_a = res.piece_a;
    *best_b = res.piece_b;
    return st;
}

/* A swept pair apart at the start of the frame: the earliest time of impact over the frame
 * (hd_toi), and at it the contact (and manifold) of the pieces that meet. */
static void sweep_pair(const hd_scene *s, int index, const hd_options *opt, hd_options *copt)
{
    hdi_pair_rec *r = &s->pairs.recs[index];
    const hdi_body *a = &s->bodies[r->a], *b = &s->bodies[r->b];
    hd_toi_options to = hd_toi_options_default();
    to.query = *opt;
    to.query.cache = NULL;
    hd_toi_result best;
    int pa = -1, pb = -1;
    r->status = earliest_impact(a, b, &to, &best, &pa, &pb);
    if (r->status != HD_OK || !best.hit) {
        return;
    }
    r->verdict = HD_TOUCHING;
    r->toi = best.toi;
    r->near = 0;
    set_pieces(r, a, b, pa, pb);
    hdi_pair_detail *d = hdi_pairs_extra(&s->pairs, index);
    if (s->opt.detail == HD_SCENE_MANIFOLD) {
        hd_pose qa, qb;
        const hd_polytope *sa = hdi_body_piece(a, pa, &qa), *sb = hdi_body_piece(b, pb, &qb);
        copt->cache = NULL;
        r->status = hd_contact_manifold(sa, &best.pose_a, sb, &best.pose_b, copt, &d->contact,
                                        &d->manifold);
        for (int i = 0; i < HD_MANIFOLD_MAX; ++i) {
            d->pieces[2 * i] = r->piece_a;
            d->pieces[2 * i + 1] = r->piece_b;
        }
    } else if (s->opt.detail == HD_SCENE_DEPTH) {
        d->contact = best.contact;
    }
}

/* The query of pair `index`, into its record; 1 when it was swept (hd_toi ran). */
static int test_pair(const hd_scene *s, int index, hd_options *opt, hd_options *copt)
{
    hdi_pair_rec *r = &s->pairs.recs[index];
    const hdi_box *ba = &s->boxes[r->a], *bb = &s->boxes[r->b];
    r->near = 0;
    r->status = HD_OK;
    r->tested = 1;
    r->verdict = HD_SEPARATED;
    r->piece_a = r->piece_b = -1;
    r->toi = 1.0;
    if (!hdi_filter_pass(&s->filters[r->a], &s->filters[r->b]) ||
        !hdi_box_overlap(ba->lo, ba->hi, bb->lo, bb->hi)) {
        return 0; /* filtered, or the boxes part by more than the band and the proximity */
    }
    const hdi_body *a = &s->bodies[r->a], *b = &s->bodies[r->b];
    int swept = 0;
    if (a->compound != NULL || b->compound != NULL) {
        test_compound_pair(s, index, opt, copt);
    } else {
        hd_collide_result res;
        opt->cache = copt->cache = &r->cache;
        r->status = hd_collide(a->shape, &a->pose, b->shape, &b->pose, opt, &res);
        r->verdict = r->status == HD_OK ? res.verdict : HD_SEPARATED;
        if (r->verdict != HD_SEPARATED && s->opt.detail != HD_SCENE_VERDICT) {
            r->status = contact_query(s, index, copt);
        } else if (r->status == HD_OK && s->opt.proximity > 0.0) {
            proximity_query(s, index, &res, copt);
        }
    }
    if (r->status == HD_OK && (a->swept || b->swept)) {
        if (r->verdict != HD_SEPARATED) {
            r->toi = 0.0; /* in contact at the start of the frame */
        } else {
            sweep_pair(s, index, opt, copt);
            swept = 1;
        }
    }
    r->tested = r->status == HD_OK; /* a failed pair is asked again next step */
    return swept;
}

typedef struct narrow_ctx {
    hd_scene *s;
    int first; /* the loop's item i is pair first + i */
} narrow_ctx;

/* Each pair, on every thread: dropped (tree: a body got a new fattened box, possibly still being
 * placed, and the fattened boxes parted), or queried (new, or a body moved) or kept as it is, and
 * then gathered when in contact. */
static void narrow_chunk(void *ctx, int worker, int begin, int end)
{
    const narrow_ctx *c = ctx;
    const hd_scene *s = c->s;
    hdi_lane *lane = &s->lanes[worker];
    hd_options opt, copt;
    narrow_options(s, worker, &opt, &copt);
    for (int i = c->first + begin; i < c->first + end && !lane->out_of_memory; ++i) {
        const hdi_pair_rec *r = &s->pairs.recs[i];
        unsigned flags = s->flags[r->a] | s->flags[r->b];
        if (flags & (HD_BODY_REFAT | HD_BODY_ESCAPED)) {
            const hdi_box *a = &s->fat[r->a], *b = &s->fat[r->b];
            if (!hdi_box_overlap(a->lo, a->hi, b->lo, b->hi)) {
                hdi_idlist_push(&lane->drop, i, &lane->out_of_memory);
                continue;
            }
        }
        if (!r->tested || (flags & HD_BODY_MOVED)) {
            lane->tested++;
            lane->swept += test_pair(s, i, &opt, &copt);
        }
        emit(s, lane, i);
    }
}

static int compare_desc(const void *pa, const void *pb)
{
    int a = *(const int *)pa, b = *(const int *)pb;
    return (a < b) - (a > b);
}

/* The lanes emptied for a step. */
static void reset_lanes(hd_scene *s)
{
    int threads = hdi_scene_threads(s);
    for (int w = 0; w < threads; ++w) {
        hdi_lane *lane = &s->lanes[w];
        lane->out_of_memory = 0;
        lane->tested = lane->swept = lane->drop.count = lane->contact_count = lane->failures = 0;
    }
}

/* HD_ERR_NO_MEMORY when a lane could not grow, else HD_OK. */
static hd_status lanes_status(const hd_scene *s)
{
    int threads = hdi_scene_threads(s);
    for (int w = 0; w < threads; ++w) {
        if (s->lanes[w].out_of_memory) {
            return HD_ERR_NO_MEMORY;
        }
    }
    return HD_OK;
}

/* Pairs per chunk of the narrow phase over count pairs. */
static int narrow_chunk_size(const hd_scene *s, int count)
{
    return hdi_scene_chunk(s, count, HD_SCENE_PAIR_CHUNK, HD_SCENE_PAIR_CHUNK_MAX);
}

/* The narrow phase over pairs [first, end) of the table, on every thread. */
static hd_status narrow(hd_scene *s, int first, int end)
{
    narrow_ctx c = {s, first};
    long long t0 = hdi_scene_now_ns();
    hdi_scene_run(s, narrow_chunk, &c, end - first, narrow_chunk_size(s, end - first));
    s->stats.narrow_ns += hdi_scene_now_ns() - t0;
    return lanes_status(s);
}

/* The broad and the narrow phase after the boxes: with the tree (no rebuild due), the known pairs
 * are queried beside the reinsertions (hdi_scene_place_lead, which times itself as broad phase),
 * then the new pairs; else the broad phase, then every pair. */
static hd_status broad_and_narrow(hd_scene *s)
{
    if (!hdi_scene_can_place_beside(s)) {
        hd_status st = hdi_scene_sync_rest(s);
        return st != HD_OK ? st : narrow(s, 0, s->pairs.count);
    }
    int known = s->pairs.count;
    narrow_ctx c = {s, 0};
    hdi_scene_place_prepare(s);
    long long t0 = hdi_scene_now_ns(), lead0 = s->stats.broad_ns;
    hdi_scene_run_beside(s, hdi_scene_place_lead, s, narrow_chunk, &c, known,
                         narrow_chunk_size(s, known));
    s->stats.narrow_ns += hdi_scene_now_ns() - t0 - (s->stats.broad_ns - lead0);
    hd_status st = lanes_status(s);
    if (st == HD_OK) {
        st = hdi_scene_placed(s);
    }
    return st != HD_OK ? st : narrow(s, known, s->pairs.count);
}

/* The dropped pairs marked, their indices into s->scratch; the lanes' counts of queries summed.
 * 0 when s->scratch could not grow (s->out_of_memory). */
static int merge_drops(hd_scene *s)
{
    int threads = hdi_scene_threads(s);
    s->scratch.count = 0;
    s->stats.tested = s->stats.swept = 0;
    for (int w = 0; w < threads; ++w) {
        const hdi_lane *lane = &s->lanes[w];
        int need = s->scratch.count + lane->drop.count;
        if (!hdi_idlist_reserve(&s->scratch, need, &s->out_of_memory)) {
            return 0;
        }
        for (int k = 0; k < lane->drop.count; ++k) {
            s->pairs.recs[lane->drop.ids[k]].mark = 1;
            s->scratch.ids[s->scratch.count++] = lane->drop.ids[k];
        }
        s->stats.tested += lane->tested;
        s->stats.swept += lane->swept;
    }
    return 1;
}

/* One stable pass of the radix sort: the keys from `from` to `to` by their digit at bit `shift`.
 * 0 when every key has the same digit there (nothing would move). */
static int radix_pass(const hdi_sort_key *from, hdi_sort_key *to, int count, int shift)
{
    int start[HD_SCENE_RADIX + 1] = {0};
    const unsigned long long mask = HD_SCENE_RADIX - 1;
    for (int i = 0; i < count; ++i) {
        start[(from[i].key >> shift & mask) + 1]++;
    }
    for (int d = 0; d < HD_SCENE_RADIX; ++d) {
        if (start[d + 1] == count) {
            return 0;
        }
        start[d + 1] += start[d];
    }
    for (int i = 0; i < count; ++i) {
        to[start[from[i].key >> shift & mask]++] = from[i];
    }
    return 1;
}

/* Keys [0, n) sorted by straight insertion (Knuth, TAOCP vol. 3, section 5.2.1): for the few
 * contacts of a small scene, where each radix pass would cost its 256 buckets. The keys are
 * distinct (one contact per pair). */
static void insertion_sort(hdi_sort_key *keys, int n)
{
    for (int i = 1; i < n; ++i) {
        hdi_sort_key k = keys[i];
        int j = i;
        for (; j > 0 && keys[j - 1].key > k.key; --j) {
            keys[j] = keys[j - 1];
        }
        keys[j] = k;
    }
}

/* Keys [0, n) by a least-significant-digit radix sort (Knuth, TAOCP vol. 3, section 5.2.5): b's
 * digits then a's over the bits the ids use, each pass stable, between the two buffers; returns
 * the one that holds the result. */
static hdi_sort_key *radix_sort(hdi_sort_key *from, hdi_sort_key *to, int n, int body_ids)
{
    int bits = 1;
    while (bits < 31 && (1 << bits) < body_ids) {
        bits++;
    }
    for (int half = 0; half <= 32; half += 32) {
        for (int shift = 0; shift < bits; shift += HD_SCENE_RADIX_BITS) {
            if (radix_pass(from, to, n, half + shift)) {
                hdi_sort_key *t = from;
                from = to;
                to = t;
            }
        }
    }
    return from;
}

/* The contacts sorted by (a, b): their keys a << 32 | b (16 bytes with the place, not the
 * contacts' 48) sorted, then the contacts gathered in key order into the other buffer, which
 * becomes the contacts. */
static void sort_contacts(hd_scene *s)
{
    int n = s->contact_count;
    if (n < 2) {
        return;
    }
    hdi_sort_key *from = s->sort_keys;
    for (int i = 0; i < n; ++i) {
        const hd_scene_contact *c = &s->contacts[i];
        from[i].key = (unsigned long long)(unsigned)c->a << 32 | (unsigned)c->b;
        from[i].place = i;
    }
    if (n <= HD_SCENE_INSERTION_SORT_MAX) {
        insertion_sort(from, n);
    } else {
        from = radix_sort(from, s->sort_keys + s->contact_capacity, n, s->body_ids);
    }
    for (int i = 0; i < n; ++i) {
        s->contact_tmp[i] = s->contacts[from[i].place];
    }
    hd_scene_contact *sorted = s->contact_tmp;
    s->contact_tmp = s->contacts;
    s->contacts = sorted;
}

/* The lanes' contacts into s->contacts, sorted; the failures combined. */
static void merge_contacts(hd_scene *s)
{
    int threads = hdi_scene_threads(s);
    hd_scene_stats *st = &s->stats;
    s->contact_count = 0;
    st->failures = 0; /* a step repeated after HD_ERR_NO_MEMORY counts them once */
    for (int w = 0; w < threads; ++w) {
        const hdi_lane *lane = &s->lanes[w];
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
        const hdi_pair_detail *d =
            hdi_pairs_extra(&s->pairs, hdi_pairs_find(&s->pairs, c->a, c->b));
        s->out_contact[i] = d->contact;
        c->contact = &s->out_contact[i];
        if (s->opt.detail == HD_SCENE_MANIFOLD) {
            s->out_manifold[i] = d->manifold;
            c->manifold = &s->out_manifold[i];
            if (s->bodies[c->a].compound != NULL || s->bodies[c->b].compound != NULL) {
                int *pieces = s->out_pieces + (size_t)i * 2 * HD_MANIFOLD_MAX;
                memcpy(pieces, d->pieces, sizeof d->pieces);
                c->point_pieces = pieces;
            }
        }
    }
}

/* Room for the details of every contact (grown geometrically, as the contacts). */
static void reserve_details(hd_scene *s)
{
    if (s->opt.detail == HD_SCENE_VERDICT || s->out_capacity >= s->contact_count) {
        return;
    }
    int cap = hdi_array_grown_capacity(s->out_capacity, s->contact_count, HD_SCENE_MIN_CONTACTS,
                                       sizeof(hdi_pair_detail));
    int *failed = &s->out_of_memory;
    hdi_array_resize(&s->out_contact, cap, sizeof *s->out_contact, failed);
    if (s->opt.detail == HD_SCENE_MANIFOLD) {
        hdi_array_resize(&s->out_manifold, cap, sizeof *s->out_manifold, failed);
        hdi_array_resize(&s->out_pieces, cap, 2 * HD_MANIFOLD_MAX * sizeof *s->out_pieces, failed);
    }
    s->out_capacity = *failed ? s->out_capacity : cap;
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
        hdi_pairs_remove_at(&s->pairs, s->scratch.ids[k]);
    }
    s->scratch.count = 0;
}

/* Room for the contacts of every pair in the table: the contacts, their sorted copy and the two
 * buffers of sort keys. */
static void reserve_results(hd_scene *s)
{
    if (s->contact_capacity >= s->pairs.count) {
        return;
    }
    int cap = hdi_array_grown_capacity(s->contact_capacity, s->pairs.count, HD_SCENE_MIN_CONTACTS,
                                       2 * sizeof(hdi_sort_key));
    int *failed = &s->out_of_memory;
    hdi_array_resize(&s->contacts, cap, sizeof *s->contacts, failed);
    hdi_array_resize(&s->contact_tmp, cap, sizeof *s->contact_tmp, failed);
    hdi_array_resize(&s->sort_keys, cap, 2 * sizeof *s->sort_keys, failed);
    s->contact_capacity = *failed ? s->contact_capacity : cap;
}

/* End of the step: counters out, moved flags cleared, removed ids freed. */
static void finish(hd_scene *s, hd_scene_stats *out)
{
    hd_scene_stats *st = &s->stats;
    st->bodies = s->live;
    st->moved = hdi_scene_clear_flags(s, &s->moved, HD_BODY_MOVED | HD_BODY_REFAT);
    s->moved.count = 0;
    for (int i = 0; i < s->removed.count; ++i) {
        hdi_body *b = &s->bodies[s->removed.ids[i]];
        b->state = HD_BODY_FREE;
        hd_compound_destroy(b->wrap);
        b->wrap = NULL;
        s->flags[s->removed.ids[i]] = 0;
        b->next_free = s->free_head;
        s->free_head = s->removed.ids[i];
    }
    s->removed.count = 0;
    st->pairs = s->pairs.count;
    st->pairs_added = s->pairs.added;
    st->pairs_removed = s->pairs.removed;
    st->contacts = s->contact_count;
    st->near = 0;
    for (int i = 0; i < s->contact_count; ++i) {
        st->near += s->contacts[i].verdict == HD_SEPARATED;
    }
    st->threads = hdi_scene_threads(s);
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
    reset_lanes(s);
    s->scratch.count = 0;
    hdi_scene_sync_boxes(s);
    hd_status st = broad_and_narrow(s);
    if (st == HD_OK && merge_drops(s)) {
        reserve_results(s);
    }
    long long t1 = hdi_scene_now_ns();
    if (st == HD_OK && !s->out_of_memory) {
        merge_contacts(s);
        reserve_details(s);
    }
    hd_status grown = hdi_scene_take_failure(s); /* the step's one check of the flag */
    st = st != HD_OK ? st : grown;
    if (st != HD_OK) {
        unmark_dropped(s); /* nothing was removed: the step may be repeated */
        return st;
    }
    if (s->opt.detail != HD_SCENE_VERDICT) {
        hdi_scene_run(s, copy_chunk, s, s->contact_count, HD_SCENE_PAIR_CHUNK * 4);
    }
    remove_dropped(s);
    s->stats.sort_ns += hdi_scene_now_ns() - t1;
    hd_status failed = s->stats.failures > 0 ? s->stats.failed_status : HD_OK;
    finish(s, stats);
    *contacts = s->contacts;
    *count = s->contact_count;
    return failed;
}
