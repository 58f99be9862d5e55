// Primitives against hulls (issue #41): a sphere, a capsule and a box against the hulls of 12, 100
// and 1000 random points on the ellipsoid 200:100:100 (A, fixed), boolean, distance and signed
// distance. hedra: hd_shape_sphere / hd_shape_capsule / hd_shape_box (rounded polytopes) with
// hd_collide, hd_distance, hd_signed_distance. FCL: fcl::Sphere, fcl::Capsule, fcl::Box against
// fcl::Convex (fcl::collide; fcl::distance unsigned and with enable_signed_distance; GST_LIBCCD).
// Bullet: btSphereShape, btCapsuleShapeZ (their margin is the radius), btBoxShape (margin 0)
// against btConvexHullShape (margin 0) in btGjkPairDetector, without a depth solver for the
// boolean and with btGjkEpaPenetrationDepthSolver for (signed) distance.
//
// Reference: hedra's certified signed distance (its bounds lower <= sd <= upper are printed),
// itself checked against a closed form for the sphere (Qhull's triangles);
// every peer answer is compared with it (verdicts outside the touching band, distance errors).
// Protocol: every (placement, method) query timed alone, in a fresh random order per pass.
//
// usage: hedra_bench_prims [--placements K] [--passes P] [--seed S] [--profile]
//                          [--instructions FILE]
#include "features/common.hpp"

#include <BulletCollision/NarrowPhaseCollision/btGjkEpaPenetrationDepthSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkPairDetector.h>
#include <BulletCollision/NarrowPhaseCollision/btPointCollector.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>
#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/capsule.h>
#include <fcl/geometry/shape/sphere.h>
#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/distance.h>

using namespace feat;

namespace
{

enum Kind { SPHERE, CAPSULE, BOX };
const double kRadius = 40.0, kHalfLength = 50.0, kHalf[3] = {50.0, 35.0, 20.0};

// One primitive as each library holds it, and its support value along a direction of its frame.
struct Prim {
    Kind kind;
    std::string name;
    hd_polytope *poly = nullptr;
    std::unique_ptr<btConvexShape> bullet;
    std::shared_ptr<fcl::CollisionGeometryd> fcl;

    explicit Prim(Kind k) : kind(k)
    {
        hd_status st = HD_OK;
        if (k == SPHERE) {
            name = "sphere r=40";
            st = hd_shape_sphere(kRadius, nullptr, &poly);
            bullet.reset(new btSphereShape(kRadius));
            fcl = std::make_shared<fcl::Sphered>(kRadius);
        } else if (k == CAPSULE) {
            name = "capsule h=50 r=40";
            st = hd_shape_capsule(kHalfLength, kRadius, nullptr, &poly);
            bullet.reset(new btCapsuleShapeZ(kRadius, 2.0 * kHalfLength));
            fcl = std::make_shared<fcl::Capsuled>(kRadius, 2.0 * kHalfLength);
        } else {
            name = "box 50x35x20";
            st = hd_shape_box(kHalf, 0.0, nullptr, &poly);
            auto *box = new btBoxShape(btVector3(kHalf[0], kHalf[1], kHalf[2]));
            box->setMargin(0.0); // the exact box, no rounded corners
            bullet.reset(box);
            fcl = std::make_shared<fcl::Boxd>(2 * kHalf[0], 2 * kHalf[1], 2 * kHalf[2]);
        }
        if (st != HD_OK) {
            std::fprintf(stderr, "prims: %s: %s\n", name.c_str(), hd_status_str(st));
            std::exit(1);
        }
    }
    ~Prim()
    {
        hd_polytope_destroy(poly);
    }

    // max over the primitive of u . x, u in its own frame
    double support(const double u[3]) const
    {
        if (kind == SPHERE) {
            return kRadius;
        }
        if (kind == CAPSULE) {
            return std::fabs(u[2]) * kHalfLength + kRadius;
        }
        return std::fabs(u[0]) * kHalf[0] + std::fabs(u[1]) * kHalf[1] + std::fabs(u[2]) * kHalf[2];
    }
};

// Closed form for the sphere, independent of hedra: the signed distance of a point to the hull
// from Qhull's outward triangles, minus the radius. Outside, the distance to the nearest
// triangle (the closest point of a triangle by its Voronoi regions, Ericson, Real-Time Collision
// Detection 5.1.5); inside, minus the distance to the nearest face plane.
double sub_dot(const double *a, const double *b, const double *c) // (a - b) . c
{
    return (a[0] - b[0]) * c[0] + (a[1] - b[1]) * c[1] + (a[2] - b[2]) * c[2];
}

double point_triangle(const double p[3], const double *a, const double *b, const double *c)
{
    double ab[3], ac[3], ap[3], q[3];
    for (int j = 0; j < 3; ++j) {
        ab[j] = b[j] - a[j];
        ac[j] = c[j] - a[j];
        ap[j] = p[j] - a[j];
    }
    auto dot = [](const double *u, const double *v) {
        return u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    };
    auto at = [&](double v, double w) {
        for (int j = 0; j < 3; ++j) {
            q[j] = a[j] + v * ab[j] + w * ac[j];
        }
        double d[3] = {p[0] - q[0], p[1] - q[1], p[2] - q[2]};
        return std::sqrt(dot(d, d));
    };
    double d1 = dot(ab, ap), d2 = dot(ac, ap);
    if (d1 <= 0 && d2 <= 0) {
        return at(0, 0);
    }
    double bp[3] = {p[0] - b[0], p[1] - b[1], p[2] - b[2]};
    double d3 = dot(ab, bp), d4 = dot(ac, bp);
    if (d3 >= 0 && d4 <= d3) {
        return at(1, 0);
    }
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) {
        return at(d1 / (d1 - d3), 0);
    }
    double cp[3] = {p[0] - c[0], p[1] - c[1], p[2] - c[2]};
    double d5 = dot(ab, cp), d6 = dot(ac, cp);
    if (d6 >= 0 && d5 <= d6) {
        return at(0, 1);
    }
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) {
        return at(0, d2 / (d2 - d6));
    }
    double va = d3 * d6 - d5 * d4;
    if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
        double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return at(1 - w, w);
    }
    double den = 1.0 / (va + vb + vc);
    return at(vb * den, vc * den);
}

double sphere_closed_form(const Hull &h, const double centre[3])
{
    double outside = HUGE_VAL, inside = HUGE_VAL;
    bool out = false;
    for (int f = 0; f < h.hull.ntris; ++f) {
        const double *a = h.hull.xyz + 3 * h.hull.tris[3 * f];
        const double *b = h.hull.xyz + 3 * h.hull.tris[3 * f + 1];
        const double *c = h.hull.xyz + 3 * h.hull.tris[3 * f + 2];
        double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        double v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                       u[0] * v[1] - u[1] * v[0]};
        double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        double above = sub_dot(centre, a, n) / len;
        out = out || above > 0;
        inside = std::min(inside, -above);
        outside = std::min(outside, point_triangle(centre, a, b, c));
    }
    return (out ? outside : -inside) - kRadius;
}

double closed_form_error = 0.0; // hedra's reference against the sphere's closed form

struct Placement {
    hd_pose pose;     // of the primitive (B); the hull A is at the identity
    double ref = 0.0; // hedra's certified signed distance
    double lower = 0, upper = 0, eps = 0;
};

// B placed along a random direction u at a gap g in [-30, 30] between the two supports (its
// signed distance differs: the reference is computed, not assumed).
std::vector<Placement> place(const Hull &hull, const Prim &prim, int count, hd_wl_rng *rng)
{
    std::vector<Placement> out;
    for (int k = 0; k < count; ++k) {
        Placement p;
        double r[9], u[3], t[3], ub[3];
        hd_wl_random_rotation(rng, r);
        hd_wl_rng_unit(rng, u);
        double ha = -1e300;
        for (int i = 0; i < hull.hull.n; ++i) {
            const double *x = hull.hull.xyz + 3 * i;
            ha = std::max(ha, u[0] * x[0] + u[1] * x[1] + u[2] * x[2]);
        }
        for (int j = 0; j < 3; ++j) { // -u in B's frame: R^T (-u)
            ub[j] = -(r[j] * u[0] + r[3 + j] * u[1] + r[6 + j] * u[2]);
        }
        double g = -30.0 + 60.0 * hd_wl_rng_uniform(rng);
        double s = ha + prim.support(ub) + g;
        for (int j = 0; j < 3; ++j) {
            t[j] = s * u[j];
        }
        p.pose = make_pose(r, t);
        hd_signed_distance_result sd;
        if (hd_signed_distance(hull.poly, nullptr, prim.poly, &p.pose, nullptr, &sd) != HD_OK ||
            !(sd.lower <= sd.signed_distance && sd.signed_distance <= sd.upper)) {
            std::fprintf(stderr, "prims: reference failed at placement %d\n", k);
            std::exit(1);
        }
        p.ref = sd.signed_distance;
        p.lower = sd.lower;
        p.upper = sd.upper;
        p.eps = sd.eps;
        if (prim.kind == SPHERE) {
            closed_form_error =
                std::max(closed_form_error, std::fabs(sphere_closed_form(hull, t) - p.ref));
        }
        out.push_back(p);
    }
    return out;
}

// What a method answers: a verdict (intersecting) and, for the distance methods, a value.
struct Answer {
    bool hit = false;
    double value = NAN;
    bool failed = false;
};

enum Query { BOOL, DIST, SIGNED };
const char *kQueryName[3] = {"boolean", "distance", "signed distance"};

struct Method {
    std::string name;
    Query query;
    Answer (*run)(const Hull &, const Prim &, const hd_pose &);
};

Answer hedra_bool(const Hull &h, const Prim &p, const hd_pose &pose)
{
    hd_collide_result r;
    Answer a;
    a.failed = hd_collide(h.poly, nullptr, p.poly, &pose, nullptr, &r) != HD_OK;
    a.hit = r.verdict != HD_SEPARATED;
    return a;
}

Answer hedra_dist(const Hull &h, const Prim &p, const hd_pose &pose)
{
    hd_distance_result r;
    Answer a;
    a.failed = hd_distance(h.poly, nullptr, p.poly, &pose, nullptr, &r) != HD_OK;
    a.hit = r.verdict != HD_SEPARATED;
    a.value = r.distance;
    return a;
}

Answer hedra_signed(const Hull &h, const Prim &p, const hd_pose &pose)
{
    hd_signed_distance_result r;
    Answer a;
    a.failed = hd_signed_distance(h.poly, nullptr, p.poly, &pose, nullptr, &r) != HD_OK;
    a.hit = r.verdict != HD_SEPARATED;
    a.value = r.signed_distance;
    return a;
}

// Bullet's convex-convex narrow phase: the distance it reports includes both margins (negative:
// penetrating); without a depth solver no result means the cores overlap.
Answer bullet_run(const Hull &h, const Prim &p, const hd_pose &pose, bool depth)
{
    btVoronoiSimplexSolver simplex;
    btGjkEpaPenetrationDepthSolver epa;
    btGjkPairDetector detector(h.bullet(), p.bullet.get(), &simplex, depth ? &epa : nullptr);
    btGjkPairDetector::ClosestPointInput input;
    input.m_transformA.setIdentity();
    input.m_transformB = to_bullet(pose);
    btPointCollector result;
    detector.getClosestPoints(input, result, nullptr);
    Answer a;
    if (!result.m_hasResult) {
        a.hit = true;
        a.failed = depth; // EPA gave no depth
        return a;
    }
    a.value = result.m_distance;
    a.hit = result.m_distance < 0;
    return a;
}

Answer bullet_bool(const Hull &h, const Prim &p, const hd_pose &pose)
{
    return bullet_run(h, p, pose, false);
}

Answer bullet_dist(const Hull &h, const Prim &p, const hd_pose &pose)
{
    Answer a = bullet_run(h, p, pose, true);
    a.value = std::max(a.value, 0.0);
    return a;
}

Answer bullet_signed(const Hull &h, const Prim &p, const hd_pose &pose)
{
    return bullet_run(h, p, pose, true);
}

Answer fcl_bool(const Hull &h, const Prim &p, const hd_pose &pose)
{
    const fcl::Convexd *a = h.fcl().get();
    fcl::CollisionRequestd request;
    fcl::CollisionResultd result;
    Answer ans;
    try {
        fcl::collide(a, fcl::Transform3d::Identity(), p.fcl.get(), to_fcl(pose), request, result);
    } catch (...) {
        ans.failed = true;
    }
    ans.hit = result.isCollision();
    return ans;
}

// fcl::distance: unsigned (-1 on collision) or, with enable_signed_distance, minus the depth.
Answer fcl_distance(const Hull &h, const Prim &p, const hd_pose &pose, bool is_signed)
{
    const fcl::Convexd *a = h.fcl().get();
    fcl::DistanceRequestd request;
    request.enable_signed_distance = is_signed;
    fcl::DistanceResultd result;
    Answer ans;
    try {
        ans.value = fcl::distance(a, fcl::Transform3d::Identity(), p.fcl.get(), to_fcl(pose),
                                  request, result);
    } catch (...) {
        ans.failed = true;
    }
    ans.hit = ans.value <= 0;
    if (!is_signed && ans.value < 0) {
        ans.value = 0.0; // FCL's "colliding" (-1) is distance 0
    }
    return ans;
}

Answer fcl_dist(const Hull &h, const Prim &p, const hd_pose &pose)
{
    return fcl_distance(h, p, pose, false);
}

Answer fcl_signed(const Hull &h, const Prim &p, const hd_pose &pose)
{
    return fcl_distance(h, p, pose, true);
}

const Method kMethods[] = {
    {"hedra", BOOL, hedra_bool},     {"fcl", BOOL, fcl_bool},     {"bullet", BOOL, bullet_bool},
    {"hedra", DIST, hedra_dist},     {"fcl", DIST, fcl_dist},     {"bullet", DIST, bullet_dist},
    {"hedra", SIGNED, hedra_signed}, {"fcl", SIGNED, fcl_signed}, {"bullet", SIGNED, bullet_signed},
};
const int kMethodCount = sizeof kMethods / sizeof kMethods[0];

// Per method: times and errors against the reference.
struct Tally {
    std::vector<double> ns;
    std::vector<double> err; // |value - reference| (distance methods), separated pairs for DIST
    int wrong = 0;           // verdicts contradicting the reference outside its band
    int failed = 0;
};

void score(const Method &m, const Placement &pl, const Answer &a, Tally *t)
{
    if (a.failed) {
        ++t->failed;
        return;
    }
    bool decided = std::fabs(pl.ref) > 2.0 * pl.eps;
    if (decided && a.hit != (pl.ref < 0)) {
        ++t->wrong;
    }
    if (m.query == DIST) {
        t->err.push_back(std::fabs(a.value - std::max(pl.ref, 0.0)));
    } else if (m.query == SIGNED) {
        t->err.push_back(std::fabs(a.value - pl.ref));
    }
}

struct Row {
    std::string label;
    Tally tally[kMethodCount];
};

void print_tables(const std::vector<Row> &rows, const Instructions &ins)
{
    const char *peers[3] = {"hedra", "FCL", "Bullet"};
    for (int q = 0; q < 3; ++q) {
        std::printf("### %s (median per query, callgrind instructions per query; ratio = peer / "
                    "hedra; wrong verdicts / failed queries%s)\n\n",
                    kQueryName[q], q == BOOL ? "" : "; error = |peer - reference|, median / max");
        std::printf("| pair | hedra | instr");
        for (int p = 1; p <= 2; ++p) {
            std::printf(" | %s | instr | ratio | wrong / failed%s", peers[p],
                        q == BOOL ? "" : " | error");
        }
        std::printf(" |\n|---|---:|---:|");
        for (int p = 1; p <= 2; ++p) {
            std::printf("---:|---:|---:|---:|%s", q == BOOL ? "" : "---:|");
        }
        std::printf("\n");
        for (const Row &r : rows) {
            const Tally *t = r.tally + 3 * q;
            double h = median(t[0].ns);
            std::string base = std::string(kQueryName[q]) + "|" + r.label + "|";
            std::printf("| %s | %s | %s", r.label.c_str(), fmt_ns(h).c_str(),
                        ins.get(base + kMethods[3 * q].name).c_str());
            for (int p = 1; p <= 2; ++p) {
                double ns = median(t[p].ns);
                std::printf(" | %s | %s | %.2f | %d / %d", fmt_ns(ns).c_str(),
                            ins.get(base + kMethods[3 * q + p].name).c_str(), ns / h, t[p].wrong,
                            t[p].failed);
                if (q != BOOL) {
                    std::printf(" | %.2g / %.2g", median(t[p].err), max_of(t[p].err));
                }
            }
            std::printf(" |\n");
        }
        for (const Row &r : rows) {
            const Tally &t = r.tally[3 * q];
            if (t.wrong || t.failed) {
                std::printf("\nhedra, %s: %d wrong, %d failed.\n", r.label.c_str(), t.wrong,
                            t.failed);
            }
        }
        std::printf("\n");
    }
}

} // namespace

int main(int argc, char **argv)
{
    int count = static_cast<int>(opt_int(argc, argv, "--placements", 300));
    int passes = static_cast<int>(opt_int(argc, argv, "--passes", 5));
    unsigned long long seed = static_cast<unsigned long long>(opt_int(argc, argv, "--seed", 41));
    bool profiling = opt_flag(argc, argv, "--profile");
    if (!profiling) {
        print_host("hedra_bench_prims", seed);
    }
    const int sizes[] = {12, 100, 1000};
    std::vector<Row> rows;
    double worst_width = 0.0;
    for (int n : sizes) {
        hd_wl_rng rng;
        hd_wl_rng_init(&rng, hd_wl_seed(seed, 1, static_cast<uint64_t>(n), 0));
        Hull hull(&rng, n, hd_wl_shape{200, 100, 100});
        for (Kind kind : {SPHERE, CAPSULE, BOX}) {
            Prim prim(kind);
            std::vector<Placement> pls = place(hull, prim, count, &rng);
            for (const Placement &p : pls) {
                worst_width = std::max(worst_width, p.upper - p.lower);
            }
            Row row;
            row.label = prim.name + " vs hull n=" + std::to_string(n);
            if (profiling) {
                for (int m = 0; m < kMethodCount; ++m) {
                    std::string label = std::string(kQueryName[kMethods[m].query]) + "|" +
                                        row.label + "|" + kMethods[m].name;
                    profile(label.c_str(), count, [&](int i) {
                        Answer a = kMethods[m].run(hull, prim, pls[static_cast<size_t>(i)].pose);
                        (void)a;
                    });
                }
                continue;
            }
            for (int pass = 0; pass < passes; ++pass) {
                for (int item : shuffled(count * kMethodCount, &rng)) {
                    int m = item % kMethodCount;
                    const Placement &pl = pls[static_cast<size_t>(item / kMethodCount)];
                    long long t0 = now_ns();
                    Answer a = kMethods[m].run(hull, prim, pl.pose);
                    long long t1 = now_ns();
                    row.tally[m].ns.push_back(static_cast<double>(t1 - t0));
                    if (pass == 0) {
                        score(kMethods[m], pl, a, &row.tally[m]);
                    }
                }
            }
            rows.push_back(std::move(row));
        }
    }
    if (!profiling) {
        std::printf("%d placements per row (gap between supports uniform in [-30, 30]), %d passes; "
                    "reference bounds upper - lower at most %.2g; the reference against the "
                    "sphere's closed "
                    "form (Qhull's triangles): largest difference %.2g.\n\n",
                    count, passes, worst_width, closed_form_error);
        Instructions ins;
        ins.load(opt_str(argc, argv, "--instructions"));
        print_tables(rows, ins);
    }
    // the exit status says whether hedra contradicted its own certified reference (ctest)
    int hedra_bad = 0;
    for (const Row &r : rows) {
        for (int q = 0; q < 3; ++q) {
            hedra_bad += r.tally[3 * q].wrong + r.tally[3 * q].failed;
        }
    }
    return hedra_bad || closed_form_error > 1e-9 ? 1 : 0;
}
