/* hedra view: one self-contained HTML page of a query. cmd_view.c parses the command line,
 * view_data.c runs the queries and writes the page's data as JSON (view_motion.c its time of
 * impact and rays, view_compound.c a compound pair's, view_path.c the algorithm's path,
 * view_scene.c a scene file's frames), view_page.c finds the page
 * assets (viewer/ in the source tree, share/hedra/viewer once installed) and inlines them.
 * docs/VIEWER.md describes the page, its data and where three.js comes from. */
#ifndef HD_VIEW_H
#define HD_VIEW_H

#include <stdio.h>

#include "cli_compound.h"
#include "cli_motion.h"
#include "cli_query.h"

/* Positions of B sampled along the motion direction (--slide-steps), and their bounds. */
#define HD_VIEW_SLIDE_DEFAULT 101
#define HD_VIEW_SLIDE_MAX 1001

/* The hull of A - B is computed from all V_A * V_B differences of vertices; above this many
 * the page leaves it out (and says so): Qhull's time and the page's size grow with it. */
#define HD_VIEW_DIFFERENCE_MAX (1 << 20)

typedef struct hd_view_opts {
    hd_cli_opts query; /* --algo (one algorithm), --tol, --brute, poses, --no-check */
    const char *files[2];
    const char *output; /* -o FILE, "-" for standard output */
    int have_slide_dir;
    double slide_dir[3]; /* --slide-dir; default: from A's centre towards B's */
    int slide_steps;
    int have_pose;     /* --translate-b, --rotate-b, --slide-dir or --slide-steps given */
    const char *scene; /* --scene FILE: the page of a scene file instead of a pair */
    int frame;         /* --frame K: the scene's frame shown first */
    int have_frame;
    double radius[2]; /* --radius-a, --radius-b (or the pair file's): rounded A and B */
    int compound;     /* --compound: A and B are compound bodies (OBJ groups) */
    int have_twist;   /* a motion option or the pair file's motion line */
    hd_cli_twist twist[2];
    int have_ray; /* bits: 1 --ray X,Y,Z, 2 --dir X,Y,Z; both: ray casts against A and B */
    double ray_origin[3], ray_dir[3];
    const char *pair_file; /* --pair FILE: A and B from the file's first pair */
} hd_view_opts;

/* Poses of the bodies drawn over t in [0, 1] for the time of impact (besides lo and hi). */
#define HD_VIEW_SWEEP_POSES 21

/* The page's data: A and B (world frame), the query, the distance, the hull of A - B, the
 * algorithm's path and the motion of B. Returns HD_EXIT_OK, or HD_EXIT_FAILURE when the main
 * query failed or its certificate was rejected (the data then says so and is still written). */
int hd_view_write_data(FILE *fp, const hd_view_opts *o, const hd_polytope *a, const hd_polytope *b);

/* The page of two compound bodies (view_compound.c): each body's pieces (B's at its pose) and
 * the answer `hedra collide --compound --json --distance` prints (with the deciding pieces). */
int hd_view_write_compound_data(FILE *fp, const hd_view_opts *o, const hd_compound *a,
                                const hd_compound *b);

/* The motion keys (view_motion.c), each starting with a comma: "toi" (hd_toi under the twists,
 * with the bodies' poses over [0, 1] and at lo and hi) when o->have_twist, "ray" (hd_ray_cast
 * against A and B) when o->have_ray. Returns 0 when the time of impact failed. */
int hd_view_json_motion_keys(FILE *fp, const hd_view_opts *o, const hd_polytope *a,
                             const hd_polytope *b);

/* The page of a scene file (view_scene.c): the shapes once, and per frame the poses of the
 * bodies present and the pairs in contact (hd_scene_step), with their contact (--depth,
 * --manifold). Returns HD_EXIT_OK, HD_EXIT_INPUT for a bad file (printed with file and line) or
 * a --frame beyond the file, HD_EXIT_FAILURE when a pair query failed (the page is written). */
int hd_view_write_scene_data(FILE *fp, const hd_view_opts *o);

/* The page's assets, read into memory. */
typedef struct hd_view_assets {
    char *dir;    /* where they were found */
    char *html;   /* page.html: the template with @HEDRA_...@ markers */
    char *css;    /* page.css */
    char *script; /* page.js */
    char *three;  /* dist/three.bundle.js: three.js as one classic script */
} hd_view_assets;

/* Finds and reads the assets (HEDRA_VIEWER_DIR, else the install data directory next to the
 * executable, else the source tree's viewer/); on failure prints what is missing and how to
 * install it, and returns 0. */
int hd_view_assets_load(hd_view_assets *assets);
void hd_view_assets_free(hd_view_assets *assets);

/* Writes the page: the template with the title, the style, the data, three.js and the page
 * script in place of its markers. Returns 0 on a write error. */
int hd_view_write_page(FILE *fp, const hd_view_assets *assets, const char *title, const char *data,
                       size_t data_size);

/* JSON of a polytope posed by pose (NULL: identity): {"dimension", "radius", "vertices",
 * "faces", "edges"} with vertices in the world frame (a rounded polytope's core and radius). */
void hd_view_json_polytope(FILE *fp, const hd_polytope *p, const hd_pose *pose);

/* Writes `,"contact":{signed_distance, normal, witness_a, witness_b[, manifold: [{point,
 * separation}...]]}` (m NULL: no manifold). */
void hd_view_json_contact(FILE *fp, const hd_signed_distance_result *c, const hd_manifold *m);

/* The start of a pair page's object: '{', "hedra" (the version), "kind" and "names" (the files). */
void hd_view_json_head(FILE *fp, const char *kind, const hd_view_opts *o);

/* A point with 9 significant digits (drawing precision). */
void hd_view_json_point(FILE *fp, const double p[3]);

/* A pose as 12 numbers: the row-major rotation, then the translation (drawing precision). */
void hd_view_json_pose(FILE *fp, const hd_pose *pose);

/* Writes the path recorded in ws by the query of ans as the value of "path" (view_path.c): each
 * step with its geometry in the space of A - B, and a note saying why a path is empty or cut. */
void hd_view_json_path(FILE *fp, const hd_cli_answer *ans, const hd_workspace *ws,
                       const hd_polytope *a, const hd_polytope *b, const hd_pose *pose_b);

#endif
