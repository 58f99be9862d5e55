/* Time of impact by conservative advancement on certified distances (Mirtich 1996, "Impulse-based
 * dynamic simulation of rigid body systems", PhD thesis, section 2.3; Tang, Kim, Manocha 2009,
 * "C2A"), with the speed bound taken along the certificate's separating plane
 * (docs/algorithms/motion.md, sections 2 and 3). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "core/math.h"
#include "core/tolerances.h"
#include "motion/twist.h"
#include "polytope/internal.h"
#include "support/support.h"

/* What stays fixed over one query: the bodies, their reaches and speed bound, the band. */
typedef struct toi_setup {
    const hd_polytope *a, *b;
    const hd_motion *ma, *mb;
    double reach_a, reach_b;
    double speed;    /* |v_A| + |w_A| r_A + |v_B| + |w_B| r_B: no point pair closes faster */
    double eps;      /* the motion's band */
    double rounding; /* taken off every certified gap */
    hd_options query;
    double time_tol;
    int max_iterations;
} toi_setup;

/* One body at the time t of a sample, for the Taylor bound of section 3b. */
typedef struct taylor_body {
    const hd_polytope *p;
    const hd_motion *m;
    const hd_pose *pose; /* at t */
    double c[3];         /* the centre at t, c + t v */
    double reach;
} taylor_body;

/* One distance query at t: contact proven, or the time up to which the pair is proven apart. */
typedef struct toi_sample {
    bool contact;
    double free_until; /* HUGE_VAL: the plane separates for every later t */
} toi_sample;

hd_toi_options hd_toi_options_default(void)
{
    hd_toi_options o;
    o.query = hd_options_default();
    o.time_tol = HD_TOI_DEFAULT_TIME_TOL;
    o.max_iterations = HD_TOI_DEFAULT_ITERATIONS;
    return o;
}

static hd_status read_options(const hd_toi_options *opt, toi_setup *s)
{
    hd_toi_options o = opt != NULL ? *opt : hd_toi_options_default();
    if (!isfinite(o.time_tol)) {
        return HD_ERR_INVALID_ARG;
    }
    hd_status st = hd_tolerance_validate(&o.query.tol);
    if (st != HD_OK) {
        return st;
    }
    if ((int)o.query.algo < 0 || o.query.algo >= HD_ALGO_COUNT) {
        return HD_ERR_INVALID_ARG;
    }
    s->query = o.query;
    s->time_tol = o.time_tol > 0.0 ? o.time_tol : HD_TOI_DEFAULT_TIME_TOL;
    s->max_iterations = o.max_iterations > 0 ? o.max_iterations : HD_TOI_DEFAULT_ITERATIONS;
    return HD_OK;
}

/* Reaches, speed bound, the motion's scale (no point comes farther from the world origin than
 * |c| + |v| + reach) and the band and rounding taken from it. */
static hd_status setup_motion(toi_setup *s)
{
    s->reach_a = hdi_motion_reach(s->a, s->ma);
    s->reach_b = hdi_motion_reach(s->b, s->mb);
    s->speed = hdi_v3_len(s->ma->v) + hdi_v3_len(s->ma->w) * s->reach_a + hdi_v3_len(s->mb->v) +
               hdi_v3_len(s->mb->w) * s->reach_b;
    double scale = hdi_max(hdi_v3_len(s->ma->c) + hdi_v3_len(s->ma->v) + s->reach_a,
                           hdi_v3_len(s->mb->c) + hdi_v3_len(s->mb->v) + s->reach_b);
    if (!(scale <= HD_MAX_COORD) || !(s->speed <= HD_MAX_COORD) || scale < HD_MIN_SCALE) {
        return HD_ERR_RANGE;
    }
    s->eps = hdi_max(s->query.tol.touch_rel, HD_TOI_MIN_BAND_REL) * scale;
    s->rounding =
        (HD_MOTION_ROUNDING_UNITS * scale + HD_MOTION_STEP_UNITS * s->speed) * DBL_EPSILON;
    return HD_OK;
}

/* mu = n.(v_A - v_B) + |n x w_A| r_A + |n x w_B| r_B bounds the rate at which the gap of the
 * fixed plane n closes: a point p of A moves at v_A + w_A x (p - c_A(t)), whose component
 * along n is at most n.v_A + |n x w_A| |p - c_A(t)|, and |p - c_A(t)| <= r_A for all t. */
static double plane_speed(const toi_setup *s, const double n[3])
{
    double dv[3], na[3], nb[3];
    hdi_v3_sub(dv, s->ma->v, s->mb->v);
    hdi_v3_cross(na, n, s->ma->w);
    hdi_v3_cross(nb, n, s->mb->w);
    return hdi_v3_dot(n, dv) + hdi_v3_len(na) * s->reach_a + hdi_v3_len(nb) * s->reach_b +
           HD_MOTION_SPEED_UNITS * DBL_EPSILON * s->speed;
}

static void poses_at(const toi_setup *s, double t, hd_pose *pa, hd_pose *pb)
{
    hdi_motion_pose_at(s->ma, t, pa);
    hdi_motion_pose_at(s->mb, t, pb);
}

static void taylor_init(taylor_body *x, const hd_polytope *p, const hd_motion *m,
                        const hd_pose *pose, double t, double reach)
{
    x->p = p;
    x->m = m;
    x->pose = pose;
    for (int i = 0; i < 3; ++i) {
        x->c[i] = m->c[i] + t * m->v[i];
    }
    x->reach = reach;
}

/* max over the points y of the posed body of d.(y - c), and in *mag the magnitude its rounding
 * is relative to: d.(T - c) + max_v (R^T d).v + r |d| (the support climb's true maximiser). */
static double support_about(const taylor_body *x, const double d[3], double *mag)
{
    double local[3], tc[3];
    hdi_m3_tmul_v(local, x->pose->r, d);
    int k = hdi_support_climb(x->p, local, 0);
    const double *v = x->p->verts + 3 * k;
    hdi_v3_sub(tc, x->pose->t, x->c);
    double dn = hdi_v3_len(d);
    *mag = dn *
           (hdi_v3_max_abs(x->pose->t) + hdi_v3_max_abs(x->c) + 2.0 * x->p->max_abs + x->p->radius);
    return hdi_v3_dot(d, tc) + hdi_v3_dot(local, v) + x->p->radius * dn;
}

/* An upper bound (sign +1, body A) or minus a lower bound (sign -1, body B) of n.y(t + tau)
 * over the body's points y: n.c + tau n.v + h(sign (n + tau n x w)) + tau^2 |w|^2 r / 2, the
 * first-order Taylor model of the rotation with its remainder (section 3b). */
static double taylor_side(const taylor_body *x, const double n[3], double tau, double sign,
                          double *mag)
{
    double u[3], d[3];
    hdi_v3_cross(u, n, x->m->w);
    for (int i = 0; i < 3; ++i) {
        d[i] = sign * (n[i] + tau * u[i]);
    }
    double w2 = hdi_v3_dot(x->m->w, x->m->w);
    double rem = 0.5 * tau * tau * w2 * x->reach;
    double lin = hdi_v3_dot(n, x->c) + tau * hdi_v3_dot(n, x->m->v);
    double h = support_about(x, d, mag);
    *mag += hdi_v3_max_abs(x->c) + tau * hdi_v3_len(x->m->v) + rem;
    return sign * lin + h + rem;
}

/* L(tau) - margin: L(tau) = lower(B) - upper(A), a lower bound of the gap of the plane n at
 * t + tau, concave in tau (the supports are convex in the direction), less its rounding. */
static double taylor_room(const toi_setup *s, const taylor_body *a, const taylor_body *b,
                          const double n[3], double tau)
{
    double mag_a, mag_b;
    double up_a = taylor_side(a, n, tau, 1.0, &mag_a);
    double low_b = -taylor_side(b, n, tau, -1.0, &mag_b);
    double pad = HD_TOI_TAYLOR_UNITS * DBL_EPSILON * (mag_a + mag_b);
    return low_b - up_a - pad - s->rounding - s->eps;
}

/* The largest tau found in [0, span] with taylor_room(tau) > 0: then, L being concave, the gap
 * exceeds eps + rounding on all of [t, t + tau] (section 3b). Regula falsi, Illinois variant,
 * from room at tau = 0; each candidate is verified, so the search only chooses where to look. */
static double taylor_step(const toi_setup *s, const taylor_body *a, const taylor_body *b,
                          const double n[3], double span, double room)
{
    double lo = 0.0, f_lo = room - 0.5 * s->eps, hi = span;
    double f_hi = taylor_room(s, a, b, n, hi);
    if (f_hi > 0.0) {
        return span;
    }
    if (!(f_lo > 0.0)) {
        return 0.0;
    }
    int side = 0;
    for (int k = 0; k < HD_TOI_TAYLOR_SEARCH; ++k) {
        double c = lo + (hi - lo) * (f_lo / (f_lo - f_hi));
        if (!(c > lo && c < hi)) {
            break;
        }
        double f = taylor_room(s, a, b, n, c);
        if (f > 0.0) {
            lo = c;
            f_lo = f;
            f_hi *= side == 1 ? 0.5 : 1.0;
            side = 1;
        } else {
            hi = c;
            f_hi = f;
            f_lo *= side == -1 ? 0.5 : 1.0;
            side = -1;
        }
        if (f_lo <= HD_TOI_TAYLOR_SETTLE * room || hi - lo <= 0.25 * s->time_tol) {
            break;
        }
    }
    return lo;
}

/* Contact at t when the pair overlaps beyond its band, or its witnesses (a point of A and one of
 * B) lie within eps, or its own band (no wider than the motion's) calls it touching. Otherwise
 * the certificate's plane n, gap g proves the distance >= g - rounding - mu (t' - t) later on. */
static hd_status sample(const toi_setup *s, double t, toi_sample *out)
{
    hd_pose pa, pb;
    poses_at(s, t, &pa, &pb);
    hd_distance_result r;
    hd_status st = hd_distance(s->a, &pa, s->b, &pb, &s->query, &r);
    if (st != HD_OK) {
        return st;
    }
    double reach = hdi_v3_dist(r.witness_a, r.witness_b) + s->rounding;
    out->contact = r.verdict == HD_INTERSECTING || reach <= s->eps ||
                   (r.verdict == HD_TOUCHING && r.eps <= s->eps);
    out->free_until = t;
    if (out->contact || !r.cert.has_plane) {
        return HD_OK;
    }
    double room = r.cert.gap - s->rounding - 0.5 * s->eps;
    if (room <= 0.0) {
        return HD_OK; /* within rounding of the band: no progress provable here */
    }
    double mu = plane_speed(s, r.cert.normal);
    out->free_until = mu <= 0.0 ? HUGE_VAL : t + room / mu;
    if (out->free_until < 1.0) {
        taylor_body ba, bb;
        taylor_init(&ba, s->a, s->ma, &pa, t, s->reach_a);
        taylor_init(&bb, s->b, s->mb, &pb, t, s->reach_b);
        double step = taylor_step(s, &ba, &bb, r.cert.normal, 1.0 - t, room);
        out->free_until = hdi_max(out->free_until, step >= 1.0 - t ? HUGE_VAL : t + step);
    }
    return HD_OK;
}

/* The contact fields at hi, from hd_signed_distance at the poses of hi. */
static hd_status contact_at(const toi_setup *s, double hi, hd_toi_result *out)
{
    poses_at(s, hi, &out->pose_a, &out->pose_b);
    return hd_signed_distance(s->a, &out->pose_a, s->b, &out->pose_b, &s->query, &out->contact);
}

/* The advancement: lo only ever moves to a time proven free; a step shorter than time_tol asks
 * once whether lo + time_tol already touches, which ends the slow tail of a glancing approach. */
static hd_status advance(const toi_setup *s, hd_toi_result *out)
{
    double lo = 0.0, probed = -HUGE_VAL;
    while (out->iterations < s->max_iterations) {
        toi_sample now;
        ++out->iterations;
        hd_status st = sample(s, lo, &now);
        if (st != HD_OK) {
            out->lo = lo; /* still proven, whatever stopped the query */
            return st;
        }
        if (now.contact) {
            out->hit = true;
            out->lo = out->hi = lo;
            return HD_OK;
        }
        if (now.free_until >= 1.0) {
            out->lo = out->hi = 1.0;
            return HD_OK;
        }
        if (now.free_until == lo) {
            break; /* no provable progress: the band is below the rounding */
        }
        double probe = lo + s->time_tol;
        if (now.free_until - lo < s->time_tol && probe <= 1.0 && probe >= probed + s->time_tol &&
            out->iterations < s->max_iterations) {
            toi_sample ahead;
            ++out->iterations;
            probed = probe;
            if ((st = sample(s, probe, &ahead)) != HD_OK) {
                out->lo = now.free_until;
                return st;
            }
            if (ahead.contact) {
                out->hit = true;
                out->lo = now.free_until;
                out->hi = probe;
                return HD_OK;
            }
        }
        lo = now.free_until;
    }
    out->lo = lo;
    return HD_ERR_ITERATION_LIMIT;
}

hd_status hd_toi(const hd_polytope *a, const hd_motion *motion_a, const hd_polytope *b,
                 const hd_motion *motion_b, const hd_toi_options *opt, hd_toi_result *out)
{
    if (out == NULL) {
        return HD_ERR_NULL;
    }
    memset(out, 0, sizeof *out);
    if (a == NULL || b == NULL) {
        return HD_ERR_NULL;
    }
    toi_setup s = {.a = a, .b = b, .ma = motion_a, .mb = motion_b};
    hd_status st = hdi_motion_validate(motion_a);
    if (st == HD_OK) {
        st = hdi_motion_validate(motion_b);
    }
    if (st == HD_OK) {
        st = read_options(opt, &s);
    }
    if (st == HD_OK) {
        st = setup_motion(&s);
    }
    if (st != HD_OK) {
        return st;
    }
    hd_cache local = HD_CACHE_INIT;
    if (s.query.cache == NULL) {
        s.query.cache = &local;
    }
    out->eps = s.eps;
    st = advance(&s, out);
    if (st == HD_OK && out->hit) {
        out->toi = out->hi;
        st = contact_at(&s, out->hi, out);
    } else if (st == HD_OK) {
        out->toi = 1.0;
    }
    if (st != HD_OK && st != HD_ERR_ITERATION_LIMIT) {
        memset(out, 0, sizeof *out);
    }
    return st;
}

hd_status hd_shape_cast(const hd_polytope *a, const hd_pose *pose_a, const hd_polytope *b,
                        const hd_pose *pose_b, const double translation_b[3],
                        const hd_toi_options *opt, hd_toi_result *out)
{
    static const double none[3] = {0.0, 0.0, 0.0};
    hd_motion ma, mb;
    hd_status st = hd_motion_translation(pose_a, none, &ma);
    if (st == HD_OK) {
        st = hd_motion_translation(pose_b, translation_b, &mb);
    }
    if (st != HD_OK) {
        if (out != NULL) {
            memset(out, 0, sizeof *out);
        }
        return st;
    }
    return hd_toi(a, &ma, b, &mb, opt, out);
}
