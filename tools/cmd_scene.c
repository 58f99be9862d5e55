/* hedra scene [options] FILE */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_motion.h"
#include "cli_query.h"
#include "scene_run.h"

static int scene_usage(void)
{
    printf(
        "usage: hedra scene [options] FILE\n"
        "Runs a scene file ('-' reads standard input; format in docs/FORMATS.md): shapes,\n"
        "bodies and frames of moves and removals. Prints one JSON object per line for every\n"
        "pair in contact in every frame, frames numbered from 0, body a defined before b:\n"
        "  {\"frame\":K,\"a\":\"NAME\",\"b\":\"NAME\",\"verdict\":\"touching\"|\"intersecting\"}\n"
        "(\"separated\" for a pair within the proximity, with the contact keys; \"piece_a\",\n"
        "\"piece_b\" for compound bodies; \"toi\" for a swept pair), and a summary\n"
        "per frame on standard error. Options:\n"
        "  --depth            add the contact keys of 'hedra batch --depth' (signed_distance,\n"
        "                     normal, witness_a, witness_b, bounds, feature_a, feature_b,\n"
        "                     depth_method; body a as A)\n"
        "  --manifold         and the contact manifold (\"manifold\"; implies --depth)\n"
        "  --threads N        threads of the narrow phase, 0 = every core (default 0)\n"
        "  --algo A           gjk (default), cddual or lp\n"
        "  --broadphase B     tree (default) or sap\n"
        "  --margin M         tree: boxes fattened by M times the body's radius (default "
        "%g)\n"
        "  --proximity D      also every pair closer than D (overrides the file's 'margin D')\n"
        "  --sweep-threshold S  continuous step: bodies with a 'velocity' moving more than S\n"
        "                     over a frame are swept (default 0: every moving one)\n"
        "  --quiet            no summary on standard error\n",
        HD_SCENE_DEFAULT_MARGIN);
    return HD_EXIT_OK;
}

typedef struct scene_args {
    hd_scene_options opt;
    const char *path;
    int quiet;
    double sweep_threshold;
} scene_args;

/* A numeric option value in [lo, hi]; 0 when it is not one. */
static int parse_number(const char *text, double lo, double hi, double *out)
{
    char *end = NULL;
    *out = text != NULL ? strtod(text, &end) : 0.0;
    return end != NULL && end != text && *end == '\0' && *out >= lo && *out <= hi;
}

/* One option at argv[*i]; 1 consumed, 0 not an option, -1 usage error (printed). */
static int parse_option(scene_args *a, int argc, char **argv, int *i)
{
    const char *opt = argv[*i], *value = *i + 1 < argc ? argv[*i + 1] : NULL;
    double v = 0.0;
    if (strcmp(opt, "--quiet") == 0) {
        a->quiet = 1;
        return 1;
    }
    if (strcmp(opt, "--depth") == 0 || strcmp(opt, "--manifold") == 0) {
        hd_scene_detail d = opt[2] == 'd' ? HD_SCENE_DEPTH : HD_SCENE_MANIFOLD;
        a->opt.detail = d > a->opt.detail ? d : a->opt.detail;
        return 1;
    }
    int ok = 1;
    if (strcmp(opt, "--threads") == 0) {
        ok = parse_number(value, 0, HD_SCENE_MAX_THREADS, &v) && v == (int)v;
        a->opt.threads = (int)v;
    } else if (strcmp(opt, "--algo") == 0) {
        ok = value != NULL && hd_algo_parse(value, &a->opt.algo) == HD_OK;
    } else if (strcmp(opt, "--broadphase") == 0) {
        ok = value != NULL && hd_broadphase_parse(value, &a->opt.broadphase) == HD_OK;
    } else if (strcmp(opt, "--margin") == 0) {
        ok = parse_number(value, 0.0, 16.0, &v);
        a->opt.margin = v;
    } else if (strcmp(opt, "--sweep-threshold") == 0) {
        ok = parse_number(value, 0.0, HUGE_VAL, &v);
        a->opt.sweep_threshold = v;
    } else if (strcmp(opt, "--proximity") == 0) {
        ok = parse_number(value, 0.0, HD_MAX_COORD, &v);
        a->opt.proximity = v;
    } else if (strcmp(opt, "--sweep-threshold") == 0) {
        ok = parse_number(value, 0.0, 1e300, &v);
        a->sweep_threshold = v;
    } else {
        return 0;
    }
    if (!ok) {
        hd_cli_usage_error("scene", "bad or missing value for option", opt);
        return -1;
    }
    ++*i;
    return 1;
}

static int parse_args(int argc, char **argv, scene_args *a)
{
    for (int i = 1; i < argc; ++i) {
        if (hd_cli_is_help(argv[i])) {
            scene_usage();
            return -1;
        }
        int used = parse_option(a, argc, argv, &i);
        if (used < 0) {
            return HD_EXIT_USAGE;
        }
        if (used) {
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return hd_cli_usage_error("scene", "unknown option", argv[i]);
        }
        if (a->path != NULL) {
            return hd_cli_usage_error("scene", "one scene file expected, got another", argv[i]);
        }
        a->path = argv[i];
    }
    return a->path == NULL ? hd_cli_usage_error("scene", "missing FILE", NULL) : 0;
}

/* A run: the loaded file and scene, and the sorted contacts of a frame (as body indices of the
 * file). */
typedef struct scene_run {
    hd_scene_run run;
    int *pairs; /* a frame's contacts: (a, b, verdict, place in the step's contacts) */
    int pair_cap;
    int verdicts[3];
    double sweep_threshold;
    hd_body_twist *twists; /* a frame's velocity lines */
    hd_scene_toi *tois;    /* and the pairs that meet during the frame */
    int toi_cap;
} scene_run;

static int compare_quads(const void *pa, const void *pb)
{
    const int *a = pa, *b = pb;
    if (a[0] != b[0]) {
        return a[0] < b[0] ? -1 : 1;
    }
    return (a[1] > b[1]) - (a[1] < b[1]);
}

/* A contact and manifold seen with A and B exchanged: the normal turns, the witnesses and the
 * features change places; distances, bounds and points stay. */
static void swap_sides(hd_signed_distance_result *c, hd_manifold *m)
{
    for (int k = 0; k < 3; ++k) {
        double w = c->witness_a[k];
        c->witness_a[k] = c->witness_b[k];
        c->witness_b[k] = w;
        c->normal[k] = -c->normal[k] + 0.0;
        m->normal[k] = -m->normal[k] + 0.0;
    }
    hd_feature_id f = c->feature_a;
    c->feature_a = c->feature_b;
    c->feature_b = f;
    for (int i = 0; i < m->count; ++i) {
        f = m->points[i].feature_a;
        m->points[i].feature_a = m->points[i].feature_b;
        m->points[i].feature_b = f;
    }
}

/* The pieces of compound bodies ("piece_a", "piece_b": -1 stands for a plain body and is not
 * printed; "point_pieces": a manifold's points' pieces) and a swept pair's "toi", with the body
 * defined first as A. */
static void print_pieces_toi(const hd_scene_contact *c, int swapped)
{
    int pa = swapped ? c->piece_b : c->piece_a, pb = swapped ? c->piece_a : c->piece_b;
    if (pa >= 0) {
        printf(",\"piece_a\":%d", pa);
    }
    if (pb >= 0) {
        printf(",\"piece_b\":%d", pb);
    }
    if (c->toi != 1.0) {
        printf(",\"toi\":%.17g", c->toi);
    }
    if (c->point_pieces == NULL || c->manifold == NULL) {
        return;
    }
    printf(",\"point_pieces\":[");
    for (int i = 0; i < c->manifold->count; ++i) {
        int qa = c->point_pieces[2 * i + swapped], qb = c->point_pieces[2 * i + 1 - swapped];
        printf("%s[%d,%d]", i ? "," : "", qa, qb);
    }
    printf("]");
}

/* The contact keys of a pair, with the body defined first as A. */
static void print_detail(const hd_scene_contact *c, int swapped)
{
    print_pieces_toi(c, swapped);
    if (c->contact == NULL) {
        return;
    }
    hd_signed_distance_result k = *c->contact;
    hd_manifold m;
    memset(&m, 0, sizeof m);
    if (c->manifold != NULL) {
        m = *c->manifold;
    }
    if (swapped) {
        swap_sides(&k, &m);
    }
    hd_cli_contact_keys_json(stdout, &k);
    if (c->manifold != NULL) {
        hd_cli_manifold_json(stdout, &m);
    }
}

/* Room for count quads in r->pairs; 0 when out of memory. */
static int reserve_pairs(scene_run *r, int count)
{
    if (count > r->pair_cap) {
        int *p = realloc(r->pairs, (size_t)count * 4 * sizeof *p);
        if (p == NULL) {
            return 0;
        }
        r->pairs = p;
        r->pair_cap = count;
    }
    return 1;
}

/* The contacts of a frame as (first defined, second defined, verdict), in that order, with their
 * details. 0 when out of memory. */
static int print_frame(scene_run *r, int f, const hd_scene_contact *c, int count)
{
    if (!reserve_pairs(r, count)) {
        return 0;
    }
    r->verdicts[0] = r->verdicts[1] = r->verdicts[2] = 0;
    for (int i = 0; i < count; ++i) {
        int a = *(const int *)c[i].user_a, b = *(const int *)c[i].user_b;
        int *q = &r->pairs[4 * i];
        q[0] = a < b ? a : b;
        q[1] = a < b ? b : a;
        q[2] = (int)c[i].verdict;
        q[3] = i;
        r->verdicts[c[i].verdict]++;
    }
    if (count > 1) {
        qsort(r->pairs, (size_t)count, 4 * sizeof(int), compare_quads);
    }
    for (int i = 0; i < count; ++i) {
        const int *q = &r->pairs[4 * i];
        const hd_scene_contact *ci = &c[q[3]];
        printf("{\"frame\":%d,\"a\":", f);
        hd_json_string(stdout, r->run.file.bodies[q[0]].name);
        printf(",\"b\":");
        hd_json_string(stdout, r->run.file.bodies[q[1]].name);
        printf(",\"verdict\":\"%s\"", hd_verdict_str((hd_verdict)q[2]));
        print_detail(ci, *(const int *)ci->user_a != q[0]);
        printf("}\n");
    }
    return 1;
}

/* hd_scene_sweep on frame f's twists (n of them) into r->tois, grown until every hit fits. */
static hd_status sweep_frame(scene_run *r, int n, int *found)
{
    for (;;) {
        hd_status st = hd_scene_sweep(r->run.scene, r->twists, n, r->sweep_threshold, NULL, r->tois,
                                      r->toi_cap, found);
        if (st != HD_OK || *found <= r->toi_cap) {
            return st;
        }
        hd_scene_toi *t = realloc(r->tois, (size_t)*found * sizeof *t);
        if (t == NULL) {
            return HD_ERR_NO_MEMORY;
        }
        r->tois = t;
        r->toi_cap = *found;
    }
}

/* The continuous check of a frame with velocity lines: its pairs as (first defined, second
 * defined), each with its TOI and the contact there (body a as A). Exit code. */
static int print_sweep(scene_run *r, int f)
{
    const hd_scene_file *file = &r->run.file;
    int ops = file->frame_start[f + 1] - file->frame_start[f], found = 0;
    hd_body_twist *tw = realloc(r->twists, ((size_t)ops + 1) * sizeof *tw);
    if (tw == NULL) {
        return HD_EXIT_FAILURE;
    }
    r->twists = tw;
    int n = hd_scene_run_twists(&r->run, f, r->twists);
    hd_status st = n > 0 ? sweep_frame(r, n, &found) : HD_OK;
    if (st != HD_OK || !reserve_pairs(r, found)) {
        fflush(stdout);
        fprintf(stderr, "hedra scene: frame %d: continuous check: %s\n", f,
                hd_status_str(st != HD_OK ? st : HD_ERR_NO_MEMORY));
        return HD_EXIT_FAILURE;
    }
    for (int i = 0; i < found; ++i) {
        void *ua = NULL, *ub = NULL;
        hd_scene_body(r->run.scene, r->tois[i].a, NULL, NULL, &ua);
        hd_scene_body(r->run.scene, r->tois[i].b, NULL, NULL, &ub);
        int a = *(const int *)ua, b = *(const int *)ub, *q = &r->pairs[4 * i];
        q[0] = a < b ? a : b;
        q[1] = a < b ? b : a;
        q[2] = a > b;
        q[3] = i;
    }
    if (found > 1) {
        qsort(r->pairs, (size_t)found, 4 * sizeof(int), compare_quads);
    }
    for (int i = 0; i < found; ++i) {
        const int *q = &r->pairs[4 * i];
        hd_toi_result t = r->tois[q[3]].toi;
        if (q[2]) {
            hd_manifold none;
            memset(&none, 0, sizeof none);
            swap_sides(&t.contact, &none);
        }
        printf("{\"frame\":%d,\"a\":", f);
        hd_json_string(stdout, file->bodies[q[0]].name);
        printf(",\"b\":");
        hd_json_string(stdout, file->bodies[q[1]].name);
        hd_cli_toi_json(stdout, HD_OK, &t);
        printf("}\n");
    }
    return HD_EXIT_OK;
}

static void print_summary(const scene_run *r, int f, const hd_scene_stats *st)
{
    fprintf(stderr,
            "hedra scene: frame %d: %d bodies, %d moved, %d box pairs, %d queries, %d contacts "
            "(%d touching, %d intersecting, %d near); %.3f ms: boxes %.3f, broad phase %.3f, "
            "narrow phase %.3f on %d threads\n",
            f, st->bodies, st->moved, st->pairs, st->tested, st->contacts, r->verdicts[1],
            r->verdicts[2], r->verdicts[0],
            1e-6 * (double)(st->boxes_ns + st->broad_ns + st->narrow_ns + st->sort_ns),
            1e-6 * (double)st->boxes_ns, 1e-6 * (double)st->broad_ns, 1e-6 * (double)st->narrow_ns,
            st->threads);
}

/* The name of the body of scene id `id`. */
static const char *body_name(const scene_run *r, int id)
{
    void *user = NULL;
    if (hd_scene_body(r->run.scene, id, NULL, NULL, &user) != HD_OK || user == NULL) {
        return "?";
    }
    return r->run.file.bodies[*(const int *)user].name;
}

static void report_failure(const scene_run *r, int f, const hd_scene_stats *st)
{
    fflush(stdout);
    fprintf(stderr, "hedra scene: frame %d: %d failed queries, the first (%s, %s): %s\n", f,
            st->failures, body_name(r, st->failed_a), body_name(r, st->failed_b),
            hd_status_str(st->failed_status));
}

/* Every frame: changes, step, output. */
static int run_frames(scene_run *r, int quiet)
{
    for (int f = 0; f < r->run.file.frame_count; ++f) {
        int code = hd_scene_run_apply(&r->run, f);
        if (code != HD_EXIT_OK) {
            return code;
        }
        const hd_scene_contact *c = NULL;
        int count = 0;
        hd_scene_stats st;
        hd_status s = hd_scene_step(r->run.scene, &c, &count, &st);
        if (s == HD_ERR_NO_MEMORY || s == HD_ERR_NULL || !print_frame(r, f, c, count)) {
            fflush(stdout);
            fprintf(stderr, "hedra scene: frame %d: %s\n", f, hd_status_str(HD_ERR_NO_MEMORY));
            return HD_EXIT_FAILURE;
        }
        if (!quiet) {
            print_summary(r, f, &st);
        }
        if (s != HD_OK) {
            report_failure(r, f, &st);
            return HD_EXIT_FAILURE;
        }
        if ((code = print_sweep(r, f)) != HD_EXIT_OK) {
            return code;
        }
    }
    return HD_EXIT_OK;
}

int hd_cmd_scene(int argc, char **argv)
{
    scene_args a;
    memset(&a, 0, sizeof a);
    a.opt = hd_scene_options_default();
    int code = parse_args(argc, argv, &a);
    if (code != 0) {
        return code < 0 ? HD_EXIT_OK : code;
    }
    scene_run r;
    memset(&r, 0, sizeof r);
    r.sweep_threshold = a.sweep_threshold;
    code = hd_scene_run_open(&r.run, "scene", a.path, &a.opt);
    if (code == HD_EXIT_OK) {
        code = run_frames(&r, a.quiet);
    }
    free(r.pairs);
    free(r.twists);
    free(r.tois);
    hd_scene_run_free(&r.run);
    return code;
}
