/* hedra file formats: OFF, Wavefront OBJ, XYZ point lists, the pair file and the scene file; OFF
 * output. */
#ifndef HEDRA_IO_H
#define HEDRA_IO_H

#include <stdint.h>
#include <stdio.h>

#include "hedra/core.h"
#include "hedra/polytope.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where and why parsing failed. message is one sentence naming what was expected. */
typedef struct hd_parse_error {
    char file[256];
    int line; /* 1-based; 0 when the error is not tied to a line (e.g. I/O) */
    char message[256];
} hd_parse_error;

/* Formats the error as "file:line: message" into buf (always NUL-terminated). */
HD_API void hd_parse_error_format(const hd_parse_error *err, char *buf, int size);

/* A point cloud read from a file: count points, xyz[3*i..3*i+2]. Free with hd_points_free. */
typedef struct hd_points {
    int count;
    double *xyz;
} hd_points;

HD_API void hd_points_free(hd_points *pts);

typedef enum hd_format {
    HD_FORMAT_AUTO = 0, /* by extension: .off, .obj, .xyz (and .txt, .pts as XYZ) */
    HD_FORMAT_OFF,
    HD_FORMAT_OBJ,
    HD_FORMAT_XYZ
} hd_format;

/* Reads the points of a file (OFF vertices, OBJ "v" lines, or XYZ lines "x y z" with '#'
 * comments). The path "-" reads standard input (format must then be given). Faces in OFF/OBJ are
 * validated for index range but otherwise ignored: the hull is rebuilt. On error returns
 * HD_ERR_IO or HD_ERR_PARSE (or HD_ERR_TOO_LARGE, HD_ERR_NONFINITE, HD_ERR_EMPTY) and fills *err.
 * HD_ERR_INVALID_ARG: the format is not valid or cannot be told from the name; HD_ERR_NULL.
 * On success out->count >= 1 and every coordinate is finite; on error out is {0, NULL}.
 * docs/FORMATS.md describes exactly what each format accepts. err may be NULL. */
HD_API hd_status hd_read_points(const char *path, hd_format format, hd_points *out,
                                hd_parse_error *err);

/* The same from an already open stream; name is used in error messages. */
HD_API hd_status hd_read_points_stream(FILE *fp, const char *name, hd_format format, hd_points *out,
                                       hd_parse_error *err);

/* Writes a polytope as OFF (vertices and its polygonal faces; lower-dimensional polytopes are
 * written with their polygon, segment or point as a single face / no face): "OFF", the counts
 * "nv nf ne", the hull vertices (%.17g, so they read back identically) and one line "k i1 .. ik"
 * per face, counter-clockwise seen from outside. A flat polygon has one face (counter-clockwise
 * about its plane normal); a segment or a point has none. Errors: HD_ERR_NULL, HD_ERR_IO. */
HD_API hd_status hd_write_off(FILE *fp, const hd_polytope *poly);

/* Pair file reader, streaming: one pair at a time so files of any number of pairs run in
 * constant memory. Format:
 *     # comment
 *     pair <name>
 *     A <n>
 *     <x> <y> <z>      (n lines)
 *     B <m>
 *     <x> <y> <z>      (m lines)
 *     motion vx vy vz wx wy wz cx cy cz      (optional: B's twist over t in [0, 1])
 * repeated; "A 0" is an empty set. "A <n> radius <r>" (and "B <m> radius <r>") makes the set a
 * rounded polytope, the hull plus a ball of radius r >= 0 (hd_polytope_build_rounded: one point
 * and a radius is a sphere, two a capsule). A name is one token of at most HD_PAIR_NAME_MAX bytes
 * (no white space, no '#'); docs/FORMATS.md gives the full grammar. An empty file holds no pairs.
 * Either set may be a compound body instead:
 *     A pieces <k>     (k >= 1 pieces, at most HD_COMPOUND_MAX_PIECES)
 *     P <n>            (n >= 1 points of the piece, then n lines "x y z"; k such blocks)
 */
#define HD_PAIR_NAME_MAX 255

typedef struct hd_pair_reader hd_pair_reader;

/* Opens path ("-" for standard input). */
HD_API hd_status hd_pair_reader_open(const char *path, hd_pair_reader **out, hd_parse_error *err);
HD_API void hd_pair_reader_close(hd_pair_reader *reader);

/* One pair read into reader-owned storage valid until the next call. Returns HD_OK with
 * *done = false and the pair, HD_OK with *done = true at a clean end of file, or an error with
 * *err. After an error every further call returns the same error. */
typedef struct hd_pair_data {
    const char *name;
    hd_points a;
    hd_points b;
    int line;        /* line of the "pair" header */
    double radius_a; /* the sets' radius (finite, >= 0; 0 when the line gives none) */
    double radius_b;
    /* the optional motion line: B's point p is at c + exp(t [w]x) (p - c) + t v at time t
     * (hd_motion with pose0 the identity, hedra/motion.h); motion = (v, w, c) */
    bool has_motion;
    double motion[9];
    /* a compound set: pieces_a >= 1 pieces, piece i the next piece_sizes_a[i] points of a (in
     * order); 0 and NULL for a plain set. The same for B. */
    int pieces_a;
    const int *piece_sizes_a;
    int pieces_b;
    const int *piece_sizes_b;
} hd_pair_data;

HD_API hd_status hd_pair_reader_next(hd_pair_reader *reader, hd_pair_data *pair, bool *done,
                                     hd_parse_error *err);

/* After hd_pair_reader_next failed on a pair's content (HD_ERR_PARSE, HD_ERR_NONFINITE,
 * HD_ERR_TOO_LARGE, ...), clears the error and skips to the next line that starts with 'pair'
 * (the failing line itself when it was such a header read as a point), so that the next call
 * reads that pair, or ends cleanly. Returns HD_OK (also when there was no error), HD_ERR_NULL
 * without a reader, or HD_ERR_IO / HD_ERR_NO_MEMORY / HD_ERR_TOO_LARGE (past INT_MAX lines) when
 * the error or the skipping was one of those: the reader then stays failed. */
HD_API hd_status hd_pair_reader_resume(hd_pair_reader *reader, hd_parse_error *err);

/* Writes one pair in the format above (full precision, %.17g). a may be NULL when na == 0, b when
 * nb == 0. Nothing is written on an argument error: HD_ERR_NULL, HD_ERR_INVALID_ARG (a name that
 * the reader would not accept back, a negative count), HD_ERR_TOO_LARGE, HD_ERR_NONFINITE;
 * HD_ERR_IO when writing fails. */
HD_API hd_status hd_write_pair(FILE *fp, const char *name, const double *a, int na, const double *b,
                               int nb);

/* Scene file reader: a whole file of shapes, bodies and frames read into plain data (points and
 * poses; no polytope is built here). Format (docs/FORMATS.md gives the full grammar):
 *     # comment
 *     shape <name> [radius <r>] [pieces <k>]   a shape (rounded by r; a compound of k
 *     P <n>                                     pieces: k such blocks), its points in its own
 *     <x> <y> <z>               (n lines, n >= 1)  frame
 *     body <name> <shape> <qw> <qx> <qy> <qz> <tx> <ty> <tz>
 *     frame                     starts the next frame; bodies keep their poses unless moved
 *     move <name> <qw> <qx> <qy> <qz> <tx> <ty> <tz>
 *     remove <name>
 *     velocity <name> <vx> <vy> <vz> <wx> <wy> <wz>   the body's twist over the frame
 * Frame 0 is everything before the first "frame" line. Names are single tokens of at most
 * HD_SCENE_NAME_MAX bytes; shape names are unique, and a body name is unique among the bodies
 * present (after "remove NAME" a new "body NAME" may follow). A shape must be defined before a
 * body uses it, a body before it is moved or removed. A quaternion is normalised, as by the
 * CLI's --rotate-b: the pose is hd_pose_from_quaternion's, and a zero quaternion is
 * HD_ERR_BAD_POSE. Errors name the file and line: unknown shape or body, duplicate
 * name, bad quaternion, malformed or truncated lines. */
#define HD_SCENE_NAME_MAX 255

typedef struct hd_scene_file_shape {
    char *name;
    int line;         /* of its "shape" line */
    hd_points points; /* count >= 1, finite; a compound's pieces one after the other */
    double radius;    /* "radius <r>": the rounding of the shape (of every piece), 0 without */
    int pieces;       /* "pieces <k>": a compound of k pieces (k "P <n>" blocks); 0: one hull */
    int *piece_start; /* with pieces: piece i is points[piece_start[i] .. piece_start[i + 1] - 1]
                         (k + 1 offsets); NULL without */
} hd_scene_file_shape;

typedef struct hd_scene_file_body {
    char *name;
    int shape; /* index into shapes */
    int line;  /* of its "body" line */
} hd_scene_file_body;

typedef enum hd_scene_file_op_kind {
    HD_SCENE_FILE_ADD = 0, /* a "body" line: add body `body` at `pose` */
    HD_SCENE_FILE_MOVE,    /* a "move" line */
    HD_SCENE_FILE_REMOVE,  /* a "remove" line */
    HD_SCENE_FILE_FILTER,  /* a "filter" line: the body's collision filter */
    HD_SCENE_FILE_VELOCITY /* a "velocity" line: the body's twist (hd_scene_set_velocity) */
} hd_scene_file_op_kind;

typedef struct hd_scene_file_op {
    hd_scene_file_op_kind kind;
    int body; /* index into bodies */
    int line;
    hd_pose pose;      /* ADD and MOVE (the identity otherwise) */
    double twist[6];   /* VELOCITY: v then w (radians over the frame), about the body's frame
                          origin (hd_body_twist, hedra/scene.h); zero otherwise */
    uint32_t category; /* FILTER: hd_scene_filter's fields */
    uint32_t mask;
    int group;
    double v[3]; /* VELOCITY: linear and angular velocity over the frame */
    double w[3];
} hd_scene_file_op;

typedef struct hd_scene_file {
    int shape_count;
    hd_scene_file_shape *shapes;
    int body_count; /* one per "body" line, in file order (a re-added name is a new body) */
    hd_scene_file_body *bodies;
    int op_count;
    hd_scene_file_op *ops; /* in file order */
    int frame_count;       /* 1 + the number of "frame" lines */
    int *frame_start;      /* frame f is ops[frame_start[f] .. frame_start[f + 1] - 1] */
    double margin;         /* the "margin" line: the proximity (hd_scene_options.proximity), 0
                              when the file has none */
    int margin_line;       /* its line, 0 when none */
} hd_scene_file;

/* Reads a scene file (path "-": standard input). On error returns HD_ERR_IO, HD_ERR_PARSE,
 * HD_ERR_NONFINITE, HD_ERR_TOO_LARGE, HD_ERR_EMPTY (a shape without points), HD_ERR_BAD_POSE (a
 * quaternion that is zero), HD_ERR_NO_MEMORY or HD_ERR_NULL, fills *err (may be NULL) and
 * leaves *out empty. Free with hd_scene_file_free. */
HD_API hd_status hd_read_scene(const char *path, hd_scene_file *out, hd_parse_error *err);

/* The same from an open stream; name is used in error messages. */
HD_API hd_status hd_read_scene_stream(FILE *fp, const char *name, hd_scene_file *out,
                                      hd_parse_error *err);

/* Frees what a reader filled and empties *file; NULL is ignored. */
HD_API void hd_scene_file_free(hd_scene_file *file);

#ifdef __cplusplus
}
#endif

#endif
