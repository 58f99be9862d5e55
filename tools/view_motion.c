/* hedra view: the time of impact of the bodies under their twists (hd_toi, as `hedra cast`
 * computes it) with the poses to draw the sweep, and ray casts against A and B (hd_ray_cast, as
 * `hedra ray`). Keys in docs/VIEWER.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"

void hd_view_json_pose(FILE *fp, const hd_pose *pose)
{
    for (int k = 0; k < 12; ++k) {
        fprintf(fp, "%s%.9g", k ? "," : "[", k < 9 ? pose->r[k] : pose->t[k - 9]);
    }
    fputc(']', fp);
}

static void json_twist(FILE *fp, const hd_motion *m)
{
    fputs("{\"velocity\":", fp);
    hd_json_vec3(fp, m->v);
    fputs(",\"spin\":", fp);
    hd_json_vec3(fp, m->w);
    fputs(",\"centre\":", fp);
    hd_json_vec3(fp, m->c);
    fputc('}', fp);
}

/* One pose of the sweep: both bodies at time t, and their signed distance there. */
static void json_sweep_pose(FILE *fp, const hd_polytope *a, const hd_motion *ma,
                            const hd_polytope *b, const hd_motion *mb, double t, const char *mark)
{
    hd_pose pa, pb;
    hd_motion_pose(ma, t, &pa);
    hd_motion_pose(mb, t, &pb);
    fputs("{\"t\":", fp);
    hd_json_double(fp, t);
    fprintf(fp, ",\"mark\":%s%s%s,\"pose_a\":", mark ? "\"" : "", mark ? mark : "null",
            mark ? "\"" : "");
    hd_view_json_pose(fp, &pa);
    fputs(",\"pose_b\":", fp);
    hd_view_json_pose(fp, &pb);
    hd_signed_distance_result c;
    if (hd_signed_distance(a, &pa, b, &pb, NULL, &c) == HD_OK) {
        fputs(",\"signed_distance\":", fp);
        hd_json_double(fp, c.signed_distance);
    }
    fputc('}', fp);
}

/* HD_VIEW_SWEEP_POSES evenly spaced times over [0, 1], with lo and hi of a hit in their places. */
static void json_sweep(FILE *fp, const hd_polytope *a, const hd_motion *ma, const hd_polytope *b,
                       const hd_motion *mb, int hit, const hd_toi_result *r)
{
    double marks[2] = {hit ? r->lo : HUGE_VAL, hit ? r->hi : HUGE_VAL};
    const char *names[2] = {"lo", "hi"};
    int next = 0, first = 1;
    for (int k = 0; k < HD_VIEW_SWEEP_POSES; ++k) {
        double t = (double)k / (HD_VIEW_SWEEP_POSES - 1);
        while (next < 2 && marks[next] <= t) {
            fputs(first ? "" : ",", fp);
            json_sweep_pose(fp, a, ma, b, mb, marks[next], names[next]);
            ++next, first = 0;
        }
        fputs(first ? "" : ",", fp);
        json_sweep_pose(fp, a, ma, b, mb, t, NULL);
        first = 0;
    }
}

/* ,"toi":{motion_a, motion_b, hit, the keys of `hedra cast --json` but ns, sweep}. */
static int json_toi(FILE *fp, const hd_view_opts *o, const hd_polytope *a, const hd_polytope *b)
{
    hd_motion ma = hd_cli_twist_motion(&o->twist[0], &o->query.pose_a);
    hd_motion mb = hd_cli_twist_motion(&o->twist[1], &o->query.pose_b);
    hd_toi_options opt = hd_toi_options_default();
    opt.query.tol = o->query.query.tol;
    hd_toi_result r;
    hd_status st = hd_toi(a, &ma, b, &mb, &opt, &r);
    int hit = st == HD_OK && r.hit;
    fputs(",\"toi\":{\"motion_a\":", fp);
    json_twist(fp, &ma);
    fputs(",\"motion_b\":", fp);
    json_twist(fp, &mb);
    fprintf(fp, ",\"hit\":%s", hit ? "true" : "false");
    hd_cli_toi_json(fp, st, &r);
    fputs(",\"sweep\":[", fp);
    json_sweep(fp, a, &ma, b, &mb, hit, &r);
    fputs("]}", fp);
    return st == HD_OK;
}

/* The verdict of the posed p against the hull of n points (a point or a segment). */
static hd_verdict verdict_with(const hd_polytope *p, const hd_pose *pose, const double *xyz, int n,
                               hd_status *st)
{
    hd_polytope *q = NULL;
    hd_collide_result r;
    r.verdict = HD_SEPARATED;
    *st = hd_polytope_build(xyz, n, NULL, &q);
    if (*st == HD_OK) {
        *st = hd_collide(p, pose, q, NULL, NULL, &r);
    }
    hd_polytope_destroy(q);
    return r.verdict;
}

/* Whether the ray cast's answer holds for the rounded p, checked independently: a hit point
 * touches p, an origin found inside is in p, and a miss leaves p apart from the ray up to beyond
 * p's bounding sphere. A rounded shape's ray cast is checked so (the ray cast may answer for
 * the hull alone), and a wrong answer becomes an error on the page, never a hit drawn. */
static int ray_holds_rounded(const hd_view_opts *o, const hd_polytope *p, const hd_pose *pose,
                             const hd_ray_result *h)
{
    hd_status st;
    const double *d = o->ray_dir;
    if (h->hit) {
        hd_verdict v = verdict_with(p, pose, h->inside ? o->ray_origin : h->point, 1, &st);
        return st == HD_OK && (h->inside ? v != HD_SEPARATED : v == HD_TOUCHING);
    }
    double c[3], r;
    hd_polytope_sphere(p, c, &r);
    if (pose != NULL) {
        hd_pose_apply(pose, c, c);
    }
    double gap = 0.0, len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    for (int k = 0; k < 3; ++k) {
        gap += (o->ray_origin[k] - c[k]) * (o->ray_origin[k] - c[k]);
    }
    double far = 2.0 * (sqrt(gap) + r) / len; /* in units of d: past the sphere */
    double seg[6];
    for (int k = 0; k < 3; ++k) {
        seg[k] = o->ray_origin[k];
        seg[3 + k] = o->ray_origin[k] + far * d[k];
    }
    hd_verdict v = verdict_with(p, pose, seg, 2, &st);
    return st == HD_OK && v == HD_SEPARATED;
}

/* One body's ray cast: the keys of `hedra ray --json`, or "error" (a shape the ray cast does not
 * take, such as a point, or a rounded shape whose answer does not hold: the page says so, the
 * page is not a failure). */
static void json_ray(FILE *fp, const hd_view_opts *o, const hd_polytope *p, const hd_pose *pose)
{
    hd_ray_result h;
    hd_status st = hd_ray_cast(p, pose, o->ray_origin, o->ray_dir, HUGE_VAL, NULL, &h);
    fputc('{', fp);
    if (st == HD_OK && hd_polytope_radius(p) > 0.0 && !ray_holds_rounded(o, p, pose, &h)) {
        fputs("\"error\":\"the ray cast's answer does not hold for the rounded shape (it answers "
              "for the hull alone)\"",
              fp);
    } else if (st == HD_OK) {
        hd_cli_ray_json(fp, &h);
    } else {
        fputs("\"error\":", fp);
        hd_json_string(fp, hd_status_str(st));
    }
    fputc('}', fp);
}

int hd_view_json_motion_keys(FILE *fp, const hd_view_opts *o, const hd_polytope *a,
                             const hd_polytope *b)
{
    int ok = 1;
    if (o->have_twist) {
        ok &= json_toi(fp, o, a, b);
    }
    if (o->have_ray) {
        fputs(",\"ray\":{\"origin\":", fp);
        hd_json_vec3(fp, o->ray_origin);
        fputs(",\"dir\":", fp);
        hd_json_vec3(fp, o->ray_dir);
        fputs(",\"a\":", fp);
        json_ray(fp, o, a, NULL);
        fputs(",\"b\":", fp);
        json_ray(fp, o, b, &o->query.pose_b);
        fputc('}', fp);
    }
    return ok;
}
