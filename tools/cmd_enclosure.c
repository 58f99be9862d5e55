/* hedra enclosure [options] MESH PIECES.obj */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int enclosure_usage(void)
{
    printf(
        "usage: hedra enclosure [options] MESH PIECES.obj\n"
        "How far the vertices of MESH (OFF, OBJ or XYZ: its points) lie outside the union of\n"
        "the convex pieces of PIECES.obj (one piece per 'o' / 'g' group, as CoACD and V-HACD\n"
        "write them): for each vertex its distance to the nearest piece, 0 inside one, and\n"
        "the largest over the vertices, with the vertex (0-based, in file order) and piece.\n"
        "0 means the pieces enclose the mesh. Options:\n" HD_CLI_FORMAT_HELP
        "                     (of MESH; PIECES is always OBJ)\n"
        "  --tol REL          touching band half-width relative to the scale (default 1e-12)\n"
        "  --json             one JSON object {\"enclosure\":..., \"vertex\":..., "
        "\"point\":[...],\n"
        "                     \"piece\":..., \"witness\":[...], \"inside\":..., \"vertices\":...,\n"
        "                     \"pieces\":..., \"piece_queries\":...}\n");
    return HD_EXIT_OK;
}

typedef struct enclosure_args {
    const char *files[2];
    int nfiles;
    int json;
    hd_format format;
    hd_options opt;
} enclosure_args;

static int parse_tol(enclosure_args *a, int argc, char **argv, int *i)
{
    double v = 0.0;
    char *end = NULL;
    if (*i + 1 < argc) {
        v = strtod(argv[++*i], &end);
    }
    a->opt.tol.touch_rel = v;
    if (end == NULL || *end != '\0' || hd_tolerance_validate(&a->opt.tol) != HD_OK) {
        return hd_cli_usage_error("enclosure", "--tol expects a value in [0, 1e-3)", NULL);
    }
    return 0;
}

static int parse_args(int argc, char **argv, enclosure_args *a)
{
    for (int i = 1; i < argc; ++i) {
        int used = hd_cli_parse_format_option("enclosure", argc, argv, &i, &a->format);
        if (used < 0) {
            return HD_EXIT_USAGE;
        }
        if (used) {
            continue;
        }
        if (strcmp(argv[i], "--json") == 0) {
            a->json = 1;
        } else if (strcmp(argv[i], "--tol") == 0) {
            if (parse_tol(a, argc, argv, &i) != 0) {
                return HD_EXIT_USAGE;
            }
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return hd_cli_usage_error("enclosure", "unknown option", argv[i]);
        } else if (a->nfiles == 2) {
            return hd_cli_usage_error("enclosure", "two files expected, got a third", argv[i]);
        } else {
            a->files[a->nfiles++] = argv[i];
        }
    }
    if (a->nfiles != 2) {
        return hd_cli_usage_error("enclosure", "two files expected: MESH PIECES.obj", NULL);
    }
    return 0;
}

static void print_result(const enclosure_args *a, const hd_points *mesh, const hd_compound *c,
                         const hd_enclosure_result *r)
{
    const double *p = r->vertex >= 0 ? mesh->xyz + 3 * (size_t)r->vertex : NULL;
    if (a->json) {
        printf("{\"enclosure\":");
        hd_json_double(stdout, r->distance);
        printf(",\"vertex\":%d,\"point\":", r->vertex);
        p != NULL ? hd_json_vec3(stdout, p) : (void)printf("null");
        printf(",\"piece\":%d,\"witness\":", r->piece);
        p != NULL ? hd_json_vec3(stdout, r->witness) : (void)printf("null");
        printf(",\"inside\":%d,\"vertices\":%d,\"pieces\":%d,\"piece_queries\":%lld}\n", r->inside,
               mesh->count, hd_compound_piece_count(c), r->stats.piece_pairs);
        return;
    }
    printf("vertices: %d, pieces: %d, vertices inside the pieces: %d\n", mesh->count,
           hd_compound_piece_count(c), r->inside);
    if (p == NULL) {
        printf("enclosure: 0 (every vertex lies in a piece: the pieces enclose the mesh)\n");
        return;
    }
    printf("enclosure: %.17g\nfarthest vertex: %d at %.17g %.17g %.17g\n"
           "nearest piece: %d, its nearest point %.17g %.17g %.17g\n",
           r->distance, r->vertex, p[0], p[1], p[2], r->piece, r->witness[0], r->witness[1],
           r->witness[2]);
}

static int report(const hd_parse_error *err, hd_status st)
{
    char msg[600];
    hd_parse_error_format(err, msg, (int)sizeof msg);
    fprintf(stderr, "hedra enclosure: %s\n", msg[0] ? msg : hd_status_str(st));
    return HD_EXIT_INPUT;
}

int hd_cmd_enclosure(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (hd_cli_is_help(argv[i])) {
            return enclosure_usage();
        }
    }
    enclosure_args a;
    memset(&a, 0, sizeof a);
    a.opt = hd_options_default();
    int code = parse_args(argc, argv, &a);
    if (code != 0) {
        return code;
    }
    hd_parse_error err;
    memset(&err, 0, sizeof err);
    hd_points mesh = {0, NULL};
    hd_status st = hd_read_points(a.files[0], a.format, &mesh, &err);
    if (st != HD_OK) {
        return report(&err, st);
    }
    hd_compound *c = NULL;
    st = hd_compound_read_obj(a.files[1], &a.opt.tol, &c, &err);
    if (st != HD_OK) {
        hd_points_free(&mesh);
        return report(&err, st);
    }
    hd_enclosure_result r;
    st = hd_compound_enclosure(c, mesh.xyz, mesh.count, &a.opt, &r);
    if (st == HD_OK) {
        print_result(&a, &mesh, c, &r);
    } else {
        fprintf(stderr, "hedra enclosure: %s\n", hd_status_str(st));
    }
    hd_compound_destroy(c);
    hd_points_free(&mesh);
    return st == HD_OK ? HD_EXIT_OK : HD_EXIT_FAILURE;
}
