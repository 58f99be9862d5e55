/* hedra cast [options] A B: the certified time of impact of two moving shapes. */
#include <stdlib.h>
#include <string.h>

#include "cli_motion.h"

static int cast_usage(void)
{
    printf("usage: hedra cast [options] A B\n"
           "Time of impact of A and B moving over t in [0, 1]: a point p of a body (at its\n"
           "place at t = 0) is at c + exp(t [w]x)(p - c) + t v at time t (docs/FORMATS.md).\n"
           "The answer is certified: apart for every t below the lower bound (conservative\n"
           "advancement on certified distances), in contact at the upper bound; with the\n"
           "normal, witnesses and features there. No motion option: both bodies stay put.\n"
           "Options:\n" HD_CLI_MOTION_HELP HD_CLI_POSE_HELP HD_CLI_FORMAT_HELP
           "  --time-tol T       width asked of the bounds (default 1e-9)\n"
           "  --max-iterations N cap on the distance queries (default 100000)\n"
           "  --tol REL          touching band relative to the motion's scale (default 1e-12)\n"
           "  --json             one JSON object\n"
           "Exit code 3 when the cap is reached (the bound reached so far is printed).\n");
    return HD_EXIT_OK;
}

typedef struct cast_args {
    const char *files[2];
    int json;
    hd_format format;
    hd_pose pose[2];
    hd_cli_twist twist[2];
    hd_toi_options opt;
} cast_args;

/* The numeric options: --time-tol, --max-iterations, --tol. 1 consumed, 0 not one, -1 error. */
static int parse_number_option(int argc, char **argv, int *i, cast_args *c)
{
    const char *opt = argv[*i];
    if (strcmp(opt, "--time-tol") != 0 && strcmp(opt, "--max-iterations") != 0 &&
        strcmp(opt, "--tol") != 0) {
        return 0;
    }
    char *end = NULL;
    double x = *i + 1 < argc ? strtod(argv[*i + 1], &end) : 0.0;
    if (end == NULL || end == argv[*i + 1] || *end != '\0' || !(x >= 0.0) || x > 1e9) {
        hd_cli_usage_error("cast", "expects a non-negative number", opt);
        return -1;
    }
    ++*i;
    if (opt[2] == 'm') {
        c->opt.max_iterations = (int)x;
    } else if (opt[3] == 'i') {
        c->opt.time_tol = x;
    } else {
        c->opt.query.tol.touch_rel = x;
        if (hd_tolerance_validate(&c->opt.query.tol) != HD_OK) {
            hd_cli_usage_error("cast", "--tol expects a number in [0, 1e-3)", argv[*i]);
            return -1;
        }
    }
    return 1;
}

/* -1 on success, else the exit code of a usage error (printed) or of --help. */
static int parse_cast_args(int argc, char **argv, cast_args *c)
{
    int nfiles = 0;
    hd_pose *poses[2] = {&c->pose[0], &c->pose[1]};
    for (int i = 1; i < argc; ++i) {
        int used = hd_cli_parse_shape_option("cast", argc, argv, &i, poses, &c->format);
        if (used == 0) {
            used = hd_cli_parse_motion_option("cast", argc, argv, &i, c->twist);
        }
        if (used == 0) {
            used = parse_number_option(argc, argv, &i, c);
        }
        if (used < 0) {
            return HD_EXIT_USAGE;
        } else if (used > 0) {
            continue;
        } else if (hd_cli_is_help(argv[i])) {
            return cast_usage();
        } else if (strcmp(argv[i], "--json") == 0) {
            c->json = 1;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return hd_cli_usage_error("cast", "unknown option", argv[i]);
        } else if (nfiles == 2) {
            return hd_cli_usage_error("cast", "two files expected, got a third", argv[i]);
        } else {
            c->files[nfiles++] = argv[i];
        }
    }
    if (nfiles != 2) {
        return hd_cli_usage_error("cast", "usage: hedra cast [options] A B", NULL);
    }
    return -1;
}

int hd_cmd_cast(int argc, char **argv)
{
    cast_args c;
    memset(&c, 0, sizeof c);
    c.pose[0] = c.pose[1] = hd_pose_identity();
    c.opt = hd_toi_options_default();
    int code = parse_cast_args(argc, argv, &c);
    if (code >= 0) {
        return code;
    }
    hd_polytope *a = hd_cli_load(c.files[0], c.format);
    hd_polytope *b = a ? hd_cli_load(c.files[1], c.format) : NULL;
    code = HD_EXIT_INPUT;
    if (a != NULL && b != NULL) {
        hd_motion ma = hd_cli_twist_motion(&c.twist[0], &c.pose[0]);
        hd_motion mb = hd_cli_twist_motion(&c.twist[1], &c.pose[1]);
        hd_toi_result r;
        long long t0 = hd_cli_now_ns();
        hd_status st = hd_toi(a, &ma, b, &mb, &c.opt, &r);
        long long ns = hd_cli_now_ns() - t0;
        if (c.json) {
            printf("{\"hit\":%s", st == HD_OK && r.hit ? "true" : "false");
            hd_cli_toi_json(stdout, st, &r);
            printf(",\"ns\":%lld}\n", ns);
        } else {
            hd_cli_toi_text(stdout, st, &r);
        }
        code = st == HD_OK                    ? HD_EXIT_OK
               : st == HD_ERR_ITERATION_LIMIT ? HD_EXIT_FAILURE
                                              : HD_EXIT_INPUT;
        if (st != HD_OK && st != HD_ERR_ITERATION_LIMIT) {
            fprintf(stderr, "hedra cast: %s\n", hd_status_str(st));
        }
    }
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
    return code;
}
