/* Running and printing one query for the collide and batch commands. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_query.h"

const char *const hd_cli_query_help =
    "  --algo NAME        gjk (default), cddual, lp, or all (every algorithm; reports whether\n"
    "                     they agree and exits 3 if they do not)\n"
    "  --distance         also compute the Euclidean distance and witness points (GJK)\n"
    "  --depth            also compute the signed distance: exact penetration depth, normal,\n"
    "                     witnesses, certified depth bounds, features (hd_signed_distance)\n"
    "  --manifold         with --depth, the contact manifold (up to 4 points)\n"
    "  --gradient         with --depth (implied), the signed distance's derivatives with respect\n"
    "                     to both poses and whether they are unique (HD_QUERY_GRADIENT)\n"
    "  --tol REL          touching band half-width relative to the scale (default 1e-12)\n"
    "  --brute            support mapping by brute force instead of hill "
    "climbing\n" HD_CLI_POSE_HELP HD_CLI_FORMAT_HELP
    "  --no-check         skip the independent certificate check\n"
    "  --path             print the algorithm's path: CD-Dual's faces of A - B visited (per\n"
    "                     phase), GJK's simplex per iteration (pairs of vertices of A and B)\n";

void hd_cli_opts_init(hd_cli_opts *o)
{
    memset(o, 0, sizeof *o);
    o->algo = HD_ALGO_GJK;
    o->repeat = 1;
    o->check = 1;
    o->query = hd_options_default();
    o->pose_a = hd_pose_identity();
    o->pose_b = hd_pose_identity();
}

void hd_cli_opts_free(hd_cli_opts *o)
{
    hd_workspace_destroy(o->workspace);
    o->workspace = NULL;
}

static int parse_algo(hd_cli_opts *o, const char *cmd, const char *name)
{
    if (strcmp(name, "all") == 0) {
        o->all = 1;
        return 1;
    }
    if (hd_algo_parse(name, &o->algo) != HD_OK) {
        hd_cli_usage_error(cmd, "unknown algorithm (gjk, cddual, lp, all)", name);
        return -1;
    }
    o->all = 0;
    return 1;
}

static const char *need_value(const char *cmd, int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        hd_cli_usage_error(cmd, "option needs a value", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

int hd_cli_opts_parse(hd_cli_opts *o, const char *cmd, int argc, char **argv, int *i)
{
    const char *arg = argv[*i];
    const char *val;
    if (strcmp(arg, "--distance") == 0) {
        o->distance = 1;
    } else if (strcmp(arg, "--depth") == 0) {
        o->depth = 1;
    } else if (strcmp(arg, "--manifold") == 0) {
        o->depth = o->manifold = 1;
    } else if (strcmp(arg, "--gradient") == 0) {
        o->depth = 1;
        o->query.flags |= HD_QUERY_GRADIENT;
    } else if (strcmp(arg, "--json") == 0) {
        o->json = 1;
    } else if (strcmp(arg, "--brute") == 0) {
        o->query.flags |= HD_QUERY_BRUTE_SUPPORT;
    } else if (strcmp(arg, "--no-check") == 0) {
        o->check = 0;
    } else if (strcmp(arg, "--path") == 0) {
        o->record_path = 1;
    } else if (strcmp(arg, "--algo") == 0) {
        return (val = need_value(cmd, argc, argv, i)) ? parse_algo(o, cmd, val) : -1;
    } else if (strcmp(arg, "--tol") == 0) {
        if ((val = need_value(cmd, argc, argv, i)) == NULL) {
            return -1;
        }
        char *end = NULL;
        o->query.tol.touch_rel = strtod(val, &end);
        if (end == val || *end != '\0' || hd_tolerance_validate(&o->query.tol) != HD_OK) {
            hd_cli_usage_error(cmd, "--tol expects a number in [0, 1e-3)", val);
            return -1;
        }
    } else {
        hd_pose *poses[2] = {&o->pose_a, &o->pose_b};
        return hd_cli_parse_shape_option(cmd, argc, argv, i, poses, &o->format);
    }
    return 1;
}

static int compare_ll(const void *x, const void *y)
{
    long long a = *(const long long *)x, b = *(const long long *)y;
    return (a > b) - (a < b);
}

/* The query timed(): hd_collide or hd_distance, each with its own result type. */
typedef struct timed_query {
    const hd_options *q;
    hd_collide_result *collide;   /* hd_collide's answer, or NULL */
    hd_distance_result *distance; /* else hd_distance's */
} timed_query;

static hd_status run_once(const timed_query *tq, const hd_cli_opts *o, const hd_polytope *a,
                          const hd_polytope *b)
{
    return tq->collide != NULL ? hd_collide(a, &o->pose_a, b, &o->pose_b, tq->q, tq->collide)
                               : hd_distance(a, &o->pose_a, b, &o->pose_b, tq->q, tq->distance);
}

/* Runs one query repeat times; returns the median wall time in nanoseconds. */
static long long timed(const timed_query *tq, const hd_cli_opts *o, const hd_polytope *a,
                       const hd_polytope *b, hd_status *st)
{
    int k = o->repeat < 1 ? 1 : o->repeat;
    long long stack_samples[64];
    long long *samples = k <= 64 ? stack_samples : malloc(sizeof(long long) * (size_t)k);
    for (int i = 0; i < k; ++i) {
        long long t0 = hd_cli_now_ns();
        *st = run_once(tq, o, a, b);
        long long t1 = hd_cli_now_ns();
        if (samples != NULL) {
            samples[i] = t1 - t0;
        }
    }
    long long median = 0;
    if (samples != NULL) {
        qsort(samples, (size_t)k, sizeof samples[0], compare_ll);
        median = samples[k / 2];
        if (samples != stack_samples) {
            free(samples);
        }
    }
    return median;
}

void hd_cli_run(hd_cli_opts *o, hd_algo algo, const hd_polytope *a, const hd_polytope *b,
                hd_cli_answer *ans)
{
    hd_options q = o->query;
    q.algo = algo;
    ans->algo = algo;
    /* CD-Dual always gets a workspace sized for the pair; GJK one when its path is recorded */
    if (algo == HD_ALGO_CDDUAL || (algo == HD_ALGO_GJK && o->record_path)) {
        ans->status = hd_cli_workspace_for(&o->workspace, a, b, &q.tol);
        if (ans->status != HD_OK) {
            ans->ns = 0;
            ans->cert_ok = -1;
            ans->distance_status = HD_OK;
            return;
        }
        q.workspace = o->workspace;
        q.flags |= o->record_path ? HD_QUERY_RECORD_PATH : 0u;
    }
    timed_query collide = {&q, &ans->result, NULL};
    ans->ns = timed(&collide, o, a, b, &ans->status);
    ans->cert_ok = -1;
    if (o->check && ans->status == HD_OK) {
        ans->cert_ok = hd_certificate_check(a, &o->pose_a, b, &o->pose_b, ans->result.verdict,
                                            ans->result.eps, &ans->result.cert) == HD_OK;
    }
    ans->distance_status = HD_OK;
    if (o->distance) {
        q.flags &= ~(unsigned)HD_QUERY_RECORD_PATH; /* the path stays hd_collide's */
        timed_query distance = {&q, NULL, &ans->distance};
        ans->distance_ns = timed(&distance, o, a, b, &ans->distance_status);
        if (ans->distance_status == HD_OK && o->check &&
            hd_certificate_check(a, &o->pose_a, b, &o->pose_b, ans->distance.verdict,
                                 ans->distance.eps, &ans->distance.cert) != HD_OK) {
            ans->cert_ok = 0;
        }
    }
    hd_cli_run_contact(o, a, b, ans);
}

static void print_combination(FILE *fp, const hd_combination *c)
{
    fputc('[', fp);
    for (int k = 0; k < c->count && k < HD_COMBINATION_MAX; ++k) {
        fprintf(fp, "%s[%d,", k ? "," : "", c->index[k]);
        hd_json_double(fp, c->weight[k]);
        fputc(']', fp);
    }
    fputc(']', fp);
}

static void print_certificate_json(FILE *fp, const hd_certificate *c)
{
    fprintf(fp, "{");
    if (c->has_plane) {
        fprintf(fp, "\"normal\":");
        hd_json_vec3(fp, c->normal);
        fprintf(fp, ",\"offset\":");
        hd_json_double(fp, c->offset);
        fprintf(fp, ",\"gap\":");
        hd_json_double(fp, c->gap);
    }
    if (c->has_point) {
        fprintf(fp, "%s\"point\":", c->has_plane ? "," : "");
        hd_json_vec3(fp, c->point);
        fprintf(fp, ",\"weights_a\":");
        print_combination(fp, &c->on_a);
        fprintf(fp, ",\"weights_b\":");
        print_combination(fp, &c->on_b);
        fprintf(fp, ",\"depth_bound\":");
        hd_json_double(fp, c->depth_bound);
    }
    fprintf(fp, "}");
}

static const char *const hd_stop_names[] = {"converged", "early_exit", "refined", "fallback"};
static const char *const hd_face_names[] = {"none", "fv", "vf", "ee"};

/* CD-Dual's search path: [phase, kind, feature_a, feature_b, dual distance] per face visited. */
static void print_path_json(FILE *fp, const hd_workspace *ws)
{
    const hd_path_step *steps = NULL;
    int n = hd_workspace_path(ws, &steps);
    fprintf(fp, ",\"path\":[");
    for (int i = 0; i < n; ++i) {
        fprintf(fp, "%s[%d,\"%s\",%d,%d,", i ? "," : "", steps[i].phase,
                hd_face_names[steps[i].kind & 3], steps[i].feature_a, steps[i].feature_b);
        hd_json_double(fp, steps[i].dual_distance);
        fputc(']', fp);
    }
    fputc(']', fp);
}

/* GJK's path: {"support": [vertex of A, vertex of B], "pairs": [[vertex of A, vertex of B]...],
 * "closest", "lower"} per iteration. */
static void print_gjk_path_json(FILE *fp, const hd_workspace *ws)
{
    const hd_gjk_step *steps = NULL;
    int n = hd_workspace_gjk_path(ws, &steps);
    fprintf(fp, ",\"path\":[");
    for (int i = 0; i < n; ++i) {
        fprintf(fp, "%s{\"support\":[%d,%d],\"pairs\":[", i ? "," : "", steps[i].support_a,
                steps[i].support_b);
        for (int k = 0; k < steps[i].count; ++k) {
            fprintf(fp, "%s[%d,%d]", k ? "," : "", steps[i].vertex_a[k], steps[i].vertex_b[k]);
        }
        fprintf(fp, "],\"closest\":");
        hd_json_vec3(fp, steps[i].closest);
        fprintf(fp, ",\"lower\":");
        hd_json_double(fp, steps[i].lower);
        fputc('}', fp);
    }
    fputc(']', fp);
}

int hd_cli_json_head(FILE *fp, const char *name, hd_algo algo, hd_status status)
{
    fputc('{', fp);
    if (name != NULL) {
        fprintf(fp, "\"name\":");
        hd_json_string(fp, name);
        fputc(',', fp);
    }
    fprintf(fp, "\"algo\":\"%s\"", hd_algo_str(algo));
    if (status != HD_OK) {
        fprintf(fp, ",\"error\":");
        hd_json_string(fp, hd_status_str(status));
        fputc('}', fp);
        return 0;
    }
    return 1;
}

void hd_cli_print_json(FILE *fp, const char *name, const hd_cli_opts *o, const hd_cli_answer *ans)
{
    const hd_collide_result *r = &ans->result;
    if (!hd_cli_json_head(fp, name, ans->algo, ans->status)) {
        return;
    }
    fprintf(fp, ",\"verdict\":\"%s\"", hd_verdict_str(r->verdict));
    if (o->distance && ans->distance_status != HD_OK) {
        fprintf(fp, ",\"distance_error\":");
        hd_json_string(fp, hd_status_str(ans->distance_status));
    } else if (o->distance) {
        fprintf(fp, ",\"distance\":");
        hd_json_double(fp, ans->distance.distance);
        if (!o->depth) { /* with --depth the witnesses are the contact's (same keys) */
            fprintf(fp, ",\"witness_a\":");
            hd_json_vec3(fp, ans->distance.witness_a);
            fprintf(fp, ",\"witness_b\":");
            hd_json_vec3(fp, ans->distance.witness_b);
        }
        fprintf(fp, ",\"distance_ns\":%lld", ans->distance_ns);
    }
    hd_cli_print_contact_json(fp, o, ans);
    fprintf(fp, ",\"ns\":%lld,\"iterations\":%d,\"support_calls\":%d", ans->ns, r->stats.iterations,
            r->stats.support_calls);
    if (ans->algo == HD_ALGO_CDDUAL) {
        fprintf(fp, ",\"visits\":{\"fv\":%d,\"vf\":%d,\"ee\":%d}", r->stats.visits_fv,
                r->stats.visits_vf, r->stats.visits_ee);
    }
    if (ans->algo == HD_ALGO_CDDUAL && o->record_path && o->workspace != NULL) {
        print_path_json(fp, o->workspace);
    } else if (ans->algo == HD_ALGO_GJK && o->record_path && o->workspace != NULL) {
        print_gjk_path_json(fp, o->workspace);
    }
    fprintf(fp, ",\"stop\":\"%s\",\"eps\":", hd_stop_names[r->stop & 3]);
    hd_json_double(fp, r->eps);
    fprintf(fp, ",\"certificate\":");
    print_certificate_json(fp, &r->cert);
    if (ans->cert_ok >= 0) {
        fprintf(fp, ",\"certificate_ok\":%s", ans->cert_ok ? "true" : "false");
    }
    fputc('}', fp);
}

/* GJK's path: one line per recorded simplex, its vertex pairs, |v| and the lower bound. */
static void print_gjk_path_text(FILE *fp, const hd_workspace *ws, int iterations)
{
    const hd_gjk_step *steps = NULL;
    int n = hd_workspace_gjk_path(ws, &steps);
    fprintf(fp, "GJK path (%d of %d iterations; pairs: vertex of A, vertex of B):\n", n,
            iterations);
    for (int i = 0; i < n; ++i) {
        fprintf(fp, "    %d: support (%d,%d), simplex", i + 1, steps[i].support_a,
                steps[i].support_b);
        for (int k = 0; k < steps[i].count; ++k) {
            fprintf(fp, " (%d,%d)", steps[i].vertex_a[k], steps[i].vertex_b[k]);
        }
        const double *v = steps[i].closest;
        fprintf(fp, " |v|=%.6g lower=%.6g\n", sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]),
                steps[i].lower);
    }
}

void hd_cli_print_text(FILE *fp, const hd_cli_opts *o, const hd_cli_answer *ans)
{
    const hd_collide_result *r = &ans->result;
    fprintf(fp, "algo: %s\n", hd_algo_str(ans->algo));
    if (ans->status != HD_OK) {
        fprintf(fp, "error: %s\n", hd_status_str(ans->status));
        return;
    }
    fprintf(fp, "verdict: %s\n", hd_verdict_str(r->verdict));
    if (o->distance && ans->distance_status != HD_OK) {
        fprintf(fp, "distance: error: %s\n", hd_status_str(ans->distance_status));
    } else if (o->distance) {
        const hd_distance_result *d = &ans->distance;
        fprintf(fp, "distance: %.17g\n", d->distance);
        fprintf(fp, "witness_a: %.17g %.17g %.17g\n", d->witness_a[0], d->witness_a[1],
                d->witness_a[2]);
        fprintf(fp, "witness_b: %.17g %.17g %.17g\n", d->witness_b[0], d->witness_b[1],
                d->witness_b[2]);
    }
    hd_cli_print_contact_text(fp, o, ans);
    const hd_certificate *c = &r->cert;
    if (c->has_plane) {
        fprintf(fp, "plane: normal %.17g %.17g %.17g offset %.17g gap %.17g\n", c->normal[0],
                c->normal[1], c->normal[2], c->offset, c->gap);
    }
    if (c->has_point) {
        fprintf(fp, "common point: %.17g %.17g %.17g (depth >= %.3g)\n", c->point[0], c->point[1],
                c->point[2], c->depth_bound);
    }
    fprintf(fp, "iterations: %d, support calls: %d, stop: %s, eps: %.3g\n", r->stats.iterations,
            r->stats.support_calls, hd_stop_names[r->stop & 3], r->eps);
    if (ans->algo == HD_ALGO_GJK && o->record_path && o->workspace != NULL) {
        print_gjk_path_text(fp, o->workspace, r->stats.iterations);
    }
    if (ans->algo == HD_ALGO_CDDUAL && o->record_path && o->workspace != NULL) {
        const hd_path_step *steps = NULL;
        int n = hd_workspace_path(o->workspace, &steps);
        fprintf(fp, "search path (%d faces of A - B):\n", n);
        static const char *const phases[] = {"SEARCH-FV", "SEARCH-VF", "SEARCH-EE"};
        for (int i = 0; i < n; ++i) {
            if (i == 0 || steps[i].phase != steps[i - 1].phase) {
                fprintf(fp, "  %s\n",
                        phases[steps[i].phase < 0 || steps[i].phase > 2 ? 2 : steps[i].phase]);
            }
            fprintf(fp, "    %s a=%d b=%d d=%.6g\n", hd_face_names[steps[i].kind & 3],
                    steps[i].feature_a, steps[i].feature_b, steps[i].dual_distance);
        }
    }
    if (ans->cert_ok >= 0) {
        fprintf(fp, "certificate: %s\n", ans->cert_ok ? "checked, ok" : "REJECTED");
    }
}
