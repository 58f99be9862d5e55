/* The scene peers of the scene benchmark (scene_bench.c): a world of bodies built once (not
 * timed), then frames, each the moves of the frame's moving bodies (converted to the library's
 * pose type before the clock starts) and one detection of every pair in contact. Bullet:
 * btCollisionWorld with btDbvtBroadphase and btConvexHullShape (margin 0; peer_scene_bullet.cpp).
 * FCL: DynamicAABBTreeCollisionManager with fcl::Convex (peer_scene_fcl.cpp). Shapes are shared
 * among bodies in both, as in hedra. */
#ifndef HD_BENCH_SCENE_PEERS_H
#define HD_BENCH_SCENE_PEERS_H

#include "peers/peers.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hd_sp_input {
    int shape_count;
    const hd_bench_shape *shapes; /* hull vertices and triangles */
    int body_count;
    const int *body_shape;
    const hd_bench_pose *poses; /* frame 0 */
} hd_sp_input;

/* What one frame found and where its time went (ns; -1 when not separable). */
typedef struct hd_sp_frame {
    int contacts;        /* pairs in contact (penetrating or touching) */
    long long update_ns; /* poses given and boxes updated */
    long long broad_ns;  /* pair finding */
    long long narrow_ns; /* the pair tests */
} hd_sp_frame;

typedef struct hd_sp_method {
    const char *name;                       /* "bullet", "fcl" */
    const char *library;                    /* with version */
    void *(*create)(const hd_sp_input *in); /* NULL on failure */
    /* Before a frame, not timed: the moves of the frame, bodies[i] to take poses[i] (count of
     * them), converted to the library's own pose type and kept by the world, as an application
     * would hold its poses. 0 or -1. */
    int (*prepare)(void *world, int count, const int *bodies, const hd_bench_pose *poses);
    /* One frame, timed: the prepared moves given to the library, then the detection and the
     * count of the pairs in contact. 0 or -1. */
    int (*frame)(void *world, hd_sp_frame *out);
    void (*destroy)(void *world);
} hd_sp_method;

/* The peers of this build (0 to 2 written to list). */
int hd_sp_bullet_methods(hd_sp_method *list, int capacity);
int hd_sp_fcl_methods(hd_sp_method *list, int capacity);

#ifdef __cplusplus
}
#endif

#endif
