/* hd_read_points: opening, format selection and error formatting. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "io/internal.h"

static int bounded_len(const char *s, int cap)
{
    int n = 0;
    while (n < cap && s[n] != '\0') {
        ++n;
    }
    return n;
}

void hd_parse_error_format(const hd_parse_error *err, char *buf, int size)
{
    if (buf == NULL || size <= 0) {
        return;
    }
    if (err == NULL) {
        buf[0] = '\0';
        return;
    }
    /* The fields may come from a caller who never had them filled: print bounded prefixes. */
    int file_len = bounded_len(err->file, (int)sizeof err->file);
    int msg_len = bounded_len(err->message, (int)sizeof err->message);
    if (err->line > 0) {
        snprintf(buf, (size_t)size, "%.*s:%d: %.*s", file_len, err->file, err->line, msg_len,
                 err->message);
    } else {
        snprintf(buf, (size_t)size, "%.*s: %.*s", file_len, err->file, msg_len, err->message);
    }
}

void hd_points_free(hd_points *pts)
{
    if (pts == NULL) {
        return;
    }
    free(pts->xyz);
    pts->xyz = NULL;
    pts->count = 0;
}

static int lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

static int has_extension(const char *name, const char *ext)
{
    size_t n = strlen(name), e = strlen(ext);
    if (n <= e) {
        return 0;
    }
    for (size_t i = 0; i < e; ++i) {
        if (lower(name[n - e + i]) != ext[i]) {
            return 0;
        }
    }
    return 1;
}

/* The format implied by a file name's extension (case-insensitive), or HD_FORMAT_AUTO if none. */
static hd_format format_of(const char *name)
{
    if (name == NULL) {
        return HD_FORMAT_AUTO;
    }
    if (has_extension(name, ".off")) {
        return HD_FORMAT_OFF;
    }
    if (has_extension(name, ".obj")) {
        return HD_FORMAT_OBJ;
    }
    if (has_extension(name, ".xyz") || has_extension(name, ".txt") || has_extension(name, ".pts")) {
        return HD_FORMAT_XYZ;
    }
    return HD_FORMAT_AUTO;
}

static hd_status unknown_format(hd_parse_error *err, const char *name)
{
    return hdi_io_error(err, name, 0, HD_ERR_INVALID_ARG,
                        "cannot tell the format from the name (expected the extension .off, .obj, "
                        ".xyz, .txt or .pts, or an explicit format)");
}

static hd_status read_with(hdi_lexer *lx, hd_format format, hdi_point_buf *buf)
{
    switch (format) {
        case HD_FORMAT_OFF:
            return hdi_io_read_off(lx, buf);
        case HD_FORMAT_OBJ:
            return hdi_io_read_obj(lx, buf);
        case HD_FORMAT_XYZ:
            lx->commas = 1;
            return hdi_io_read_xyz(lx, buf);
        default:
            return hdi_lex_fail(lx, HD_ERR_INVALID_ARG, "unknown format");
    }
}

hd_status hd_read_points_stream(FILE *fp, const char *name, hd_format format, hd_points *out,
                                hd_parse_error *err)
{
    hd_parse_error local;
    if (err == NULL) {
        err = &local;
    }
    const char *shown = name != NULL ? name : "<stream>";
    if (out != NULL) {
        out->count = 0;
        out->xyz = NULL;
    }
    if (fp == NULL || out == NULL) {
        return hdi_io_error(err, shown, 0, HD_ERR_NULL, "no stream or no output given");
    }
    if (format == HD_FORMAT_AUTO) {
        format = format_of(name);
        if (format == HD_FORMAT_AUTO) {
            return unknown_format(err, shown);
        }
    } else if (format != HD_FORMAT_OFF && format != HD_FORMAT_OBJ && format != HD_FORMAT_XYZ) {
        return hdi_io_error(err, shown, 0, HD_ERR_INVALID_ARG, "unknown format %d", (int)format);
    }
    hdi_lexer *lx = hdi_lex_create(fp, shown, err);
    if (lx == NULL) {
        return hdi_io_error(err, shown, 0, HD_ERR_NO_MEMORY, "out of memory");
    }
    hdi_point_buf buf = {NULL, 0, 0};
    hd_status st = read_with(lx, format, &buf);
    hdi_lex_destroy(lx);
    if (st != HD_OK) {
        hdi_point_buf_free(&buf);
        return st;
    }
    out->count = buf.count;
    out->xyz = buf.xyz;
    return HD_OK;
}

hd_status hd_read_points(const char *path, hd_format format, hd_points *out, hd_parse_error *err)
{
    if (out != NULL) {
        out->count = 0;
        out->xyz = NULL;
    }
    if (path == NULL || out == NULL) {
        return hdi_io_error(err, path != NULL ? path : "<null>", 0, HD_ERR_NULL,
                            "no path or no output given");
    }
    if (format != HD_FORMAT_AUTO && format != HD_FORMAT_OFF && format != HD_FORMAT_OBJ &&
        format != HD_FORMAT_XYZ) {
        return hdi_io_error(err, path, 0, HD_ERR_INVALID_ARG, "unknown format %d", (int)format);
    }
    if (strcmp(path, "-") == 0) {
        if (format == HD_FORMAT_AUTO) {
            return hdi_io_error(err, "<stdin>", 0, HD_ERR_INVALID_ARG,
                                "reading standard input needs an explicit format");
        }
        return hd_read_points_stream(stdin, "<stdin>", format, out, err);
    }
    if (format == HD_FORMAT_AUTO && format_of(path) == HD_FORMAT_AUTO) {
        return unknown_format(err, path);
    }
    FILE *fp = fopen(path, "rb");
    if (fp == NULL) {
        int code = errno;
        return hdi_io_error(err, path, 0, HD_ERR_IO, "cannot open for reading (%s)",
                            strerror(code));
    }
    hd_status st = hd_read_points_stream(fp, path, format, out, err);
    if (fclose(fp) != 0 && st == HD_OK) {
        hd_points_free(out);
        return hdi_io_error(err, path, 0, HD_ERR_IO, "error closing the file");
    }
    return st;
}
