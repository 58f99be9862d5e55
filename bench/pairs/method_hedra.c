/* hedra's algorithms as benchmark methods, through the public API only: hd_polytope_build once per
 * shape, then hd_collide (algo GJK, CD-Dual or LP) or hd_distance per query, cold (no cache) unless
 * the warm entry point is used with a caller-owned hd_cache. A build or a query that answers
 * HD_ERR_UNSUPPORTED makes the method "unavailable" rather than failing the run. */
#include <stdlib.h>
#include <string.h>

#include "hedra/hedra.h"
#include "peers/peers.h"

typedef struct hd_bench_hedra_shape {
    hd_polytope *poly;
    hd_status status;
} hd_bench_hedra_shape;

/* The benchmark is single-threaded: one workspace for every CD-Dual query, replaced by a bigger one
 * when a pair needs more (hd_workspace_capacity_for). */
static hd_workspace *hd_bench_workspace;

static void *hd_bench_hedra_create(const hd_bench_shape *in)
{
    hd_bench_hedra_shape *s = calloc(1, sizeof *s);
    if (s != NULL) {
        s->status = hd_polytope_build(in->xyz, in->n, NULL, &s->poly);
    }
    return s;
}

static void hd_bench_hedra_destroy(void *handle)
{
    hd_bench_hedra_shape *s = handle;
    if (s != NULL) {
        hd_polytope_destroy(s->poly);
        free(s);
    }
}

static hd_pose hd_bench_hedra_pose(const hd_bench_pose *p)
{
    hd_pose out;
    memcpy(out.r, p->r, sizeof out.r);
    memcpy(out.t, p->t, sizeof out.t);
    return out;
}

static int hd_bench_hedra_status(hd_status st)
{
    return st == HD_OK                ? HD_BENCH_OK
           : st == HD_ERR_UNSUPPORTED ? HD_BENCH_UNSUPPORTED
                                      : HD_BENCH_FAILED;
}

/* distance: hd_distance's, or -1 for hd_collide (the bench's "not computed"). */
static void hd_bench_hedra_answer(hd_verdict verdict, double distance, const hd_stats *stats,
                                  hd_bench_answer *out)
{
    out->verdict = (int)verdict;
    out->distance = distance;
    out->iterations = stats->iterations;
    out->support_calls = stats->support_calls;
    out->visits[0] = stats->visits_fv;
    out->visits[1] = stats->visits_vf;
    out->visits[2] = stats->visits_ee;
}

/* One query of algorithm algo (or hd_distance when distance != 0), with an optional cache. */
static int hd_bench_hedra_run(const void *a, const hd_bench_pose *pa, const void *b,
                              const hd_bench_pose *pb, hd_algo algo, int distance, hd_cache *cache,
                              hd_bench_answer *out)
{
    const hd_bench_hedra_shape *sa = a, *sb = b;
    if (sa->poly == NULL || sb->poly == NULL) {
        return hd_bench_hedra_status(sa->poly == NULL ? sa->status : sb->status);
    }
    hd_pose posa = hd_bench_hedra_pose(pa), posb = hd_bench_hedra_pose(pb);
    hd_options opt = hd_options_default();
    opt.algo = algo;
    opt.cache = cache;
    if (algo == HD_ALGO_CDDUAL) {
        int need;
        if (hd_workspace_capacity_for(sa->poly, sb->poly, NULL, &need) != HD_OK) {
            return HD_BENCH_FAILED;
        }
        if (hd_workspace_capacity(hd_bench_workspace) < need) {
            hd_workspace_destroy(hd_bench_workspace);
            hd_bench_workspace = NULL;
            if (hd_workspace_create(need, &hd_bench_workspace) != HD_OK) {
                return HD_BENCH_FAILED;
            }
        }
        opt.workspace = hd_bench_workspace;
    }
    hd_status st;
    if (distance) {
        hd_distance_result res;
        st = hd_distance(sa->poly, &posa, sb->poly, &posb, &opt, &res);
        hd_bench_hedra_answer(res.verdict, res.distance, &res.stats, out);
    } else {
        hd_collide_result res;
        st = hd_collide(sa->poly, &posa, sb->poly, &posb, &opt, &res);
        hd_bench_hedra_answer(res.verdict, -1.0, &res.stats, out);
    }
    return st == HD_OK ? HD_BENCH_OK : hd_bench_hedra_status(st);
}

static int hd_bench_gjk(const void *a, const hd_bench_pose *pa, const void *b,
                        const hd_bench_pose *pb, hd_bench_answer *out)
{
    return hd_bench_hedra_run(a, pa, b, pb, HD_ALGO_GJK, 0, NULL, out);
}

static int hd_bench_cddual(const void *a, const hd_bench_pose *pa, const void *b,
                           const hd_bench_pose *pb, hd_bench_answer *out)
{
    return hd_bench_hedra_run(a, pa, b, pb, HD_ALGO_CDDUAL, 0, NULL, out);
}

static int hd_bench_lp(const void *a, const hd_bench_pose *pa, const void *b,
                       const hd_bench_pose *pb, hd_bench_answer *out)
{
    return hd_bench_hedra_run(a, pa, b, pb, HD_ALGO_LP, 0, NULL, out);
}

static int hd_bench_dist(const void *a, const hd_bench_pose *pa, const void *b,
                         const hd_bench_pose *pb, hd_bench_answer *out)
{
    return hd_bench_hedra_run(a, pa, b, pb, HD_ALGO_GJK, 1, NULL, out);
}

/* The signed distance (hedra/contact.h): depth and normal when overlapping; flags as for
 * hd_signed_distance (HD_QUERY_DEPTH_SAT for the separating-axis method). */
static int hd_bench_depth_run(const void *a, const hd_bench_pose *pa, const void *b,
                              const hd_bench_pose *pb, unsigned flags, hd_bench_answer *out)
{
    const hd_bench_hedra_shape *sa = a, *sb = b;
    if (sa->poly == NULL || sb->poly == NULL) {
        return hd_bench_hedra_status(sa->poly == NULL ? sa->status : sb->status);
    }
    hd_pose posa = hd_bench_hedra_pose(pa), posb = hd_bench_hedra_pose(pb);
    hd_options opt = hd_options_default();
    opt.flags = flags;
    hd_signed_distance_result c;
    hd_status st = hd_signed_distance(sa->poly, &posa, sb->poly, &posb, &opt, &c);
    if (st != HD_OK) {
        return hd_bench_hedra_status(st);
    }
    memset(out, 0, sizeof *out);
    out->verdict = (int)c.verdict;
    out->distance = c.signed_distance;
    out->depth = -c.signed_distance;
    memcpy(out->normal, c.normal, sizeof out->normal);
    out->iterations = c.stats.iterations + c.stats.refine_steps;
    out->support_calls = c.stats.support_calls;
    return HD_BENCH_OK;
}

static int hd_bench_depth_query(const void *a, const hd_bench_pose *pa, const void *b,
                                const hd_bench_pose *pb, hd_bench_answer *out)
{
    return hd_bench_depth_run(a, pa, b, pb, 0, out);
}

static int hd_bench_depth_sat(const void *a, const hd_bench_pose *pa, const void *b,
                              const hd_bench_pose *pb, hd_bench_answer *out)
{
    return hd_bench_depth_run(a, pa, b, pb, HD_QUERY_DEPTH_SAT, out);
}

/* The same query with the pose gradient (hd_pose_gradient): its cost over hedra_depth. */
static int hd_bench_depth_gradient(const void *a, const hd_bench_pose *pa, const void *b,
                                   const hd_bench_pose *pb, hd_bench_answer *out)
{
    return hd_bench_depth_run(a, pa, b, pb, HD_QUERY_GRADIENT, out);
}

static int hd_bench_gjk_warm(const void *a, const hd_bench_pose *pa, const void *b,
                             const hd_bench_pose *pb, void *cache, hd_bench_answer *out)
{
    return hd_bench_hedra_run(a, pa, b, pb, HD_ALGO_GJK, 0, cache, out);
}

static int hd_bench_cddual_warm(const void *a, const hd_bench_pose *pa, const void *b,
                                const hd_bench_pose *pb, void *cache, hd_bench_answer *out)
{
    return hd_bench_hedra_run(a, pa, b, pb, HD_ALGO_CDDUAL, 0, cache, out);
}

static void *hd_bench_cache_create(void)
{
    hd_cache *c = malloc(sizeof *c);
    if (c != NULL) {
        hd_cache_reset(c);
    }
    return c;
}

static void hd_bench_cache_reset(void *cache)
{
    hd_cache_reset(cache);
}

static void hd_bench_cache_destroy(void *cache)
{
    free(cache);
}

void hd_bench_hedra_cleanup(void)
{
    hd_workspace_destroy(hd_bench_workspace);
    hd_bench_workspace = NULL;
}

int hd_bench_hedra_methods(hd_bench_method *list, int capacity)
{
    static const struct {
        const char *name;
        hd_bench_kind kind;
        int (*query)(const void *, const hd_bench_pose *, const void *, const hd_bench_pose *,
                     hd_bench_answer *);
        int (*warm)(const void *, const hd_bench_pose *, const void *, const hd_bench_pose *,
                    void *, hd_bench_answer *);
    } table[] = {
        {"hedra_gjk", HD_BENCH_BOOLEAN, hd_bench_gjk, hd_bench_gjk_warm},
        {"hedra_cddual", HD_BENCH_BOOLEAN, hd_bench_cddual, hd_bench_cddual_warm},
        {"hedra_lp", HD_BENCH_BOOLEAN, hd_bench_lp, NULL},
        {"hedra_dist", HD_BENCH_DISTANCE, hd_bench_dist, NULL},
        {"hedra_depth", HD_BENCH_DEPTH, hd_bench_depth_query, NULL},
        {"hedra_depth_sat", HD_BENCH_DEPTH, hd_bench_depth_sat, NULL},
        {"hedra_depth_grad", HD_BENCH_DEPTH, hd_bench_depth_gradient, NULL},
    };
    int count = (int)(sizeof table / sizeof table[0]);
    if (capacity < count) {
        return 0;
    }
    for (int i = 0; i < count; ++i) {
        memset(&list[i], 0, sizeof list[i]);
        list[i].name = table[i].name;
        list[i].library = "hedra " HD_VERSION_STRING;
        list[i].kind = table[i].kind;
        list[i].create = hd_bench_hedra_create;
        list[i].destroy = hd_bench_hedra_destroy;
        list[i].query = table[i].query;
        if (table[i].warm != NULL) {
            list[i].cache_create = hd_bench_cache_create;
            list[i].cache_reset = hd_bench_cache_reset;
            list[i].cache_destroy = hd_bench_cache_destroy;
            list[i].query_warm = table[i].warm;
        }
    }
    return count;
}
