/* hedra view --scene: the page's data of a scene file (keys in docs/VIEWER.md). Every frame is
 * run by the library as `hedra scene` runs it (hd_scene_step); the page gets each shape once (in
 * its own frame) and per frame the poses of the bodies present and the pairs in contact. */
#include <stdlib.h>
#include <string.h>

#include "scene_run.h"
#include "view.h"

/* {"name", "polytope"} of every shape, and {"name", "shape"} of every body of the file. */
static void json_shapes_bodies(FILE *fp, const hd_scene_run *r)
{
    fputs(",\"shapes\":[", fp);
    for (int i = 0; i < r->file.shape_count; ++i) {
        fputs(i ? ",{\"name\":" : "{\"name\":", fp);
        hd_json_string(fp, r->file.shapes[i].name);
        fputs(",\"polytope\":", fp);
        hd_view_json_polytope(fp, r->shapes[i], NULL);
        fputc('}', fp);
    }
    fputs("],\"bodies\":[", fp);
    for (int b = 0; b < r->file.body_count; ++b) {
        fputs(b ? ",{\"name\":" : "{\"name\":", fp);
        hd_json_string(fp, r->file.bodies[b].name);
        fprintf(fp, ",\"shape\":%d}", r->file.bodies[b].shape);
    }
    fputc(']', fp);
}

/* The bodies present: [body, r0..r8, t0..t2] each (the row-major rotation, the translation). */
static void json_poses(FILE *fp, const hd_scene_run *r)
{
    fputs("{\"poses\":[", fp);
    int first = 1;
    for (int b = 0; b < r->file.body_count; ++b) {
        hd_pose pose;
        if (r->id[b] < 0 || hd_scene_body(r->scene, r->id[b], NULL, &pose, NULL) != HD_OK) {
            continue;
        }
        fprintf(fp, "%s[%d", first ? "" : ",", b);
        for (int k = 0; k < 12; ++k) {
            fprintf(fp, ",%.9g", k < 9 ? pose.r[k] : pose.t[k - 9]);
        }
        fputc(']', fp);
        first = 0;
    }
    fputc(']', fp);
}

/* The contact of two scene bodies (--depth, --manifold), computed on their shapes and poses. */
static void json_pair_contact(FILE *fp, const hd_view_opts *o, const hd_scene_run *r, int ida,
                              int idb)
{
    const hd_polytope *a = NULL, *b = NULL;
    hd_pose pa, pb;
    hd_scene_body(r->scene, ida, &a, &pa, NULL);
    hd_scene_body(r->scene, idb, &b, &pb, NULL);
    if (a == NULL || b == NULL) { /* a compound body: its contact is the scene's, not drawn */
        fputs(",\"contact_error\":\"compound body\"", fp);
        return;
    }
    hd_options opt = o->query.query;
    opt.algo = o->query.algo;
    opt.workspace = NULL;
    hd_workspace_create(hd_contact_workspace_capacity(a, b), &opt.workspace);
    hd_signed_distance_result c;
    hd_manifold m;
    hd_status st = o->query.manifold ? hd_contact_manifold(a, &pa, b, &pb, &opt, &c, &m)
                                     : hd_signed_distance(a, &pa, b, &pb, &opt, &c);
    hd_workspace_destroy(opt.workspace);
    if (st == HD_OK) {
        hd_view_json_contact(fp, &c, o->query.manifold ? &m : NULL);
    } else {
        fputs(",\"contact_error\":", fp);
        hd_json_string(fp, hd_status_str(st));
    }
}

/* The pairs in contact: {"a", "b" (body indices of the file, a defined first), "verdict"}. */
static void json_contacts(FILE *fp, const hd_view_opts *o, const hd_scene_run *r,
                          const hd_scene_contact *c, int count)
{
    fputs(",\"contacts\":[", fp);
    for (int i = 0; i < count; ++i) {
        int a = *(const int *)c[i].user_a, b = *(const int *)c[i].user_b;
        int swap = a > b;
        fprintf(fp, "%s{\"a\":%d,\"b\":%d,\"verdict\":\"%s\"", i ? "," : "", swap ? b : a,
                swap ? a : b, hd_verdict_str(c[i].verdict));
        if (o->query.depth) {
            json_pair_contact(fp, o, r, swap ? c[i].b : c[i].a, swap ? c[i].a : c[i].b);
        }
        fputc('}', fp);
    }
    fputc(']', fp);
}

/* Every frame: its changes, the step, the poses and contacts. HD_EXIT_FAILURE when a pair query
 * failed (the frame says so), HD_EXIT_INPUT on a bad pose (printed) or no memory. */
static int json_frames(FILE *fp, const hd_view_opts *o, hd_scene_run *r)
{
    int code = HD_EXIT_OK;
    fputs(",\"frames\":[", fp);
    for (int f = 0; f < r->file.frame_count; ++f) {
        int applied = hd_scene_run_apply(r, f);
        if (applied != HD_EXIT_OK) {
            return applied;
        }
        const hd_scene_contact *c = NULL;
        int count = 0;
        hd_scene_stats st;
        hd_status s = hd_scene_step(r->scene, &c, &count, &st);
        if (s == HD_ERR_NO_MEMORY || s == HD_ERR_NULL) {
            fprintf(stderr, "hedra view: frame %d: %s\n", f, hd_status_str(s));
            return HD_EXIT_INPUT;
        }
        fputs(f ? "," : "", fp);
        json_poses(fp, r);
        json_contacts(fp, o, r, c, count);
        fprintf(fp, ",\"failures\":%d}", st.failures);
        if (s != HD_OK) {
            fprintf(stderr, "hedra view: frame %d: %d failed queries: %s\n", f, st.failures,
                    hd_status_str(s));
            code = HD_EXIT_FAILURE;
        }
    }
    fputc(']', fp);
    return code;
}

int hd_view_write_scene_data(FILE *fp, const hd_view_opts *o)
{
    hd_scene_options opt = hd_scene_options_default();
    opt.algo = o->query.algo;
    opt.tol = o->query.query.tol;
    hd_scene_run r;
    int code = hd_scene_run_open(&r, "view", o->scene, &opt);
    if (code == HD_EXIT_OK && o->frame >= r.file.frame_count) {
        fprintf(stderr, "hedra view: --frame %d: %s has %d frame%s (0 to %d)\n", o->frame, r.shown,
                r.file.frame_count, r.file.frame_count == 1 ? "" : "s", r.file.frame_count - 1);
        code = HD_EXIT_USAGE;
    }
    if (code == HD_EXIT_OK) {
        fprintf(fp, "{\"hedra\":\"%s\",\"kind\":\"scene\",\"name\":", hd_version_string());
        hd_json_string(fp, r.shown);
        fprintf(fp, ",\"algo\":\"%s\",\"depth\":%s,\"manifold\":%s,\"frame\":%d",
                hd_algo_str(o->query.algo), o->query.depth ? "true" : "false",
                o->query.manifold ? "true" : "false", o->frame);
        json_shapes_bodies(fp, &r);
        code = json_frames(fp, o, &r);
        fputc('}', fp);
    }
    hd_scene_run_free(&r);
    return code;
}
