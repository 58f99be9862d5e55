// Scene peer: Bullet's btCollisionWorld with btDbvtBroadphase (its dynamic AABB tree) and one
// btConvexHullShape per shape (collision margin 0, so that the shape is exactly the hull of its
// points), shared by the bodies; the default collision configuration (btConvexConvexAlgorithm:
// GJK, EPA and a persistent contact manifold per pair). Its best configuration for this workload:
// after frame 0 the bodies that never move are put to sleep (ISLAND_SLEEPING) and AABBs are
// updated for active bodies only, so that Bullet, like hedra, neither recomputes their boxes nor
// re-tests pairs of two resting bodies (btCollisionDispatcher::needsCollision).
#include <btBulletCollisionCommon.h>

#include <chrono>
#include <cstring>
#include <memory>
#include <new>
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

btTransform to_bullet(const hd_bench_pose *p)
{
    btMatrix3x3 basis(btScalar(p->r[0]), btScalar(p->r[1]), btScalar(p->r[2]),
                      btScalar(p->r[3]), btScalar(p->r[4]), btScalar(p->r[5]),
                      btScalar(p->r[6]), btScalar(p->r[7]), btScalar(p->r[8]));
    return btTransform(basis, btVector3(btScalar(p->t[0]), btScalar(p->t[1]), btScalar(p->t[2])));
}

struct World {
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btCollisionWorld world{&dispatcher, &broadphase, &config};
    std::vector<std::unique_ptr<btConvexHullShape>> shapes;
    std::vector<std::unique_ptr<btCollisionObject>> objects;
    bool asleep = false; // the resting bodies were put to sleep
    SceneMoves<btCollisionObject, btTransform> moves; // the prepared frame's moves

    ~World()
    {
        for (auto &o : objects) {
            world.removeCollisionObject(o.get());
        }
    }
};

void *create(const hd_sp_input *in)
{
    World *w = nullptr;
    try {
        w = new World();
        for (int s = 0; s < in->shape_count; ++s) {
            std::unique_ptr<btConvexHullShape> shape(new btConvexHullShape());
            for (int i = 0; i < in->shapes[s].n; ++i) {
                const double *p = in->shapes[s].xyz + 3 * i;
                shape->addPoint(btVector3(btScalar(p[0]), btScalar(p[1]), btScalar(p[2])), false);
            }
            shape->recalcLocalAabb();
            shape->setMargin(btScalar(0));
            w->shapes.push_back(std::move(shape));
        }
        for (int b = 0; b < in->body_count; ++b) {
            std::unique_ptr<btCollisionObject> obj(new btCollisionObject());
            obj->setCollisionShape(w->shapes[in->body_shape[b]].get());
            obj->setWorldTransform(to_bullet(&in->poses[b]));
            w->world.addCollisionObject(obj.get());
            w->objects.push_back(std::move(obj));
        }
    } catch (...) {
        delete w;
        return nullptr;
    }
    return w;
}

// The first frame with moves names the moving bodies: the others sleep from then on.
void put_to_sleep(World *w, int count, const int *bodies)
{
    for (auto &o : w->objects) {
        o->setActivationState(ISLAND_SLEEPING);
    }
    for (int i = 0; i < count; ++i) {
        w->objects[bodies[i]]->setActivationState(DISABLE_DEACTIVATION);
    }
    w->world.setForceUpdateAllAabbs(false);
    w->asleep = true;
}

int count_contacts(World *w)
{
    int contacts = 0;
    for (int m = 0; m < w->dispatcher.getNumManifolds(); ++m) {
        const btPersistentManifold *pm = w->dispatcher.getManifoldByIndexInternal(m);
        for (int k = 0; k < pm->getNumContacts(); ++k) {
            if (pm->getContactPoint(k).getDistance() <= 0) {
                ++contacts;
                break;
            }
        }
    }
    return contacts;
}

int prepare(void *world, int count, const int *bodies, const hd_bench_pose *poses)
{
    World *w = static_cast<World *>(world);
    if (count > 0 && !w->asleep) {
        put_to_sleep(w, count, bodies);
    }
    return w->moves.prepare(w->objects, count, bodies, poses, to_bullet);
}

int frame(void *world, hd_sp_frame *out)
{
    World *w = static_cast<World *>(world);
    long long t0 = now_ns();
    for (std::size_t i = 0; i < w->moves.objects.size(); ++i) {
        w->moves.objects[i]->setWorldTransform(w->moves.poses[i]);
    }
    w->world.updateAabbs();
    long long t1 = now_ns();
    w->world.computeOverlappingPairs();
    long long t2 = now_ns();
    w->dispatcher.dispatchAllCollisionPairs(w->broadphase.getOverlappingPairCache(),
                                            w->world.getDispatchInfo(), &w->dispatcher);
    long long t3 = now_ns();
    out->update_ns = t1 - t0;
    out->broad_ns = t2 - t1;
    out->narrow_ns = t3 - t2;
    out->contacts = count_contacts(w);
    return 0;
}

void destroy(void *world)
{
    delete static_cast<World *>(world);
}

} // namespace

extern "C" int hd_sp_bullet_methods(hd_sp_method *list, int capacity)
{
    if (capacity < 1) {
        return 0;
    }
    std::memset(list, 0, sizeof *list);
#ifdef BT_USE_DOUBLE_PRECISION
    list->library = "Bullet " HD_BENCH_BULLET_VERSION " (double)";
#else
    list->library = "Bullet " HD_BENCH_BULLET_VERSION " (float)";
#endif
    list->name = "bullet";
    list->create = create;
    list->prepare = prepare;
    list->frame = frame;
    list->destroy = destroy;
    return 1;
}
