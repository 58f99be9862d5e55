/* Internal pieces of the file readers (never installed): a buffered line reader with line numbers
 * and strict number parsing, a growable point array, and one reader per format.
 *
 * Every reader works on "content lines": a line with its '#' comment removed and its white space
 * trimmed; blank lines are skipped. Errors are written through the lexer into the caller's
 * hd_parse_error, always naming the file, the line and what was expected. See docs/FORMATS.md. */
#ifndef HD_IO_INTERNAL_H
#define HD_IO_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include "hedra/io.h"

/* Longest accepted line in bytes, without its line end: a face line of an OFF file with about
 * ten thousand indices fits; anything longer is reported as an error, never truncated. */
#define HD_IO_MAX_LINE 65536

/* Size of the read-ahead block of the line reader. */
#define HD_IO_BLOCK 65536

/* Largest value the integer parser distinguishes; larger values saturate here (they are all
 * above every limit the readers check, so saturation never changes a verdict). */
#define HD_IO_INT_SATURATE 1000000000000000LL

typedef struct hdi_lexer {
    FILE *fp;
    hd_parse_error *err; /* never NULL: the readers substitute a local one */
    int line_no;         /* number of the current line (1-based); 0 before the first */
    int at_eof;          /* no further line exists */
    int commas;          /* XYZ: commas separate fields like white space */
    char *cursor;        /* next unread character of the current content line */
    size_t block_pos;
    size_t block_len;
    int block_eof; /* fread reported end of file */
    char line[HD_IO_MAX_LINE + 2];
    char block[HD_IO_BLOCK];
} hdi_lexer;

/* Allocates a lexer reading fp; name (may be NULL) is copied into err->file. err->line and
 * err->message are cleared. Returns NULL when out of memory. */
hdi_lexer *hdi_lex_create(FILE *fp, const char *name, hd_parse_error *err);
void hdi_lex_destroy(hdi_lexer *lx);

/* Moves to the next content line. *found = 0 at end of file (then line_no is the number of the
 * last line). Errors: HD_ERR_IO, HD_ERR_PARSE (control bytes, overlong line), HD_ERR_TOO_LARGE
 * (more than INT_MAX lines). */
hd_status hdi_lex_next(hdi_lexer *lx, int *found);

/* Calls line(lx, ctx) on each remaining content line, in order, until the end of the file or the
 * first status other than HD_OK (returned; hdi_lex_next's errors as well). */
hd_status hdi_lex_each_line(hdi_lexer *lx, hd_status (*line)(hdi_lexer *lx, void *ctx), void *ctx);

/* The next white-space separated token of the current content line, NUL-terminated in place, or
 * NULL at the end of the line. */
char *hdi_lex_token(hdi_lexer *lx);

/* A decimal floating-point number "[+-]digits[.digits][(e|E)[+-]digits]" (or ".digits"), the
 * whole token, converted by strtod. "nan", "inf", "infinity" (any case, signed) and values that
 * overflow a double give HD_ERR_NONFINITE; anything else that is not a number HD_ERR_PARSE.
 * what (may be NULL) names the value in the message: "<what>: expected a number, ...". */
hd_status hdi_lex_double(hdi_lexer *lx, const char *tok, const char *what, double *out);

/* A decimal integer "[+-]digits" (the whole token); values beyond +-HD_IO_INT_SATURATE
 * saturate. HD_ERR_PARSE when the token is not an integer. */
hd_status hdi_lex_integer(hdi_lexer *lx, const char *tok, const char *what, long long *out);

/* A count: a non-negative integer no larger than max (HD_ERR_TOO_LARGE above it, before anything
 * is allocated; HD_ERR_PARSE when negative or not an integer). */
hd_status hdi_lex_count(hdi_lexer *lx, const char *tok, const char *what, long long max, int *out);

/* Parses every remaining token of the line as a finite number into vals (at most max_count of
 * them); *count is the number parsed. More than max_count tokens or fewer than min_count are
 * HD_ERR_PARSE with the message "<what>: expected <syntax>, found N values". */
hd_status hdi_lex_numbers(hdi_lexer *lx, double *vals, int min_count, int max_count, int *count,
                          const char *what, const char *syntax);

/* Records an error at the current line (or at line_no + 1 for hdi_lex_fail_eof, the line where the
 * missing content was expected) and returns status. The message is printf-formatted. */
hd_status hdi_lex_fail(hdi_lexer *lx, hd_status status, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
hd_status hdi_lex_fail_eof(hdi_lexer *lx, hd_status status, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Moves to the next content line, which must exist: at end of file fails with HD_ERR_PARSE and
 * the printf-formatted message (what was expected) at the line after the last one. Other errors
 * as hdi_lex_next. */
hd_status hdi_lex_expect_line(hdi_lexer *lx, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Prepends "<formatted context>: " to the message of the error already recorded (used to name
 * the record, e.g. "vertex 3 of 8", only once an error happened). */
void hdi_lex_prefix(hdi_lexer *lx, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Copies at most 40 bytes of tok into buf (size >= 48) for quoting in a message, replacing
 * non-printable bytes by '?' and marking a cut with "...". */
void hdi_lex_quote(const char *tok, char *buf, size_t size);

/* A growable array of points; capacity grows geometrically and never beyond HD_MAX_POINTS. */
typedef struct hdi_point_buf {
    double *xyz;
    int count;
    int capacity;
} hdi_point_buf;

/* Appends one point. HD_ERR_TOO_LARGE beyond HD_MAX_POINTS, HD_ERR_NO_MEMORY; both recorded in
 * the lexer's error at the current line. */
hd_status hdi_point_buf_push(hdi_point_buf *buf, hdi_lexer *lx, const double p[3]);

/* Ensures capacity for at least want points (want <= HD_MAX_POINTS), used to reserve a small
 * first block; never trusts a file's count beyond a modest size. */
hd_status hdi_point_buf_reserve(hdi_point_buf *buf, hdi_lexer *lx, int want);

void hdi_point_buf_free(hdi_point_buf *buf);

/* Readers: each reads a whole file of its format from the lexer and appends the points to buf.
 * On error the lexer's error is filled; buf is left for the caller to free. */
hd_status hdi_io_read_off(hdi_lexer *lx, hdi_point_buf *buf);
hd_status hdi_io_read_obj(hdi_lexer *lx, hdi_point_buf *buf);
hd_status hdi_io_read_xyz(hdi_lexer *lx, hdi_point_buf *buf);

/* An OBJ file with its faces and its "o" / "g" statements (a convex decomposition): the
 * vertices, the faces (corners: 0-based vertex indices, face f's being corners[faces[f].first
 * .. + count - 1]) and the groups (each starting at a face and a vertex, at its statement's
 * line; faces and vertices before the first statement belong to no group). Zero-initialise,
 * fill with hdi_io_read_obj_groups (hdi_io_read_obj's grammar), free with hdi_obj_groups_free. */
typedef struct hdi_obj_face {
    int first;
    int count;
    int line;
} hdi_obj_face;

typedef struct hdi_obj_group {
    int face;
    int vertex;
    int line;
} hdi_obj_group;

typedef struct hdi_obj_groups {
    hdi_point_buf verts;
    int *corners;
    int corner_count;
    int corner_cap;
    hdi_obj_face *faces;
    int face_count;
    int face_cap;
    hdi_obj_group *groups;
    int group_count;
    int group_cap;
} hdi_obj_groups;

hd_status hdi_io_read_obj_groups(hdi_lexer *lx, hdi_obj_groups *out);
void hdi_obj_groups_free(hdi_obj_groups *groups);

/* Fills err (if not NULL) with name, line and a formatted message; returns status. For errors not
 * tied to a lexer (arguments, opening files). */
hd_status hdi_io_error(hd_parse_error *err, const char *name, int line, hd_status status,
                       const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Opens a pair reader on an already open stream (close_stream: whether hd_pair_reader_close
 * fcloses it). Used by hd_pair_reader_open and by the fuzz target. */
hd_status hdi_pair_reader_open_stream(FILE *fp, const char *name, int close_stream,
                                      hd_pair_reader **out, hd_parse_error *err);

#endif
