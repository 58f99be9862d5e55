/* libFuzzer target: convex decompositions read from OBJ text (hd_compound_read_obj_stream on a
 * memory stream). Besides memory errors and undefined behaviour (the sanitizers), any broken
 * promise of the API aborts: a success gives a compound of 1 to HD_COMPOUND_MAX_PIECES pieces,
 * each a valid polytope, which overlaps or touches itself at the same pose (never separated) and
 * whose own vertices it encloses; an error gives no compound and a message naming the file. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hedra/hedra.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_compound(const hd_compound *c)
{
    int n = hd_compound_piece_count(c);
    if (n < 1 || n > HD_COMPOUND_MAX_PIECES) {
        abort();
    }
    for (int i = 0; i < n; ++i) {
        const hd_polytope *p = hd_compound_piece(c, i, NULL);
        if (p == NULL || hd_polytope_validate(p, NULL) != HD_OK) {
            abort();
        }
    }
    hd_compound_collide_result r;
    hd_status st = hd_compound_collide(c, NULL, c, NULL, NULL, &r);
    if (st == HD_OK && r.verdict == HD_SEPARATED) {
        abort();
    }
    const hd_polytope *first = hd_compound_piece(c, 0, NULL);
    hd_enclosure_result e;
    st = hd_compound_enclosure(c, hd_polytope_vertices(first), hd_polytope_vertex_count(first),
                               NULL, &e);
    if (st == HD_OK && e.vertex >= 0 && e.distance > 1e-9 * (1.0 + e.distance)) {
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *fp = fmemopen((void *)(uintptr_t)data, size, "rb");
    if (fp == NULL) {
        return 0;
    }
    hd_compound *c = NULL;
    hd_parse_error err;
    hd_status st = hd_compound_read_obj_stream(fp, "fuzz.obj", NULL, &c, &err);
    fclose(fp);
    if (st == HD_OK) {
        check_compound(c);
    } else if (c != NULL || err.message[0] == '\0' || strcmp(err.file, "fuzz.obj") != 0) {
        abort();
    }
    hd_compound_destroy(c);
    return 0;
}
