/* A scene file loaded for running frame by frame: shared by `hedra scene` and `hedra view
 * --scene`. Errors are printed as "hedra CMD: file:line: message". */
#ifndef HD_SCENE_RUN_H
#define HD_SCENE_RUN_H

#include "cli.h"

/* The file, its polytopes, the scene, and per body of the file its index (the user pointer of
 * its scene body) and its scene id (-1 while absent). */
typedef struct hd_scene_run {
    const char *cmd;   /* "scene", "view": the command in messages */
    const char *shown; /* the file's name in messages */
    hd_scene_file file;
    hd_polytope **shapes;    /* each shape's polytope; for a compound, the hull of all its
                                points (what `hedra view` draws) */
    hd_compound **compounds; /* each compound shape's compound (NULL for a plain shape) */
    hd_polytope ***pieces;   /* and its pieces' polytopes */
    hd_scene *scene;
    int *index; /* index[b] = b */
    int *id;    /* scene id of body b, -1 when it is not in the scene */
} hd_scene_run;

/* Reads the file (path "-": standard input), builds every shape's hull and creates the scene.
 * Returns HD_EXIT_OK, or HD_EXIT_INPUT after printing the error (hd_scene_run_free still
 * needed). */
int hd_scene_run_open(hd_scene_run *r, const char *cmd, const char *path,
                      const hd_scene_options *opt);

/* Applies the adds, moves, removals, filters and velocities of frame f; HD_EXIT_INPUT (printed) on
 * a bad pose. */
int hd_scene_run_apply(hd_scene_run *r, int f);

/* The twists of frame f's velocity lines (bodies present, at their current poses) into out (room
 * for the frame's op count); returns their number. */
int hd_scene_run_twists(const hd_scene_run *r, int f, hd_body_twist *out);

void hd_scene_run_free(hd_scene_run *r);

#endif
