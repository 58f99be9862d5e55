/* hedra view: the page's data as one JSON object (keys in docs/VIEWER.md). Every coordinate is in
 * the world frame: A at the identity, B at the pose of the command line. Drawing coordinates are
 * written with 9 significant digits (WebGL draws in single precision); the query's numbers with
 * 17, as `hedra collide --json` prints them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"

void hd_view_json_point(FILE *fp, const double p[3])
{
    fprintf(fp, "[%.9g,%.9g,%.9g]", p[0], p[1], p[2]);
}

void hd_view_json_polytope(FILE *fp, const hd_polytope *p, const hd_pose *pose)
{
    const double *v = hd_polytope_vertices(p);
    int nv = hd_polytope_vertex_count(p);
    fprintf(fp, "{\"dimension\":%d,\"radius\":%.17g,\"vertices\":[", hd_polytope_dimension(p),
            hd_polytope_radius(p));
    for (int i = 0; i < nv; ++i) {
        double x[3] = {v[3 * i], v[3 * i + 1], v[3 * i + 2]};
        if (pose != NULL) {
            hd_pose_apply(pose, x, x);
        }
        fputs(i ? "," : "", fp);
        hd_view_json_point(fp, x);
    }
    fputs("],\"faces\":[", fp);
    for (int f = 0; f < hd_polytope_face_count(p); ++f) {
        double normal[3], offset;
        const int *loop = NULL;
        int n = hd_polytope_face(p, f, normal, &offset, &loop);
        fputs(f ? ",[" : "[", fp);
        for (int k = 0; k < n; ++k) {
            fprintf(fp, "%s%d", k ? "," : "", loop[k]);
        }
        fputc(']', fp);
    }
    fputs("],\"edges\":[", fp);
    for (int e = 0; e < hd_polytope_edge_count(p); ++e) {
        int ends[2] = {0, 0}, faces[2];
        hd_polytope_edge(p, e, ends, faces);
        fprintf(fp, "%s[%d,%d]", e ? "," : "", ends[0], ends[1]);
    }
    fputs("]}", fp);
}

/* The hull of every difference a_i - b_j of posed vertices: the Minkowski difference A - B. */
static void json_difference(FILE *fp, const hd_polytope *a, const hd_polytope *b,
                            const hd_pose *pose_b)
{
    long na = hd_polytope_vertex_count(a), nb = hd_polytope_vertex_count(b);
    if (na * nb > HD_VIEW_DIFFERENCE_MAX) {
        fprintf(fp, "{\"omitted\":\"V_A * V_B = %ld differences of vertices, more than %d\"}",
                na * nb, HD_VIEW_DIFFERENCE_MAX);
        return;
    }
    double *pts = malloc(sizeof(double) * 3 * (size_t)(na * nb));
    hd_status st = HD_ERR_NO_MEMORY;
    hd_polytope *m = NULL;
    if (pts != NULL) {
        const double *va = hd_polytope_vertices(a), *vb = hd_polytope_vertices(b);
        for (long j = 0; j < nb; ++j) {
            double bj[3];
            hd_pose_apply(pose_b, vb + 3 * j, bj);
            for (long i = 0; i < na; ++i) {
                double *d = pts + 3 * (j * na + i);
                for (int c = 0; c < 3; ++c) {
                    d[c] = va[3 * i + c] - bj[c];
                }
            }
        }
        /* A - B of rounded shapes is the hulls' difference plus a ball of r_A + r_B */
        double r = hd_polytope_radius(a) + hd_polytope_radius(b);
        st = hd_polytope_build_rounded(pts, (int)(na * nb), r, NULL, &m);
    }
    free(pts);
    if (st == HD_OK) {
        hd_view_json_polytope(fp, m, NULL);
    } else {
        fprintf(fp, "{\"omitted\":\"the hull of the differences failed: %s\"}", hd_status_str(st));
    }
    hd_polytope_destroy(m);
}

/* A posed polytope's bounding-sphere centre and its extent [lo, hi] along a unit s. */
static void extent(const hd_polytope *p, const hd_pose *pose, const double s[3], double c[3],
                   double *lo, double *hi)
{
    double r;
    hd_polytope_sphere(p, c, &r);
    if (pose != NULL) {
        hd_pose_apply(pose, c, c);
    }
    const double *v = hd_polytope_vertices(p);
    *lo = HUGE_VAL;
    *hi = -HUGE_VAL;
    for (int i = 0; i < hd_polytope_vertex_count(p); ++i) {
        double x[3] = {v[3 * i], v[3 * i + 1], v[3 * i + 2]};
        if (pose != NULL) {
            hd_pose_apply(pose, x, x);
        }
        double h = s[0] * x[0] + s[1] * x[1] + s[2] * x[2];
        *lo = h < *lo ? h : *lo;
        *hi = h > *hi ? h : *hi;
    }
    *lo -= hd_polytope_radius(p); /* the core's extent widened by the rounding */
    *hi += hd_polytope_radius(p);
}

/* The motion of B: the unit direction s and the offsets [lo, hi] along it to sample. B moved by
 * tau s can overlap A only for tau in [a_lo - b_hi, a_hi - b_lo]; a quarter of that width is
 * added on each side, and the range includes 0 (the pose as given). */
static void motion_range(const hd_view_opts *o, const hd_polytope *a, const hd_polytope *b,
                         double s[3], double *lo, double *hi)
{
    double ca[3], cb[3], a_lo, a_hi, b_lo, b_hi;
    double x[3] = {1.0, 0.0, 0.0};
    extent(a, NULL, x, ca, &a_lo, &a_hi);
    extent(b, &o->query.pose_b, x, cb, &b_lo, &b_hi);
    for (int c = 0; c < 3; ++c) {
        s[c] = o->have_slide_dir ? o->slide_dir[c] : cb[c] - ca[c];
    }
    double len = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    if (!(len > 0.0) || !isfinite(len)) {
        s[0] = 1.0, s[1] = s[2] = 0.0, len = 1.0;
    }
    for (int c = 0; c < 3; ++c) {
        s[c] /= len;
    }
    extent(a, NULL, s, ca, &a_lo, &a_hi);
    extent(b, &o->query.pose_b, s, cb, &b_lo, &b_hi);
    double width = (a_hi - a_lo) + (b_hi - b_lo);
    width = width > 0.0 ? width : 1.0;
    *lo = fmin(a_lo - b_hi - 0.25 * width, 0.0);
    *hi = fmax(a_hi - b_lo + 0.25 * width, 0.0);
}

void hd_view_json_head(FILE *fp, const char *kind, const hd_view_opts *o)
{
    fprintf(fp, "{\"hedra\":\"%s\",\"kind\":\"%s\",\"names\":[", hd_version_string(), kind);
    hd_json_string(fp, o->files[0]);
    fputc(',', fp);
    hd_json_string(fp, o->files[1]);
    fputc(']', fp);
}

/* The contact's signed distance, normal, witnesses and, when asked, manifold points. */
void hd_view_json_contact(FILE *fp, const hd_signed_distance_result *c, const hd_manifold *m)
{
    fputs(",\"contact\":{\"signed_distance\":", fp);
    hd_json_double(fp, c->signed_distance);
    fputs(",\"normal\":", fp);
    hd_json_vec3(fp, c->normal);
    fputs(",\"witness_a\":", fp);
    hd_json_vec3(fp, c->witness_a);
    fputs(",\"witness_b\":", fp);
    hd_json_vec3(fp, c->witness_b);
    if (m != NULL) {
        fputs(",\"manifold\":[", fp);
        for (int i = 0; i < m->count; ++i) {
            fputs(i ? ",{\"point\":" : "{\"point\":", fp);
            hd_view_json_point(fp, m->points[i].point);
            fputs(",\"separation\":", fp);
            hd_json_double(fp, m->points[i].separation);
            fputc('}', fp);
        }
        fputc(']', fp);
    }
    fputc('}', fp);
}

/* One position of B: the algorithm's verdict, the distance with witnesses when separated, and
 * the signed distance (hd_signed_distance, or hd_contact_manifold with --manifold). */
static void json_sample(FILE *fp, const hd_view_opts *o, const hd_polytope *a, const hd_polytope *b,
                        const hd_pose *pose, hd_workspace *ws)
{
    hd_options opt = o->query.query;
    opt.algo = o->query.algo;
    hd_collide_result r;
    hd_distance_result d;
    hd_status st = hd_collide(a, NULL, b, pose, &opt, &r);
    fputs(",\"verdict\":", fp);
    if (st != HD_OK) {
        hd_json_string(fp, hd_status_str(st));
        fputs(",\"error\":true}", fp);
        return;
    }
    fprintf(fp, "\"%s\"", hd_verdict_str(r.verdict));
    if (r.verdict == HD_SEPARATED && hd_distance(a, NULL, b, pose, &opt, &d) == HD_OK) {
        fputs(",\"distance\":", fp);
        hd_json_double(fp, d.distance);
        fputs(",\"witness_a\":", fp);
        hd_json_vec3(fp, d.witness_a);
        fputs(",\"witness_b\":", fp);
        hd_json_vec3(fp, d.witness_b);
    }
    hd_signed_distance_result c;
    hd_manifold m;
    opt.workspace = ws;
    st = o->query.manifold ? hd_contact_manifold(a, NULL, b, pose, &opt, &c, &m)
                           : hd_signed_distance(a, NULL, b, pose, &opt, &c);
    if (st == HD_OK) {
        hd_view_json_contact(fp, &c, o->query.manifold ? &m : NULL);
    } else {
        fputs(",\"contact_error\":", fp);
        hd_json_string(fp, hd_status_str(st));
    }
    fputc('}', fp);
}

static void json_motion(FILE *fp, const hd_view_opts *o, const hd_polytope *a, const hd_polytope *b)
{
    double s[3], lo, hi;
    motion_range(o, a, b, s, &lo, &hi);
    fputs("{\"direction\":", fp);
    hd_json_vec3(fp, s);
    fputs(",\"signed_distance\":true,\"samples\":[", fp);
    hd_workspace *ws = NULL;
    if (hd_workspace_create(hd_contact_workspace_capacity(a, b), &ws) != HD_OK) {
        ws = NULL; /* the contact queries then use their stack scratch */
    }
    /* a grid of n offsets of step h through 0 (the pose as given is sample k0, exactly) */
    int n = o->slide_steps;
    double h = (hi - lo) / (n - 1);
    int k0 = (int)floor(-lo / h + 0.5);
    k0 = k0 < 0 ? 0 : k0 > n - 1 ? n - 1 : k0;
    for (int k = 0; k < n; ++k) {
        double tau = (k - k0) * h;
        hd_pose pose = o->query.pose_b;
        for (int c = 0; c < 3; ++c) {
            pose.t[c] += tau * s[c];
        }
        fprintf(fp, "%s{\"offset\":%.17g", k ? "," : "", tau);
        json_sample(fp, o, a, b, &pose, ws);
    }
    hd_workspace_destroy(ws);
    fputs("]}", fp);
}

/* With --depth: the contact of the pair as given, the keys `hedra collide --json --depth` prints
 * (cli_contact.c), in an object of their own (the query's witness_a and witness_b are the
 * distance's). */
static void json_contact(FILE *fp, const hd_cli_opts *run, const hd_cli_answer *ans)
{
    if (!run->depth) {
        fputs("null", fp);
        return;
    }
    fputs("{\"verdict\":", fp);
    if (ans->contact_status == HD_OK) {
        fprintf(fp, "\"%s\",\"eps\":", hd_verdict_str(ans->contact.verdict));
        hd_json_double(fp, ans->contact.eps);
        fputs(",\"size\":", fp);
        hd_json_double(fp, ans->contact.size);
    } else {
        fputs("null", fp);
    }
    hd_cli_print_contact_json(fp, run, ans);
    fputc('}', fp);
}

int hd_view_write_data(FILE *fp, const hd_view_opts *o, const hd_polytope *a, const hd_polytope *b)
{
    hd_cli_opts run = o->query;
    run.distance = 1;
    run.record_path = 0;
    run.workspace = NULL;
    hd_cli_answer ans;
    hd_cli_run(&run, run.algo, a, b, &ans);
    /* Recording makes GJK skip its portal start, so the path comes from a run of its own and
     * the numbers shown are those of the unrecorded query, `hedra collide`'s. */
    hd_cli_opts trace = o->query;
    trace.distance = trace.depth = trace.manifold = 0;
    trace.record_path = 1; /* hd_cli_run sizes the workspace for the pair */
    trace.workspace = NULL;
    hd_cli_answer traced;
    hd_cli_run(&trace, trace.algo, a, b, &traced);
    hd_view_json_head(fp, "pair", o);
    fputs(",\"a\":", fp);
    hd_view_json_polytope(fp, a, NULL);
    fputs(",\"b\":", fp);
    hd_view_json_polytope(fp, b, &o->query.pose_b);
    fputs(",\"query\":", fp);
    hd_cli_opts print = run;
    print.depth = print.manifold = 0; /* the contact is written in its own object */
    hd_cli_print_json(fp, NULL, &print, &ans);
    fputs(",\"contact\":", fp);
    json_contact(fp, &run, &ans);
    fputs(",\"difference\":", fp);
    json_difference(fp, a, b, &o->query.pose_b);
    fputs(",\"path\":", fp);
    hd_view_json_path(fp, &traced, trace.workspace, a, b, &o->query.pose_b);
    fputs(",\"motion\":", fp);
    json_motion(fp, o, a, b);
    int moved = hd_view_json_motion_keys(fp, o, a, b);
    fputs("}", fp);
    hd_workspace_destroy(run.workspace);
    hd_workspace_destroy(trace.workspace);
    int failed = ans.status != HD_OK || ans.distance_status != HD_OK || ans.cert_ok == 0 ||
                 ans.contact_status != HD_OK || !moved;
    return failed ? HD_EXIT_FAILURE : HD_EXIT_OK;
}
