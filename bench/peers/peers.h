/* The small C interface behind which every benchmarked method lives: hedra's own algorithms
 * (bench/pairs/method_hedra.c, public API only) and the peers libccd (peer_ccd.c), Bullet
 * (peer_bullet.cpp), FCL (peer_fcl.cpp) and GLPK (peer_glpk.c). A peer whose library was not found
 * at configure time is simply absent from the list, and the driver says so.
 *
 * Every method receives the same data: a polytope's vertices in its own frame (the hull vertices,
 * with the hull's triangles for the libraries that want faces), and a pose per query. */
#ifndef HD_BENCH_PEERS_H
#define HD_BENCH_PEERS_H

#ifdef __cplusplus
extern "C" {
#endif

/* x -> r x + t, r row-major (the layout of hd_pose). */
typedef struct hd_bench_pose {
    double r[9];
    double t[3];
} hd_bench_pose;

/* A convex polytope as every method receives it. */
typedef struct hd_bench_shape {
    const double *xyz; /* n vertices, local frame */
    int n;
    const int *tris;   /* ntris counter-clockwise (outward) triangles of the hull */
    int ntris;
} hd_bench_shape;

/* A peer's own copy of a shape's vertices, with their centroid, for the peers that take plain
 * vertex lists (libccd's support callback, GLPK's columns). create returns NULL when out of
 * memory. */
typedef struct hd_bench_point_set {
    int n;
    double *xyz;
    double centroid[3];
} hd_bench_point_set;
void *hd_bench_point_set_create(const hd_bench_shape *in);
void hd_bench_point_set_destroy(void *handle);

typedef enum hd_bench_kind {
    HD_BENCH_BOOLEAN = 0, /* answers "do they intersect" */
    HD_BENCH_DISTANCE = 1, /* answers the Euclidean distance (and hence the boolean) */
    HD_BENCH_DEPTH = 2     /* answers the penetration depth and normal (the depth experiment) */
} hd_bench_kind;

/* What a query answered. verdict: 0 separated, 1 touching (only methods with a touching band say
 * so), 2 intersecting. distance: for distance methods, the distance (<= 0 or -1 when they report
 * contact). The counters are what the method exposes (-1 when it exposes nothing). */
typedef struct hd_bench_answer {
    int verdict;
    double distance;
    int iterations;
    int support_calls;
    int visits[3]; /* CD-Dual: faces visited in SEARCH-FV, SEARCH-VF, SEARCH-EE */
    double depth;     /* depth methods: the penetration depth (> 0 when overlapping) */
    double normal[3]; /* depth methods: unit normal from A towards B (moving B by depth * normal
                         separates the pair), world frame */
} hd_bench_answer;

/* Query status. */
enum {
    HD_BENCH_OK = 0,
    HD_BENCH_FAILED = -1,     /* the method returned an error for this query */
    HD_BENCH_UNSUPPORTED = -2 /* the method is not available in this build */
};

typedef struct hd_bench_method {
    const char *name;    /* short id used in the CSV: "hedra_gjk", "ccd_gjk", "bullet", ... */
    const char *library; /* "hedra 0.1.0", "libccd 2.1", "Bullet 3.24 (double)", ... */
    hd_bench_kind kind;
    /* Prepares a shape (outside the timed region). NULL on failure. */
    void *(*create)(const hd_bench_shape *shape);
    void (*destroy)(void *handle);
    /* One query; the per-query scratch (if any) is created by the method once, outside timing.
     * Returns HD_BENCH_OK, HD_BENCH_FAILED or HD_BENCH_UNSUPPORTED. */
    int (*query)(const void *a, const hd_bench_pose *pose_a, const void *b,
                 const hd_bench_pose *pose_b, hd_bench_answer *out);
    /* Optional: a warm-started query with a caller-owned per-pair cache (hedra only): state points
     * to a cache created by cache_create and reset by cache_reset. NULL when not supported. */
    void *(*cache_create)(void);
    void (*cache_reset)(void *cache);
    void (*cache_destroy)(void *cache);
    int (*query_warm)(const void *a, const hd_bench_pose *pose_a, const void *b,
                      const hd_bench_pose *pose_b, void *cache, hd_bench_answer *out);
} hd_bench_method;

/* Each module appends its methods to list (capacity entries) and returns how many it added. */
int hd_bench_hedra_methods(hd_bench_method *list, int capacity);
int hd_bench_ccd_methods(hd_bench_method *list, int capacity);
int hd_bench_bullet_methods(hd_bench_method *list, int capacity);
int hd_bench_fcl_methods(hd_bench_method *list, int capacity);
int hd_bench_glpk_methods(hd_bench_method *list, int capacity);

/* Frees what hedra's methods created lazily (the CD-Dual workspace). */
void hd_bench_hedra_cleanup(void);

/* All methods of the peers compiled in, hedra's first; *notes gets one line per peer saying
 * whether it was found at configure time. */
int hd_bench_all_methods(hd_bench_method *list, int capacity, const char **notes);

#ifdef __cplusplus
}
#endif

#endif
