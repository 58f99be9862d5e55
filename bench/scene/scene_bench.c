/* hedra_bench_scene: time per frame of hedra's scenes (dynamic AABB tree and sweep-and-prune, on
 * one thread and on every core) against Bullet and FCL on the same generated scenes, frames
 * interleaved across the methods so that they run under the same conditions. Frame 0 (the first
 * detection of every pair) is reported apart, and so are the warm-up frames after it (until the
 * bodies leave their fattened boxes at a steady rate: about 60 frames of the default motion); the
 * frames after those are timed, from the first pose
 * given to the last contact reported (each library's poses are converted to its own type before
 * the clock starts, as an application would hold them). Every method must find the same contacts
 * as hedra's first configuration (the peers may differ on touching pairs: they are counted, not
 * failed). With --back-to-back each method runs all its frames before the next method starts,
 * as an application steps its one scene: between two steps of a method only its next frame's
 * moves are prepared, so the pool's workers are still waking when the next step posts its first
 * loop (interleaved, the other methods' frames run in between and they have gone to sleep). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/host.h"
#include "common/hull.h"
#include "scene/scene_bench.h"

typedef struct sb_shapes {
    int count;
    hd_bench_hull *hulls;
    hd_bench_shape *shapes;
    hd_polytope **polys;
} sb_shapes;

typedef struct sb_hedra {
    hd_scene *scene;
    int *ids;
    int *move_ids; /* a frame's moves for hd_scene_move_many */
    hd_pose *move_poses;
    int move_count;
    const hd_scene_contact *contacts; /* of the last step */
    int contact_count;
} sb_hedra;

typedef struct sb_args {
    int sizes[8];
    int size_count;
    int frames; /* in all, frame 0 and the warm-up included */
    int warmup; /* frames after frame 0 run but not timed */
    int smoke;
    unsigned long long seed;
    double density;
    double margin; /* hedra's fattening margin */
    const char *csv;
    int peers;        /* run Bullet and FCL */
    int back_to_back; /* each method's frames in a row instead of interleaved */
} sb_args;

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static hd_bench_pose to_bench(const hd_pose *p)
{
    hd_bench_pose b;
    memcpy(b.r, p->r, sizeof b.r);
    memcpy(b.t, p->t, sizeof b.t);
    return b;
}

/* The pose of a quaternion and translation, by hedra's conversion for every method. */
static hd_bench_pose pose_of(const double q[4], const double t[3])
{
    hd_pose p;
    hd_pose_from_quaternion(q, t, &p);
    return to_bench(&p);
}

/* Hulls (Qhull) for every method, and hedra's polytopes of the hull vertices. */
static int build_shapes(const hd_sw_scene *w, sb_shapes *s)
{
    s->count = w->p.shape_count;
    s->hulls = calloc((size_t)s->count, sizeof *s->hulls);
    s->shapes = calloc((size_t)s->count, sizeof *s->shapes);
    s->polys = calloc((size_t)s->count, sizeof *s->polys);
    if (s->hulls == NULL || s->shapes == NULL || s->polys == NULL) {
        return -1;
    }
    for (int i = 0; i < s->count; ++i) {
        if (hd_bench_hull_build(w->shape_xyz[i], w->shape_n[i], &s->hulls[i]) != 0) {
            return -1;
        }
        hd_bench_hull *h = &s->hulls[i];
        s->shapes[i] = (hd_bench_shape){h->xyz, h->n, h->tris, h->ntris};
        if (hd_polytope_build(h->xyz, h->n, NULL, &s->polys[i]) != HD_OK) {
            return -1;
        }
    }
    return 0;
}

static void free_shapes(sb_shapes *s)
{
    for (int i = 0; i < s->count; ++i) {
        if (s->hulls != NULL) {
            hd_bench_hull_free(&s->hulls[i]);
        }
        if (s->polys != NULL) {
            hd_polytope_destroy(s->polys[i]);
        }
    }
    free(s->hulls);
    free(s->shapes);
    free(s->polys);
}

static sb_hedra *hedra_create(const hd_scene_options *opt, const hd_sp_input *in,
                              hd_polytope **polys)
{
    sb_hedra *h = calloc(1, sizeof *h);
    size_t n = (size_t)in->body_count;
    if (h == NULL || (h->ids = malloc(n * sizeof *h->ids)) == NULL ||
        (h->move_ids = malloc(n * sizeof *h->move_ids)) == NULL ||
        (h->move_poses = malloc(n * sizeof *h->move_poses)) == NULL ||
        hd_scene_create(opt, &h->scene) != HD_OK) {
        if (h != NULL) {
            free(h->ids);
            free(h->move_ids);
            free(h->move_poses);
        }
        free(h);
        return NULL;
    }
    for (int b = 0; b < in->body_count; ++b) {
        hd_pose p;
        memcpy(p.r, in->poses[b].r, sizeof p.r);
        memcpy(p.t, in->poses[b].t, sizeof p.t);
        if (hd_scene_add(h->scene, polys[in->body_shape[b]], &p, NULL, &h->ids[b]) != HD_OK) {
            return NULL;
        }
    }
    return h;
}

static void hedra_destroy(sb_hedra *h)
{
    if (h != NULL) {
        hd_scene_destroy(h->scene);
        free(h->ids);
        free(h->move_ids);
        free(h->move_poses);
        free(h);
    }
}

/* Before a hedra frame, not timed: the moves as hedra's ids and poses. */
static void hedra_prepare(sb_hedra *h, int count, const int *bodies, const hd_bench_pose *poses)
{
    for (int i = 0; i < count; ++i) {
        h->move_ids[i] = h->ids[bodies[i]];
        memcpy(h->move_poses[i].r, poses[i].r, sizeof poses[i].r);
        memcpy(h->move_poses[i].t, poses[i].t, sizeof poses[i].t);
    }
    h->move_count = count;
}

/* One hedra frame: the prepared moves (one hd_scene_move_many), then the step; the shares from
 * the step's counters. */
static int hedra_frame(sb_hedra *h, hd_sp_frame *out, int *threads)
{
    long long t0 = now_ns();
    if (hd_scene_move_many(h->scene, h->move_count, h->move_ids, h->move_poses, NULL) != HD_OK) {
        return -1;
    }
    long long t1 = now_ns();
    const hd_scene_contact *c = NULL;
    hd_scene_stats st;
    if (hd_scene_step(h->scene, &c, &out->contacts, &st) != HD_OK) {
        return -1;
    }
    h->contacts = c;
    h->contact_count = out->contacts;
    out->update_ns = (t1 - t0) + st.boxes_ns;
    out->broad_ns = st.broad_ns;
    out->narrow_ns = st.narrow_ns + st.sort_ns;
    *threads = st.threads;
    return 0;
}

/* The methods of a run: hedra's four configurations, then the peers built in. */
static void add_hedra(hd_sb_run *run, hd_broadphase bp, int threads, double margin)
{
    hd_sb_method *m = &run->methods[run->method_count++];
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "hedra_%s_%s", hd_broadphase_str(bp),
             threads == 1 ? "1t" : "all");
    m->library = "hedra";
    m->hedra = 1;
    m->opt = hd_scene_options_default();
    m->opt.broadphase = bp;
    m->opt.threads = threads;
    m->opt.margin = margin;
}

static void add_peers(hd_sb_run *run)
{
    hd_sp_method list[2];
    int k = 0;
#ifdef HD_BENCH_HAVE_BULLET
    k += hd_sp_bullet_methods(list + k, 2 - k);
#endif
#ifdef HD_BENCH_HAVE_FCL
    k += hd_sp_fcl_methods(list + k, 2 - k);
#endif
    for (int i = 0; i < k; ++i) {
        hd_sb_method *m = &run->methods[run->method_count++];
        memset(m, 0, sizeof *m);
        snprintf(m->name, sizeof m->name, "%s", list[i].name);
        m->library = list[i].library;
        m->peer = list[i];
        m->threads = 1;
    }
}

/* The frames' inputs: every body's frame-0 pose, and the movers' poses of one frame at a time
 * (made before the clocks start; one frame's worth, so that long runs need no more memory). */
typedef struct sb_frames {
    const hd_sw_scene *w;
    hd_bench_pose *initial;
    hd_bench_pose *moves; /* movers, of frame `frame` */
    int frame;
    int *movers;
} sb_frames;

static int make_frames(const hd_sw_scene *w, sb_frames *fr)
{
    int n = w->p.bodies, m = w->mover_count;
    fr->w = w;
    fr->initial = malloc((size_t)n * sizeof *fr->initial);
    fr->moves = malloc(((size_t)m + 1) * sizeof *fr->moves);
    fr->frame = -1;
    fr->movers = w->movers;
    if (fr->initial == NULL || fr->moves == NULL) {
        return -1;
    }
    for (int b = 0; b < n; ++b) {
        fr->initial[b] = pose_of(w->q0 + 4 * b, w->t0 + 3 * b);
    }
    return 0;
}

/* The movers' poses of frame f (f >= 1). */
static const hd_bench_pose *frame_moves(sb_frames *fr, int f)
{
    if (fr->frame != f) {
        for (int i = 0; i < fr->w->mover_count; ++i) {
            double q[4], t[3];
            hd_sw_mover_pose(fr->w, i, f, q, t);
            fr->moves[i] = pose_of(q, t);
        }
        fr->frame = f;
    }
    return fr->moves;
}

static int create_worlds(hd_sb_run *run, const hd_sp_input *in, hd_polytope **polys)
{
    for (int i = 0; i < run->method_count; ++i) {
        hd_sb_method *m = &run->methods[i];
        m->frames = calloc((size_t)run->frames, sizeof *m->frames);
        m->total_ns = calloc((size_t)run->frames, sizeof *m->total_ns);
        m->world = m->hedra ? (void *)hedra_create(&m->opt, in, polys) : m->peer.create(in);
        if (m->world == NULL || m->frames == NULL || m->total_ns == NULL) {
            fprintf(stderr, "hedra_bench_scene: %s: cannot build the world\n", m->name);
            return -1;
        }
    }
    return 0;
}

static void destroy_worlds(hd_sb_run *run)
{
    for (int i = 0; i < run->method_count; ++i) {
        hd_sb_method *m = &run->methods[i];
        if (m->world != NULL) {
            if (m->hedra) {
                hedra_destroy(m->world);
            } else {
                m->peer.destroy(m->world);
            }
        }
        m->world = NULL;
    }
}

/* Bodies in contact at frame 0, from hedra's answer. */
static double contact_fraction(const sb_hedra *h, int n)
{
    char *seen = calloc((size_t)n, 1);
    int count = 0;
    for (int i = 0; seen != NULL && i < h->contact_count; ++i) {
        for (int k = 0; k < 2; ++k) {
            int id = k == 0 ? h->contacts[i].a : h->contacts[i].b;
            count += !seen[id];
            seen[id] = 1;
        }
    }
    free(seen);
    return n > 0 ? (double)count / n : 0.0;
}

/* Frame f on methods [first, end). */
static void run_frame(hd_sb_run *run, sb_frames *fr, int movers, int f, int first, int end)
{
    int count = f == 0 ? 0 : movers;
    const hd_bench_pose *poses = f == 0 ? NULL : frame_moves(fr, f);
    for (int i = first; i < end; ++i) {
        hd_sb_method *m = &run->methods[i];
        int rc = 0;
        if (m->hedra) {
            hedra_prepare(m->world, count, fr->movers, poses);
        } else {
            rc = m->peer.prepare(m->world, count, fr->movers, poses);
        }
        long long t0 = now_ns();
        if (rc == 0) {
            rc = m->hedra ? hedra_frame(m->world, &m->frames[f], &m->threads)
                          : m->peer.frame(m->world, &m->frames[f]);
        }
        m->total_ns[f] = now_ns() - t0;
        m->failed += rc != 0;
        if (f == 0 && i == 0 && m->hedra) {
            run->contact_fraction = contact_fraction(m->world, run->n);
        }
    }
}

/* Frames where a method's contact count differs from the first method's. */
static int check_agreement(const hd_sb_run *run, int *hedra_bad)
{
    int peer_bad = 0;
    *hedra_bad = 0;
    for (int i = 1; i < run->method_count; ++i) {
        const hd_sb_method *m = &run->methods[i];
        for (int f = 0; f < run->frames; ++f) {
            if (m->frames[f].contacts == run->methods[0].frames[f].contacts) {
                continue;
            }
            fprintf(stderr, "hedra_bench_scene: n = %d, frame %d: %s finds %d contacts, %s %d\n",
                    run->n, f, m->name, m->frames[f].contacts, run->methods[0].name,
                    run->methods[0].frames[f].contacts);
            *hedra_bad += m->hedra;
            peer_bad += !m->hedra;
        }
    }
    return peer_bad;
}

/* One size: the scene, its worlds, the interleaved frames. 0, or -1 on a failure. */
static int run_size(const sb_args *a, int n, hd_sb_run *run)
{
    hd_sw_params p = hd_sw_defaults(n);
    p.frames = a->frames;
    p.seed = a->seed;
    p.density = a->density;
    hd_sw_scene w;
    sb_shapes shapes = {0, NULL, NULL, NULL};
    sb_frames fr = {NULL, NULL, NULL, -1, NULL};
    if (hd_sw_generate(&p, &w) != 0) {
        return -1;
    }
    int rc = build_shapes(&w, &shapes) == 0 && make_frames(&w, &fr) == 0 ? 0 : -1;
    run->n = n;
    run->frames = a->frames;
    run->first_timed = 1 + a->warmup;
    run->movers = w.mover_count;
    add_hedra(run, HD_BROADPHASE_TREE, 1, a->margin);
    add_hedra(run, HD_BROADPHASE_TREE, 0, a->margin);
    add_hedra(run, HD_BROADPHASE_SAP, 1, a->margin);
    add_hedra(run, HD_BROADPHASE_SAP, 0, a->margin);
    if (a->peers) {
        add_peers(run);
    }
    hd_sp_input in = {shapes.count, shapes.shapes, n, w.body_shape, fr.initial};
    if (rc == 0) {
        rc = create_worlds(run, &in, shapes.polys);
    }
    hd_bench_ticks t0, t1;
    hd_bench_ticks_read(&t0);
    if (rc == 0 && a->back_to_back) {
        for (int i = 0; i < run->method_count; ++i) {
            for (int f = 0; f < a->frames; ++f) {
                run_frame(run, &fr, w.mover_count, f, i, i + 1);
            }
        }
    } else {
        for (int f = 0; f < a->frames && rc == 0; ++f) {
            run_frame(run, &fr, w.mover_count, f, 0, run->method_count);
        }
    }
    hd_bench_ticks_read(&t1);
    hd_bench_steal(&t0, &t1, &run->steal_mean, &run->steal_max);
    destroy_worlds(run);
    free(fr.initial);
    free(fr.moves);
    free_shapes(&shapes);
    hd_sw_free(&w);
    return rc;
}

static int usage(int code)
{
    fprintf(code ? stderr : stdout,
            "usage: hedra_bench_scene [--sizes N,N,...] [--frames F] [--warmup W] [--seed S]\n"
            "                         [--density D] [--margin M]\n"
            "                         [--no-peers] [--back-to-back] [--csv FILE] [--smoke]\n"
            "Times hedra's scenes (tree and sweep-and-prune, 1 thread and every core) against\n"
            "Bullet and FCL, frame by frame; defaults: sizes 1000,10000,100000, 91 frames in\n"
            "all: frame 0, 60 warm-up frames (run, not timed: the bodies start leaving their\n"
            "fattened boxes from frame 15 on, at a steady rate from about frame 60) and 30\n"
            "timed (F > W + 1), density 0.004. --smoke: 300 bodies, 4 frames, no warm-up.\n"
            "Frames are interleaved across the methods; --back-to-back runs each method's\n"
            "frames in a row.\n");
    return code;
}

static int parse_sizes(const char *text, sb_args *a)
{
    a->size_count = 0;
    for (const char *p = text; *p != '\0' && a->size_count < 8;) {
        char *end = NULL;
        long v = strtol(p, &end, 10);
        if (end == p || v < 2 || v > 10000000) {
            return -1;
        }
        a->sizes[a->size_count++] = (int)v;
        p = *end == ',' ? end + 1 : end;
        if (*end != ',' && *end != '\0') {
            return -1;
        }
    }
    return a->size_count > 0 ? 0 : -1;
}

static int parse_args(int argc, char **argv, sb_args *a)
{
    memset(a, 0, sizeof *a);
    int sizes[3] = {1000, 10000, 100000};
    memcpy(a->sizes, sizes, sizeof sizes);
    a->size_count = 3;
    a->frames = 91;
    a->warmup = 60;
    a->seed = 20261122u;
    a->density = hd_sw_defaults(1).density;
    a->margin = HD_SCENE_DEFAULT_MARGIN;
    a->peers = 1;
    for (int i = 1; i < argc; ++i) {
        const char *v = i + 1 < argc ? argv[i + 1] : "";
        if (strcmp(argv[i], "--sizes") == 0 && parse_sizes(v, a) == 0) {
            ++i;
        } else if (strcmp(argv[i], "--frames") == 0 && atoi(v) >= 2) {
            a->frames = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--warmup") == 0 && *v >= '0' && *v <= '9') {
            a->warmup = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--seed") == 0 && *v != '\0') {
            a->seed = strtoull(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--density") == 0 && atof(v) > 0.0) {
            a->density = atof(argv[++i]);
        } else if (strcmp(argv[i], "--margin") == 0 && atof(v) >= 0.0 && atof(v) <= 16.0) {
            a->margin = atof(argv[++i]);
        } else if (strcmp(argv[i], "--csv") == 0 && *v != '\0') {
            a->csv = argv[++i];
        } else if (strcmp(argv[i], "--no-peers") == 0) {
            a->peers = 0;
        } else if (strcmp(argv[i], "--back-to-back") == 0) {
            a->back_to_back = 1;
        } else if (strcmp(argv[i], "--smoke") == 0) {
            a->smoke = 1;
            a->sizes[0] = 300;
            a->size_count = 1;
            a->frames = 4;
            a->warmup = 0;
        } else {
            return usage(strcmp(argv[i], "--help") == 0 ? 0 : 2) + 1;
        }
    }
    if (a->frames <= a->warmup + 1) {
        fprintf(stderr,
                "hedra_bench_scene: %d frames leave none to time after frame 0 and %d "
                "warm-up frames\n",
                a->frames, a->warmup);
        return usage(2) + 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    sb_args a;
    int code = parse_args(argc, argv, &a);
    if (code != 0) {
        return code - 1;
    }
    FILE *csv = a.csv != NULL ? fopen(a.csv, "w") : NULL;
    if (csv != NULL) {
        hd_sb_csv_header(csv);
    }
    printf("hedra %s scene benchmark: seed %llu, density %g, margin %g, %d frames (frame 0 "
           "apart, %d warm-up frames not timed, %d timed), %s\n\n",
           hd_version_string(), a.seed, a.density, a.margin, a.frames, a.warmup,
           a.frames - 1 - a.warmup,
           a.back_to_back ? "each method's frames back to back" : "frames interleaved");
    static hd_sb_run runs[8];
    int failures = 0, hedra_bad = 0, peer_bad = 0;
    for (int s = 0; s < a.size_count; ++s) {
        hd_sb_run *run = &runs[s];
        memset(run, 0, sizeof *run);
        if (run_size(&a, a.sizes[s], run) != 0) {
            fprintf(stderr, "hedra_bench_scene: n = %d failed\n", a.sizes[s]);
            return 1;
        }
        int bad = 0;
        peer_bad += check_agreement(run, &bad);
        hedra_bad += bad;
        for (int i = 0; i < run->method_count; ++i) {
            failures += run->methods[i].failed;
        }
        hd_sb_report_run(stdout, run);
        if (csv != NULL) {
            hd_sb_csv_run(csv, run);
        }
    }
    hd_sb_report_summary(stdout, runs, a.size_count);
    for (int s = 0; s < a.size_count; ++s) {
        for (int i = 0; i < runs[s].method_count; ++i) {
            free(runs[s].methods[i].frames);
            free(runs[s].methods[i].total_ns);
        }
    }
    printf("\nagreement: %d frames where a hedra configuration differs, %d where a peer does; "
           "%d failed frames\n",
           hedra_bad, peer_bad, failures);
    if (csv != NULL) {
        fclose(csv);
    }
    return hedra_bad == 0 && failures == 0 ? 0 : 1;
}
