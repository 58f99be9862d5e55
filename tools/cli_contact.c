/* The contact part of collide and batch (--depth, --manifold): hd_signed_distance or
 * hd_contact_manifold, printed as JSON keys (docs/FORMATS.md) or for humans. */
#include <stdlib.h>
#include <string.h>

#include "cli_query.h"

static int compare_ll(const void *x, const void *y)
{
    long long a = *(const long long *)x, b = *(const long long *)y;
    return (a > b) - (a < b);
}

void hd_cli_run_contact(const hd_cli_opts *o, const hd_polytope *a, const hd_polytope *b,
                        hd_cli_answer *ans)
{
    ans->contact_status = HD_OK;
    if (!o->depth) {
        return;
    }
    hd_options q = o->query;
    q.workspace = NULL;
    q.flags &= ~(unsigned)HD_QUERY_RECORD_PATH;
    if (hd_workspace_create(hd_contact_workspace_capacity(a, b), &q.workspace) != HD_OK) {
        ans->contact_status = HD_ERR_NO_MEMORY;
        return;
    }
    int k = o->repeat < 1 ? 1 : o->repeat;
    long long stack_samples[64];
    long long *samples = k <= 64 ? stack_samples : malloc(sizeof(long long) * (size_t)k);
    for (int i = 0; i < k; ++i) {
        long long t0 = hd_cli_now_ns();
        ans->contact_status =
            o->manifold ? hd_contact_manifold(a, &o->pose_a, b, &o->pose_b, &q, &ans->contact,
                                              &ans->manifold)
                        : hd_signed_distance(a, &o->pose_a, b, &o->pose_b, &q, &ans->contact);
        long long t1 = hd_cli_now_ns();
        if (samples != NULL) {
            samples[i] = t1 - t0;
        }
    }
    if (samples != NULL) {
        qsort(samples, (size_t)k, sizeof samples[0], compare_ll);
        ans->contact_ns = samples[k / 2];
        if (samples != stack_samples) {
            free(samples);
        }
    }
    hd_workspace_destroy(q.workspace);
}

static void feature_json(FILE *fp, const char *key, hd_feature_id f)
{
    fprintf(fp, ",\"%s\":{\"type\":\"%s\",\"index\":%d}", key, hd_feature_type_str(f.type),
            f.index);
}

static const char *const hd_method_names[] = {"none", "epa", "sat"};

void hd_cli_manifold_json(FILE *fp, const hd_manifold *m)
{
    fprintf(fp, ",\"manifold\":[");
    for (int i = 0; i < m->count; ++i) {
        const hd_contact_point *p = &m->points[i];
        fprintf(fp, "%s{\"point\":", i ? "," : "");
        hd_json_vec3(fp, p->point);
        fprintf(fp, ",\"separation\":");
        hd_json_double(fp, p->separation);
        feature_json(fp, "feature_a", p->feature_a);
        feature_json(fp, "feature_b", p->feature_b);
        fputc('}', fp);
    }
    fputc(']', fp);
}

void hd_cli_contact_keys_json(FILE *fp, const hd_signed_distance_result *c)
{
    fprintf(fp, ",\"signed_distance\":");
    hd_json_double(fp, c->signed_distance);
    fprintf(fp, ",\"normal\":");
    hd_json_vec3(fp, c->normal);
    fprintf(fp, ",\"witness_a\":");
    hd_json_vec3(fp, c->witness_a);
    fprintf(fp, ",\"witness_b\":");
    hd_json_vec3(fp, c->witness_b);
    fprintf(fp, ",\"bounds\":[");
    hd_json_double(fp, c->lower);
    fputc(',', fp);
    hd_json_double(fp, c->upper);
    fputc(']', fp);
    feature_json(fp, "feature_a", c->feature_a);
    feature_json(fp, "feature_b", c->feature_b);
    fprintf(fp, ",\"depth_method\":\"%s\"", hd_method_names[c->method % 3]);
}

static void six_json(FILE *fp, const char *key, const double v[6])
{
    fprintf(fp, ",\"%s\":[", key);
    for (int k = 0; k < 6; ++k) {
        if (k > 0) {
            fputc(',', fp);
        }
        hd_json_double(fp, v[k]);
    }
    fputc(']', fp);
}

void hd_cli_gradient_json(FILE *fp, const hd_pose_gradient *g)
{
    six_json(fp, "gradient_a", g->a);
    six_json(fp, "gradient_b", g->b);
    fprintf(fp, ",\"gradient_unique\":%s", g->unique ? "true" : "false");
}

void hd_cli_print_contact_json(FILE *fp, const hd_cli_opts *o, const hd_cli_answer *ans)
{
    if (!o->depth) {
        return;
    }
    if (ans->contact_status != HD_OK) {
        fprintf(fp, ",\"depth_error\":");
        hd_json_string(fp, hd_status_str(ans->contact_status));
        return;
    }
    hd_cli_contact_keys_json(fp, &ans->contact);
    fprintf(fp, ",\"depth_ns\":%lld", ans->contact_ns);
    if (o->query.flags & HD_QUERY_GRADIENT) {
        hd_cli_gradient_json(fp, &ans->contact.gradient);
    }
    if (o->manifold) {
        hd_cli_manifold_json(fp, &ans->manifold);
    }
}

void hd_cli_print_contact_text(FILE *fp, const hd_cli_opts *o, const hd_cli_answer *ans)
{
    if (!o->depth) {
        return;
    }
    if (ans->contact_status != HD_OK) {
        fprintf(fp, "signed distance: error: %s\n", hd_status_str(ans->contact_status));
        return;
    }
    const hd_signed_distance_result *c = &ans->contact;
    fprintf(fp, "signed distance: %.17g (%s)\n", c->signed_distance, hd_verdict_str(c->verdict));
    fprintf(fp, "proven: %.17g <= signed distance <= %.17g\n", c->lower, c->upper);
    if (c->verdict != HD_SEPARATED) {
        fprintf(fp, "penetration depth: %.17g (%s)\n", -c->signed_distance,
                hd_method_names[c->method % 3]);
    }
    fprintf(fp, "normal (A towards B): %.17g %.17g %.17g\n", c->normal[0], c->normal[1],
            c->normal[2]);
    fprintf(fp, "witness on A: %.17g %.17g %.17g\n", c->witness_a[0], c->witness_a[1],
            c->witness_a[2]);
    fprintf(fp, "witness on B: %.17g %.17g %.17g\n", c->witness_b[0], c->witness_b[1],
            c->witness_b[2]);
    fprintf(fp, "features: A %s %d, B %s %d\n", hd_feature_type_str(c->feature_a.type),
            c->feature_a.index, hd_feature_type_str(c->feature_b.type), c->feature_b.index);
    if (!o->manifold) {
        return;
    }
    fprintf(fp, "contact manifold: %d point%s\n", ans->manifold.count,
            ans->manifold.count == 1 ? "" : "s");
    for (int i = 0; i < ans->manifold.count; ++i) {
        const hd_contact_point *p = &ans->manifold.points[i];
        fprintf(fp, "  %.17g %.17g %.17g separation %.6g (A %s %d, B %s %d)\n", p->point[0],
                p->point[1], p->point[2], p->separation, hd_feature_type_str(p->feature_a.type),
                p->feature_a.index, hd_feature_type_str(p->feature_b.type), p->feature_b.index);
    }
}
