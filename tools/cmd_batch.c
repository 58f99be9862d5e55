/* hedra batch [options] PAIRFILE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_compound.h"
#include "cli_motion.h"

static int batch_usage(void)
{
    printf(
        "usage: hedra batch [options] PAIRFILE\n"
        "Runs every pair of a pair file ('-' reads standard input) and prints one JSON object\n"
        "per line per pair (per algorithm with --algo all):\n"
        "  {\"name\":..., \"algo\":..., \"verdict\":\"separated\"|\"touching\"|\"intersecting\",\n"
        "   \"distance\":... (with --distance), \"signed_distance\":..., \"normal\":[...],\n"
        "   \"bounds\":[...], \"manifold\":[...] (with --depth, --manifold), \"ns\":...}\n"
        "ns is the time of the query call alone (parsing and hull building excluded), the\n"
        "median over --repeat K calls. An empty set (\"A 0\") never collides; \"A <n> radius\n"
        "<r>\" rounds a set by r (a sphere from one point, a capsule from two). A pair with a\n"
        "compound set (\"A pieces K\") is answered by the compound queries, with the same keys\n"
        "and the pieces that give each answer (docs/FORMATS.md). Options:\n%s"
        "  --repeat K         run each query K times (default 1)\n"
        "  --toi              the time of impact instead: A still, B moved by the pair's\n"
        "                     'motion' line (none: still); each line holds \"toi\" (null when\n"
        "                     none), \"toi_bounds\" [lo, hi], and at the TOI \"normal\",\n"
        "                     \"witness_a\", \"witness_b\", \"iterations\"; a compound pair\n"
        "                     adds \"piece_a\", \"piece_b\" (docs/FORMATS.md)\n"
        "A pair the file gets wrong is reported on standard error (file:line and why) and\n"
        "skipped up to the next 'pair' line; the exit code is then 1 once all are done.\n"
        "A summary goes to standard error.\n",
        hd_cli_query_help);
    return HD_EXIT_OK;
}

typedef struct hd_batch_totals {
    long pairs;
    long failures;
    long disagreements;
    long unreadable; /* pairs the reader rejected (each reported with file:line) */
} hd_batch_totals;

static void report_bad_pair(const hd_parse_error *err, hd_status st, hd_batch_totals *tot)
{
    char msg[600];
    hd_parse_error_format(err, msg, (int)sizeof msg);
    fflush(stdout);
    fprintf(stderr, "hedra batch: %s\n", msg[0] ? msg : hd_status_str(st));
    tot->unreadable++;
}

static void print_empty(const char *name, hd_algo algo)
{
    printf("{\"name\":");
    hd_json_string(stdout, name);
    printf(",\"algo\":\"%s\",\"verdict\":\"separated\",\"empty\":true,\"ns\":0}\n",
           hd_algo_str(algo));
}

static void print_build_error(const char *name, const char *which, hd_status st)
{
    printf("{\"name\":");
    hd_json_string(stdout, name);
    printf(",\"error\":\"polytope %s: %s\"}\n", which, hd_status_str(st));
}

/* --toi's motions and options: A still at its pose, B from its pose by the pair's twist
 * (docs/FORMATS.md). */
static void toi_setup(const hd_cli_opts *o, const hd_pair_data *pd, hd_motion *ma, hd_motion *mb,
                      hd_toi_options *topt)
{
    hd_cli_twist still = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, 0}, moving = still;
    if (pd->has_motion) {
        memcpy(moving.v, pd->motion, 3 * sizeof(double));
        memcpy(moving.w, pd->motion + 3, 3 * sizeof(double));
        memcpy(moving.c, pd->motion + 6, 3 * sizeof(double));
        moving.has_c = 1;
    }
    *ma = hd_cli_twist_motion(&still, &o->pose_a);
    *mb = hd_cli_twist_motion(&moving, &o->pose_b);
    *topt = hd_toi_options_default();
    topt->query.tol = o->query.tol;
    topt->query.flags = o->query.flags & HD_QUERY_BRUTE_SUPPORT;
}

/* The start of a --toi line: the pair's name and whether it had a motion line. */
static void toi_head(const hd_pair_data *pd)
{
    printf("{\"name\":");
    hd_json_string(stdout, pd->name);
    printf(",\"motion\":%s", pd->has_motion ? "true" : "false");
}

static void run_toi(const hd_cli_opts *o, const hd_pair_data *pd, const hd_polytope *a,
                    const hd_polytope *b, hd_batch_totals *tot)
{
    hd_motion ma, mb;
    hd_toi_options topt;
    toi_setup(o, pd, &ma, &mb, &topt);
    hd_toi_result r;
    long long t0 = hd_cli_now_ns();
    hd_status st = hd_toi(a, &ma, b, &mb, &topt, &r);
    long long ns = hd_cli_now_ns() - t0;
    toi_head(pd);
    hd_cli_toi_json(stdout, st, &r);
    printf(",\"ns\":%lld}\n", ns);
    tot->failures += st != HD_OK;
}

/* --toi on a pair with a compound set (a plain set is a compound of one piece): hd_compound_toi,
 * with the pieces that meet first and the work of the trees. */
static void run_compound_toi(const hd_cli_opts *o, const hd_pair_data *pd, const hd_cli_body *a,
                             const hd_cli_body *b, hd_batch_totals *tot)
{
    hd_motion ma, mb;
    hd_toi_options topt;
    toi_setup(o, pd, &ma, &mb, &topt);
    hd_compound_toi_result r;
    long long t0 = hd_cli_now_ns();
    hd_status st = hd_compound_toi(a->compound, &ma, b->compound, &mb, &topt, &r);
    long long ns = hd_cli_now_ns() - t0;
    toi_head(pd);
    hd_cli_toi_json(stdout, st, &r.toi);
    if (st == HD_OK) {
        printf(",\"piece_a\":%d,\"piece_b\":%d", r.piece_a, r.piece_b);
    }
    printf(",\"piece_pairs\":%lld,\"node_pairs\":%lld,\"ns\":%lld}\n", r.stats.piece_pairs,
           r.stats.node_pairs, ns);
    tot->failures += st != HD_OK;
}

/* A pair with a compound set: both sets as compounds (a plain one of one piece). */
static void run_compound_pair(hd_cli_opts *o, const hd_pair_data *pd, hd_batch_totals *tot)
{
    hd_cli_body a, b;
    hd_status st = hd_cli_body_from_points(pd->a.xyz, pd->a.count, pd->pieces_a, pd->piece_sizes_a,
                                           &o->query.tol, &a);
    if (st != HD_OK) {
        print_build_error(pd->name, "A", st);
        tot->failures++;
        return;
    }
    st = hd_cli_body_from_points(pd->b.xyz, pd->b.count, pd->pieces_b, pd->piece_sizes_b,
                                 &o->query.tol, &b);
    if (st != HD_OK) {
        print_build_error(pd->name, "B", st);
        tot->failures++;
        hd_cli_body_free(&a);
        return;
    }
    if (o->toi) {
        run_compound_toi(o, pd, &a, &b, tot);
        hd_cli_body_free(&a);
        hd_cli_body_free(&b);
        return;
    }
    int first = o->all ? 0 : (int)o->algo;
    int last = o->all ? HD_ALGO_COUNT - 1 : (int)o->algo;
    hd_verdict seen = HD_SEPARATED;
    for (int k = first; k <= last; ++k) {
        hd_cli_compound_answer ans;
        hd_cli_compound_run(o, (hd_algo)k, a.compound, b.compound, &ans);
        hd_cli_compound_json(stdout, pd->name, o, &ans);
        putchar('\n');
        if (hd_cli_compound_failed(&ans)) {
            tot->failures++;
        } else if (k > first && ans.result.verdict != seen) {
            tot->disagreements++;
        }
        seen = ans.result.verdict;
    }
    hd_cli_body_free(&a);
    hd_cli_body_free(&b);
}

static void run_pair(hd_cli_opts *o, const hd_pair_data *pd, hd_batch_totals *tot)
{
    int first = o->all ? 0 : (int)o->algo;
    int last = o->all ? HD_ALGO_COUNT - 1 : (int)o->algo;
    tot->pairs++;
    if ((pd->a.count == 0 || pd->b.count == 0) && o->toi) {
        printf("{\"name\":");
        hd_json_string(stdout, pd->name);
        printf(",\"empty\":true,\"toi\":null,\"toi_bounds\":null,\"ns\":0}\n");
        return;
    }
    if (pd->a.count == 0 || pd->b.count == 0) {
        for (int k = first; k <= last; ++k) {
            print_empty(pd->name, (hd_algo)k);
        }
        return;
    }
    if (pd->pieces_a > 0 || pd->pieces_b > 0) {
        run_compound_pair(o, pd, tot);
        return;
    }
    hd_polytope *a = NULL, *b = NULL;
    hd_status st =
        hd_polytope_build_rounded(pd->a.xyz, pd->a.count, pd->radius_a, &o->query.tol, &a);
    if (st != HD_OK || (st = hd_polytope_build_rounded(pd->b.xyz, pd->b.count, pd->radius_b,
                                                       &o->query.tol, &b)) != HD_OK) {
        print_build_error(pd->name, a ? "B" : "A", st);
        tot->failures++;
        hd_polytope_destroy(a);
        return;
    }
    if (o->toi) {
        run_toi(o, pd, a, b, tot);
        hd_polytope_destroy(a);
        hd_polytope_destroy(b);
        return;
    }
    int have = 0;
    hd_verdict seen = HD_SEPARATED;
    for (int k = first; k <= last; ++k) {
        hd_cli_answer ans;
        hd_cli_run(o, (hd_algo)k, a, b, &ans);
        hd_cli_print_json(stdout, pd->name, o, &ans);
        putchar('\n');
        if (ans.status != HD_OK || ans.distance_status != HD_OK || ans.cert_ok == 0 ||
            ans.contact_status != HD_OK) {
            tot->failures++;
            continue;
        }
        if (have && ans.result.verdict != seen) {
            tot->disagreements++;
        }
        seen = ans.result.verdict;
        have = 1;
    }
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
}

static int parse_args(int argc, char **argv, hd_cli_opts *o, const char **path)
{
    for (int i = 1; i < argc; ++i) {
        if (hd_cli_is_help(argv[i])) {
            batch_usage();
            return -1;
        }
        int used = hd_cli_opts_parse(o, "batch", argc, argv, &i);
        if (used < 0) {
            return HD_EXIT_USAGE;
        }
        if (used) {
            continue;
        }
        if (strcmp(argv[i], "--toi") == 0) {
            o->toi = 1;
        } else if (strcmp(argv[i], "--repeat") == 0) {
            char *end = NULL;
            long k = (i + 1 < argc) ? strtol(argv[++i], &end, 10) : 0;
            if (end == NULL || *end != '\0' || k < 1 || k > 1000000) {
                return hd_cli_usage_error("batch", "--repeat expects a count in 1..1000000", NULL);
            }
            o->repeat = (int)k;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return hd_cli_usage_error("batch", "unknown option", argv[i]);
        } else if (*path != NULL) {
            return hd_cli_usage_error("batch", "one pair file expected, got another", argv[i]);
        } else {
            *path = argv[i];
        }
    }
    if (*path == NULL) {
        return hd_cli_usage_error("batch", "missing PAIRFILE", NULL);
    }
    if (o->toi && (o->all || o->distance || o->depth || o->record_path)) {
        return hd_cli_usage_error("batch",
                                  "--toi answers alone: not with --algo all, --distance, "
                                  "--depth, --manifold, --gradient or --path",
                                  NULL);
    }
    if (o->format != HD_FORMAT_AUTO) {
        return hd_cli_usage_error("batch", "--format is for shape files; a pair file is its own",
                                  NULL);
    }
    return 0;
}

int hd_cmd_batch(int argc, char **argv)
{
    hd_cli_opts o;
    hd_cli_opts_init(&o);
    const char *path = NULL;
    int code = parse_args(argc, argv, &o, &path);
    if (code != 0) {
        return code < 0 ? HD_EXIT_OK : code;
    }
    hd_parse_error err;
    memset(&err, 0, sizeof err);
    hd_pair_reader *reader = NULL;
    hd_status st = hd_pair_reader_open(path, &reader, &err);
    hd_batch_totals tot = {0, 0, 0, 0};
    bool done = false;
    int reported = 0;
    while (st == HD_OK && !done) {
        hd_pair_data pd;
        st = hd_pair_reader_next(reader, &pd, &done, &err);
        if (st == HD_OK && !done) {
            run_pair(&o, &pd, &tot);
        } else if (st != HD_OK) {
            /* report the bad pair and go on with the next one when the file allows it */
            report_bad_pair(&err, st, &tot);
            hd_status failed = st;
            st = hd_pair_reader_resume(reader, &err);
            reported = st == failed; /* the reader stays failed with the error just reported */
        }
    }
    hd_pair_reader_close(reader);
    hd_cli_opts_free(&o);
    if (st != HD_OK) {
        if (!reported) {
            report_bad_pair(&err, st, &tot);
        }
        return HD_EXIT_INPUT;
    }
    fprintf(stderr,
            "hedra batch: %ld pairs, %ld failed queries, %ld disagreements, %ld unreadable "
            "pairs\n",
            tot.pairs, tot.failures, tot.disagreements, tot.unreadable);
    if (tot.unreadable) {
        return HD_EXIT_INPUT;
    }
    return (tot.failures || tot.disagreements) ? HD_EXIT_FAILURE : HD_EXIT_OK;
}
