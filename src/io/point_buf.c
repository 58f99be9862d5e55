/* The growable point array that every reader fills (hdi_point_buf, io/internal.h). */
#include <stdlib.h>

#include "core/array.h"
#include "io/internal.h"

/* Points a buffer holds at first (then doubled). */
#define HD_POINT_BUF_MIN_POINTS 64

static hd_status grow(hdi_point_buf *buf, hdi_lexer *lx, int want)
{
    if (want <= buf->capacity) {
        return HD_OK;
    }
    if (want > HD_MAX_POINTS) {
        return hdi_lex_fail(lx, HD_ERR_TOO_LARGE, "more than %d points (HD_MAX_POINTS)",
                            HD_MAX_POINTS);
    }
    int failed = 0;
    if (!hdi_array_reserve(&buf->xyz, &buf->capacity, want, HD_POINT_BUF_MIN_POINTS,
                           3 * sizeof *buf->xyz, &failed)) {
        return hdi_lex_fail(lx, HD_ERR_NO_MEMORY, "out of memory for %d points", want);
    }
    return HD_OK;
}

hd_status hdi_point_buf_reserve(hdi_point_buf *buf, hdi_lexer *lx, int want)
{
    return grow(buf, lx, want);
}

hd_status hdi_point_buf_push(hdi_point_buf *buf, hdi_lexer *lx, const double p[3])
{
    if (buf->count == buf->capacity) {
        hd_status st = grow(buf, lx, buf->count + 1);
        if (st != HD_OK) {
            return st;
        }
    }
    double *dst = buf->xyz + 3 * (size_t)buf->count;
    dst[0] = p[0];
    dst[1] = p[1];
    dst[2] = p[2];
    buf->count++;
    return HD_OK;
}

void hdi_point_buf_free(hdi_point_buf *buf)
{
    free(buf->xyz);
    buf->xyz = NULL;
    buf->count = 0;
    buf->capacity = 0;
}
