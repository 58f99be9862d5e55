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

#include "peers/peers.h"

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

// Signed distance (depth experiment): fcl::distance with enable_signed_distance and nearest points;
// when the shapes penetrate, min_distance is minus the depth and the nearest points are the
// deepest points, nearest_points[0] on A: B moves along p0 - p1 to separate.
int fcl_signed(const void *a, const hd_bench_pose *pa, const void *b, const hd_bench_pose *pb,
               hd_bench_answer *out)
{
    const auto *ga = static_cast<const fcl::Convexd *>(a);
    const auto *gb = static_cast<const fcl::Convexd *>(b);
    fcl::DistanceRequestd request(true, true);
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
    out->depth = d < 0 ? -d : 0.0;
    fcl::Vector3d n = result.nearest_points[0] - result.nearest_points[1];
    if (d < 0 && n.norm() > 0) {
        n.normalize();
        for (int k = 0; k < 3; ++k) {
            out->normal[k] = n[k];
        }
    }
    return HD_BENCH_OK;
}

// Penetration from the collision query with contacts (fcl::collide, enable_contact, one contact):
// the contact's penetration_depth and its normal, which points from A to B.
int fcl_contact(const void *a, const hd_bench_pose *pa, const void *b, const hd_bench_pose *pb,
                hd_bench_answer *out)
{
    const auto *ga = static_cast<const fcl::Convexd *>(a);
    const auto *gb = static_cast<const fcl::Convexd *>(b);
    fcl::CollisionRequestd request(1, true);
    fcl::CollisionResultd result;
    try {
        fcl::collide(ga, fcl_transform(pa), gb, fcl_transform(pb), request, result);
    } catch (...) {
        return HD_BENCH_FAILED;
    }
    std::memset(out, 0, sizeof *out);
    out->distance = -1.0;
    out->iterations = out->support_calls = -1;
    out->verdict = result.isCollision() ? 2 : 0;
    if (result.numContacts() > 0) {
        const fcl::Contactd &c = result.getContact(0);
        out->depth = c.penetration_depth;
        for (int k = 0; k < 3; ++k) {
            out->normal[k] = c.normal[k];
        }
    }
    return HD_BENCH_OK;
}

} // namespace

extern "C" int hd_bench_fcl_methods(hd_bench_method *list, int capacity)
{
    if (capacity < 4) {
        return 0;
    }
    std::memset(list, 0, 4 * sizeof *list);
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
    list[2] = list[0];
    list[2].name = "fcl_signed";
    list[2].kind = HD_BENCH_DEPTH;
    list[2].query = fcl_signed;
    list[3] = list[2];
    list[3].name = "fcl_contact";
    list[3].query = fcl_contact;
    return 4;
}
