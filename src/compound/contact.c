/* The contact manifold of two compounds and the enclosure of points by a compound
 * (docs/algorithms/compound.md, sections 5 and 6). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compound/internal.h"
#include "core/math.h"

/* Points gathered from the pairs in contact before the next reduction to HD_MANIFOLD_MAX. */
#define HDI_COMPOUND_GATHER 64

typedef struct hdi_cmanifold {
    const hd_compound *a;
    const hd_compound *b;
    const hdi_cquery *q;
    double normal[3]; /* the deepest pair's */
    hd_compound_contact_point pts[HDI_COMPOUND_GATHER + HD_MANIFOLD_MAX];
    int count;
    int pairs;
} hdi_cmanifold;

static double area_along(const double *p, const double *q, const double *r, const double n[3])
{
    double u[3], w[3], x[3];
    hdi_v3_sub(u, q, p);
    hdi_v3_sub(w, r, p);
    hdi_v3_cross(x, u, w);
    return hdi_v3_dot(x, n);
}

/* The index of the point (not in skip) maximising score; -1 when none scores above zero. */
typedef double (*hdi_cscore)(const hdi_cmanifold *m, const int keep[4], int i);

static double farthest_score(const hdi_cmanifold *m, const int keep[4], int i)
{
    return hdi_v3_dist(m->pts[i].contact.point, m->pts[keep[0]].contact.point);
}

static double side_area(const hdi_cmanifold *m, const int keep[4], int i, int sign)
{
    const hd_compound_contact_point *p = m->pts;
    double a = area_along(p[keep[0]].contact.point, p[keep[1]].contact.point, p[i].contact.point,
                          m->normal);
    return sign * a;
}

static double area_score(const hdi_cmanifold *m, const int keep[4], int i)
{
    return fabs(side_area(m, keep, i, 1));
}

static double other_side_score(const hdi_cmanifold *m, const int keep[4], int i)
{
    return side_area(m, keep, keep[2], 1) > 0.0 ? side_area(m, keep, i, -1)
                                                : side_area(m, keep, i, 1);
}

static int best_point(const hdi_cmanifold *m, const int keep[4], int kept, hdi_cscore score)
{
    int best = -1;
    double top = 0.0;
    for (int i = 0; i < m->count; ++i) {
        int taken = 0;
        for (int k = 0; k < kept; ++k) {
            taken |= keep[k] == i;
        }
        double s = taken ? 0.0 : score(m, keep, i);
        if (s > top) {
            top = s;
            best = i;
        }
    }
    return best;
}

/* Keeps the deepest point, the farthest from it, the largest triangle with both and the largest
 * on the other side of the first two (seen along the deepest pair's normal). */
static void reduce(hdi_cmanifold *m)
{
    if (m->count <= HD_MANIFOLD_MAX) {
        return;
    }
    int keep[4] = {0, -1, -1, -1}, kept = 1;
    for (int i = 1; i < m->count; ++i) {
        if (m->pts[i].contact.separation < m->pts[keep[0]].contact.separation) {
            keep[0] = i;
        }
    }
    hdi_cscore scores[3] = {farthest_score, area_score, other_side_score};
    for (int s = 0; s < 3; ++s) {
        int k = best_point(m, keep, kept, scores[s]);
        if (k < 0) {
            break;
        }
        keep[kept++] = k;
    }
    hd_compound_contact_point out[HD_MANIFOLD_MAX];
    for (int k = 0; k < kept; ++k) {
        out[k] = m->pts[keep[k]];
    }
    memcpy(m->pts, out, (size_t)kept * sizeof *out);
    m->count = kept;
}

static hd_status visit_contact(hdi_cvisit *v, int i, int j)
{
    hdi_cmanifold *m = v->ctx;
    hd_pose pa, pb;
    hdi_compound_world_pose(m->a, &m->q->frame.pa, i, &pa);
    hdi_compound_world_pose(m->b, &m->q->frame.pb, j, &pb);
    hd_manifold man;
    hd_status st = hd_contact_manifold(m->a->pieces[i].poly, &pa, m->b->pieces[j].poly, &pb,
                                       &m->q->opt, NULL, &man);
    if (st != HD_OK || man.count == 0) {
        return st;
    }
    m->pairs++;
    for (int k = 0; k < man.count; ++k) {
        hd_compound_contact_point *p = &m->pts[m->count++];
        p->contact = man.points[k];
        p->piece_a = i;
        p->piece_b = j;
        hdi_v3_copy(p->normal, man.normal);
    }
    if (m->count > HDI_COMPOUND_GATHER) {
        reduce(m);
    }
    return HD_OK;
}

hd_status hd_compound_contact_manifold(const hd_compound *a, const hd_pose *pose_a,
                                       const hd_compound *b, const hd_pose *pose_b,
                                       const hd_options *opt,
                                       hd_compound_signed_distance_result *contact,
                                       hd_compound_manifold *out)
{
    if (out == NULL) {
        return HD_ERR_NULL;
    }
    memset(out, 0, sizeof *out);
    hd_compound_signed_distance_result sd;
    hd_status st = hd_compound_signed_distance(a, pose_a, b, pose_b, opt, &sd);
    if (st != HD_OK) {
        return st;
    }
    if (contact != NULL) {
        *contact = sd;
    }
    hdi_v3_copy(out->normal, sd.pair.normal);
    if (sd.pair.verdict == HD_SEPARATED) {
        return HD_OK;
    }
    hdi_cquery q;
    st = hdi_compound_query_init(&q, a, pose_a, b, pose_b, opt);
    hdi_cmanifold m;
    m.a = a;
    m.b = b;
    m.q = &q;
    m.count = m.pairs = 0;
    hdi_v3_copy(m.normal, sd.pair.normal);
    hdi_cvisit v = {0.0, 0, visit_contact, &m};
    hd_compound_stats stats = {0, 0};
    if (st == HD_OK) {
        st = hdi_compound_descend(a, b, &q.frame, &v, &stats);
    }
    if (st != HD_OK) {
        return st;
    }
    reduce(&m);
    out->count = m.count;
    out->pairs = m.pairs;
    memcpy(out->points, m.pts, (size_t)m.count * sizeof *m.pts);
    return HD_OK;
}
