/* Compound bodies in the collide and batch commands (tools/cli_compound.h). */
#include <stdlib.h>
#include <string.h>

#include "cli_compound.h"

static hd_status add_piece(const double *xyz, int n, const hd_tolerance *tol, hd_cli_body *out)
{
    hd_status st = hd_polytope_build(xyz, n, tol, &out->owned[out->owned_count]);
    if (st == HD_OK) {
        out->owned_count++;
    }
    return st;
}

hd_status hd_cli_body_from_points(const double *xyz, int count, int pieces, const int *sizes,
                                  const hd_tolerance *tol, hd_cli_body *out)
{
    memset(out, 0, sizeof *out);
    int k = pieces > 0 ? pieces : 1;
    out->owned = calloc((size_t)k, sizeof *out->owned);
    if (out->owned == NULL) {
        return HD_ERR_NO_MEMORY;
    }
    hd_status st = HD_OK;
    for (int i = 0, at = 0; st == HD_OK && i < k; ++i) {
        int n = pieces > 0 ? sizes[i] : count;
        st = add_piece(xyz + 3 * (size_t)at, n, tol, out);
        at += n;
    }
    if (st == HD_OK) {
        st = hd_compound_build((const hd_polytope *const *)out->owned, NULL, k, &out->compound);
    }
    if (st != HD_OK) {
        hd_cli_body_free(out);
    }
    return st;
}

void hd_cli_body_free(hd_cli_body *body)
{
    hd_compound_destroy(body->compound);
    for (int i = 0; i < body->owned_count; ++i) {
        hd_polytope_destroy(body->owned[i]);
    }
    free(body->owned);
    memset(body, 0, sizeof *body);
}

static int is_obj(const char *path, hd_format format)
{
    size_t n = strlen(path);
    return format == HD_FORMAT_OBJ ||
           (format == HD_FORMAT_AUTO && n >= 4 && strcmp(path + n - 4, ".obj") == 0);
}

int hd_cli_body_load(const char *path, hd_format format, hd_cli_body *out)
{
    memset(out, 0, sizeof *out);
    if (is_obj(path, format)) {
        hd_parse_error err;
        hd_status st = hd_compound_read_obj(path, NULL, &out->compound, &err);
        if (st != HD_OK) {
            char msg[600];
            hd_parse_error_format(&err, msg, (int)sizeof msg);
            fprintf(stderr, "hedra: %s\n", msg);
            return HD_EXIT_INPUT;
        }
        return 0;
    }
    hd_polytope *p = hd_cli_load(path, format);
    if (p == NULL) {
        return HD_EXIT_INPUT;
    }
    out->owned = malloc(sizeof *out->owned);
    hd_status st = out->owned != NULL ? HD_OK : HD_ERR_NO_MEMORY;
    if (st == HD_OK) {
        out->owned[0] = p;
        out->owned_count = 1;
        st = hd_compound_build((const hd_polytope *const *)out->owned, NULL, 1, &out->compound);
    }
    if (st != HD_OK) {
        if (out->owned_count == 0) {
            hd_polytope_destroy(p);
        }
        hd_cli_body_free(out);
        fprintf(stderr, "hedra: %s: %s\n", path, hd_status_str(st));
        return HD_EXIT_INPUT;
    }
    return 0;
}

static int compare_ll(const void *x, const void *y)
{
    long long a = *(const long long *)x, b = *(const long long *)y;
    return (a > b) - (a < b);
}

/* The collide query repeat times; the median time. */
static long long timed_collide(const hd_cli_opts *o, const hd_options *q, const hd_compound *a,
                               const hd_compound *b, hd_cli_compound_answer *ans)
{
    int k = o->repeat < 1 ? 1 : o->repeat;
    long long *samples = malloc(sizeof(long long) * (size_t)k), median = 0;
    for (int i = 0; i < k; ++i) {
        long long t0 = hd_cli_now_ns();
        ans->status = hd_compound_collide(a, &o->pose_a, b, &o->pose_b, q, &ans->result);
        if (samples != NULL) {
            samples[i] = hd_cli_now_ns() - t0;
        }
    }
    if (samples != NULL) {
        qsort(samples, (size_t)k, sizeof samples[0], compare_ll);
        median = samples[k / 2];
        free(samples);
    }
    return median;
}

/* The deciding pair's certificate, checked on its two pieces at their world poses. */
static int check_pair(const hd_cli_opts *o, const hd_compound *a, const hd_compound *b,
                      const hd_compound_collide_result *r)
{
    if (r->verdict == HD_SEPARATED) {
        return -1;
    }
    hd_pose pa, pb;
    hd_compound_piece_pose(a, &o->pose_a, r->piece_a, &pa);
    hd_compound_piece_pose(b, &o->pose_b, r->piece_b, &pb);
    return hd_certificate_check(hd_compound_piece(a, r->piece_a, NULL), &pa,
                                hd_compound_piece(b, r->piece_b, NULL), &pb, r->pair.verdict,
                                r->pair.eps, &r->pair.cert) == HD_OK;
}

void hd_cli_compound_run(const hd_cli_opts *o, hd_algo algo, const hd_compound *a,
                         const hd_compound *b, hd_cli_compound_answer *ans)
{
    memset(ans, 0, sizeof *ans);
    hd_options q = o->query;
    q.algo = algo;
    q.workspace = NULL; /* the piece queries fall back to GJK when CD-Dual outgrows the stack */
    ans->algo = algo;
    ans->ns = timed_collide(o, &q, a, b, ans);
    ans->cert_ok = ans->status == HD_OK && o->check ? check_pair(o, a, b, &ans->result) : -1;
    if (o->distance) {
        ans->distance_status =
            hd_compound_distance(a, &o->pose_a, b, &o->pose_b, &q, &ans->distance);
    }
    if (o->manifold) {
        ans->contact_status = hd_compound_contact_manifold(a, &o->pose_a, b, &o->pose_b, &q,
                                                           &ans->contact, &ans->manifold);
    } else if (o->depth) {
        ans->contact_status =
            hd_compound_signed_distance(a, &o->pose_a, b, &o->pose_b, &q, &ans->contact);
    }
}

int hd_cli_compound_failed(const hd_cli_compound_answer *ans)
{
    return ans->status != HD_OK || ans->distance_status != HD_OK || ans->cert_ok == 0 ||
           ans->contact_status != HD_OK;
}

static void pieces_json(FILE *fp, const char *key, int a, int b)
{
    fprintf(fp, ",\"%s\":[%d,%d]", key, a, b);
}

static void manifold_json(FILE *fp, const hd_compound_manifold *m)
{
    hd_manifold plain;
    memset(&plain, 0, sizeof plain);
    plain.count = m->count;
    for (int i = 0; i < m->count; ++i) {
        plain.points[i] = m->points[i].contact;
    }
    hd_cli_manifold_json(fp, &plain);
    fprintf(fp, ",\"manifold_pieces\":[");
    for (int i = 0; i < m->count; ++i) {
        fprintf(fp, "%s[%d,%d]", i ? "," : "", m->points[i].piece_a, m->points[i].piece_b);
    }
    fprintf(fp, "],\"contact_pairs\":%d", m->pairs);
}

static void contact_json(FILE *fp, const hd_cli_opts *o, const hd_cli_compound_answer *ans)
{
    if (ans->contact_status != HD_OK) {
        fprintf(fp, ",\"depth_error\":");
        hd_json_string(fp, hd_status_str(ans->contact_status));
        return;
    }
    hd_cli_contact_keys_json(fp, &ans->contact.pair);
    pieces_json(fp, "contact_pieces", ans->contact.piece_a, ans->contact.piece_b);
    if (o->query.flags & HD_QUERY_GRADIENT) {
        hd_cli_gradient_json(fp, &ans->contact.pair.gradient);
    }
    if (o->manifold) {
        manifold_json(fp, &ans->manifold);
    }
}

static void distance_json(FILE *fp, const hd_cli_opts *o, const hd_cli_compound_answer *ans)
{
    if (ans->distance_status != HD_OK) {
        fprintf(fp, ",\"distance_error\":");
        hd_json_string(fp, hd_status_str(ans->distance_status));
        return;
    }
    fprintf(fp, ",\"distance\":");
    hd_json_double(fp, ans->distance.distance);
    if (!o->depth) {
        fprintf(fp, ",\"witness_a\":");
        hd_json_vec3(fp, ans->distance.pair.witness_a);
        fprintf(fp, ",\"witness_b\":");
        hd_json_vec3(fp, ans->distance.pair.witness_b);
    }
    pieces_json(fp, "distance_pieces", ans->distance.piece_a, ans->distance.piece_b);
}

void hd_cli_compound_json(FILE *fp, const char *name, const hd_cli_opts *o,
                          const hd_cli_compound_answer *ans)
{
    if (!hd_cli_json_head(fp, name, ans->algo, ans->status)) {
        return;
    }
    const hd_compound_collide_result *r = &ans->result;
    fprintf(fp, ",\"verdict\":\"%s\"", hd_verdict_str(r->verdict));
    pieces_json(fp, "pieces", r->piece_a, r->piece_b);
    if (o->distance) {
        distance_json(fp, o, ans);
    }
    if (o->depth) {
        contact_json(fp, o, ans);
    }
    fprintf(fp, ",\"ns\":%lld,\"piece_pairs\":%lld,\"node_pairs\":%lld", ans->ns,
            r->stats.piece_pairs, r->stats.node_pairs);
    if (ans->cert_ok >= 0) {
        fprintf(fp, ",\"certificate_ok\":%s", ans->cert_ok ? "true" : "false");
    }
    fputc('}', fp);
}

void hd_cli_compound_text(FILE *fp, const hd_cli_opts *o, const hd_cli_compound_answer *ans)
{
    if (ans->status != HD_OK) {
        fprintf(fp, "algorithm: %s\nerror: %s\n", hd_algo_str(ans->algo),
                hd_status_str(ans->status));
        return;
    }
    const hd_compound_collide_result *r = &ans->result;
    fprintf(fp, "algorithm: %s\nverdict: %s\n", hd_algo_str(ans->algo), hd_verdict_str(r->verdict));
    if (r->verdict != HD_SEPARATED) {
        fprintf(fp, "pieces: %d of A, %d of B (certificate %s)\n", r->piece_a, r->piece_b,
                ans->cert_ok < 0 ? "not checked"
                : ans->cert_ok   ? "checked"
                                 : "REJECTED");
    }
    fprintf(fp, "piece pairs queried: %lld\n", r->stats.piece_pairs);
    if (o->distance && ans->distance_status == HD_OK) {
        const hd_distance_result *d = &ans->distance.pair;
        fprintf(fp,
                "distance: %.17g (pieces %d and %d)\nwitness A: %.17g %.17g %.17g\n"
                "witness B: %.17g %.17g %.17g\n",
                ans->distance.distance, ans->distance.piece_a, ans->distance.piece_b,
                d->witness_a[0], d->witness_a[1], d->witness_a[2], d->witness_b[0], d->witness_b[1],
                d->witness_b[2]);
    }
    if (o->depth && ans->contact_status == HD_OK) {
        const hd_signed_distance_result *c = &ans->contact.pair;
        fprintf(fp,
                "signed distance: %.17g (pieces %d and %d)\nnormal (A towards B): %.17g "
                "%.17g %.17g\n",
                ans->contact.signed_distance, ans->contact.piece_a, ans->contact.piece_b,
                c->normal[0], c->normal[1], c->normal[2]);
    }
    if (o->manifold && ans->contact_status == HD_OK) {
        fprintf(fp, "contact manifold: %d points from %d pairs of pieces\n", ans->manifold.count,
                ans->manifold.pairs);
        for (int i = 0; i < ans->manifold.count; ++i) {
            const hd_compound_contact_point *p = &ans->manifold.points[i];
            fprintf(fp, "  %.17g %.17g %.17g  separation %.17g  pieces %d %d\n",
                    p->contact.point[0], p->contact.point[1], p->contact.point[2],
                    p->contact.separation, p->piece_a, p->piece_b);
        }
    }
}
