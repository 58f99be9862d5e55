/* A scene file loaded for running frame by frame (scene_run.h). */
#include <stdlib.h>
#include <string.h>

#include "scene_run.h"

static int input_error(const hd_scene_run *r, int line, const char *what, const char *name,
                       hd_status st)
{
    fflush(stdout);
    fprintf(stderr, "hedra %s: %s:%d: %s '%s': %s\n", r->cmd, r->shown, line, what, name,
            hd_status_str(st));
    return HD_EXIT_INPUT;
}

/* A compound shape: each piece's hull (rounded by the shape's radius), then the compound. */
static hd_status build_compound(hd_scene_run *r, int i)
{
    const hd_scene_file_shape *s = &r->file.shapes[i];
    r->pieces[i] = calloc((size_t)s->pieces, sizeof *r->pieces[i]);
    if (r->pieces[i] == NULL) {
        return HD_ERR_NO_MEMORY;
    }
    hd_status st = HD_OK;
    for (int k = 0; k < s->pieces && st == HD_OK; ++k) {
        int first = s->piece_start[k], n = s->piece_start[k + 1] - first;
        st = hd_polytope_build_rounded(s->points.xyz + 3 * first, n, s->radius, NULL,
                                       &r->pieces[i][k]);
    }
    if (st == HD_OK) {
        st = hd_compound_build((const hd_polytope *const *)r->pieces[i], NULL, s->pieces,
                               &r->compounds[i]);
    }
    return st;
}

/* Builds every shape's hull (and a compound shape's pieces); a failure is reported at the
 * shape's line. */
static int build_shapes(hd_scene_run *r)
{
    size_t n = (size_t)r->file.shape_count + 1;
    r->shapes = calloc(n, sizeof *r->shapes);
    r->compounds = calloc(n, sizeof *r->compounds);
    r->pieces = calloc(n, sizeof *r->pieces);
    if (r->shapes == NULL || r->compounds == NULL || r->pieces == NULL) {
        fprintf(stderr, "hedra %s: out of memory\n", r->cmd);
        return HD_EXIT_INPUT;
    }
    for (int i = 0; i < r->file.shape_count; ++i) {
        const hd_scene_file_shape *s = &r->file.shapes[i];
        hd_status st = hd_polytope_build_rounded(s->points.xyz, s->points.count, s->radius, NULL,
                                                 &r->shapes[i]);
        if (st == HD_OK && s->pieces > 0) {
            st = build_compound(r, i);
        }
        if (st != HD_OK) {
            return input_error(r, s->line, "cannot build shape", s->name, st);
        }
    }
    return HD_EXIT_OK;
}

/* The scene (with the file's margin as its proximity, unless the options give one) and the
 * per-body arrays. */
static int prepare(hd_scene_run *r, const hd_scene_options *opt)
{
    int n = r->file.body_count;
    r->index = malloc(((size_t)n + 1) * sizeof *r->index);
    r->id = malloc(((size_t)n + 1) * sizeof *r->id);
    hd_scene_options o = *opt;
    if (o.proximity == 0.0 && r->file.margin_line > 0) {
        o.proximity = r->file.margin;
    }
    hd_status st = hd_scene_create(&o, &r->scene);
    if (r->index == NULL || r->id == NULL || st != HD_OK) {
        fprintf(stderr, "hedra %s: cannot create the scene: %s\n", r->cmd,
                hd_status_str(st != HD_OK ? st : HD_ERR_NO_MEMORY));
        return HD_EXIT_INPUT;
    }
    for (int b = 0; b < n; ++b) {
        r->index[b] = b;
        r->id[b] = -1;
    }
    return HD_EXIT_OK;
}

int hd_scene_run_open(hd_scene_run *r, const char *cmd, const char *path,
                      const hd_scene_options *opt)
{
    memset(r, 0, sizeof *r);
    r->cmd = cmd;
    r->shown = strcmp(path, "-") == 0 ? "<stdin>" : path;
    hd_parse_error err;
    memset(&err, 0, sizeof err);
    hd_status st = hd_read_scene(path, &r->file, &err);
    if (st != HD_OK) {
        char msg[600];
        hd_parse_error_format(&err, msg, (int)sizeof msg);
        fprintf(stderr, "hedra %s: %s\n", cmd, msg[0] ? msg : hd_status_str(st));
        return HD_EXIT_INPUT;
    }
    int code = build_shapes(r);
    return code == HD_EXIT_OK ? prepare(r, opt) : code;
}

int hd_scene_run_apply(hd_scene_run *r, int f)
{
    const hd_scene_file *file = &r->file;
    for (int k = file->frame_start[f]; k < file->frame_start[f + 1]; ++k) {
        const hd_scene_file_op *op = &file->ops[k];
        const hd_scene_file_body *b = &file->bodies[op->body];
        hd_status st = HD_OK;
        if (op->kind == HD_SCENE_FILE_ADD && r->compounds[b->shape] != NULL) {
            st = hd_scene_add_compound(r->scene, r->compounds[b->shape], &op->pose,
                                       &r->index[op->body], &r->id[op->body]);
        } else if (op->kind == HD_SCENE_FILE_ADD) {
            st = hd_scene_add(r->scene, r->shapes[b->shape], &op->pose, &r->index[op->body],
                              &r->id[op->body]);
        } else if (op->kind == HD_SCENE_FILE_VELOCITY) {
            st = hd_scene_set_velocity(r->scene, r->id[op->body], op->v, op->w);
        } else if (op->kind == HD_SCENE_FILE_MOVE) {
            st = hd_scene_move(r->scene, r->id[op->body], &op->pose);
        } else if (op->kind == HD_SCENE_FILE_FILTER) {
            hd_scene_filter filter = {op->category, op->mask, op->group};
            st = hd_scene_set_filter(r->scene, r->id[op->body], &filter);
        } else if (op->kind == HD_SCENE_FILE_REMOVE &&
                   (st = hd_scene_remove(r->scene, r->id[op->body])) == HD_OK) {
            r->id[op->body] = -1;
        }
        if (st != HD_OK) {
            return input_error(r, op->line, "body", b->name, st);
        }
    }
    return HD_EXIT_OK;
}

int hd_scene_run_twists(const hd_scene_run *r, int f, hd_body_twist *out)
{
    const hd_scene_file *file = &r->file;
    int n = 0;
    for (int k = file->frame_start[f]; k < file->frame_start[f + 1]; ++k) {
        const hd_scene_file_op *op = &file->ops[k];
        if (op->kind != HD_SCENE_FILE_VELOCITY || r->id[op->body] < 0) {
            continue;
        }
        const hd_polytope *shape = NULL;
        hd_pose pose;
        void *user;
        hd_scene_body(r->scene, r->id[op->body], &shape, &pose, &user);
        out[n].id = r->id[op->body];
        memcpy(out[n].v, op->twist, 3 * sizeof(double));
        memcpy(out[n].w, op->twist + 3, 3 * sizeof(double));
        memcpy(out[n].c, pose.t, sizeof out[n].c);
        ++n;
    }
    return n;
}

void hd_scene_run_free(hd_scene_run *r)
{
    hd_scene_destroy(r->scene);
    for (int i = 0; r->shapes != NULL && i < r->file.shape_count; ++i) {
        hd_polytope_destroy(r->shapes[i]);
        if (r->compounds != NULL) {
            hd_compound_destroy(r->compounds[i]);
        }
        for (int k = 0; r->pieces != NULL && r->pieces[i] != NULL && k < r->file.shapes[i].pieces;
             ++k) {
            hd_polytope_destroy(r->pieces[i][k]);
        }
        free(r->pieces != NULL ? r->pieces[i] : NULL);
    }
    free(r->shapes);
    free(r->compounds);
    free(r->pieces);
    free(r->index);
    free(r->id);
    hd_scene_file_free(&r->file);
    memset(r, 0, sizeof *r);
}
