/* Pair families of the cross-check suite; see families.h. */
#include <math.h>
#include <string.h>

#include "families.h"

void hd_fam_world(const double *local, int n, const hd_pose *pose, double *out)
{
    for (int i = 0; i < n; ++i) {
        hd_pose_apply(pose, local + 3 * i, out + 3 * i);
    }
}

static double extreme_dot(const double *local, int n, const hd_pose *pose, const double d[3],
                          double sign)
{
    double best = -INFINITY;
    for (int i = 0; i < n; ++i) {
        double w[3];
        hd_pose_apply(pose, local + 3 * i, w);
        double v = sign * (d[0] * w[0] + d[1] * w[1] + d[2] * w[2]);
        best = v > best ? v : best;
    }
    return best;
}

void hd_fam_place(hd_test_pair *p, const double n[3], double l)
{
    double hi_a = extreme_dot(p->a, p->na, &p->pose_a, n, 1.0);
    double lo_b = -extreme_dot(p->b, p->nb, &p->pose_b, n, -1.0);
    double move = hi_a - lo_b + l;
    for (int k = 0; k < 3; ++k) {
        p->pose_b.t[k] += move * n[k];
    }
    p->nominal = l;
    p->placed = 1;
}

double hd_fam_scale(const hd_test_pair *p)
{
    double m = 0.0;
    for (int side = 0; side < 2; ++side) {
        const double *x = side ? p->b : p->a;
        int n = side ? p->nb : p->na;
        const hd_pose *pose = side ? &p->pose_b : &p->pose_a;
        for (int i = 0; i < n; ++i) {
            double w[3];
            hd_pose_apply(pose, x + 3 * i, w);
            for (int k = 0; k < 3; ++k) {
                m = fabs(w[k]) > m ? fabs(w[k]) : m;
            }
        }
    }
    return m;
}

/* Gaps used by the placed families, relative to the size of the shapes: deep, shallow, the
 * 1e-9 near-contact the suite must answer exactly, and exact support-plane contact. */
static const double hd_fam_gaps[] = {-0.5, -0.05, -1e-3, -1e-9, 0.0, 1e-9, 1e-3, 0.05, 0.5, 2.0};
#define HD_FAM_NGAPS ((int)(sizeof hd_fam_gaps / sizeof hd_fam_gaps[0]))

static void random_poses_and_place(hd_rng *rng, int index, double size, hd_test_pair *p)
{
    double ta[3] = {hd_rng_uniform(rng, -size, size), hd_rng_uniform(rng, -size, size),
                    hd_rng_uniform(rng, -size, size)};
    p->pose_a = hd_rng_pose(rng, ta);
    p->pose_b = hd_rng_pose(rng, ta);
    double n[3];
    hd_rng_unit_vector(rng, n);
    hd_fam_place(p, n, hd_fam_gaps[index % HD_FAM_NGAPS] * size);
}

static void fam_clouds(hd_rng *rng, int index, hd_test_pair *p)
{
    p->na = 4 + hd_rng_int(rng, 37);
    p->nb = 4 + hd_rng_int(rng, 37);
    hd_points_cloud(rng, p->na, 1.0, hd_rng_uniform(rng, 0.3, 1), 0.7, p->a);
    hd_points_cloud(rng, p->nb, 0.8, 1.0, hd_rng_uniform(rng, 0.3, 1), p->b);
    random_poses_and_place(rng, index, 1.0, p);
}

static void fam_ellipsoids(hd_rng *rng, int index, hd_test_pair *p)
{
    static const int sizes[] = {12, 30, 60, 100};
    p->na = p->nb = sizes[(index / HD_FAM_NGAPS) % 4];
    hd_points_ellipsoid(rng, p->na, 2.0, 1.0, 1.0, p->a);
    hd_points_ellipsoid(rng, p->nb, 2.0, 1.0, 1.0, p->b);
    random_poses_and_place(rng, index, 2.0, p);
}

static void fam_large_ellipsoids(hd_rng *rng, int index, hd_test_pair *p)
{
    static const int sizes[] = {500, 1000, 5000};
    p->na = p->nb = sizes[index % 3];
    hd_points_ellipsoid(rng, p->na, 200.0, 100.0, 100.0, p->a);
    hd_points_ellipsoid(rng, p->nb, 200.0, 100.0, 100.0, p->b);
    random_poses_and_place(rng, index / 3, 200.0, p);
}

static void random_box(hd_rng *rng, double *xyz)
{
    double hi[3] = {hd_rng_uniform(rng, 0.1, 1), hd_rng_uniform(rng, 0.1, 1),
                    hd_rng_uniform(rng, 0.1, 1)};
    double lo[3] = {-hi[0], -hi[1], -hi[2]};
    hd_points_box(lo, hi, xyz);
}

static void fam_boxes(hd_rng *rng, int index, hd_test_pair *p)
{
    p->na = p->nb = 8;
    random_box(rng, p->a);
    random_box(rng, p->b);
    random_poses_and_place(rng, index, 1.0, p);
}

static void fam_elongated_flat(hd_rng *rng, int index, hd_test_pair *p)
{
    p->na = 20 + hd_rng_int(rng, 20);
    p->nb = 20 + hd_rng_int(rng, 20);
    hd_points_ellipsoid(rng, p->na, 5.0, 0.1, 0.1, p->a);                  /* needle */
    hd_points_cloud(rng, p->nb, 2.0, 2.0, (index & 1) ? 1e-3 : 0.0, p->b); /* slab or polygon */
    random_poses_and_place(rng, index / 2, 2.0, p);
}

static void fam_lower_dim(hd_rng *rng, int index, hd_test_pair *p)
{
    /* a point, a segment, a polygon or a solid on each side */
    int kind_a = index % 4, kind_b = (index / 4) % 4;
    for (int side = 0; side < 2; ++side) {
        int kind = side ? kind_b : kind_a;
        double *x = side ? p->b : p->a;
        int n = kind == 0 ? 1 : kind == 1 ? 2 : 6 + hd_rng_int(rng, 6);
        hd_points_cloud(rng, n, 1.0, 1.0, kind == 2 ? 0.0 : 1.0, x);
        if (side) {
            p->nb = n;
        } else {
            p->na = n;
        }
    }
    random_poses_and_place(rng, index / 16, 1.0, p);
}

/* Exact contacts between the unit cube and a second shape (world coordinates; the contact is a
 * face, an edge crossing an edge, a vertex on a face, an edge on a face, or a partial face). */
static const double hd_fam_touch_b[5][4][3] = {
    {{1.5, 0.5, 0.5}, {0.5, 0.5, 1.5}, {1.5, 0.2, 1.5}, {1.5, 0.8, 1.5}}, /* edge-edge */
    {{0.5, 0.5, 1.0}, {0.0, 0.0, 2.0}, {1.0, 0.0, 2.0}, {0.5, 1.0, 2.0}}, /* vertex-face */
    {{0.2, 0.5, 1.0}, {0.8, 0.5, 1.0}, {0.5, 0.2, 2.0}, {0.5, 0.8, 2.0}}, /* edge-face */
    {{0.0, 0.0, 1.0}, {1.0, 0.0, 1.0}, {0.0, 1.0, 1.0}, {0.3, 0.3, 2.0}}, /* face-face (part) */
    {{1.0, 1.0, 1.0}, {2.0, 2.0, 2.0}, {2.0, 1.5, 2.5}, {1.5, 2.5, 2.0}}, /* vertex-vertex */
};

static void fam_touching(hd_rng *rng, int index, hd_test_pair *p)
{
    double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    hd_points_box(lo, hi, p->a);
    p->na = 8;
    int config = index % 6;
    if (config == 5) { /* face-face: a second unit cube on top */
        double lo2[3] = {0.25, 0.25, 1}, hi2[3] = {1.25, 1.25, 2};
        hd_points_box(lo2, hi2, p->b);
        p->nb = 8;
    } else {
        memcpy(p->b, hd_fam_touch_b[config], sizeof hd_fam_touch_b[config]);
        p->nb = 4;
    }
    /* the same rigid motion for both (identity for the first of every 12), then an optional
     * exact-ish shift of +-1e-9 along z */
    double t[3] = {hd_rng_uniform(rng, -5, 5), hd_rng_uniform(rng, -5, 5),
                   hd_rng_uniform(rng, -5, 5)};
    hd_pose motion = (index % 12 < 6) ? hd_pose_identity() : hd_rng_pose(rng, t);
    p->pose_a = motion;
    p->pose_b = motion;
    int shift = (index / 12) % 3; /* 0: exact contact, 1: apart, 2: into */
    if (shift != 0) {
        double dz = shift == 1 ? 1e-9 : -1e-9, local[3] = {0, 0, dz}, w[3];
        if (config == 0 || config == 4) {
            local[0] = dz; /* these contacts open along x + z */
        }
        hd_pose_apply(&motion, local, w);
        for (int k = 0; k < 3; ++k) {
            p->pose_b.t[k] = w[k];
        }
    }
    p->nominal = 0.0;
}

static void fam_identical_nested(hd_rng *rng, int index, hd_test_pair *p)
{
    p->na = p->nb = 10 + hd_rng_int(rng, 40);
    hd_points_ellipsoid(rng, p->na, 1.5, 1.0, 0.7, p->a);
    double t[3] = {hd_rng_uniform(rng, -3, 3), 0, 0};
    p->pose_a = hd_rng_pose(rng, t);
    p->pose_b = p->pose_a;
    double s = (index & 1) ? 1.0 : 0.5; /* identical, or B scaled into A's interior */
    for (int i = 0; i < 3 * p->nb; ++i) {
        p->b[i] = s * p->a[i];
    }
    p->nominal = 0.0;
}

static void fam_scaled(hd_rng *rng, int index, hd_test_pair *p)
{
    double s = (index & 1) ? 1e6 : 1e-6;
    if ((index / 2) & 1) {
        fam_boxes(rng, index / 4, p);
    } else {
        fam_clouds(rng, index / 4, p);
    }
    for (int i = 0; i < 3 * p->na; ++i) {
        p->a[i] *= s;
    }
    for (int i = 0; i < 3 * p->nb; ++i) {
        p->b[i] *= s;
    }
    for (int k = 0; k < 3; ++k) {
        p->pose_a.t[k] *= s;
        p->pose_b.t[k] *= s;
    }
    p->nominal *= s;
}

static void fam_duplicates_coplanar(hd_rng *rng, int index, hd_test_pair *p)
{
    fam_clouds(rng, index, p);
    /* duplicate a third of A's points and push a third of B's onto one plane, within 1e-12 */
    int dup = p->na / 3;
    for (int i = 0; i < dup && p->na < 60; ++i) {
        memcpy(p->a + 3 * p->na, p->a + 3 * hd_rng_int(rng, p->na), 3 * sizeof(double));
        p->na++;
    }
    for (int i = 0; i < p->nb / 3; ++i) {
        p->b[3 * i + 2] = 0.7 + hd_rng_uniform(rng, -1e-12, 1e-12);
    }
    double n[3];
    hd_rng_unit_vector(rng, n);
    p->pose_b = p->pose_a;
    hd_fam_place(p, n, hd_fam_gaps[index % HD_FAM_NGAPS]);
}

/* A slab of thickness t (1e-10, 1e-11 or 1e-12 of its unit size: far below the 1e-9 of the size
 * within which hulls used to be flattened, above the coordinates' resolution) and a box whose
 * bottom face dips into the slab's top face by d = t/2, rests on it (d = 0), stops t/2 short of it
 * (d = -t/2) or passes through the slab (d = 2t). The slab's top face is the whole unit square
 * and the box is far from its sides, so the signed distance is -d, of the order of t: the verdict
 * is exact only when the hull keeps both faces of the slab. */
static void fam_thin_slabs(hd_rng *rng, int index, hd_test_pair *p)
{
    static const double dips[4] = {0.5, 0.0, -0.5, 2.0};
    double t = pow(10.0, -10.0 - index % 3);
    double d = dips[(index / 3) % 4] * t;
    p->na = 12;
    double corner_lo[3] = {0.0, 0.0, 0.0}, corner_hi[3] = {1.0, 1.0, t};
    hd_points_box(corner_lo, corner_hi, p->a); /* the square's corners on both faces */
    for (int i = 8; i < 12; ++i) {             /* interior points on either face */
        double *q = p->a + 3 * i;
        q[0] = hd_rng_uniform(rng, 0.1, 0.9);
        q[1] = hd_rng_uniform(rng, 0.1, 0.9);
        q[2] = hd_rng_int(rng, 2) ? t : 0.0;
    }
    double lo[3] = {0.3, 0.3, 0.0}, hi[3] = {0.6, 0.6, 0.5};
    p->nb = 8;
    hd_points_box(lo, hi, p->b);
    double ta[3] = {hd_rng_uniform(rng, -1, 1), hd_rng_uniform(rng, -1, 1),
                    hd_rng_uniform(rng, -1, 1)};
    p->pose_a = hd_rng_pose(rng, ta);
    p->pose_b = p->pose_a;
    double lift[3] = {0.0, 0.0, t - d}, moved[3];
    hd_pose_apply(&p->pose_a, lift, moved); /* B's bottom at slab height t - d */
    for (int k = 0; k < 3; ++k)
        p->pose_b.t[k] = moved[k];
}

const hd_family hd_families[] = {
    {"clouds", fam_clouds, 400},
    {"ellipsoids 12-100", fam_ellipsoids, 240},
    {"ellipsoids 500-5000", fam_large_ellipsoids, 6},
    {"boxes", fam_boxes, 300},
    {"elongated/flat", fam_elongated_flat, 200},
    {"touching contacts", fam_touching, 144},
    {"identical/nested", fam_identical_nested, 150},
    {"points/segments/polygons", fam_lower_dim, 320},
    {"scales 1e-6/1e6", fam_scaled, 240},
    {"duplicates/coplanar", fam_duplicates_coplanar, 160},
    {"thin slabs", fam_thin_slabs, 150},
    {NULL, NULL, 0},
};

void hd_needle_pair_make(hd_rng *rng, hd_needle_pair *p)
{
    static const double cube[24] = {-1, -1, -1, 1, -1, -1, -1, 1, -1, 1, 1, -1,
                                    -1, -1, 1,  1, -1, 1,  -1, 1, 1,  1, 1, 1};
    static const double tetra[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    static const double square[12] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
    static const double segment[6] = {-1, 0, 0, 1, 0, 0};
    const double *small_sets[3] = {cube, tetra, square}, *long_sets[3] = {segment, square, cube};
    const int small_n[3] = {8, 4, 4}, long_n[3] = {2, 4, 8};
    double s = pow(10.0, hd_rng_uniform(rng, -9.0, -1.0));
    double len = pow(10.0, hd_rng_uniform(rng, -1.0, 1.0));
    int ks = hd_rng_int(rng, 3), kl = hd_rng_int(rng, 3);
    p->small = s;
    p->length = len;
    p->na = small_n[ks];
    p->nb = long_n[kl];
    for (int j = 0; j < 3 * p->na; ++j) {
        p->xa[j] = small_sets[ks][j] * s;
    }
    for (int j = 0; j < 3 * p->nb; ++j) {
        p->xb[j] = long_sets[kl][j] * (kl == 2 && j % 3 != 0 ? s : len); /* the box: len x s x s */
    }
    double t[3] = {s * hd_rng_uniform(rng, -1, 1), s * hd_rng_uniform(rng, -1, 1),
                   s * hd_rng_uniform(rng, -1, 1)};
    p->pose_a = hd_rng_pose(rng, t);
    p->pose_b = hd_rng_pose(rng, NULL);
}

void hd_needle_cloud_make(hd_rng *rng, hd_needle_pair *p)
{
    double s = pow(10.0, hd_rng_uniform(rng, -9.0, -1.0));
    double len = pow(10.0, hd_rng_uniform(rng, -1.0, 1.0));
    p->small = s;
    p->length = len;
    p->na = 4 + hd_rng_int(rng, 20);
    hd_points_cloud(rng, p->na, s, s, s, p->xa);
    p->nb = 4 + hd_rng_int(rng, 40);
    hd_points_ellipsoid(rng, p->nb, len, s * hd_rng_uniform(rng, 0.1, 10),
                        s * hd_rng_uniform(rng, 0.1, 10), p->xb);
    double t[3] = {s * hd_rng_uniform(rng, -1, 1), s * hd_rng_uniform(rng, -1, 1),
                   s * hd_rng_uniform(rng, -1, 1)};
    p->pose_a = hd_rng_pose(rng, t);
    p->pose_b = hd_rng_pose(rng, NULL);
}

/* The rotation by angle about the unit axis (Rodrigues' formula), row-major. */
static void axis_rotation(const double axis[3], double angle, double r[9])
{
    double c = cos(angle), s = sin(angle), k = 1.0 - c;
    double x = axis[0], y = axis[1], z = axis[2];
    double m[9] = {c + k * x * x,     k * x * y - s * z, k * x * z + s * y,
                   k * y * x + s * z, c + k * y * y,     k * y * z - s * x,
                   k * z * x - s * y, k * z * y + s * x, c + k * z * z};
    memcpy(r, m, sizeof m);
}

static void mat_mul(const double a[9], const double b[9], double out[9])
{
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            out[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
        }
    }
}

/* B's pose on A's top face (A's frame): turned by spin about z, tilted, its centre over (x, y)
 * and its lowest vertex at height top + lift. */
static hd_pose stacked_pose(const hd_needle_pair *p, hd_rng *rng, double top, double lift)
{
    static const double up[3] = {0, 0, 1};
    double spin[9], tilt[9], axis[3], r[9];
    double turn = hd_rng_uniform(rng, 0.0, 2.0 * HD_PI);
    axis_rotation(up, hd_rng_uniform(rng, 0.0, 2.0 * HD_PI), spin);
    axis[0] = cos(turn);
    axis[1] = sin(turn);
    axis[2] = 0.0;
    axis_rotation(axis, pow(10.0, hd_rng_uniform(rng, -12.0, -2.0)), tilt);
    mat_mul(tilt, spin, r);
    double lowest = INFINITY;
    for (int i = 0; i < p->nb; ++i) {
        const double *v = p->xb + 3 * i;
        lowest = fmin(lowest, r[6] * v[0] + r[7] * v[1] + r[8] * v[2]);
    }
    hd_pose pose;
    memcpy(pose.r, r, sizeof r);
    pose.t[0] = hd_rng_uniform(rng, -1.0, 1.0) * p->xa[21];
    pose.t[1] = hd_rng_uniform(rng, -1.0, 1.0) * p->xa[22];
    pose.t[2] = top + lift - lowest;
    return pose;
}

void hd_needle_stack_make(hd_rng *rng, hd_needle_pair *p)
{
    double scale = pow(10.0, hd_rng_uniform(rng, -3.0, 3.0));
    double ha[3], hb[3], la[3], lb[3];
    for (int k = 0; k < 3; ++k) {
        ha[k] = scale * hd_rng_uniform(rng, 0.2, 2.0);
        hb[k] = scale * hd_rng_uniform(rng, 0.2, 2.0);
        la[k] = -ha[k];
        lb[k] = -hb[k];
    }
    p->na = p->nb = 8;
    hd_points_box(la, ha, p->xa); /* xa[21..23]: the corner (+x, +y, +z) */
    hd_points_box(lb, hb, p->xb);
    int kind = hd_rng_int(rng, 3); /* above, below, or exactly on the face */
    double lift = kind == 2 ? 0.0 : scale * pow(10.0, hd_rng_uniform(rng, -12.0, -6.0));
    lift = kind == 1 ? -lift : lift;
    p->small = lift;
    p->length = scale;
    hd_pose rel = stacked_pose(p, rng, ha[2], lift);
    p->pose_a = hd_rng_pose(rng, NULL);
    mat_mul(p->pose_a.r, rel.r, p->pose_b.r);
    hd_pose_apply(&p->pose_a, rel.t, p->pose_b.t);
}

void hd_needle_twins_make(hd_rng *rng, hd_needle_pair *p)
{
    double half = pow(10.0, hd_rng_uniform(rng, -3.0, 3.0));
    p->na = p->nb = 4 + hd_rng_int(rng, 21);
    hd_points_cloud(rng, p->na, half, half, half, p->xa);
    memcpy(p->xb, p->xa, sizeof(double) * 3 * (size_t)p->na);
    double axis[3], turn[9], shift[3];
    hd_rng_unit_vector(rng, axis);
    axis_rotation(axis, pow(10.0, hd_rng_uniform(rng, -12.0, -1.0)), turn);
    double move = pow(10.0, hd_rng_uniform(rng, -12.0, 0.3));
    hd_rng_unit_vector(rng, shift);
    p->small = move;
    p->length = half;
    p->pose_a = hd_rng_pose(rng, NULL);
    mat_mul(p->pose_a.r, turn, p->pose_b.r);
    for (int k = 0; k < 3; ++k) {
        p->pose_b.t[k] = p->pose_a.t[k] + move * half * shift[k];
    }
}

void hd_needle_make(int family, hd_rng *rng, hd_needle_pair *np)
{
    if (family == HD_NEEDLE_CLOUD) {
        hd_needle_cloud_make(rng, np);
    } else if (family == HD_NEEDLE_STACK) {
        hd_needle_stack_make(rng, np);
    } else if (family == HD_NEEDLE_TWINS) {
        hd_needle_twins_make(rng, np);
    } else {
        hd_needle_pair_make(rng, np);
    }
}

void hd_needle_next(const hd_needle_case *c, hd_rng *gen, hd_rng *dirs, hd_needle_pair *np,
                    double dir[3])
{
    hd_needle_make(c->family, gen, np);
    if (c->far > 0.0) {
        double t[3];
        for (int j = 0; j < 3; ++j) {
            t[j] = hd_rng_uniform(gen, -c->far, c->far);
        }
        for (int j = 0; j < 3; ++j) {
            np->pose_a.t[j] += t[j];
            np->pose_b.t[j] += t[j];
        }
        hd_rng_unit_vector(gen, dir);
    } else {
        hd_rng_unit_vector(dirs, dir);
    }
}

void hd_needle_replay(const hd_needle_case *c, hd_needle_pair *np, double dir[3])
{
    hd_rng gen, dirs;
    hd_rng_init(&gen, c->seed);
    hd_rng_init(&dirs, c->seed + 1);
    double u[3];
    for (int i = 0; i <= c->index; ++i) {
        hd_needle_next(c, &gen, &dirs, np, u);
    }
    if (dir != NULL) {
        memcpy(dir, u, sizeof u);
    }
}
