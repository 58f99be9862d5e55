// A compound scene (issue #41): 1000 bodies of 8 convex pieces each (16 body shapes; a piece is
// the hull of 12 random points on an ellipsoid of semi-axes 0.3 to 0.8, placed by a random
// rotation and an offset in [-1, 1]^3), uniform in a cube of side 48, every body moved by a small
// random step and turn every frame; 5 warm-up frames, then timed frames.
//
// hedra (the library has no compound scene): per frame, each body's world box from
// hd_compound_bounds and its pose, a sort-and-sweep on x over the boxes (this file), and
// hd_compound_collide on every pair of overlapping boxes; times for the boxes and sweep, the
// narrow phase and their sum. Bullet: btCollisionWorld with btDbvtBroadphase, one btCompoundShape
// per body shape with btConvexHullShape children (margin 0), setWorldTransform for every body and
// performDiscreteCollisionDetection per frame (AABBs, broad phase, btCompoundCompoundCollision-
// Algorithm, persistent manifolds).
//
// The pairs in contact are compared: hedra's are certified (each carries its pair's certificate);
// Bullet's are the body pairs with a manifold point at distance < 0. A disagreement is counted
// as Bullet's miss or extra pair, with the hedra pair's signed distance to tell whether it lies in
// Bullet's contact threshold.
//
// usage: hedra_bench_compound [--bodies N] [--frames F] [--seed S] [--profile]
//                             [--instructions FILE]
#include "features/common.hpp"

#include <set>
#include <utility>

using namespace feat;

namespace
{

const int kPieces = 8, kShapes = 16, kWarmup = 5;
const double kSide = 48.0;

struct BodyShape {
    std::vector<std::unique_ptr<Hull>> pieces;
    std::vector<hd_pose> poses;
    hd_compound *compound = nullptr;
    std::unique_ptr<btCompoundShape> bullet;
    double lo[3], hi[3];

    ~BodyShape()
    {
        hd_compound_destroy(compound);
    }
};

void build_shape(BodyShape *s, hd_wl_rng *rng)
{
    std::vector<const hd_polytope *> polys;
    s->bullet.reset(new btCompoundShape());
    for (int k = 0; k < kPieces; ++k) {
        hd_wl_shape e{0.3 + 0.5 * hd_wl_rng_uniform(rng), 0.3 + 0.5 * hd_wl_rng_uniform(rng),
                      0.3 + 0.5 * hd_wl_rng_uniform(rng)};
        s->pieces.emplace_back(new Hull(rng, 12, e));
        double r[9], t[3];
        hd_wl_random_rotation(rng, r);
        for (double &x : t) {
            x = 2.0 * hd_wl_rng_uniform(rng) - 1.0;
        }
        s->poses.push_back(make_pose(r, t));
        polys.push_back(s->pieces.back()->poly);
        s->bullet->addChildShape(to_bullet(s->poses.back()), s->pieces.back()->bullet());
    }
    if (hd_compound_build(polys.data(), s->poses.data(), kPieces, &s->compound) != HD_OK) {
        std::fprintf(stderr, "compound: hd_compound_build failed\n");
        std::exit(1);
    }
    hd_compound_bounds(s->compound, s->lo, s->hi);
}

struct Box {
    double lo[3], hi[3];
};

// The world box of a body: its own box's centre posed, half extents through |R|.
Box world_box(const BodyShape &s, const hd_pose &p)
{
    Box b;
    for (int i = 0; i < 3; ++i) {
        double c = 0.0, e = 0.0;
        for (int j = 0; j < 3; ++j) {
            c += p.r[3 * i + j] * 0.5 * (s.lo[j] + s.hi[j]);
            e += std::fabs(p.r[3 * i + j]) * 0.5 * (s.hi[j] - s.lo[j]);
        }
        b.lo[i] = p.t[i] + c - e;
        b.hi[i] = p.t[i] + c + e;
    }
    return b;
}

// Sort and sweep on x: the pairs (i < j) whose boxes overlap on all three axes.
void sweep(const std::vector<Box> &boxes, std::vector<int> *order,
           std::vector<std::pair<int, int>> *pairs)
{
    pairs->clear();
    std::sort(order->begin(), order->end(), [&](int a, int b) {
        return boxes[static_cast<size_t>(a)].lo[0] < boxes[static_cast<size_t>(b)].lo[0];
    });
    for (size_t u = 0; u < order->size(); ++u) {
        const Box &a = boxes[static_cast<size_t>((*order)[u])];
        for (size_t v = u + 1; v < order->size(); ++v) {
            const Box &b = boxes[static_cast<size_t>((*order)[v])];
            if (b.lo[0] > a.hi[0]) {
                break;
            }
            if (a.lo[1] <= b.hi[1] && b.lo[1] <= a.hi[1] && a.lo[2] <= b.hi[2] &&
                b.lo[2] <= a.hi[2]) {
                int i = (*order)[u], j = (*order)[v];
                pairs->emplace_back(std::min(i, j), std::max(i, j));
            }
        }
    }
}

struct World {
    std::vector<std::unique_ptr<BodyShape>> shapes;
    std::vector<int> shape_of;
    std::vector<std::vector<hd_pose>> frames; // poses per frame
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btCollisionWorld world{&dispatcher, &broadphase, &config};
    std::vector<std::unique_ptr<btCollisionObject>> objects;
    // hedra's per-frame scratch, kept between frames
    std::vector<Box> boxes;
    std::vector<int> order;
    std::vector<std::pair<int, int>> candidates;

    ~World()
    {
        for (auto &o : objects) {
            world.removeCollisionObject(o.get());
        }
    }
};

void make_world(World *w, int bodies, int frames, hd_wl_rng *rng)
{
    for (int k = 0; k < kShapes; ++k) {
        w->shapes.emplace_back(new BodyShape());
        build_shape(w->shapes.back().get(), rng);
    }
    std::vector<hd_pose> pose(static_cast<size_t>(bodies));
    for (int i = 0; i < bodies; ++i) {
        double r[9], t[3];
        hd_wl_random_rotation(rng, r);
        for (double &x : t) {
            x = kSide * (hd_wl_rng_uniform(rng) - 0.5);
        }
        pose[static_cast<size_t>(i)] = make_pose(r, t);
        w->shape_of.push_back(hd_wl_rng_int(rng, kShapes));
        auto *o = new btCollisionObject();
        o->setCollisionShape(w->shapes[static_cast<size_t>(w->shape_of.back())]->bullet.get());
        o->setWorldTransform(to_bullet(pose[static_cast<size_t>(i)]));
        o->setUserIndex(i);
        w->world.addCollisionObject(o);
        w->objects.emplace_back(o);
    }
    for (int f = 0; f < frames; ++f) {
        for (hd_pose &p : pose) { // a step of up to 0.1 per axis and a turn of up to 0.05 rad
            double axis[3], turn[9], r[9];
            hd_wl_rng_unit(rng, axis);
            hd_wl_axis_rotation(axis, 0.05 * hd_wl_rng_uniform(rng), turn);
            hd_wl_mat_mul(turn, p.r, r);
            std::memcpy(p.r, r, sizeof r);
            for (double &x : p.t) {
                x += 0.2 * (hd_wl_rng_uniform(rng) - 0.5);
            }
        }
        w->frames.push_back(pose);
    }
    w->boxes.resize(static_cast<size_t>(bodies));
    w->order.resize(static_cast<size_t>(bodies));
    for (int i = 0; i < bodies; ++i) {
        w->order[static_cast<size_t>(i)] = i;
    }
}

using PairSet = std::set<std::pair<int, int>>;

struct FrameTimes {
    long long broad = 0, narrow = 0;
};

// hedra's broad phase: each body's world box, the sweep; the candidates into w->candidates.
void hedra_boxes(World *w, int f)
{
    const std::vector<hd_pose> &poses = w->frames[static_cast<size_t>(f)];
    for (size_t i = 0; i < poses.size(); ++i) {
        w->boxes[i] = world_box(*w->shapes[static_cast<size_t>(w->shape_of[i])], poses[i]);
    }
    sweep(w->boxes, &w->order, &w->candidates);
}

// hedra's narrow phase: hd_compound_collide on the candidates; contacts into *out.
void hedra_narrow(World *w, int f, PairSet *out)
{
    const std::vector<hd_pose> &poses = w->frames[static_cast<size_t>(f)];
    for (const auto &c : w->candidates) {
        hd_compound_collide_result r;
        size_t a = static_cast<size_t>(c.first), b = static_cast<size_t>(c.second);
        if (hd_compound_collide(w->shapes[static_cast<size_t>(w->shape_of[a])]->compound, &poses[a],
                                w->shapes[static_cast<size_t>(w->shape_of[b])]->compound, &poses[b],
                                nullptr, &r) != HD_OK) {
            std::fprintf(stderr, "compound: query failed\n");
            std::exit(1);
        }
        if (out && r.verdict != HD_SEPARATED) {
            out->insert(c);
        }
    }
}

FrameTimes hedra_frame(World *w, int f, PairSet *out)
{
    FrameTimes t;
    long long t0 = now_ns();
    hedra_boxes(w, f);
    long long t1 = now_ns();
    hedra_narrow(w, f, out);
    t.broad = t1 - t0;
    t.narrow = now_ns() - t1;
    return t;
}

long long bullet_frame(World *w, int f, PairSet *out)
{
    const std::vector<hd_pose> &poses = w->frames[static_cast<size_t>(f)];
    long long t0 = now_ns();
    for (size_t i = 0; i < poses.size(); ++i) {
        w->objects[i]->setWorldTransform(to_bullet(poses[i]));
    }
    w->world.performDiscreteCollisionDetection();
    long long t1 = now_ns();
    if (out) {
        int n = w->dispatcher.getNumManifolds();
        for (int m = 0; m < n; ++m) {
            const btPersistentManifold *pm = w->dispatcher.getManifoldByIndexInternal(m);
            for (int c = 0; c < pm->getNumContacts(); ++c) {
                if (pm->getContactPoint(c).getDistance() < 0) {
                    int a = pm->getBody0()->getUserIndex(), b = pm->getBody1()->getUserIndex();
                    out->insert(std::make_pair(std::min(a, b), std::max(a, b)));
                    break;
                }
            }
        }
    }
    return t1 - t0;
}

// The signed distance of two bodies by hedra (the deepest pair of pieces).
double signed_distance(const World &w, int f, int a, int b)
{
    const std::vector<hd_pose> &p = w.frames[static_cast<size_t>(f)];
    hd_compound_signed_distance_result r;
    hd_compound_signed_distance(
        w.shapes[static_cast<size_t>(w.shape_of[static_cast<size_t>(a)])]->compound,
        &p[static_cast<size_t>(a)],
        w.shapes[static_cast<size_t>(w.shape_of[static_cast<size_t>(b)])]->compound,
        &p[static_cast<size_t>(b)], nullptr, &r);
    return r.signed_distance;
}

} // namespace

int main(int argc, char **argv)
{
    int bodies = static_cast<int>(opt_int(argc, argv, "--bodies", 1000));
    int frames = static_cast<int>(opt_int(argc, argv, "--frames", 30));
    unsigned long long seed = static_cast<unsigned long long>(opt_int(argc, argv, "--seed", 43));
    bool profiling = opt_flag(argc, argv, "--profile");
    hd_wl_rng rng;
    hd_wl_rng_init(&rng, hd_wl_seed(seed, 6, 0, 0));
    World w;
    make_world(&w, bodies, kWarmup + frames, &rng);
    for (int f = 0; f < kWarmup; ++f) {
        hedra_frame(&w, f, nullptr);
        bullet_frame(&w, f, nullptr);
    }
    if (profiling) {
        profile("hedra boxes", frames, [&](int f) { hedra_boxes(&w, kWarmup + f); });
        profile("hedra frame", frames, [&](int f) { hedra_frame(&w, kWarmup + f, nullptr); });
        profile("bullet frame", frames, [&](int f) { bullet_frame(&w, kWarmup + f, nullptr); });
        return 0;
    }
    print_host("hedra_bench_compound", seed);
    std::vector<double> broad, narrow, total, bullet;
    long long candidates = 0, contacts = 0, bullet_contacts = 0;
    int missed = 0, extra = 0, missed_deep = 0, extra_apart = 0;
    double worst_missed = 0.0, worst_extra = 0.0;
    for (int f = kWarmup; f < kWarmup + frames; ++f) {
        PairSet ph, pb;
        FrameTimes t = hedra_frame(&w, f, &ph); // interleaved: hedra, then Bullet, each frame
        long long tb = bullet_frame(&w, f, &pb);
        broad.push_back(static_cast<double>(t.broad));
        narrow.push_back(static_cast<double>(t.narrow));
        total.push_back(static_cast<double>(t.broad + t.narrow));
        bullet.push_back(static_cast<double>(tb));
        candidates += static_cast<long long>(w.candidates.size());
        contacts += static_cast<long long>(ph.size());
        bullet_contacts += static_cast<long long>(pb.size());
        for (const auto &p : ph) {
            if (!pb.count(p)) {
                ++missed;
                double sd = signed_distance(w, f, p.first, p.second);
                worst_missed = std::min(worst_missed, sd);
                missed_deep += sd < -1e-3;
            }
        }
        for (const auto &p : pb) {
            if (!ph.count(p)) {
                ++extra;
                double sd = signed_distance(w, f, p.first, p.second);
                worst_extra = std::max(worst_extra, sd);
                extra_apart += sd > 1e-3;
            }
        }
    }
    double per = 1.0 / frames;
    std::printf("%d bodies of %d pieces (%d body shapes), cube of side %g, %d timed frames after "
                "%d warm-up frames; per frame: %.0f pairs of overlapping boxes, %.1f pairs in "
                "contact (hedra), %.1f (Bullet).\n\n",
                bodies, kPieces, kShapes, kSide, frames, kWarmup, candidates * per, contacts * per,
                bullet_contacts * per);
    double h = median(total);
    Instructions ins;
    ins.load(opt_str(argc, argv, "--instructions"));
    std::printf("### Compound scene per frame\n\n| method | median per frame | instructions per "
                "frame | ratio |\n"
                "|---|---:|---:|---:|\n");
    // the narrow phase's instructions: the frame's less the boxes'
    std::printf("| hedra: boxes + sort-and-sweep | %s | %s | |\n", fmt_ns(median(broad)).c_str(),
                ins.get("hedra boxes").c_str());
    std::printf("| hedra: hd_compound_collide on the box pairs | %s | %s | |\n",
                fmt_ns(median(narrow)).c_str(),
                Instructions::format(ins.value("hedra frame") - ins.value("hedra boxes")).c_str());
    std::printf("| hedra: total | %s | %s | 1.00 |\n", fmt_ns(h).c_str(),
                ins.get("hedra frame").c_str());
    std::printf("| Bullet btCollisionWorld, btCompoundShape | %s | %s | %.2f |\n\n",
                fmt_ns(median(bullet)).c_str(), ins.get("bullet frame").c_str(),
                median(bullet) / h);
    std::printf("Over all timed frames: %d pairs hedra finds in contact that Bullet does not (%d "
                "deeper than 1e-3, deepest %.3g), %d pairs Bullet reports that hedra proves "
                "apart (%d farther than 1e-3 apart, farthest %.3g).\n",
                missed, missed_deep, worst_missed, extra, extra_apart, worst_extra);
    return 0;
}
