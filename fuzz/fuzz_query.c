/* libFuzzer target: hull construction and every query on arbitrary doubles. The input is read as
 * two point counts (one byte each, at most 24 points), then doubles for the points of A and B and a
 * quaternion and translation for B's pose. Any crash, sanitizer report, or certificate that the
 * independent check rejects is a finding. */
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
        !(c.lower <= c.signed_distance && c.signed_distance <= c.upper) ||
        m.count < 0 || m.count > HD_MANIFOLD_MAX) {
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
    }
    hd_polytope_destroy(a);
    hd_polytope_destroy(b);
    return 0;
}
