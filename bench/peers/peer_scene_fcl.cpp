// Scene peer: FCL's DynamicAABBTreeCollisionManager (its dynamic AABB tree) over
// CollisionObjects of fcl::Convex shapes built from the hull's vertices and triangles, shared by
// the bodies. Each frame the moved objects get their transform and AABB and are passed to
// update(moved objects); collide() then runs the manager's self-collision with a callback that
// calls fcl::collide (default request: GJK of libccd, one contact, no contact data) on every pair
// whose boxes overlap and counts the colliding ones. FCL keeps no pairs from frame to frame.
#include <fcl/broadphase/broadphase_dynamic_AABB_tree.h>
#include <fcl/geometry/shape/convex.h>
#include <fcl/narrowphase/collision.h>

#include <chrono>
#include <cstring>
#include <memory>
#include <vector>

#include "peers/scene_moves.hpp"
#include "peers/scene_peers.h"

namespace {

long long now_ns()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

fcl::Transform3d to_fcl(const hd_bench_pose *p)
{
    fcl::Transform3d tf = fcl::Transform3d::Identity();
    fcl::Matrix3d r;
    r << p->r[0], p->r[1], p->r[2], p->r[3], p->r[4], p->r[5], p->r[6], p->r[7], p->r[8];
    tf.linear() = r;
    tf.translation() = fcl::Vector3d(p->t[0], p->t[1], p->t[2]);
    return tf;
}

std::shared_ptr<fcl::CollisionGeometryd> make_convex(const hd_bench_shape *in)
{
    auto verts = std::make_shared<std::vector<fcl::Vector3d>>();
    for (int i = 0; i < in->n; ++i) {
        verts->emplace_back(in->xyz[3 * i], in->xyz[3 * i + 1], in->xyz[3 * i + 2]);
    }
    auto faces = std::make_shared<std::vector<int>>();
    for (int f = 0; f < in->ntris; ++f) {
        faces->push_back(3);
        for (int k = 0; k < 3; ++k) {
            faces->push_back(in->tris[3 * f + k]);
        }
    }
    auto shape = std::make_shared<fcl::Convexd>(verts, in->ntris, faces);
    shape->computeLocalAABB();
    return shape;
}

struct World {
    std::vector<std::shared_ptr<fcl::CollisionGeometryd>> shapes;
    std::vector<std::unique_ptr<fcl::CollisionObjectd>> objects;
    fcl::DynamicAABBTreeCollisionManagerd manager;
    // the prepared frame's moves
    SceneMoves<fcl::CollisionObjectd, fcl::Transform3d, Eigen::aligned_allocator<fcl::Transform3d>>
        moves;
};

void *create(const hd_sp_input *in)
{
    World *w = nullptr;
    try {
        w = new World();
        for (int s = 0; s < in->shape_count; ++s) {
            w->shapes.push_back(make_convex(&in->shapes[s]));
        }
        std::vector<fcl::CollisionObjectd *> all;
        for (int b = 0; b < in->body_count; ++b) {
            std::unique_ptr<fcl::CollisionObjectd> obj(
                new fcl::CollisionObjectd(w->shapes[in->body_shape[b]], to_fcl(&in->poses[b])));
            obj->computeAABB();
            all.push_back(obj.get());
            w->objects.push_back(std::move(obj));
        }
        w->manager.registerObjects(all);
        w->manager.setup();
    } catch (...) {
        delete w;
        return nullptr;
    }
    return w;
}

bool count_pair(fcl::CollisionObjectd *o1, fcl::CollisionObjectd *o2, void *data)
{
    fcl::CollisionRequestd request;
    fcl::CollisionResultd result;
    fcl::collide(o1, o2, request, result);
    if (result.isCollision()) {
        ++*static_cast<int *>(data);
    }
    return false; // never stop early
}

int prepare(void *world, int count, const int *bodies, const hd_bench_pose *poses)
{
    World *w = static_cast<World *>(world);
    return w->moves.prepare(w->objects, count, bodies, poses, to_fcl);
}

int frame(void *world, hd_sp_frame *out)
{
    World *w = static_cast<World *>(world);
    long long t0 = now_ns();
    try {
        for (std::size_t i = 0; i < w->moves.objects.size(); ++i) {
            w->moves.objects[i]->setTransform(w->moves.poses[i]);
            w->moves.objects[i]->computeAABB();
        }
        if (!w->moves.objects.empty()) {
            w->manager.update(w->moves.objects);
        }
    } catch (...) {
        return -1;
    }
    long long t1 = now_ns();
    int contacts = 0;
    w->manager.collide(&contacts, count_pair);
    long long t2 = now_ns();
    out->update_ns = t1 - t0;
    out->broad_ns = -1; // pair finding and the pair tests are one traversal
    out->narrow_ns = t2 - t1;
    out->contacts = contacts;
    return 0;
}

void destroy(void *world)
{
    delete static_cast<World *>(world);
}

} // namespace

extern "C" int hd_sp_fcl_methods(hd_sp_method *list, int capacity)
{
    if (capacity < 1) {
        return 0;
    }
    std::memset(list, 0, sizeof *list);
    list->name = "fcl";
    list->library = "FCL " HD_BENCH_FCL_VERSION;
    list->create = create;
    list->prepare = prepare;
    list->frame = frame;
    list->destroy = destroy;
    return 1;
}
