/* libFuzzer target: the streaming pair-file reader on a memory stream. Every pair read must have
 * a valid name, finite coordinates and finite radii >= 0, and its points must survive a round trip
 * through hd_write_pair bit for bit; an error must come with a message and stay sticky. Broken
 * promises abort. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hedra/hedra.h"
#include "io/internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_set(const hd_points *p)
{
    if (p->count < 0 || p->count > HD_MAX_POINTS || (p->count > 0 && p->xyz == NULL)) {
        abort();
    }
    for (size_t i = 0; i < 3 * (size_t)p->count; ++i) {
        if (!isfinite(p->xyz[i])) {
            abort();
        }
    }
}

static int same_set(const hd_points *a, const hd_points *b)
{
    return a->count == b->count &&
           (a->count == 0 || memcmp(a->xyz, b->xyz, sizeof(double) * 3 * (size_t)a->count) == 0);
}

/* Writes the pair and reads it back with a second reader: it must come back identical. */
static void check_round_trip(const hd_pair_data *pd)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (out == NULL) {
        return;
    }
    hd_status st = hd_write_pair(out, pd->name, pd->a.xyz, pd->a.count, pd->b.xyz, pd->b.count);
    fclose(out);
    if (st != HD_OK) {
        abort();
    }
    FILE *in = fmemopen(buf, len, "r");
    hd_pair_reader *r = NULL;
    hd_parse_error err;
    if (in == NULL || hdi_pair_reader_open_stream(in, "again", 1, &r, &err) != HD_OK) {
        abort();
    }
    hd_pair_data back;
    bool done = true;
    if (hd_pair_reader_next(r, &back, &done, &err) != HD_OK || done ||
        strcmp(back.name, pd->name) != 0 || !same_set(&back.a, &pd->a) ||
        !same_set(&back.b, &pd->b)) {
        abort();
    }
    if (hd_pair_reader_next(r, &back, &done, &err) != HD_OK || !done) {
        abort();
    }
    hd_pair_reader_close(r);
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) {
        return 0;
    }
    FILE *fp = fmemopen((void *)(uintptr_t)data, size, "r");
    if (fp == NULL) {
        return 0;
    }
    hd_pair_reader *r = NULL;
    hd_parse_error err;
    if (hdi_pair_reader_open_stream(fp, "fuzz", 1, &r, &err) != HD_OK) {
        abort();
    }
    hd_status st = HD_OK;
    for (int k = 0; k < 1000; ++k) {
        hd_pair_data pd;
        bool done = false;
        st = hd_pair_reader_next(r, &pd, &done, &err);
        if (st != HD_OK || done) {
            break;
        }
        size_t name_len = strlen(pd.name);
        if (name_len == 0 || name_len > HD_PAIR_NAME_MAX || pd.line < 1) {
            abort();
        }
        check_set(&pd.a);
        check_set(&pd.b);
        if (!(pd.radius_a >= 0.0) || !(pd.radius_b >= 0.0) || !isfinite(pd.radius_a) ||
            !isfinite(pd.radius_b)) {
            abort(); /* a radius is finite and >= 0 */
        }
        check_round_trip(&pd);
    }
    if (st != HD_OK) {
        if (err.message[0] == '\0' || strcmp(err.file, "fuzz") != 0 || err.line < 0) {
            abort();
        }
        hd_parse_error again;
        hd_pair_data pd;
        bool done = false;
        if (hd_pair_reader_next(r, &pd, &done, &again) != st || again.line != err.line) {
            abort();
        }
    }
    hd_pair_reader_close(r);
    return 0;
}
