/* libFuzzer target: the point-file readers (OFF, OBJ, XYZ) through hd_read_points_stream on a
 * memory stream. The first input byte selects the format, the rest is the file.
 * Besides memory errors and undefined behaviour (the sanitizers), any broken promise of the API
 * aborts: a success must give at least one point, all finite, within HD_MAX_POINTS; an error must
 * give no points and a NUL-terminated message naming the file and a plausible line. The points
 * read must also survive a round trip through XYZ text bit for bit. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hedra/hedra.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_success(const hd_points *pts)
{
    if (pts->count < 1 || pts->count > HD_MAX_POINTS || pts->xyz == NULL) {
        abort();
    }
    for (size_t i = 0; i < 3 * (size_t)pts->count; ++i) {
        if (!isfinite(pts->xyz[i])) {
            abort();
        }
    }
}

/* The points written back as XYZ with %.17g must read back bit for bit. */
static void check_round_trip(const hd_points *pts)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (out == NULL) {
        return;
    }
    for (int i = 0; i < pts->count; ++i) {
        const double *p = pts->xyz + 3 * (size_t)i;
        fprintf(out, "%.17g %.17g %.17g\n", p[0], p[1], p[2]);
    }
    fclose(out);
    FILE *in = fmemopen(buf, len, "r");
    hd_points back = {0, NULL};
    hd_parse_error err;
    if (in == NULL ||
        hd_read_points_stream(in, "again", HD_FORMAT_XYZ, &back, &err) != HD_OK ||
        back.count != pts->count ||
        memcmp(back.xyz, pts->xyz, sizeof(double) * 3 * (size_t)pts->count) != 0) {
        abort();
    }
    fclose(in);
    hd_points_free(&back);
    free(buf);
}

static void check_error(const hd_points *pts, const hd_parse_error *err, size_t size)
{
    if (pts->count != 0 || pts->xyz != NULL) {
        abort();
    }
    if (memchr(err->message, '\0', sizeof err->message) == NULL || err->message[0] == '\0' ||
        strcmp(err->file, "fuzz") != 0) {
        abort();
    }
    /* A line number is at most one past the number of line ends in the input. */
    if (err->line < 0 || (size_t)err->line > size + 1) {
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) {
        return 0; /* the empty file is covered by the unit tests; fmemopen needs a size */
    }
    hd_format format = (hd_format)(HD_FORMAT_OFF + data[0] % 3);
    FILE *fp = fmemopen((void *)(uintptr_t)(data + 1), size - 1, "r");
    if (fp == NULL) {
        return 0;
    }
    hd_points pts = {0, NULL};
    hd_parse_error err;
    memset(&err, 0xA5, sizeof err);
    hd_status st = hd_read_points_stream(fp, "fuzz", format, &pts, &err);
    fclose(fp);
    if (st == HD_OK) {
        check_success(&pts);
        check_round_trip(&pts);
    } else {
        check_error(&pts, &err, size);
    }
    char msg[600];
    hd_parse_error_format(&err, msg, (int)sizeof msg);
    hd_points_free(&pts);
    return 0;
}
