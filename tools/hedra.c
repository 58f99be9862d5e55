/* hedra: the command-line tool. One subcommand per file (tools/cmd_*.c). */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const hd_cli_cmd hd_commands[] = {
    {"info", "vertex/edge/face counts, affine dimension and bounds of a hull", hd_cmd_info},
    {"hull", "build a hull and write it as OFF", hd_cmd_hull},
    {"collide", "intersection (and distance) of two polytopes", hd_cmd_collide},
    {"batch", "every pair of a pair file, one JSON line per pair", hd_cmd_batch},
    {"cast", "time of impact of two moving shapes (rotation too), certified", hd_cmd_cast},
    {"ray", "first point of a ray in a shape, with the face entered", hd_cmd_ray},
    {"gap", "distance to travel along a direction to touch or to separate", hd_cmd_gap},
    {"contains", "is the second polytope inside the first", hd_cmd_contains},
    {"inside", "is a point inside a polytope", hd_cmd_inside},
    {"scene", "many moving bodies: every pair in contact, frame by frame", hd_cmd_scene},
    {"view", "write one self-contained HTML page showing a query in 3-D", hd_cmd_view},
    {"enclosure", "how far a mesh's vertices lie outside its convex pieces", hd_cmd_enclosure},
};

static void print_help(FILE *fp)
{
    fprintf(fp, "usage: hedra <command> [options] ...\n"
                "       hedra --version | --help\n\ncommands:\n");
    for (size_t i = 0; i < sizeof hd_commands / sizeof hd_commands[0]; ++i) {
        fprintf(fp, "  %-10s%s\n", hd_commands[i].name, hd_commands[i].summary);
    }
    fprintf(fp, "\n'hedra <command> --help' describes each command.\n"
                "Input files: OFF (.off), Wavefront OBJ (.obj), point lists (.xyz, .txt, .pts);\n"
                "the hull of the file's points is used. 'hedra scene' reads scene files\n"
                "(shapes, bodies and frames; docs/FORMATS.md).\n\n"
                "exit codes: 0 ok (whatever the verdict), 1 bad input, 2 usage error,\n"
                "            3 a query failed or the algorithms disagreed\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_help(stderr);
        return HD_EXIT_USAGE;
    }
    if (hd_cli_is_help(argv[1])) {
        print_help(stdout);
        return HD_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("hedra %s\n", hd_version_string());
        return HD_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof hd_commands / sizeof hd_commands[0]; ++i) {
        if (strcmp(argv[1], hd_commands[i].name) == 0) {
            return hd_commands[i].run(argc - 1, argv + 1);
        }
    }
    fprintf(stderr, "hedra: unknown command '%s'\n\n", argv[1]);
    print_help(stderr);
    return HD_EXIT_USAGE;
}
