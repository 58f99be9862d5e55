/* hedra contains A B, hedra inside A X,Y,Z */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* The options of contains and inside; inside has no B, so pose_b is NULL there. */
typedef struct shape_opts {
    int json;
    hd_format format;
    hd_pose *poses[2];
} shape_opts;

/* Collects non-option arguments; returns -1 after printing help, a usage code on errors. */
static int positional(int argc, char **argv, const char *cmd, const char *help, const char **args,
                      int want, shape_opts *o)
{
    int n = 0;
    for (int i = 1; i < argc; ++i) {
        int used = hd_cli_parse_shape_option(cmd, argc, argv, &i, o->poses, &o->format);
        if (used != 0) {
            if (used < 0) {
                return HD_EXIT_USAGE;
            }
        } else if (hd_cli_is_help(argv[i])) {
            fputs(help, stdout);
            return -1;
        } else if (strcmp(argv[i], "--json") == 0) {
            o->json = 1;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0' &&
                   !(argv[i][1] >= '0' && argv[i][1] <= '9') && argv[i][1] != '.') {
            return hd_cli_usage_error(cmd, "unknown option", argv[i]);
        } else if (n == want) {
            return hd_cli_usage_error(cmd, "too many arguments", argv[i]);
        } else {
            args[n++] = argv[i];
        }
    }
    return n == want ? 0 : hd_cli_usage_error(cmd, "missing arguments (see --help)", NULL);
}

int hd_cmd_contains(int argc, char **argv)
{
    const char *args[2];
    hd_pose pose_a = hd_pose_identity(), pose_b = hd_pose_identity();
    shape_opts o = {0, HD_FORMAT_AUTO, {&pose_a, &pose_b}};
    int code =
        positional(argc, argv, "contains",
                   "usage: hedra contains [options] A B\n"
                   "Is B inside A (every vertex of B's hull in A's hull; a vertex on A's\n"
                   "boundary, within the touching tolerance, counts as inside)? Options:\n"
                   "  --json             one JSON object\n" HD_CLI_POSE_HELP HD_CLI_FORMAT_HELP,
                   args, 2, &o);
    int json = o.json;
    if (code != 0) {
        return code < 0 ? HD_EXIT_OK : code;
    }
    hd_polytope *a = hd_cli_load(args[0], o.format);
    hd_polytope *b = a ? hd_cli_load(args[1], o.format) : NULL;
    code = HD_EXIT_INPUT;
    if (a != NULL && b != NULL) {
        bool inside = false;
        hd_status st = hd_contains(a, &pose_a, b, &pose_b, NULL, &inside);
        if (st == HD_OK) {
            printf(json ? "{\"contains\":%s}\n" : "contains: %s\n",
                   inside ? (json ? "true" : "yes") : (json ? "false" : "no"));
            code = HD_EXIT_OK;
        } else {
            fprintf(stderr, "hedra contains: %s\n", hd_status_str(st));
            code = HD_EXIT_FAILURE;
        }
    }
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
    return code;
}

int hd_cmd_inside(int argc, char **argv)
{
    const char *args[2];
    hd_pose pose_a = hd_pose_identity();
    shape_opts o = {0, HD_FORMAT_AUTO, {&pose_a, NULL}};
    int code = positional(
        argc, argv, "inside",
        "usage: hedra inside [options] A X,Y,Z\n"
        "The point's verdict against A's hull, in the words of every query:\n"
        "'intersecting' (inside, deeper than the touching tolerance),\n"
        "'touching' (on the boundary, within it) or 'separated' (outside). Options:\n"
        "  --json             one JSON object\n"
        "  --translate-a X,Y,Z, --rotate-a W,X,Y,Z   pose A (as in collide)\n" HD_CLI_FORMAT_HELP,
        args, 2, &o);
    int json = o.json;
    if (code != 0) {
        return code < 0 ? HD_EXIT_OK : code;
    }
    double p[3];
    if (!hd_cli_parse_vec3(args[1], p)) {
        return hd_cli_usage_error("inside", "the point must be X,Y,Z", args[1]);
    }
    hd_polytope *a = hd_cli_load(args[0], o.format);
    if (a == NULL) {
        return HD_EXIT_INPUT;
    }
    hd_verdict v = HD_SEPARATED;
    hd_status st = hd_point_inside(a, &pose_a, p, NULL, &v);
    hd_polytope_destroy(a);
    if (st != HD_OK) {
        fprintf(stderr, "hedra inside: %s\n", hd_status_str(st));
        return HD_EXIT_FAILURE;
    }
    printf(json ? "{\"verdict\":\"%s\"}\n" : "verdict: %s\n", hd_verdict_str(v));
    return HD_EXIT_OK;
}
