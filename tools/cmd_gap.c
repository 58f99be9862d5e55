/* hedra gap --dir X,Y,Z A B */
#include <stdio.h>
#include <string.h>

#include "cli_query.h"

static int gap_usage(void)
{
    printf("usage: hedra gap --dir X,Y,Z [--json] A B\n"
           "Directional gap (CD-Dual, section 6): with A fixed, how far B must travel along the\n"
           "direction (or its opposite) to touch A when they are separated, or to separate from\n"
           "A when they overlap. 'contact: no' when no travel along that line ever makes them\n"
           "touch.\n");
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

int hd_cmd_gap(int argc, char **argv)
{
    const char *files[2] = {NULL, NULL};
    int nfiles = 0, json = 0, have_dir = 0;
    double dir[3] = {0, 0, 0};
    for (int i = 1; i < argc; ++i) {
        if (hd_cli_is_help(argv[i])) {
            return gap_usage();
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[i], "--dir") == 0) {
            if (i + 1 >= argc || !hd_cli_parse_vec3(argv[++i], dir)) {
                return hd_cli_usage_error("gap", "--dir expects X,Y,Z", NULL);
            }
            have_dir = 1;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return hd_cli_usage_error("gap", "unknown option", argv[i]);
        } else if (nfiles == 2) {
            return hd_cli_usage_error("gap", "two files expected, got a third", argv[i]);
        } else {
            files[nfiles++] = argv[i];
        }
    }
    if (nfiles != 2 || !have_dir) {
        return hd_cli_usage_error("gap", "usage: hedra gap --dir X,Y,Z A B", NULL);
    }
    if (dir[0] == 0.0 && dir[1] == 0.0 && dir[2] == 0.0) {
        return hd_cli_usage_error("gap", "--dir must not be the zero vector", NULL);
    }
    hd_polytope *a = hd_cli_load(files[0]);
    hd_polytope *b = a ? hd_cli_load(files[1]) : NULL;
    int code = HD_EXIT_INPUT;
    if (a != NULL && b != NULL) {
        hd_gap_result g;
        hd_workspace *ws = NULL;
        hd_options opt = hd_options_default();
        hd_status st = hd_cli_workspace_for(&ws, a, b, &opt.tol);
        opt.workspace = ws;
        if (st == HD_OK) {
            st = hd_gap(a, NULL, b, NULL, dir, &opt, &g);
        }
        hd_workspace_destroy(ws);
        if (st == HD_OK) {
            print_gap(&g, json);
            code = HD_EXIT_OK;
        } else {
            fprintf(stderr, "hedra gap: %s\n", hd_status_str(st));
            code = HD_EXIT_FAILURE;
        }
    }
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
    return code;
}
