// FCL peer: fcl::Convex<double> built from the hull's vertices and triangles, queried with
// fcl::collide and fcl::distance on (geometry, transform) pairs as FCL's documentation shows,
// with default requests (GJK solver GST_LIBCCD; one contact; no nearest points; unsigned distance,
// which FCL reports as -1 when the shapes collide).
#include <fcl/geometry/shape/convex.h>
#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/distance.h>

#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "peers.h"

namespace {

void *fcl_create(const hd_bench_shape *in)
{
    try {
        auto verts = std::make_shared<std::vector<fcl::Vector3d>>();
        verts->reserve(static_cast<size_t>(in->n));
        for (int i = 0; i < in->n; ++i) {
            const double *p = in->xyz + 3 * i;
            verts->emplace_back(p[0], p[1], p[2]);
        }
        auto faces = std::make_shared<std::vector<int>>();
        faces->reserve(4 * static_cast<size_t>(in->ntris));
        for (int f = 0; f < in->ntris; ++f) {
            faces->push_back(3);
            for (int k = 0; k < 3; ++k) {
                faces->push_back(in->tris[3 * f + k]);
            }
        }
        auto *shape = new fcl::Convexd(verts, in->ntris, faces);
        shape->computeLocalAABB();
        return shape;
    } catch (...) {
        return nullptr;
    }
}

void fcl_destroy(void *handle)
{
    delete static_cast<fcl::Convexd *>(handle);
}

fcl::Transform3d fcl_transform(const hd_bench_pose *p)
{
    fcl::Transform3d tf = fcl::Transform3d::Identity();
    fcl::Matrix3d r;
    r << p->r[0], p->r[1], p->r[2], p->r[3], p->r[4], p->r[5], p->r[6], p->r[7], p->r[8];
    tf.linear() = r;
    tf.translation() = fcl::Vector3d(p->t[0], p->t[1], p->t[2]);
    return tf;
}

int fcl_bool(const void *a, const hd_bench_pose *pa, const void *b, const hd_bench_pose *pb,
             hd_bench_answer *out)
{
    const auto *ga = static_cast<const fcl::Convexd *>(a);
    const auto *gb = static_cast<const fcl::Convexd *>(b);
    fcl::CollisionRequestd request;
    fcl::CollisionResultd result;
    try {
        fcl::collide(ga, fcl_transform(pa), gb, fcl_transform(pb), request, result);
    } catch (...) {
        return HD_BENCH_FAILED;
    }
    std::memset(out, 0, sizeof *out);
    out->verdict = result.isCollision() ? 2 : 0;
    out->distance = -1.0;
    out->iterations = out->support_calls = -1;
    return HD_BENCH_OK;
}

int fcl_dist(const void *a, const hd_bench_pose *pa, const void *b, const hd_bench_pose *pb,
             hd_bench_answer *out)
{
    const auto *ga = static_cast<const fcl::Convexd *>(a);
    const auto *gb = static_cast<const fcl::Convexd *>(b);
    fcl::DistanceRequestd request;
    fcl::DistanceResultd result;
    double d;
    try {
        d = fcl::distance(ga, fcl_transform(pa), gb, fcl_transform(pb), request, result);
    } catch (...) {
        return HD_BENCH_FAILED;
    }
    std::memset(out, 0, sizeof *out);
    out->distance = d;
    out->verdict = d > 0 ? 0 : 2;
    out->iterations = out->support_calls = -1;
    return HD_BENCH_OK;
}

} // namespace

extern "C" int hd_bench_fcl_methods(hd_bench_method *list, int capacity)
{
    if (capacity < 2) {
        return 0;
    }
    std::memset(list, 0, 2 * sizeof *list);
    list[0].name = "fcl";
    list[0].library = "FCL " HD_BENCH_FCL_VERSION;
    list[0].kind = HD_BENCH_BOOLEAN;
    list[0].create = fcl_create;
    list[0].destroy = fcl_destroy;
    list[0].query = fcl_bool;
    list[1] = list[0];
    list[1].name = "fcl_dist";
    list[1].kind = HD_BENCH_DISTANCE;
    list[1].query = fcl_dist;
    return 2;
}
