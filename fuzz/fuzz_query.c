/* libFuzzer target: hull construction and every query on arbitrary doubles. The input is read as
 * two point counts (one byte each, at most 24 points), then doubles for the points of A and B, a
 * quaternion and translation for B's pose, B's twist (v, w, c) and a ray (origin, direction);
 * missing doubles are zeros (then B comes at A from its place, turning). Any crash, sanitizer
 * report, certificate that the independent check rejects, or motion answer that contradicts a
 * query's proven verdict is a finding. */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hedra/hedra.h"
#include "input.h"

#define HD_FUZZ_MAX_POINTS 24

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int next_count(hd_fuzz_input *in)
{
    return 1 + hd_fuzz_byte(in) % HD_FUZZ_MAX_POINTS;
}

/* The contact queries: a finite answer whose bounds bracket it, a unit normal, at most four
 * manifold points, and the two depth methods (expanding polytope, separating axes) agreeing to
 * 1e-9 of the size when the pair overlaps. */
static void run_contact(const hd_polytope *a, const hd_polytope *b, const hd_pose *pb)
{
    hd_signed_distance_result c, s;
    hd_manifold m;
    if (hd_contact_manifold(a, NULL, b, pb, NULL, &c, &m) != HD_OK) {
        return;
    }
    double len =
        sqrt(c.normal[0] * c.normal[0] + c.normal[1] * c.normal[1] + c.normal[2] * c.normal[2]);
    if (!isfinite(c.signed_distance) || !(fabs(len - 1.0) <= 1e-9) ||
        !(c.lower <= c.signed_distance && c.signed_distance <= c.upper) || m.count < 0 ||
        m.count > HD_MANIFOLD_MAX) {
        abort();
    }
    hd_options opt = hd_options_default();
    opt.flags = HD_QUERY_DEPTH_SAT;
    if (c.verdict == HD_INTERSECTING && hd_signed_distance(a, NULL, b, pb, &opt, &s) == HD_OK &&
        !(fabs(s.signed_distance - c.signed_distance) <= 1e-9 * c.size + 1e-12 * c.size)) {
        abort();
    }
}

/* The largest coordinate of the posed vertices of a and b: the magnitude of their rounding. */
static double magnitude(const hd_polytope *a, const hd_polytope *b, const hd_pose *pb)
{
    double m = 0.0, p[3];
    const double *va = hd_polytope_vertices(a), *vb = hd_polytope_vertices(b);
    for (int i = 0; i < hd_polytope_vertex_count(a); ++i) {
        m = fmax(m, fmax(fabs(va[3 * i]), fmax(fabs(va[3 * i + 1]), fabs(va[3 * i + 2]))));
    }
    for (int i = 0; i < hd_polytope_vertex_count(b); ++i) {
        hd_pose_apply(pb, vb + 3 * i, p);
        m = fmax(m, fmax(fabs(p[0]), fmax(fabs(p[1]), fabs(p[2]))));
    }
    return m;
}

/* A separated distance lies between the checked plane's gap (a lower bound) and the distance of
 * its witness points (an upper bound), to 1e-9 of the size (eps is 1e-12 of it by default);
 * touching witnesses are within eps of each other, plus the rounding that the certificate check
 * allows (HD_CHECK_ROUNDING_UNITS = 64 units of the coordinates' magnitude; twice that here, as
 * the checker's scale is a bounding sphere's |centre| + radius). */
static int distance_consistent(const hd_distance_result *d, double mag)
{
    double slack = 1e3 * d->eps, w[3];
    for (int k = 0; k < 3; ++k) {
        w[k] = d->witness_a[k] - d->witness_b[k];
    }
    double between = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    if (d->verdict == HD_TOUCHING) {
        return between <= 1.01 * d->eps + 128.0 * DBL_EPSILON * mag;
    }
    return d->verdict != HD_SEPARATED ||
           (d->distance >= d->cert.gap - slack && fabs(between - d->distance) <= slack);
}

static void run_queries(const hd_polytope *a, const hd_polytope *b, const hd_pose *pb)
{
    run_contact(a, b, pb);
    for (int algo = 0; algo < HD_ALGO_COUNT; ++algo) {
        hd_options opt = hd_options_default();
        opt.algo = (hd_algo)algo;
        hd_collide_result r;
        if (hd_collide(a, NULL, b, pb, &opt, &r) == HD_OK &&
            hd_certificate_check(a, NULL, b, pb, r.verdict, r.eps, &r.cert) != HD_OK) {
            abort();
        }
    }
    hd_distance_result d;
    if (hd_distance(a, NULL, b, pb, NULL, &d) == HD_OK) {
        if (hd_certificate_check(a, NULL, b, pb, d.verdict, d.eps, &d.cert) != HD_OK ||
            !distance_consistent(&d, magnitude(a, b, pb))) {
            abort();
        }
    }
    double dir[3] = {1.0, 0.5, 0.25};
    hd_gap_result g;
    (void)hd_gap(a, NULL, b, pb, dir, NULL, &g);
    bool inside;
    (void)hd_contains(a, NULL, b, pb, NULL, &inside);
}

/* The time of impact (capped at 256 queries): bounds in order, the bracket as wide as asked, no
 * proven overlap before lo, no proven separation beyond the band at hi. */
static void run_toi(const hd_polytope *a, const hd_polytope *b, const hd_motion *mb)
{
    hd_motion ma;
    hd_toi_options o = hd_toi_options_default();
    o.max_iterations = 256;
    hd_toi_result r;
    if (hd_motion_translation(NULL, (const double[3]){0, 0, 0}, &ma) != HD_OK ||
        hd_toi(a, &ma, b, mb, &o, &r) != HD_OK) {
        return;
    }
    if (!(0.0 <= r.lo && r.lo <= r.hi && r.hi <= 1.0) ||
        (r.hit && !(r.hi - r.lo <= o.time_tol && r.contact.lower <= r.eps))) {
        abort();
    }
    hd_pose pa, pb;
    hd_distance_result d;
    if (r.lo > 0.0 && hd_motion_pose(&ma, 0.5 * r.lo, &pa) == HD_OK &&
        hd_motion_pose(mb, 0.5 * r.lo, &pb) == HD_OK &&
        hd_distance(a, &pa, b, &pb, NULL, &d) == HD_OK && d.verdict == HD_INTERSECTING) {
        abort();
    }
}

/* The ray cast: t within the ray, the point on it, a unit normal for a hit from outside. */
static void run_ray(const hd_polytope *a, const double o[3], const double d[3])
{
    hd_ray_result r;
    if (hd_ray_cast(a, NULL, o, d, 10.0, NULL, &r) != HD_OK || !r.hit) {
        return;
    }
    double len =
        sqrt(r.normal[0] * r.normal[0] + r.normal[1] * r.normal[1] + r.normal[2] * r.normal[2]);
    if (!(r.t >= 0.0 && r.t <= 10.0) || (!r.inside && !(fabs(len - 1.0) <= 1e-9)) ||
        (r.inside && r.t != 0.0)) {
        abort();
    }
}

/* B's twist and the ray from the input; zeros give B a default approach and the ray a default
 * direction. */
static void run_motion(hd_fuzz_input *in, const hd_polytope *a, const hd_polytope *b,
                       const hd_pose *pb)
{
    hd_motion mb;
    mb.pose0 = *pb;
    double ray[6];
    for (int k = 0; k < 3; ++k) {
        mb.v[k] = hd_fuzz_double(in);
        mb.w[k] = hd_fuzz_double(in);
        mb.c[k] = hd_fuzz_double(in);
    }
    for (int k = 0; k < 6; ++k) {
        ray[k] = hd_fuzz_double(in);
    }
    if (mb.v[0] == 0.0 && mb.v[1] == 0.0 && mb.v[2] == 0.0 && mb.w[0] == 0.0 && mb.w[1] == 0.0 &&
        mb.w[2] == 0.0) {
        for (int k = 0; k < 3; ++k) {
            mb.v[k] = -2.0 * pb->t[k];
            mb.c[k] = pb->t[k];
        }
        mb.w[2] = 7.0;
    }
    run_toi(a, b, &mb);
    if (ray[3] == 0.0 && ray[4] == 0.0 && ray[5] == 0.0) {
        ray[3] = 1.0;
        ray[4] = 0.5;
        ray[5] = 0.25;
    }
    run_ray(a, ray, ray + 3);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hd_fuzz_input in = {data, size, 0};
    int na = next_count(&in), nb = next_count(&in);
    double xa[3 * HD_FUZZ_MAX_POINTS], xb[3 * HD_FUZZ_MAX_POINTS];
    for (int i = 0; i < 3 * na; ++i) {
        xa[i] = hd_fuzz_double(&in);
    }
    for (int i = 0; i < 3 * nb; ++i) {
        xb[i] = hd_fuzz_double(&in);
    }
    double q[4] = {hd_fuzz_double(&in), hd_fuzz_double(&in), hd_fuzz_double(&in),
                   hd_fuzz_double(&in)};
    double t[3] = {hd_fuzz_double(&in), hd_fuzz_double(&in), hd_fuzz_double(&in)};
    hd_pose pb;
    if (hd_pose_from_quaternion(q, t, &pb) != HD_OK) {
        pb = hd_pose_identity();
    }
    hd_polytope *a = NULL, *b = NULL;
    if (hd_polytope_build(xa, na, NULL, &a) == HD_OK &&
        hd_polytope_build(xb, nb, NULL, &b) == HD_OK) {
        run_queries(a, b, &pb);
        run_motion(&in, a, b, &pb);
    }
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
    return 0;
}
