// Rays against a scene (issue #42): 10 000 bodies (32 random hulls of 8 to 100 points on
// ellipsoids of semi-axes up to 2, random orientations, uniform in a cube of side 120; about 1 %
// of the volume filled), static. Nearest hit of rays from a random point of the cube in a random
// direction, length 120 (origins outside every body): hedra hd_scene_raycast (tree broad phase, one
// step run before the rays) against Bullet's btCollisionWorld::rayTest with
// ClosestRayResultCallback (btDbvtBroadphase, btConvexHullShape with margin 0), once with its
// default btSubsimplexConvexCast and once with kF_UseGjkConvexCastRaytest.
//
// Reference: brute force, hd_ray_cast (an exact LP on each body's face planes) on every body, no
// broad phase; each method's body and t compared with it (t error relative to the ray's length).
//
// usage: hedra_bench_rays [--bodies N] [--rays R] [--passes P] [--seed S] [--profile]
//        [--instructions FILE]
#include "features/common.hpp"

#include <BulletCollision/NarrowPhaseCollision/btRaycastCallback.h>

using namespace feat;

namespace
{

const double kSide = 120.0;

struct Ray {
    double o[3], d[3];
    int ref_id = -1;
    double ref_t = 0.0;
};

struct Scene {
    std::vector<std::unique_ptr<Hull>> shapes;
    std::vector<int> shape_of;
    std::vector<hd_pose> poses;
    hd_scene *hedra = nullptr;
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btCollisionWorld world{&dispatcher, &broadphase, &config};
    std::vector<std::unique_ptr<btCollisionObject>> objects;

    ~Scene()
    {
        for (auto &o : objects) {
            world.removeCollisionObject(o.get());
        }
        hd_scene_destroy(hedra);
    }
};

void build(Scene *s, int bodies, hd_wl_rng *rng)
{
    for (int k = 0; k < 32; ++k) {
        int n = 8 + hd_wl_rng_int(rng, 93);
        hd_wl_shape shape{0.5 + 1.5 * hd_wl_rng_uniform(rng), 0.5 + 1.5 * hd_wl_rng_uniform(rng),
                          0.5 + 1.5 * hd_wl_rng_uniform(rng)};
        s->shapes.emplace_back(new Hull(rng, n, shape));
    }
    hd_scene_options opt = hd_scene_options_default();
    opt.threads = 1;
    if (hd_scene_create(&opt, &s->hedra) != HD_OK) {
        std::exit(1);
    }
    for (int i = 0; i < bodies; ++i) {
        double r[9], t[3];
        hd_wl_random_rotation(rng, r);
        for (double &x : t) {
            x = kSide * (hd_wl_rng_uniform(rng) - 0.5);
        }
        int k = hd_wl_rng_int(rng, 32);
        hd_pose pose = make_pose(r, t);
        int id;
        if (hd_scene_add(s->hedra, s->shapes[static_cast<size_t>(k)]->poly, &pose, nullptr, &id) !=
                HD_OK ||
            id != i) {
            std::fprintf(stderr, "rays: hd_scene_add failed\n");
            std::exit(1);
        }
        s->shape_of.push_back(k);
        s->poses.push_back(pose);
        auto *o = new btCollisionObject();
        o->setCollisionShape(s->shapes[static_cast<size_t>(k)]->bullet());
        o->setWorldTransform(to_bullet(pose));
        o->setUserIndex(i);
        s->world.addCollisionObject(o);
        s->objects.emplace_back(o);
    }
    const hd_scene_contact *contacts;
    int count;
    if (hd_scene_step(s->hedra, &contacts, &count, nullptr) != HD_OK) {
        std::exit(1);
    }
    s->world.updateAabbs();
}

void reference(const Scene &s, Ray *ray)
{
    ray->ref_id = -1;
    ray->ref_t = HUGE_VAL;
    for (size_t i = 0; i < s.poses.size(); ++i) {
        hd_ray_result r;
        if (hd_ray_cast(s.shapes[static_cast<size_t>(s.shape_of[i])]->poly, &s.poses[i], ray->o,
                        ray->d, kSide, nullptr, &r) == HD_OK &&
            r.hit && r.t < ray->ref_t) {
            ray->ref_t = r.t;
            ray->ref_id = static_cast<int>(i);
        }
    }
}

struct Answer {
    int id = -1;
    double t = 0.0;
};

Answer run_hedra(Scene &s, const Ray &ray)
{
    hd_scene_ray_hit hit;
    int count = 0;
    Answer a;
    if (hd_scene_raycast(s.hedra, ray.o, ray.d, kSide, false, &hit, 1, &count) == HD_OK &&
        count > 0) {
        a.id = hit.id;
        a.t = hit.ray.t;
    }
    return a;
}

template <unsigned flags> Answer run_bullet(Scene &s, const Ray &ray)
{
    btVector3 from(ray.o[0], ray.o[1], ray.o[2]);
    btVector3 to(ray.o[0] + kSide * ray.d[0], ray.o[1] + kSide * ray.d[1],
                 ray.o[2] + kSide * ray.d[2]);
    btCollisionWorld::ClosestRayResultCallback cb(from, to);
    cb.m_flags = flags;
    s.world.rayTest(from, to, cb);
    Answer a;
    if (cb.hasHit()) {
        a.id = cb.m_collisionObject->getUserIndex();
        a.t = cb.m_closestHitFraction * kSide;
    }
    return a;
}

struct Method {
    const char *name;
    Answer (*run)(Scene &, const Ray &);
};

const Method kMethods[] = {
    {"hedra hd_scene_raycast", run_hedra},
    {"Bullet rayTest (btSubsimplexConvexCast, default)", run_bullet<0u>},
    {"Bullet rayTest (kF_UseGjkConvexCastRaytest)",
     run_bullet<btTriangleRaycastCallback::kF_UseGjkConvexCastRaytest>},
};
const int kMethodCount = sizeof kMethods / sizeof kMethods[0];

struct Tally {
    std::vector<double> ns, err;
    int wrong_body = 0, misses = 0, false_hits = 0;
};

void score(const Ray &ray, const Answer &a, Tally *t)
{
    if (ray.ref_id < 0) {
        t->false_hits += a.id >= 0;
        return;
    }
    if (a.id < 0) {
        ++t->misses;
        return;
    }
    // another body at the same t (touching bodies) is no error; a farther one is
    if (a.id != ray.ref_id && std::fabs(a.t - ray.ref_t) > 1e-9 * kSide) {
        ++t->wrong_body;
    }
    t->err.push_back(std::fabs(a.t - ray.ref_t) / kSide);
}

} // namespace

int main(int argc, char **argv)
{
    int bodies = static_cast<int>(opt_int(argc, argv, "--bodies", 10000));
    int count = static_cast<int>(opt_int(argc, argv, "--rays", 1000));
    int passes = static_cast<int>(opt_int(argc, argv, "--passes", 3));
    unsigned long long seed = static_cast<unsigned long long>(opt_int(argc, argv, "--seed", 44));
    bool profiling = opt_flag(argc, argv, "--profile");
    hd_wl_rng rng;
    hd_wl_rng_init(&rng, hd_wl_seed(seed, 5, 0, 0));
    Scene scene;
    build(&scene, bodies, &rng);
    // origins outside every body (Bullet does not report the body a ray starts in), found by
    // the scene's own ray (t = 0: inside), so that the profile run sees the same rays
    std::vector<Ray> rays(static_cast<size_t>(count));
    for (Ray &r : rays) {
        Answer a;
        do {
            for (double &x : r.o) {
                x = kSide * (hd_wl_rng_uniform(&rng) - 0.5);
            }
            hd_wl_rng_unit(&rng, r.d);
            a = run_hedra(scene, r);
        } while (a.id >= 0 && a.t == 0.0);
    }
    if (profiling) {
        for (const Method &m : kMethods) {
            profile(m.name, count, [&](int i) {
                Answer a = m.run(scene, rays[static_cast<size_t>(i)]);
                (void)a;
            });
        }
        return 0;
    }
    print_host("hedra_bench_rays", seed);
    int ref_hits = 0, inside = 0;
    for (Ray &r : rays) {
        reference(scene, &r);
        ref_hits += r.ref_id >= 0;
        inside += r.ref_id >= 0 && r.ref_t == 0.0;
    }
    Tally tally[kMethodCount];
    for (int pass = 0; pass < passes; ++pass) {
        for (int item : shuffled(count * kMethodCount, &rng)) {
            int k = item % kMethodCount;
            const Ray &ray = rays[static_cast<size_t>(item / kMethodCount)];
            long long t0 = now_ns();
            Answer a = kMethods[k].run(scene, ray);
            long long t1 = now_ns();
            tally[k].ns.push_back(static_cast<double>(t1 - t0));
            if (pass == 0) {
                score(ray, a, &tally[k]);
            }
        }
    }
    std::printf("%d bodies, %d rays of length %g (%d hit a body by the brute-force reference, %d "
                "start inside one), %d passes.\n\n",
                bodies, count, kSide, ref_hits, inside, passes);
    std::printf("### Nearest hit per ray\n\n| method | median time | instructions | ratio | misses "
                "| false hits | wrong body "
                "| t error / "
                "length, median / max |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
    Instructions ins;
    ins.load(opt_str(argc, argv, "--instructions"));
    double h = median(tally[0].ns);
    for (int k = 0; k < kMethodCount; ++k) {
        const Tally &t = tally[k];
        double ns = median(t.ns);
        std::printf("| %s | %s | %s | %.2f | %d | %d | %d | %.2g / %.2g |\n", kMethods[k].name,
                    fmt_ns(ns).c_str(), ins.get(kMethods[k].name).c_str(), ns / h, t.misses,
                    t.false_hits, t.wrong_body, median(t.err), max_of(t.err));
    }
    const Tally &t = tally[0]; // hedra against the brute force: the exit status for ctest
    return t.misses + t.false_hits + t.wrong_body ? 1 : 0;
}
