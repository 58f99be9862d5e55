/* hedra file formats: OFF, Wavefront OBJ, XYZ point lists and the pair file; OFF output. */
#ifndef HEDRA_IO_H
#define HEDRA_IO_H

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
void hd_parse_error_format(const hd_parse_error *err, char *buf, int size);

/* A point cloud read from a file: count points, xyz[3*i..3*i+2]. Free with hd_points_free. */
typedef struct hd_points {
    int count;
    double *xyz;
} hd_points;

void hd_points_free(hd_points *pts);

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
hd_status hd_read_points(const char *path, hd_format format, hd_points *out, hd_parse_error *err);

/* The same from an already open stream; name is used in error messages. */
hd_status hd_read_points_stream(FILE *fp, const char *name, hd_format format, hd_points *out,
                                hd_parse_error *err);

/* Writes a polytope as OFF (vertices and its polygonal faces; lower-dimensional polytopes are
 * written with their polygon, segment or point as a single face / no face): "OFF", the counts
 * "nv nf ne", the hull vertices (%.17g, so they read back identically) and one line "k i1 .. ik"
 * per face, counter-clockwise seen from outside. A flat polygon has one face (counter-clockwise
 * about its plane normal); a segment or a point has none. Errors: HD_ERR_NULL, HD_ERR_IO. */
hd_status hd_write_off(FILE *fp, const hd_polytope *poly);

/* Pair file reader, streaming: one pair at a time so files of any number of pairs run in
 * constant memory. Format:
 *     # comment
 *     pair <name>
 *     A <n>
 *     <x> <y> <z>      (n lines)
 *     B <m>
 *     <x> <y> <z>      (m lines)
 * repeated; "A 0" is an empty set. A name is one token of at most HD_PAIR_NAME_MAX bytes (no
 * white space, no '#'); docs/FORMATS.md gives the full grammar. An empty file holds no pairs. */
#define HD_PAIR_NAME_MAX 255

typedef struct hd_pair_reader hd_pair_reader;

/* Opens path ("-" for standard input). */
hd_status hd_pair_reader_open(const char *path, hd_pair_reader **out, hd_parse_error *err);
void hd_pair_reader_close(hd_pair_reader *reader);

/* One pair read into reader-owned storage valid until the next call. Returns HD_OK with
 * *done = 0 and the pair, HD_OK with *done = 1 at a clean end of file, or an error with *err.
 * After an error every further call returns the same error. */
typedef struct hd_pair_data {
    const char *name;
    hd_points a;
    hd_points b;
    int line; /* line of the "pair" header */
} hd_pair_data;

hd_status hd_pair_reader_next(hd_pair_reader *reader, hd_pair_data *pair, int *done,
                              hd_parse_error *err);

/* Writes one pair in the format above (full precision, %.17g). a may be NULL when na == 0, b when
 * nb == 0. Nothing is written on an argument error: HD_ERR_NULL, HD_ERR_INVALID_ARG (a name that
 * the reader would not accept back, a negative count), HD_ERR_TOO_LARGE, HD_ERR_NONFINITE;
 * HD_ERR_IO when writing fails. */
hd_status hd_write_pair(FILE *fp, const char *name, const double *a, int na, const double *b,
                        int nb);

#ifdef __cplusplus
}
#endif

#endif
