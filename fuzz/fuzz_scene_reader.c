/* libFuzzer target: the scene-file reader on a memory stream. A file read must hold only what the
 * format allows (shapes of finite points, names of 1 to 255 bytes, bodies naming shapes, operations
 * naming bodies, rotations that pass hd_pose_validate, frames in order); an error must come with a
 * message, a line, and nothing left in the output. Broken promises abort. */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hedra/hedra.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_name(const char *name)
{
    size_t n = name != NULL ? strlen(name) : 0;
    if (n == 0 || n > HD_SCENE_NAME_MAX) {
        abort();
    }
}

/* A finite radius >= 0; a compound's pieces: k + 1 increasing offsets covering the points, each
 * piece with a point at least; a plain shape has no offsets. */
static void check_pieces(const hd_scene_file_shape *s)
{
    if (!(s->radius >= 0.0 && s->radius <= DBL_MAX) || s->pieces < 0 ||
        (s->pieces == 0) != (s->piece_start == NULL)) {
        abort();
    }
    for (int i = 0; i < s->pieces; ++i) {
        if (s->piece_start[i] >= s->piece_start[i + 1]) {
            abort();
        }
    }
    if (s->pieces > 0 && (s->piece_start[0] != 0 || s->piece_start[s->pieces] != s->points.count)) {
        abort();
    }
}

static void check_shapes(const hd_scene_file *f)
{
    for (int i = 0; i < f->shape_count; ++i) {
        const hd_scene_file_shape *s = &f->shapes[i];
        check_name(s->name);
        if (s->points.count < 1 || s->line < 1 || !(s->radius >= 0.0) || !isfinite(s->radius)) {
            abort();
        }
        for (size_t k = 0; k < 3 * (size_t)s->points.count; ++k) {
            if (!isfinite(s->points.xyz[k])) {
                abort();
            }
        }
        check_pieces(s);
    }
}

static void check_ops(const hd_scene_file *f)
{
    for (int b = 0; b < f->body_count; ++b) {
        check_name(f->bodies[b].name);
        if (f->bodies[b].shape < 0 || f->bodies[b].shape >= f->shape_count) {
            abort();
        }
    }
    for (int k = 0; k < f->op_count; ++k) {
        const hd_scene_file_op *op = &f->ops[k];
        if (op->body < 0 || op->body >= f->body_count || op->line < 1 ||
            (op->kind == HD_SCENE_FILE_ADD && f->bodies[op->body].line != op->line) ||
            (int)op->kind < HD_SCENE_FILE_ADD || op->kind > HD_SCENE_FILE_VELOCITY ||
            !(isfinite(op->v[0]) && isfinite(op->v[1]) && isfinite(op->v[2]) &&
              isfinite(op->w[0]) && isfinite(op->w[1]) && isfinite(op->w[2])) ||
            hd_pose_validate(&op->pose, HD_DEFAULT_POSE_TOL) != HD_OK) {
            abort();
        }
    }
    if (!(f->margin >= 0.0 && f->margin <= DBL_MAX) || f->margin_line < 0 ||
        (f->margin_line == 0 && f->margin != 0.0)) {
        abort();
    }
    if (f->frame_count < 1 || f->frame_start[0] != 0 ||
        f->frame_start[f->frame_count] != f->op_count) {
        abort();
    }
    for (int i = 0; i < f->frame_count; ++i) {
        if (f->frame_start[i] > f->frame_start[i + 1]) {
            abort();
        }
    }
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
    hd_scene_file f;
    hd_parse_error err;
    hd_status st = hd_read_scene_stream(fp, "fuzz", &f, &err);
    fclose(fp);
    if (st == HD_OK) {
        check_shapes(&f);
        check_ops(&f);
    } else if (err.message[0] == '\0' || strcmp(err.file, "fuzz") != 0 || err.line < 0 ||
               f.shape_count != 0 || f.ops != NULL || f.frame_start != NULL) {
        abort();
    }
    hd_scene_file_free(&f);
    return 0;
}
