/* hedra collide [options] A B */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_compound.h"

static int collide_usage(void)
{
    printf("usage: hedra collide [options] A B\n"
           "Decides whether the convex hulls of A's and B's points are separated, touching or\n"
           "intersecting, with a certificate (separating plane or common point) that is checked\n"
           "independently. A or B may be '-' for standard input (OFF with its header keyword, OBJ\n"
           "or XYZ). Options:\n%s  --json             one JSON object per algorithm; with --algo "
           "all, a last\n"
           "                     line {\"agree\":true|false}: every query succeeded, every\n"
           "                     certificate checked and the verdicts agree\n"
           "  --radius-a R       round A by R >= 0: the hull plus a ball of radius R (a sphere\n"
           "                     from one point, a capsule from two); --radius-b R the same for B\n"
           "  --compound         A and B are compound bodies: an OBJ file's 'o' / 'g' groups are\n"
           "                     its pieces (a convex decomposition), any other file one piece;\n"
           "                     the answers name the pieces that give them\n",
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

/* run_all for two compound bodies. */
static int run_all_compound(hd_cli_opts *o, const hd_compound *a, const hd_compound *b)
{
    int first = o->all ? 0 : (int)o->algo;
    int last = o->all ? HD_ALGO_COUNT - 1 : (int)o->algo;
    int failed = 0, agree = 1;
    hd_verdict seen = HD_SEPARATED;
    for (int k = first; k <= last; ++k) {
        hd_cli_compound_answer ans;
        hd_cli_compound_run(o, (hd_algo)k, a, b, &ans);
        failed |= hd_cli_compound_failed(&ans);
        agree &= k == first || ans.result.verdict == seen;
        seen = ans.result.verdict;
        if (o->json) {
            hd_cli_compound_json(stdout, NULL, o, &ans);
            putchar('\n');
        } else {
            hd_cli_compound_text(stdout, o, &ans);
        }
    }
    if (o->all) {
        printf(o->json ? "{\"agree\":%s}\n" : "agree: %s\n",
               agree && !failed ? (o->json ? "true" : "yes") : (o->json ? "false" : "NO"));
    }
    return (failed || !agree) ? HD_EXIT_FAILURE : HD_EXIT_OK;
}

static int collide_compounds(hd_cli_opts *o, const char *const files[2])
{
    hd_cli_body a, b;
    int code = hd_cli_body_load(files[0], o->format, &a);
    if (code == 0) {
        code = hd_cli_body_load(files[1], o->format, &b);
        if (code == 0) {
            code = run_all_compound(o, a.compound, b.compound);
            hd_cli_body_free(&b);
        }
        hd_cli_body_free(&a);
    }
    hd_cli_opts_free(o);
    return code;
}

int hd_cmd_collide(int argc, char **argv)
{
    hd_cli_opts o;
    hd_cli_opts_init(&o);
    const char *files[2] = {NULL, NULL};
    double radius[2] = {0.0, 0.0};
    int nfiles = 0, compound = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--compound") == 0) {
            compound = 1;
            continue;
        }
        if (hd_cli_is_help(argv[i])) {
            return collide_usage();
        }
        int used = hd_cli_opts_parse(&o, "collide", argc, argv, &i);
        if (used == 0) {
            used = hd_cli_parse_radius_option("collide", argc, argv, &i, radius);
        }
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
    if (compound && o.record_path) {
        return hd_cli_usage_error("collide", "--path follows one pair; not with --compound", NULL);
    }
    if (compound && (radius[0] != 0.0 || radius[1] != 0.0)) {
        return hd_cli_usage_error("collide",
                                  "--radius-a / --radius-b round one polytope; not "
                                  "with --compound",
                                  NULL);
    }
    if (compound) {
        return collide_compounds(&o, files);
    }
    hd_polytope *a = hd_cli_load_rounded(files[0], o.format, radius[0]);
    hd_polytope *b = a ? hd_cli_load_rounded(files[1], o.format, radius[1]) : NULL;
    int code = HD_EXIT_INPUT;
    if (a != NULL && b != NULL) {
        code = run_all(&o, a, b);
    }
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
    hd_cli_opts_free(&o);
    return code;
}
