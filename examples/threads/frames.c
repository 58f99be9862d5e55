/* Shared by the two examples of the caller's threads (openmp.c, jobs.c). */
#include "frames.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BODIES 1000
#define FRAMES 10
#define PER_ROW 10 /* bodies on a row of the heap, and rows on a layer */

typedef struct contact_log {
    int a, b, verdict;
    double signed_distance, normal[3];
} contact_log;

typedef struct run {
    contact_log *log;
    int count, capacity;
} run;

static int push(run *r, const hd_scene_contact *c)
{
    if (r->count == r->capacity) {
        int cap = r->capacity > 0 ? 2 * r->capacity : 1024;
        contact_log *grown = realloc(r->log, (size_t)cap * sizeof *grown);
        if (grown == NULL) {
            return -1;
        }
        r->log = grown;
        r->capacity = cap;
    }
    contact_log *l = &r->log[r->count++];
    memset(l, 0, sizeof *l);
    l->a = c->a;
    l->b = c->b;
    l->verdict = (int)c->verdict;
    l->signed_distance = c->contact->signed_distance;
    memcpy(l->normal, c->contact->normal, sizeof l->normal);
    return 0;
}

/* Body i's pose at frame f: a place on a grid, sinking and wobbling a little each frame. */
static hd_pose pose_at(int i, int f)
{
    double phase = 0.37 * i + 0.21 * f, angle = 0.3 * sin(phase);
    hd_pose p = hd_pose_identity();
    p.r[0] = p.r[4] = cos(angle);
    p.r[1] = -sin(angle);
    p.r[3] = sin(angle);
    p.t[0] = 1.02 * (i % PER_ROW) + 0.05 * sin(phase);
    p.t[1] = 1.02 * (i / PER_ROW % PER_ROW);
    p.t[2] = 1.02 * (i / (PER_ROW * PER_ROW)) - 0.01 * f;
    return p;
}

static int make_shapes(hd_polytope *shapes[2])
{
    const double box[24] = {-.5, -.5, -.5, .5, -.5, -.5, -.5, .5, -.5, .5, .5, -.5,
                            -.5, -.5, .5,  .5, -.5, .5,  -.5, .5, .5,  .5, .5, .5};
    const double tet[12] = {.6, .6, .6, -.6, -.6, .6, -.6, .6, -.6, .6, -.6, -.6};
    hd_tolerance tol = hd_tolerance_default();
    if (hd_polytope_build(box, 8, &tol, &shapes[0]) != HD_OK) {
        return -1;
    }
    return hd_polytope_build(tet, 4, &tol, &shapes[1]) == HD_OK ? 0 : -1;
}

/* Every frame's contacts on a scene with the given job system (NULL: hedra's pool). */
static int run_frames(hd_polytope *const shapes[2], const hd_task_callbacks *tasks, run *out)
{
    hd_scene_options opt = hd_scene_options_default();
    opt.detail = HD_SCENE_DEPTH;
    opt.tasks = tasks;
    hd_scene *scene = NULL;
    if (hd_scene_create(&opt, &scene) != HD_OK) {
        return -1;
    }
    int ids[BODIES], st = 0;
    hd_pose poses[BODIES];
    for (int i = 0; i < BODIES && st == 0; ++i) {
        poses[i] = pose_at(i, 0);
        st = hd_scene_add(scene, shapes[i % 2], &poses[i], NULL, &ids[i]) == HD_OK ? 0 : -1;
    }
    for (int f = 0; f < FRAMES && st == 0; ++f) {
        const hd_scene_contact *contacts = NULL;
        int count = 0;
        st = hd_scene_step(scene, &contacts, &count, NULL) == HD_OK ? 0 : -1;
        for (int k = 0; k < count && st == 0; ++k) {
            st = push(out, &contacts[k]);
        }
        for (int i = 0; i < BODIES; ++i) {
            poses[i] = pose_at(i, f + 1);
        }
        if (st == 0 && hd_scene_move_many(scene, BODIES, ids, poses, NULL) != HD_OK) {
            st = -1;
        }
    }
    hd_scene_destroy(scene);
    return st;
}

int frames_compare(const hd_task_callbacks *tasks, const char *name)
{
    hd_polytope *shapes[2] = {NULL, NULL};
    run own = {0}, theirs = {0};
    int rc = 2;
    if (make_shapes(shapes) == 0 && run_frames(shapes, NULL, &own) == 0 &&
        run_frames(shapes, tasks, &theirs) == 0) {
        rc = own.count != theirs.count ||
             memcmp(own.log, theirs.log, (size_t)own.count * sizeof *own.log) != 0;
        printf("%s: %d contacts over %d frames of %d bodies, %s hedra's own pool\n", name,
               theirs.count, FRAMES, BODIES, rc == 0 ? "the same as on" : "DIFFERENT from");
    } else {
        printf("%s: a scene call failed\n", name);
    }
    free(own.log);
    free(theirs.log);
    hd_polytope_destroy(shapes[0]);
    hd_polytope_destroy(shapes[1]);
    return rc;
}
