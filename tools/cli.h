/* Shared pieces of the hedra command-line tool. */
#ifndef HD_CLI_H
#define HD_CLI_H

#include <stdio.h>

#include "hedra/hedra.h"

/* Exit codes, documented in `hedra --help` and the README. */
enum {
    HD_EXIT_OK = 0,     /* the command ran; the verdict is in the output */
    HD_EXIT_INPUT = 1,  /* bad input: unreadable or malformed file, invalid values */
    HD_EXIT_USAGE = 2,  /* bad command line */
    HD_EXIT_FAILURE = 3 /* a query failed (iteration cap) or algorithms disagreed */
};

typedef struct hd_cli_cmd {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
} hd_cli_cmd;

int hd_cmd_info(int argc, char **argv);
int hd_cmd_hull(int argc, char **argv);
int hd_cmd_collide(int argc, char **argv);
int hd_cmd_batch(int argc, char **argv);
int hd_cmd_gap(int argc, char **argv);
int hd_cmd_cast(int argc, char **argv);
int hd_cmd_ray(int argc, char **argv);
int hd_cmd_contains(int argc, char **argv);
int hd_cmd_inside(int argc, char **argv);
int hd_cmd_scene(int argc, char **argv);
int hd_cmd_view(int argc, char **argv);
int hd_cmd_enclosure(int argc, char **argv);

/* Reads a point file and builds its hull; on failure prints "hedra: file:line: message" to stderr
 * and returns NULL. format HD_FORMAT_AUTO tells it from the file's extension, or for the path "-"
 * (standard input) from its first token; errors then name the file "<stdin>". */
hd_polytope *hd_cli_load(const char *path, hd_format format);
/* The same rounded by radius (hd_polytope_build_rounded). */
hd_polytope *hd_cli_load_rounded(const char *path, hd_format format, double radius);

/* `--format off|obj|xyz` of every command that reads shape files: returns 1 when argv[*i] is
 * --format (advancing *i past its value, stored in *format), 0 when it is another argument, -1
 * after printing a usage error. */
int hd_cli_parse_format_option(const char *cmd, int argc, char **argv, int *i, hd_format *format);
#define HD_CLI_FORMAT_HELP                                                                         \
    "  --format off|obj|xyz  read the shape files in this format whatever their extension\n"

/* --radius-a R / --radius-b R: 1 and radius[0 or 1] set when argv[*i] is one, 0 when it is not,
 * -1 (after the usage message) for a value that is not a finite number >= 0. */
int hd_cli_parse_radius_option(const char *cmd, int argc, char **argv, int *i, double radius[2]);

/* Parses "x,y,z" into three finite doubles. */
int hd_cli_parse_vec3(const char *text, double out[3]);

/* The pose options of every command that takes two shapes: --translate-a/-b X,Y,Z and
 * --rotate-a/-b W,X,Y,Z (a non-zero quaternion, normalised; the rotation is about the origin and
 * comes before the translation, whatever the options' order). */
#define HD_CLI_POSE_HELP                                                                           \
    "  --translate-a X,Y,Z, --translate-b X,Y,Z   move A or B by this translation\n"               \
    "  --rotate-a W,X,Y,Z, --rotate-b W,X,Y,Z     rotate A or B by this quaternion (normalised;\n" \
    "                     about the origin, before translating)\n"

/* Parses the pose option argv[*i] and its value (advancing *i) into poses[0] (A) or poses[1]
 * (B); a NULL entry refuses that shape's options. Returns 1, or -1 after printing a usage error. */
int hd_cli_parse_pose_option(const char *cmd, int argc, char **argv, int *i, hd_pose *poses[2]);

/* The options of every command that reads posed shapes: --format and the pose options (poses as
 * for hd_cli_parse_pose_option). Returns 1 when argv[*i] is one (consumed with its value), 0 when
 * it is another argument, -1 after printing a usage error. */
int hd_cli_parse_shape_option(const char *cmd, int argc, char **argv, int *i, hd_pose *poses[2],
                              hd_format *format);

/* Prints an error "hedra <cmd>: message" to stderr and returns HD_EXIT_USAGE. */
int hd_cli_usage_error(const char *cmd, const char *message, const char *arg);

/* Is argument "--help" or "-h"? */
int hd_cli_is_help(const char *arg);

/* JSON helpers: a double (null when not finite), a 3-vector, and a string (with < and > escaped
 * too, so that the JSON can sit inside an HTML script element). */
void hd_json_double(FILE *fp, double v);
void hd_json_vec3(FILE *fp, const double v[3]);
void hd_json_string(FILE *fp, const char *s);

/* Monotonic clock in nanoseconds. */
long long hd_cli_now_ns(void);

/* Makes *ws (NULL or a workspace made here) big enough for CD-Dual on a and b
 * (hd_workspace_capacity_for), replacing it when it is too small. */
hd_status hd_cli_workspace_for(hd_workspace **ws, const hd_polytope *a, const hd_polytope *b,
                               const hd_tolerance *tol);

#endif
