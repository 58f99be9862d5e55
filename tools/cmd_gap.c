/* hedra gap --dir X,Y,Z A B */
#include <stdio.h>
#include <string.h>

#include "cli_query.h"

static int gap_usage(void)
{
    printf("usage: hedra gap --dir X,Y,Z [options] A B\n"
           "Directional gap (CD-Dual, section 6): with A fixed, how far B must travel along the\n"
           "direction (or its opposite) to touch A when they are separated, or to separate from\n"
           "A when they overlap. 'contact: no' when no travel along that line ever makes them\n"
           "touch. A - B must have volume: at least one of A and B a solid, or two flat shapes\n"
           "that together span a volume (not polygons in parallel planes). Options:\n"
           "  --json             one JSON object\n" HD_CLI_POSE_HELP HD_CLI_FORMAT_HELP);
    return HD_EXIT_OK;
}

static void print_gap(const hd_gap_result *g, int json)
{
    if (json) {
        printf("{\"contact\":%s,\"verdict\":\"%s\",\"distance\":", g->contact ? "true" : "false",
               hd_verdict_str(g->verdict));
        hd_json_double(stdout, g->distance);
        printf(",\"s_sign\":%d,\"direction\":", g->s_sign);
        hd_json_vec3(stdout, g->direction);
        printf(",\"visits\":{\"fv\":%d,\"vf\":%d,\"ee\":%d}}\n", g->stats.visits_fv,
               g->stats.visits_vf, g->stats.visits_ee);
        return;
    }
    printf("verdict: %s\ncontact: %s\n", hd_verdict_str(g->verdict), g->contact ? "yes" : "no");
    if (g->contact) {
        const char *what = g->verdict == HD_SEPARATED ? "travel to touch" : "travel to separate";
        printf("%s: %.17g along %s(%.17g, %.17g, %.17g)\n", what, g->distance,
               g->s_sign < 0 ? "-" : "+", g->direction[0], g->direction[1], g->direction[2]);
    }
}

/* What went wrong, and what works instead: the status strings alone are too generic here. */
static void gap_error(hd_status st)
{
    if (st == HD_ERR_UNSUPPORTED) {
        fprintf(stderr, "hedra gap: A - B spans no volume (both shapes flat and coplanar or "
                        "parallel, or lower-dimensional): the directional gap needs a solid A or "
                        "B, or flat shapes that together span a volume; 'hedra collide --depth' "
                        "gives the signed distance of any pair\n");
    } else if (st == HD_ERR_INVALID_ARG) {
        fprintf(stderr, "hedra gap: --dir is too short to normalise: give a direction whose "
                        "length is a normal double (e.g. 0,0,1)\n");
    } else {
        fprintf(stderr, "hedra gap: %s\n", hd_status_str(st));
    }
}

typedef struct gap_args {
    const char *files[2];
    int json;
    double dir[3];
    hd_format format;
    hd_pose pose_a, pose_b;
} gap_args;

/* Returns -1 on success, else the exit code of a usage error (printed) or of --help. */
static int parse_gap_args(int argc, char **argv, gap_args *g)
{
    int nfiles = 0, have_dir = 0;
    hd_pose *poses[2] = {&g->pose_a, &g->pose_b};
    for (int i = 1; i < argc; ++i) {
        int used = hd_cli_parse_shape_option("gap", argc, argv, &i, poses, &g->format);
        if (used != 0) {
            if (used < 0) {
                return HD_EXIT_USAGE;
            }
        } else if (hd_cli_is_help(argv[i])) {
            return gap_usage();
        } else if (strcmp(argv[i], "--json") == 0) {
            g->json = 1;
        } else if (strcmp(argv[i], "--dir") == 0) {
            if (i + 1 >= argc || !hd_cli_parse_vec3(argv[++i], g->dir)) {
                return hd_cli_usage_error("gap", "--dir expects X,Y,Z", NULL);
            }
            have_dir = 1;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return hd_cli_usage_error("gap", "unknown option", argv[i]);
        } else if (nfiles == 2) {
            return hd_cli_usage_error("gap", "two files expected, got a third", argv[i]);
        } else {
            g->files[nfiles++] = argv[i];
        }
    }
    if (nfiles != 2 || !have_dir) {
        return hd_cli_usage_error("gap", "usage: hedra gap --dir X,Y,Z A B", NULL);
    }
    if (g->dir[0] == 0.0 && g->dir[1] == 0.0 && g->dir[2] == 0.0) {
        return hd_cli_usage_error("gap", "--dir must not be the zero vector (e.g. 0,0,1)", NULL);
    }
    return -1;
}

int hd_cmd_gap(int argc, char **argv)
{
    gap_args g = {{NULL, NULL},      0, {0, 0, 0}, HD_FORMAT_AUTO, hd_pose_identity(),
                  hd_pose_identity()};
    int code = parse_gap_args(argc, argv, &g);
    if (code >= 0) {
        return code;
    }
    hd_polytope *a = hd_cli_load(g.files[0], g.format);
    hd_polytope *b = a ? hd_cli_load(g.files[1], g.format) : NULL;
    code = HD_EXIT_INPUT;
    if (a != NULL && b != NULL) {
        hd_gap_result res;
        hd_workspace *ws = NULL;
        hd_options opt = hd_options_default();
        hd_status st = hd_cli_workspace_for(&ws, a, b, &opt.tol);
        opt.workspace = ws;
        if (st == HD_OK) {
            st = hd_gap(a, &g.pose_a, b, &g.pose_b, g.dir, &opt, &res);
        }
        hd_workspace_destroy(ws);
        if (st == HD_OK) {
            print_gap(&res, g.json);
            code = HD_EXIT_OK;
        } else {
            gap_error(st);
            code = HD_EXIT_FAILURE;
        }
    }
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
    return code;
}
