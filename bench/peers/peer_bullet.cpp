// Bullet peer: btGjkPairDetector on btConvexHullShape (collision margin set to 0, so that the
// shape is exactly the hull of its points), the way Bullet's narrow-phase uses it:
// a btVoronoiSimplexSolver, a ClosestPointInput with both world transforms, and a btPointCollector
// receiving the result (distance, negative when penetrating).
//  - "bullet" (boolean): no penetration-depth solver. btGjkPairDetector then reports a result only
//    when its GJK converged on a separating distance; no result means the simplex enclosed the
//    origin, i.e. the shapes overlap. This is the cheapest boolean Bullet's GJK gives.
//  - "bullet_dist" (distance): with btGjkEpaPenetrationDepthSolver, as in Bullet's convex-convex
//    algorithm: distance when separated, minus the penetration depth when overlapping.
//  - "bullet_pen" (depth): btGjkEpaSolver2::Penetration, Bullet's GJK + EPA, on the same shapes
//    (margins off); its result's distance is minus the depth and its normal points from B to A
//    (checked on boxes overlapping along x), so it is negated here.
// Built against the double-precision library when bullet-float64.pc exists (BT_USE_DOUBLE_PRECISION).
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpa2.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpaPenetrationDepthSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkPairDetector.h>
#include <BulletCollision/NarrowPhaseCollision/btPointCollector.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>

#include <cstring>

#include "peers/peers.h"

namespace {

void *bullet_create(const hd_bench_shape *in)
{
    btConvexHullShape *shape = nullptr;
    try {
        shape = new btConvexHullShape();
    } catch (...) {
        return nullptr;
    }
    for (int i = 0; i < in->n; ++i) {
        const double *p = in->xyz + 3 * i;
        shape->addPoint(btVector3(btScalar(p[0]), btScalar(p[1]), btScalar(p[2])), false);
    }
    shape->recalcLocalAabb();
    shape->setMargin(btScalar(0));
    return shape;
}

void bullet_destroy(void *handle)
{
    delete static_cast<btConvexHullShape *>(handle);
}

btTransform bullet_transform(const hd_bench_pose *p)
{
    btMatrix3x3 basis(btScalar(p->r[0]), btScalar(p->r[1]), btScalar(p->r[2]),
                      btScalar(p->r[3]), btScalar(p->r[4]), btScalar(p->r[5]),
                      btScalar(p->r[6]), btScalar(p->r[7]), btScalar(p->r[8]));
    return btTransform(basis, btVector3(btScalar(p->t[0]), btScalar(p->t[1]), btScalar(p->t[2])));
}

int bullet_run(const void *a, const hd_bench_pose *pa, const void *b, const hd_bench_pose *pb,
               bool with_depth, hd_bench_answer *out)
{
    const btConvexHullShape *sa = static_cast<const btConvexHullShape *>(a);
    const btConvexHullShape *sb = static_cast<const btConvexHullShape *>(b);
    btVoronoiSimplexSolver simplex;
    btGjkEpaPenetrationDepthSolver epa;
    btGjkPairDetector detector(sa, sb, &simplex, with_depth ? &epa : nullptr);
    btGjkPairDetector::ClosestPointInput input;
    input.m_transformA = bullet_transform(pa);
    input.m_transformB = bullet_transform(pb);
    btPointCollector result;
    detector.getClosestPoints(input, result, nullptr);
    std::memset(out, 0, sizeof *out);
    out->iterations = detector.m_curIter;
    out->support_calls = -1;
    if (!result.m_hasResult) {
        if (with_depth) {
            return HD_BENCH_FAILED; // EPA gave nothing: no answer
        }
        out->verdict = 2;
        out->distance = -1.0;
        return HD_BENCH_OK;
    }
    out->distance = double(result.m_distance);
    out->verdict = result.m_distance > 0 ? 0 : 2;
    return HD_BENCH_OK;
}

int bullet_bool(const void *a, const hd_bench_pose *pa, const void *b, const hd_bench_pose *pb,
                hd_bench_answer *out)
{
    return bullet_run(a, pa, b, pb, false, out);
}

int bullet_dist(const void *a, const hd_bench_pose *pa, const void *b, const hd_bench_pose *pb,
                hd_bench_answer *out)
{
    return bullet_run(a, pa, b, pb, true, out);
}

int bullet_pen(const void *a, const hd_bench_pose *pa, const void *b, const hd_bench_pose *pb,
               hd_bench_answer *out)
{
    const btConvexHullShape *sa = static_cast<const btConvexHullShape *>(a);
    const btConvexHullShape *sb = static_cast<const btConvexHullShape *>(b);
    btGjkEpaSolver2::sResults results;
    btTransform ta = bullet_transform(pa), tb = bullet_transform(pb);
    btVector3 guess = tb.getOrigin() - ta.getOrigin();
    bool hit = btGjkEpaSolver2::Penetration(sa, ta, sb, tb, guess, results, false);
    std::memset(out, 0, sizeof *out);
    out->iterations = out->support_calls = -1;
    out->distance = -1.0;
    if (!hit) {
        if (results.status == btGjkEpaSolver2::sResults::EPA_Failed) {
            return HD_BENCH_FAILED;
        }
        out->verdict = 0;
        return HD_BENCH_OK;
    }
    out->verdict = 2;
    out->depth = -double(results.distance);
    for (int k = 0; k < 3; ++k) {
        out->normal[k] = -double(results.normal[k]);
    }
    return HD_BENCH_OK;
}

} // namespace

extern "C" int hd_bench_bullet_methods(hd_bench_method *list, int capacity)
{
    if (capacity < 3) {
        return 0;
    }
    std::memset(list, 0, 3 * sizeof *list);
#ifdef BT_USE_DOUBLE_PRECISION
    const char *lib = "Bullet " HD_BENCH_BULLET_VERSION " (double)";
#else
    const char *lib = "Bullet " HD_BENCH_BULLET_VERSION " (float)";
#endif
    list[0].name = "bullet";
    list[0].library = lib;
    list[0].kind = HD_BENCH_BOOLEAN;
    list[0].create = bullet_create;
    list[0].destroy = bullet_destroy;
    list[0].query = bullet_bool;
    list[1] = list[0];
    list[1].name = "bullet_dist";
    list[1].kind = HD_BENCH_DISTANCE;
    list[1].query = bullet_dist;
    list[2] = list[0];
    list[2].name = "bullet_pen";
    list[2].kind = HD_BENCH_DEPTH;
    list[2].query = bullet_pen;
    return 3;
}
