/* hedra info FILE, hedra hull IN -o OUT.off */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int hd_cmd_info(int argc, char **argv)
{
    const char *path = NULL;
    int json = 0;
    hd_format format = HD_FORMAT_AUTO;
    for (int i = 1; i < argc; ++i) {
        int used = hd_cli_parse_format_option("info", argc, argv, &i, &format);
        if (used != 0) {
            if (used < 0) {
                return HD_EXIT_USAGE;
            }
        } else if (hd_cli_is_help(argv[i])) {
            printf("usage: hedra info [--json] [--format off|obj|xyz] FILE\n"
                   "Builds the convex hull of FILE's points and prints its vertex, edge and face\n"
                   "counts, affine dimension (0 point, 1 segment, 2 polygon, 3 solid) and bounds.\n"
                   "FILE '-' reads standard input (OFF with its header keyword, OBJ or "
                   "XYZ).\n" HD_CLI_FORMAT_HELP);
            return HD_EXIT_OK;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return hd_cli_usage_error("info", "unknown option", argv[i]);
        } else if (path == NULL) {
            path = argv[i];
        } else {
            return hd_cli_usage_error("info", "one file expected, got another", argv[i]);
        }
    }
    if (path == NULL) {
        return hd_cli_usage_error("info", "missing FILE", NULL);
    }
    hd_polytope *p = hd_cli_load(path, format);
    if (p == NULL) {
        return HD_EXIT_INPUT;
    }
    double lo[3], hi[3], c[3], r;
    hd_polytope_bounds(p, lo, hi);
    hd_polytope_sphere(p, c, &r);
    int v = hd_polytope_vertex_count(p), e = hd_polytope_edge_count(p);
    int f = hd_polytope_face_count(p), d = hd_polytope_dimension(p);
    if (json) {
        printf("{\"file\":");
        hd_json_string(stdout, path);
        printf(",\"dimension\":%d,\"vertices\":%d,\"edges\":%d,\"faces\":%d,\"min\":", d, v, e, f);
        hd_json_vec3(stdout, lo);
        printf(",\"max\":");
        hd_json_vec3(stdout, hi);
        printf(",\"sphere_centre\":");
        hd_json_vec3(stdout, c);
        printf(",\"sphere_radius\":");
        hd_json_double(stdout, r);
        printf("}\n");
    } else {
        printf("file: %s\ndimension: %d\nvertices: %d\nedges: %d\nfaces: %d\n", path, d, v, e, f);
        printf("min: %.17g %.17g %.17g\nmax: %.17g %.17g %.17g\n", lo[0], lo[1], lo[2], hi[0],
               hi[1], hi[2]);
        printf("sphere: centre %.17g %.17g %.17g radius %.17g\n", c[0], c[1], c[2], r);
    }
    hd_polytope_destroy(p);
    return HD_EXIT_OK;
}

int hd_cmd_hull(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    hd_format format = HD_FORMAT_AUTO;
    for (int i = 1; i < argc; ++i) {
        int used = hd_cli_parse_format_option("hull", argc, argv, &i, &format);
        if (used != 0) {
            if (used < 0) {
                return HD_EXIT_USAGE;
            }
        } else if (hd_cli_is_help(argv[i])) {
            printf("usage: hedra hull [--format off|obj|xyz] IN -o OUT.off\n"
                   "Builds the convex hull of IN's points and writes it as OFF (polygonal faces;\n"
                   "'-o -' writes to standard output).\n" HD_CLI_FORMAT_HELP);
            return HD_EXIT_OK;
        } else if (strcmp(argv[i], "-o") == 0) {
            if (++i >= argc) {
                return hd_cli_usage_error("hull", "-o needs a file name", NULL);
            }
            out = argv[i];
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return hd_cli_usage_error("hull", "unknown option", argv[i]);
        } else if (in == NULL) {
            in = argv[i];
        } else {
            return hd_cli_usage_error("hull", "one input file expected, got another", argv[i]);
        }
    }
    if (in == NULL || out == NULL) {
        return hd_cli_usage_error("hull", "usage: hedra hull IN -o OUT.off", NULL);
    }
    hd_polytope *p = hd_cli_load(in, format);
    if (p == NULL) {
        return HD_EXIT_INPUT;
    }
    FILE *fp = strcmp(out, "-") == 0 ? stdout : fopen(out, "w");
    if (fp == NULL) {
        fprintf(stderr, "hedra hull: cannot write %s\n", out);
        hd_polytope_destroy(p);
        return HD_EXIT_INPUT;
    }
    hd_status st = hd_write_off(fp, p);
    int closed = (fp == stdout) ? fflush(fp) : fclose(fp);
    hd_polytope_destroy(p);
    if (st != HD_OK || closed != 0) {
        fprintf(stderr, "hedra hull: writing %s failed\n", out);
        return HD_EXIT_INPUT;
    }
    return HD_EXIT_OK;
}
