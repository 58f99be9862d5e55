// What the feature benchmarks (rounded shapes, compounds, time of impact, rays; docs/BENCHMARKS.md)
// share: the seeded generator and shapes of bench/common/workload.h, a clock, medians, pose
// conversions to Bullet and FCL, and the callgrind markers that give instructions per query.
//
// Callgrind: the programs run under `valgrind --tool=callgrind --collect-atstart=no`; profile()
// switches collection on around one method's queries and dumps the count under the method's name,
// so that each dump holds that method's instructions only (bench/tools/features.sh divides by
// the count printed beside it). Outside valgrind the markers cost nothing.
#ifndef HD_BENCH_FEATURES_COMMON_HPP
#define HD_BENCH_FEATURES_COMMON_HPP

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <valgrind/callgrind.h>

#include <btBulletCollisionCommon.h>
#include <fcl/geometry/shape/convex.h>
#include <fcl/math/geometry.h>

extern "C" {
#include "common/hull.h"
#include "common/workload.h"
#include "hedra/hedra.h"
}

namespace feat
{

inline long long now_ns()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

inline double median(std::vector<double> v)
{
    if (v.empty()) {
        return NAN;
    }
    std::sort(v.begin(), v.end());
    size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

inline double max_of(const std::vector<double> &v)
{
    double m = 0.0;
    for (double x : v) {
        m = std::max(m, x);
    }
    return m;
}

// "1.2 us", "830 ns": the tables' time format.
inline std::string fmt_ns(double ns)
{
    char buf[32];
    if (!(ns == ns)) {
        return "-";
    }
    if (ns >= 1e6) {
        std::snprintf(buf, sizeof buf, "%.2f ms", ns / 1e6);
    } else if (ns >= 1e3) {
        std::snprintf(buf, sizeof buf, "%.1f us", ns / 1e3);
    } else {
        std::snprintf(buf, sizeof buf, "%.0f ns", ns);
    }
    return buf;
}

// 0 .. count - 1 in a random order (Fisher-Yates): one pass of the shuffled protocol.
inline std::vector<int> shuffled(int count, hd_wl_rng *rng)
{
    std::vector<int> order(static_cast<size_t>(count));
    for (size_t i = 0; i < order.size(); ++i) {
        order[i] = static_cast<int>(i);
    }
    for (size_t i = order.size(); i > 1; --i) {
        std::swap(order[i - 1],
                  order[static_cast<size_t>(hd_wl_rng_int(rng, static_cast<int>(i)))]);
    }
    return order;
}

// Runs fn(i) for i in [0, count) with callgrind collecting, then dumps the count as "name".
template <class F> void profile(const char *name, int count, F fn)
{
    CALLGRIND_TOGGLE_COLLECT;
    for (int i = 0; i < count; ++i) {
        fn(i);
    }
    CALLGRIND_TOGGLE_COLLECT;
    std::string label = std::string(name) + " " + std::to_string(count);
    CALLGRIND_DUMP_STATS_AT(label.c_str());
}

// Instructions per query by label, read from the file bench/tools/features.sh writes from the
// dumps of a --profile run (lines "label<TAB>instructions"); "-" for a label it does not hold.
struct Instructions {
    std::vector<std::pair<std::string, double>> rows;

    void load(const char *path)
    {
        FILE *fp = path ? std::fopen(path, "r") : nullptr;
        if (!fp) {
            return;
        }
        char line[512];
        while (std::fgets(line, sizeof line, fp)) {
            char *tab = std::strrchr(line, '\t');
            if (tab) {
                *tab = 0;
                rows.emplace_back(line, std::strtod(tab + 1, nullptr));
            }
        }
        std::fclose(fp);
    }

    double value(const std::string &label) const
    {
        for (const auto &r : rows) {
            if (r.first == label) {
                return r.second;
            }
        }
        return NAN;
    }

    static std::string format(double v)
    {
        char buf[32];
        if (!(v == v)) {
            return "-";
        }
        if (v >= 1e6) {
            std::snprintf(buf, sizeof buf, "%.2fM", v / 1e6);
        } else {
            std::snprintf(buf, sizeof buf, "%.1fk", v / 1e3);
        }
        return buf;
    }

    std::string get(const std::string &label) const
    {
        return format(value(label));
    }
};

// The value of --name, or NULL.
inline const char *opt_str(int argc, char **argv, const char *name)
{
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], name) == 0) {
            return argv[i + 1];
        }
    }
    return nullptr;
}

// The pose x -> r x + t from a random rotation and a translation.
inline hd_pose make_pose(const double r[9], const double t[3])
{
    hd_pose p;
    std::memcpy(p.r, r, sizeof p.r);
    std::memcpy(p.t, t, sizeof p.t);
    return p;
}

inline btTransform to_bullet(const hd_pose &p)
{
    btMatrix3x3 basis(p.r[0], p.r[1], p.r[2], p.r[3], p.r[4], p.r[5], p.r[6], p.r[7], p.r[8]);
    return btTransform(basis, btVector3(p.t[0], p.t[1], p.t[2]));
}

inline fcl::Transform3d to_fcl(const hd_pose &p)
{
    fcl::Transform3d tf = fcl::Transform3d::Identity();
    fcl::Matrix3d r;
    r << p.r[0], p.r[1], p.r[2], p.r[3], p.r[4], p.r[5], p.r[6], p.r[7], p.r[8];
    tf.linear() = r;
    tf.translation() = fcl::Vector3d(p.t[0], p.t[1], p.t[2]);
    return tf;
}

// A hull of n random points on an ellipsoid, as hedra, Bullet and FCL each receive it: Qhull's
// vertices and triangles (bench/common/hull.c), independent of hedra's hull code.
struct Hull {
    hd_bench_hull hull{};
    hd_polytope *poly = nullptr;

    Hull(hd_wl_rng *rng, int n, hd_wl_shape shape, double rounding = 0.0)
    {
        std::vector<double> xyz(3 * static_cast<size_t>(n));
        hd_wl_ellipsoid_points(rng, n, shape, xyz.data());
        if (hd_bench_hull_build(xyz.data(), n, &hull) != 0 ||
            hd_polytope_build_rounded(hull.xyz, hull.n, rounding, nullptr, &poly) != HD_OK) {
            std::fprintf(stderr, "features: hull of %d points failed\n", n);
            std::exit(1);
        }
    }
    ~Hull()
    {
        hd_polytope_destroy(poly);
        hd_bench_hull_free(&hull);
    }
    Hull(const Hull &) = delete;
    Hull &operator=(const Hull &) = delete;

    // Bullet's and FCL's copies, built on first use and kept with the hull.
    btConvexHullShape *bullet() const
    {
        if (bt_) {
            return bt_.get();
        }
        auto *s = new btConvexHullShape();
        for (int i = 0; i < hull.n; ++i) {
            const double *p = hull.xyz + 3 * i;
            s->addPoint(btVector3(p[0], p[1], p[2]), false);
        }
        s->recalcLocalAabb();
        s->setMargin(0.0); // exactly the hull of its points
        bt_.reset(s);
        return s;
    }

    const std::shared_ptr<fcl::Convexd> &fcl() const;

  private:
    mutable std::unique_ptr<btConvexHullShape> bt_;
    mutable std::shared_ptr<fcl::Convexd> fcl_;
};

// Reads --name VALUE options: opt_int(argc, argv, "--frames", 30).
inline long opt_int(int argc, char **argv, const char *name, long fallback)
{
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], name) == 0) {
            return std::strtol(argv[i + 1], nullptr, 10);
        }
    }
    return fallback;
}

inline bool opt_flag(int argc, char **argv, const char *name)
{
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], name) == 0) {
            return true;
        }
    }
    return false;
}

// Host line for the report header: commit (from the environment), load average.
inline void print_host(const char *what, unsigned long long seed)
{
    double load[3] = {0, 0, 0};
    FILE *fp = std::fopen("/proc/loadavg", "r");
    if (fp) {
        if (std::fscanf(fp, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3) {
            load[0] = load[1] = load[2] = NAN;
        }
        std::fclose(fp);
    }
    const char *commit = std::getenv("HEDRA_BENCH_COMMIT");
    std::printf("%s: commit %s, seed %llu, load average %.2f %.2f %.2f before the run\n\n", what,
                commit ? commit : "?", seed, load[0], load[1], load[2]);
}

} // namespace feat

inline const std::shared_ptr<fcl::Convexd> &feat::Hull::fcl() const
{
    if (fcl_) {
        return fcl_;
    }
    auto verts = std::make_shared<std::vector<fcl::Vector3d>>();
    for (int i = 0; i < hull.n; ++i) {
        const double *p = hull.xyz + 3 * i;
        verts->emplace_back(p[0], p[1], p[2]);
    }
    auto faces = std::make_shared<std::vector<int>>();
    for (int f = 0; f < hull.ntris; ++f) {
        faces->push_back(3);
        for (int k = 0; k < 3; ++k) {
            faces->push_back(hull.tris[3 * f + k]);
        }
    }
    fcl_ = std::make_shared<fcl::Convexd>(verts, hull.ntris, faces);
    fcl_->computeLocalAABB();
    return fcl_;
}

#endif
