/* The scene workload (docs/BENCHMARKS.md, "Scenes"), self-contained C11 like workload.h:
 *
 * - shapes: `shape_count` hulls of 8 to 100 random points on ellipsoids with semi-axes in
 *   [0.5, 1], so every body fits in a ball of radius 1;
 * - bodies: n bodies, each one of the shapes, at a uniformly random orientation and position in a
 *   cube whose side gives `density` bodies per unit volume (the default puts a few percent of the
 *   bodies in contact);
 * - motion: a fixed random quarter of the bodies (`moving`) moves every frame, each along its own
 *   straight line by `step` and turning about its own axis by `spin` radians; the pose at frame f
 *   is computed from frame 0's, never accumulated, so every reader sees the same doubles;
 * - churn (scene files only): per frame, `churn` bodies are removed and as many added.
 * Poses are unit quaternions (w, x, y, z) and translations, as in the scene file format. */
#ifndef HD_BENCH_SCENE_WORKLOAD_H
#define HD_BENCH_SCENE_WORKLOAD_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hd_sw_params {
    int bodies;
    int frames; /* frames in all, frame 0 included */
    uint64_t seed;
    double density; /* bodies per unit volume */
    double moving;  /* fraction of the bodies that move */
    double step;    /* distance a moving body travels per frame */
    double spin;    /* angle a moving body turns per frame (radians) */
    int shape_count;
    int min_vertices;
    int max_vertices;
    int churn; /* removals and additions per frame (hd_sw_write only) */
} hd_sw_params;

/* The defaults: 32 shapes of 8 to 100 vertices, density 0.004, a quarter moving by 0.02 and
 * 0.02 rad per frame, 10 frames, no churn, seed 20261122. */
hd_sw_params hd_sw_defaults(int bodies);

typedef struct hd_sw_scene {
    hd_sw_params p;
    double side;  /* the cube [0, side]^3 holding the bodies' frame-0 positions */
    int *shape_n; /* points of each shape */
    double **shape_xyz;
    int *body_shape;
    double *q0; /* 4 per body */
    double *t0; /* 3 per body */
    int mover_count;
    int *movers;      /* body indices, increasing */
    double *velocity; /* 3 per mover: step times a unit direction */
    double *axis;     /* 3 per mover: unit */
} hd_sw_scene;

/* Generates a scene; 0, or -1 when out of memory (nothing to free then). */
int hd_sw_generate(const hd_sw_params *p, hd_sw_scene *out);
void hd_sw_free(hd_sw_scene *s);

/* The pose of mover m (index into movers) at frame f. */
void hd_sw_mover_pose(const hd_sw_scene *s, int m, int f, double q[4], double t[3]);

/* Writes the scene file (include/hedra/io.h): shapes s0.., bodies b0.., then frames 1 .. frames-1
 * with the movers' moves and the churn. 0, or -1 on a write error. */
int hd_sw_write(FILE *fp, const hd_sw_scene *s);

#ifdef __cplusplus
}
#endif

#endif
