/* hedra collide [options] A B */
#include <stdio.h>
#include <string.h>

#include "cli_query.h"

static int collide_usage(void)
{
    printf("usage: hedra collide [options] A B\n"
           "Decides whether the convex hulls of A's and B's points are separated, touching or\n"
           "intersecting, with a certificate (separating plane or common point) that is checked\n"
           "independently. A or B may be '-' for standard input (OFF with its header keyword, OBJ\n"
           "or XYZ). Options:\n%s  --json             one JSON object per algorithm; with --algo "
           "all, a last\n"
           "                     line {\"agree\":true|false}: every query succeeded, every\n"
           "                     certificate checked and the verdicts agree\n",
           hd_cli_query_help);
    return HD_EXIT_OK;
}

/* Runs every requested algorithm; returns HD_EXIT_FAILURE when one fails, disagrees with the
 * others, or produces a certificate that the independent check rejects. */
static int run_all(hd_cli_opts *o, const hd_polytope *a, const hd_polytope *b)
{
    hd_cli_answer ans[HD_ALGO_COUNT];
    int first = o->all ? 0 : (int)o->algo;
    int last = o->all ? HD_ALGO_COUNT - 1 : (int)o->algo;
    int failed = 0, agree = 1;
    for (int k = first; k <= last; ++k) {
        hd_cli_run(o, (hd_algo)k, a, b, &ans[k]);
        failed |= ans[k].status != HD_OK || ans[k].distance_status != HD_OK ||
                  ans[k].cert_ok == 0 || ans[k].contact_status != HD_OK;
        if (k > first && ans[k].status == HD_OK && ans[first].status == HD_OK &&
            ans[k].result.verdict != ans[first].result.verdict) {
            agree = 0;
        }
        if (o->json) {
            hd_cli_print_json(stdout, NULL, o, &ans[k]);
            putchar('\n');
        } else {
            hd_cli_print_text(stdout, o, &ans[k]);
            if (o->all) {
                putchar('\n');
            }
        }
    }
    if (o->all) {
        if (o->json) {
            /* the documented last line of --json --algo all (docs/FORMATS.md) */
            printf("{\"agree\":%s}\n", agree && !failed ? "true" : "false");
        } else {
            printf("agree: %s\n", agree && !failed ? "yes" : "NO");
        }
    }
    return (failed || !agree) ? HD_EXIT_FAILURE : HD_EXIT_OK;
}

int hd_cmd_collide(int argc, char **argv)
{
    hd_cli_opts o;
    hd_cli_opts_init(&o);
    const char *files[2] = {NULL, NULL};
    int nfiles = 0;
    for (int i = 1; i < argc; ++i) {
        if (hd_cli_is_help(argv[i])) {
            return collide_usage();
        }
        int used = hd_cli_opts_parse(&o, "collide", argc, argv, &i);
        if (used < 0) {
            return HD_EXIT_USAGE;
        }
        if (used) {
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return hd_cli_usage_error("collide", "unknown option", argv[i]);
        }
        if (nfiles == 2) {
            return hd_cli_usage_error("collide", "two files expected, got a third", argv[i]);
        }
        files[nfiles++] = argv[i];
    }
    if (nfiles != 2) {
        return hd_cli_usage_error("collide", "two files expected: A B", NULL);
    }
    hd_polytope *a = hd_cli_load(files[0]);
    hd_polytope *b = a ? hd_cli_load(files[1]) : NULL;
    int code = HD_EXIT_INPUT;
    if (a != NULL && b != NULL) {
        code = run_all(&o, a, b);
    }
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
    hd_cli_opts_free(&o);
    return code;
}
