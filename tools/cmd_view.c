/* hedra view [options] A B -o FILE.html */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "view.h"

static int view_usage(void)
{
    printf(
        "usage: hedra view [options] A B -o FILE.html\n"
        "       hedra view [options] --pair FILE -o FILE.html\n"
        "       hedra view --scene FILE [--frame K] [--algo A] [--depth] [--manifold]\n"
        "                  -o FILE.html\n"
        "Writes one self-contained HTML page of the query (every script inlined; it opens\n"
        "from disk with no network): A and B in 3-D, the verdict, the certificate, the\n"
        "witnesses and the distance, the Minkowski difference A - B with the origin, a step\n"
        "slider through the algorithm's path (GJK's simplices, CD-Dual's faces of A - B) and\n"
        "a slider moving B along a direction through contact. The page's three.js is read\n"
        "from the viewer assets (HEDRA_VIEWER_DIR, or share/hedra/viewer once installed).\n"
        "Options:\n%s"
        "  -o, --output FILE  the page to write ('-': standard output); required\n"
        "  --slide-dir X,Y,Z  direction of B's motion (default: from A's centre to B's)\n"
        "  --slide-steps N    positions of B along it, 3 to %d (default %d)\n"
        "  --scene FILE       a scene file (as 'hedra scene' runs it): every frame's bodies,\n"
        "                     the pairs in contact highlighted, a frame slider\n"
        "  --frame K          the scene's frame shown first (default 0)\n"
        "  --radius-a R, --radius-b R  round A or B by R >= 0 (as hedra collide)\n"
        "  --compound         A and B are compound bodies (OBJ groups are pieces)\n"
        "  --pair FILE        A and B from the pair file's first pair (its radii, compound\n"
        "                     sets and motion line)\n"
        "  --ray X,Y,Z --dir X,Y,Z   a ray cast against A and against B\n"
        "Motion (the time of impact, as hedra cast; B swept over t in [0, 1]):\n" HD_CLI_MOTION_HELP
        "Distance, path and each motion sample's signed distance are always computed;\n"
        "--algo all is not accepted (one algorithm per page).\n",
        hd_cli_query_help, HD_VIEW_SLIDE_MAX, HD_VIEW_SLIDE_DEFAULT);
    return HD_EXIT_OK;
}

/* --scene FILE or --frame K at argv[*i]: 1 consumed, 0 not one of them, -1 usage error. */
static int parse_scene_option(hd_view_opts *o, int argc, char **argv, int *i)
{
    const char *arg = argv[*i];
    int is_scene = strcmp(arg, "--scene") == 0;
    if (!is_scene && strcmp(arg, "--frame") != 0) {
        return 0;
    }
    if (*i + 1 >= argc) {
        hd_cli_usage_error("view", "option needs a value", arg);
        return -1;
    }
    const char *val = argv[++*i];
    if (is_scene) {
        o->scene = val;
        return 1;
    }
    char *end = NULL;
    long k = strtol(val, &end, 10);
    if (end == val || *end != '\0' || k < 0 || k > 1000000000L) {
        hd_cli_usage_error("view", "--frame expects a frame number from 0", val);
        return -1;
    }
    o->frame = (int)k;
    o->have_frame = 1;
    return 1;
}

/* --ray X,Y,Z, --dir X,Y,Z, --pair FILE, --compound, the radii and the twists at argv[*i]: 1
 * consumed, 0 not one of them, -1 usage error. */
static int parse_shape_option(hd_view_opts *o, int argc, char **argv, int *i)
{
    const char *arg = argv[*i];
    if (strcmp(arg, "--compound") == 0) {
        o->compound = 1;
        return 1;
    }
    int used = hd_cli_parse_radius_option("view", argc, argv, i, o->radius);
    if (used == 0) {
        used = hd_cli_parse_motion_option("view", argc, argv, i, o->twist);
        o->have_twist |= used > 0;
    }
    if (used != 0) {
        return used;
    }
    int is_ray = strcmp(arg, "--ray") == 0, is_dir = strcmp(arg, "--dir") == 0;
    if (!is_ray && !is_dir && strcmp(arg, "--pair") != 0) {
        return 0;
    }
    if (*i + 1 >= argc) {
        hd_cli_usage_error("view", "option needs a value", arg);
        return -1;
    }
    const char *val = argv[++*i];
    double *v = is_ray ? o->ray_origin : o->ray_dir;
    if (!is_ray && !is_dir) {
        o->pair_file = val;
    } else if (!hd_cli_parse_vec3(val, v) ||
               (is_dir && v[0] == 0.0 && v[1] == 0.0 && v[2] == 0.0)) {
        hd_cli_usage_error("view",
                           is_ray ? "--ray expects X,Y,Z" : "--dir expects a non-zero X,Y,Z", val);
        return -1;
    }
    o->have_ray |= is_ray ? 1 : is_dir ? 2 : 0;
    return 1;
}

/* Parses one view-only option at argv[*i]: 1 consumed, 0 not one of them, -1 usage error. */
static int parse_view_option(hd_view_opts *o, int argc, char **argv, int *i)
{
    const char *arg = argv[*i];
    int used = parse_scene_option(o, argc, argv, i);
    if (used == 0) {
        used = parse_shape_option(o, argc, argv, i);
    }
    if (used != 0) {
        return used;
    }
    int is_out = strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0;
    int is_dir = strcmp(arg, "--slide-dir") == 0;
    int is_steps = strcmp(arg, "--slide-steps") == 0;
    if (!is_out && !is_dir && !is_steps) {
        return 0;
    }
    if (*i + 1 >= argc) {
        hd_cli_usage_error("view", "option needs a value", arg);
        return -1;
    }
    const char *val = argv[++*i];
    o->have_pose |= !is_out;
    if (is_out) {
        o->output = val;
    } else if (is_dir) {
        double *d = o->slide_dir;
        if (!hd_cli_parse_vec3(val, d) || (d[0] == 0.0 && d[1] == 0.0 && d[2] == 0.0)) {
            hd_cli_usage_error("view", "--slide-dir expects a non-zero X,Y,Z", val);
            return -1;
        }
        o->have_slide_dir = 1;
    } else {
        char *end = NULL;
        long n = strtol(val, &end, 10);
        if (end == val || *end != '\0' || n < 3 || n > HD_VIEW_SLIDE_MAX) {
            hd_cli_usage_error("view", "--slide-steps expects an integer from 3 to 1001", val);
            return -1;
        }
        o->slide_steps = (int)n;
    }
    return 1;
}

static int has_pair_options(const hd_view_opts *o)
{
    return o->pair_file != NULL || o->compound || o->radius[0] != 0.0 || o->radius[1] != 0.0 ||
           o->have_twist || o->have_ray;
}

/* What a scene page does not take: files A B, a pose or motion of B, --path, --distance. */
static int check_scene_args(const hd_view_opts *o, int nfiles)
{
    const hd_cli_opts *q = &o->query;
    int pose = o->have_pose || q->pose_b.t[0] != 0.0 || q->pose_b.t[1] != 0.0 ||
               q->pose_b.t[2] != 0.0 || q->pose_b.r[0] != 1.0 || q->pose_b.r[4] != 1.0 ||
               q->pose_b.r[8] != 1.0;
    if (nfiles != 0) {
        return hd_cli_usage_error("view", "--scene takes no files A B", o->files[0]);
    }
    if (pose || q->record_path || q->distance || has_pair_options(o)) {
        return hd_cli_usage_error("view",
                                  "--scene takes none of --translate-b, --rotate-b, "
                                  "--slide-dir, --slide-steps, --path, --distance, --pair, "
                                  "--compound, --radius-a/-b, --ray, --dir, the motion options",
                                  NULL);
    }
    return -1;
}

/* What a pair page takes together: --ray with --dir; --compound without radii, twists, rays or
 * --path; --pair instead of files A B. */
static int check_pair_args(const hd_view_opts *o, int nfiles)
{
    if (o->have_ray != 0 && o->have_ray != 3) {
        return hd_cli_usage_error("view", "--ray and --dir go together", NULL);
    }
    if (o->compound && (o->radius[0] != 0.0 || o->radius[1] != 0.0 || o->have_twist ||
                        o->have_ray || o->query.record_path || o->have_pose)) {
        return hd_cli_usage_error("view",
                                  "--compound takes none of --radius-a/-b, the motion options, "
                                  "--ray, --path, --slide-dir, --slide-steps",
                                  NULL);
    }
    if (o->pair_file != NULL && nfiles != 0) {
        return hd_cli_usage_error("view", "--pair takes no files A B", o->files[0]);
    }
    if (o->pair_file == NULL && nfiles != 2) {
        return hd_cli_usage_error("view", "two files expected: A B", NULL);
    }
    return -1;
}

/* Returns -1 on success, else the exit code of a usage error (printed) or of --help. */
static int parse_args(hd_view_opts *o, int argc, char **argv)
{
    int nfiles = 0;
    for (int i = 1; i < argc; ++i) {
        if (hd_cli_is_help(argv[i])) {
            return view_usage();
        }
        if (strcmp(argv[i], "--translate-a") == 0 || strcmp(argv[i], "--rotate-a") == 0) {
            /* the page draws A in its own frame: the relative pose is B's */
            return hd_cli_usage_error("view", "A stays unmoved here: pose B instead", argv[i]);
        }
        int used = parse_view_option(o, argc, argv, &i);
        if (used == 0) {
            used = hd_cli_opts_parse(&o->query, "view", argc, argv, &i);
        }
        if (used < 0) {
            return HD_EXIT_USAGE;
        }
        if (used) {
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return hd_cli_usage_error("view", "unknown option", argv[i]);
        }
        if (nfiles == 2) {
            return hd_cli_usage_error("view", "two files expected, got a third", argv[i]);
        }
        o->files[nfiles++] = argv[i];
    }
    int code = o->scene != NULL ? check_scene_args(o, nfiles) : check_pair_args(o, nfiles);
    if (code >= 0) {
        return code;
    }
    if (o->scene == NULL && o->have_frame) {
        return hd_cli_usage_error("view", "--frame is an option of --scene", NULL);
    }
    if (o->output == NULL) {
        return hd_cli_usage_error("view", "the page to write is required: -o FILE.html", NULL);
    }
    if (o->query.all || o->query.json) {
        return hd_cli_usage_error("view", "one algorithm per page, no --json",
                                  o->query.all ? "--algo all" : "--json");
    }
    return -1;
}

/* The page's title: "A vs B (algo)". */
static void make_title(const hd_view_opts *o, char *title, size_t size)
{
    if (o->scene != NULL) {
        snprintf(title, size, "%s (scene, %s)", o->scene, hd_algo_str(o->query.algo));
        return;
    }
    snprintf(title, size, "%s vs %s (%s)", o->files[0], o->files[1], hd_algo_str(o->query.algo));
}

/* Writes the page to o->output; a partly written file is removed. */
static int write_output(const hd_view_opts *o, const hd_view_assets *assets, const char *data,
                        size_t size)
{
    int to_stdout = strcmp(o->output, "-") == 0;
    FILE *fp = to_stdout ? stdout : fopen(o->output, "wb");
    if (fp == NULL) {
        fprintf(stderr, "hedra view: cannot write %s\n", o->output);
        return 0;
    }
    char title[1024];
    make_title(o, title, sizeof title);
    int ok = hd_view_write_page(fp, assets, title, data, size);
    ok = (to_stdout ? fflush(fp) == 0 : fclose(fp) == 0) && ok;
    if (!ok) {
        fprintf(stderr, "hedra view: error writing %s\n", o->output);
        struct stat sb; /* a regular file only: never a device such as /dev/full */
        if (!to_stdout && stat(o->output, &sb) == 0 && S_ISREG(sb.st_mode)) {
            remove(o->output);
        }
    }
    return ok;
}

/* Runs the queries into an in-memory JSON document, then writes the page: of the scene file, of
 * the compound bodies ca, cb when given, else of a and b. */
static int run_view(const hd_view_opts *o, const hd_view_assets *assets, const hd_polytope *a,
                    const hd_polytope *b, const hd_compound *ca, const hd_compound *cb)
{
    int code = HD_EXIT_OK;
    char *data = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&data, &size);
    if (mem == NULL) {
        fprintf(stderr, "hedra view: out of memory\n");
        return HD_EXIT_FAILURE;
    }
    code = o->scene != NULL ? hd_view_write_scene_data(mem, o)
           : ca != NULL     ? hd_view_write_compound_data(mem, o, ca, cb)
                            : hd_view_write_data(mem, o, a, b);
    if (fclose(mem) != 0 || data == NULL) {
        fprintf(stderr, "hedra view: out of memory\n");
        free(data);
        return HD_EXIT_FAILURE;
    }
    if (code != HD_EXIT_INPUT && code != HD_EXIT_USAGE && !write_output(o, assets, data, size)) {
        code = HD_EXIT_INPUT;
    }
    free(data);
    return code;
}

/* The page of two compound bodies, from files (xyz NULL) or from the pair file's points. */
static int run_compounds(const hd_view_opts *o, const hd_view_assets *assets,
                         const hd_pair_data *pd)
{
    hd_cli_body body[2];
    const hd_tolerance *tol = &o->query.query.tol;
    for (int k = 0; k < 2; ++k) {
        int code = 0;
        if (pd == NULL) {
            code = hd_cli_body_load(o->files[k], o->query.format, &body[k]);
        } else {
            const hd_points *p = k ? &pd->b : &pd->a;
            hd_status st =
                hd_cli_body_from_points(p->xyz, p->count, k ? pd->pieces_b : pd->pieces_a,
                                        k ? pd->piece_sizes_b : pd->piece_sizes_a, tol, &body[k]);
            if (st != HD_OK) {
                fprintf(stderr, "hedra view: %s: %s: %s\n", o->pair_file, o->files[k],
                        hd_status_str(st));
                code = HD_EXIT_INPUT;
            }
        }
        if (code != 0) {
            if (k == 1) {
                hd_cli_body_free(&body[0]);
            }
            return code;
        }
    }
    int code = run_view(o, assets, NULL, NULL, body[0].compound, body[1].compound);
    hd_cli_body_free(&body[0]);
    hd_cli_body_free(&body[1]);
    return code;
}

/* A posed set of the pair file as a rounded polytope (the command line's radius when given). */
static hd_polytope *pair_polytope(const hd_view_opts *o, const hd_points *p, double radius, int k)
{
    hd_polytope *poly = NULL;
    if (p->count == 0) {
        fprintf(stderr, "hedra view: %s: %s is an empty set: nothing to draw\n", o->pair_file,
                o->files[k]);
        return NULL;
    }
    double r = o->radius[k] != 0.0 ? o->radius[k] : radius;
    hd_status st = hd_polytope_build_rounded(p->xyz, p->count, r, &o->query.query.tol, &poly);
    if (st != HD_OK) {
        fprintf(stderr, "hedra view: %s: %s: cannot build the hull: %s\n", o->pair_file,
                o->files[k], hd_status_str(st));
    }
    return poly;
}

/* A pair read from the pair file: compound bodies when either set has pieces, else polytopes. */
static int run_pair_data(hd_view_opts *o, const hd_view_assets *assets, const hd_pair_data *pd)
{
    if (pd->pieces_a > 0 || pd->pieces_b > 0) {
        o->compound = 1;
        int code = check_pair_args(o, 0);
        return code >= 0 ? code : run_compounds(o, assets, pd);
    }
    hd_polytope *a = pair_polytope(o, &pd->a, pd->radius_a, 0);
    hd_polytope *b = a ? pair_polytope(o, &pd->b, pd->radius_b, 1) : NULL;
    int code = a && b ? run_view(o, assets, a, b, NULL, NULL) : HD_EXIT_INPUT;
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
    return code;
}

/* The page of the pair file's first pair: its radii, its motion line (unless motion options were
 * given), its compound sets. */
static int run_pair_file(hd_view_opts *o, const hd_view_assets *assets)
{
    static char names[2][HD_PAIR_NAME_MAX + 8];
    hd_pair_reader *reader = NULL;
    hd_parse_error err;
    memset(&err, 0, sizeof err);
    hd_pair_data pd;
    bool done = true;
    hd_status st = hd_pair_reader_open(o->pair_file, &reader, &err);
    if (st == HD_OK) {
        st = hd_pair_reader_next(reader, &pd, &done, &err);
    }
    int code = HD_EXIT_INPUT;
    if (st != HD_OK || done) {
        char msg[600];
        hd_parse_error_format(&err, msg, (int)sizeof msg);
        if (st != HD_OK) {
            fprintf(stderr, "hedra view: %s\n", msg[0] ? msg : hd_status_str(st));
        } else {
            fprintf(stderr, "hedra view: %s: the pair file holds no pair\n", o->pair_file);
        }
    } else {
        snprintf(names[0], sizeof names[0], "%s:A", pd.name);
        snprintf(names[1], sizeof names[1], "%s:B", pd.name);
        o->files[0] = names[0];
        o->files[1] = names[1];
        /* as in hedra batch, a compound pair's motion line is not used (hd_toi takes polytopes) */
        if (pd.has_motion && !o->have_twist && pd.pieces_a == 0 && pd.pieces_b == 0) {
            hd_cli_twist *tw = &o->twist[1];
            memcpy(tw->v, pd.motion, sizeof tw->v);
            memcpy(tw->w, pd.motion + 3, sizeof tw->w);
            memcpy(tw->c, pd.motion + 6, sizeof tw->c);
            tw->has_c = 1;
            o->have_twist = 1;
        }
        code = run_pair_data(o, assets, &pd);
    }
    hd_pair_reader_close(reader);
    return code;
}

/* The page of files A B: rounded by the radii, or compound bodies with --compound. */
static int run_files(hd_view_opts *o, const hd_view_assets *assets)
{
    if (o->compound) {
        return run_compounds(o, assets, NULL);
    }
    hd_polytope *a = hd_cli_load_rounded(o->files[0], o->query.format, o->radius[0]);
    hd_polytope *b = a ? hd_cli_load_rounded(o->files[1], o->query.format, o->radius[1]) : NULL;
    int code = a && b ? run_view(o, assets, a, b, NULL, NULL) : HD_EXIT_INPUT;
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
    return code;
}

int hd_cmd_view(int argc, char **argv)
{
    hd_view_opts o;
    memset(&o, 0, sizeof o);
    hd_cli_opts_init(&o.query);
    o.slide_steps = HD_VIEW_SLIDE_DEFAULT;
    int code = parse_args(&o, argc, argv);
    if (code >= 0) {
        hd_cli_opts_free(&o.query);
        return code;
    }
    hd_view_assets assets;
    code = HD_EXIT_INPUT;
    if (hd_view_assets_load(&assets)) {
        code = o.scene != NULL       ? run_view(&o, &assets, NULL, NULL, NULL, NULL)
               : o.pair_file != NULL ? run_pair_file(&o, &assets)
                                     : run_files(&o, &assets);
    }
    hd_view_assets_free(&assets);
    hd_cli_opts_free(&o.query);
    return code;
}
