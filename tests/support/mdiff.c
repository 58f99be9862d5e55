/* Brute-force face planes of M = A - B; see mdiff.h. */
#include <math.h>
#include <stdlib.h>

#include "mdiff.h"

/* R d in long double. */
static void rotated(const hd_pose *pose, const double d[3], long double out[3])
{
    for (int i = 0; i < 3; ++i) {
        out[i] = pose != NULL
                     ? (long double)pose->r[3 * i] * d[0] + (long double)pose->r[3 * i + 1] * d[1] +
                           (long double)pose->r[3 * i + 2] * d[2]
                     : d[i];
    }
}

/* R p + t in long double: the world coordinates far from the origin keep the digits that a
 * double (hd_pose_apply) would round away, about 2^-53 |t| (1.1e-12 at 1e4), which a travel
 * nearly along a facet's plane multiplies by 1 / |n.s|. */
static void posed(const hd_pose *pose, const double p[3], long double out[3])
{
    rotated(pose, p, out);
    for (int i = 0; pose != NULL && i < 3; ++i) {
        out[i] += pose->t[i];
    }
}

typedef struct hd_mdiff_in {
    int na, nb;
    long double *wa, *wb;
} hd_mdiff_in;

static long double extreme(const long double *w, int n, const double d[3], long double sign)
{
    long double best = -INFINITY;
    for (int i = 0; i < n; ++i) {
        long double x = sign * (d[0] * w[3 * i] + d[1] * w[3 * i + 1] + d[2] * w[3 * i + 2]);
        if (x > best) {
            best = x;
        }
    }
    return best;
}

static void add(hd_mdiff *m, const hd_mdiff_in *in, const long double d[3])
{
    long double len = sqrtl(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(len > 0)) {
        return;
    }
    double n[3] = {(double)(d[0] / len), (double)(d[1] / len), (double)(d[2] / len)};
    double *dst = m->n + 3 * m->count;
    dst[0] = n[0];
    dst[1] = n[1];
    dst[2] = n[2];
    m->h[m->count] = extreme(in->wa, in->na, n, 1) + extreme(in->wb, in->nb, n, -1);
    m->count++;
}

static void edge_dir(const hd_polytope *p, const long double *w, int e, long double d[3])
{
    int v[2], f[2];
    hd_polytope_edge(p, e, v, f);
    for (int i = 0; i < 3; ++i) {
        d[i] = w[3 * v[1] + i] - w[3 * v[0] + i];
    }
}

int hd_mdiff_build(hd_mdiff *m, const hd_polytope *a, const hd_pose *pa, const hd_polytope *b,
                   const hd_pose *pb)
{
    hd_mdiff_in in;
    in.na = hd_polytope_vertex_count(a);
    in.nb = hd_polytope_vertex_count(b);
    int fa = hd_polytope_face_count(a), fb = hd_polytope_face_count(b);
    int ea = hd_polytope_edge_count(a), eb = hd_polytope_edge_count(b);
    size_t cap = (size_t)fa + (size_t)fb + 2 * (size_t)ea * (size_t)eb;
    in.wa = malloc(3 * sizeof(long double) * (size_t)in.na);
    in.wb = malloc(3 * sizeof(long double) * (size_t)in.nb);
    m->n = malloc(3 * sizeof(double) * (cap + 1));
    m->h = malloc(sizeof(long double) * (cap + 1));
    m->count = 0;
    if (!in.wa || !in.wb || !m->n || !m->h) {
        free(in.wa);
        free(in.wb);
        hd_mdiff_free(m);
        return -1;
    }
    for (int i = 0; i < in.na; ++i) {
        posed(pa, hd_polytope_vertices(a) + 3 * i, in.wa + 3 * i);
    }
    for (int i = 0; i < in.nb; ++i) {
        posed(pb, hd_polytope_vertices(b) + 3 * i, in.wb + 3 * i);
    }
    for (int f = 0; f < fa; ++f) {
        double n[3], off;
        long double w[3];
        const int *loop;
        hd_polytope_face(a, f, n, &off, &loop);
        rotated(pa, n, w);
        add(m, &in, w);
    }
    for (int f = 0; f < fb; ++f) {
        double n[3], off;
        long double w[3];
        const int *loop;
        hd_polytope_face(b, f, n, &off, &loop);
        rotated(pb, n, w);
        w[0] = -w[0];
        w[1] = -w[1];
        w[2] = -w[2];
        add(m, &in, w);
    }
    for (int i = 0; i < ea; ++i) {
        long double da[3];
        edge_dir(a, in.wa, i, da);
        for (int j = 0; j < eb; ++j) {
            long double db[3], x[3];
            edge_dir(b, in.wb, j, db);
            x[0] = da[1] * db[2] - da[2] * db[1];
            x[1] = da[2] * db[0] - da[0] * db[2];
            x[2] = da[0] * db[1] - da[1] * db[0];
            long double s = sqrtl(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
            long double la = sqrtl(da[0] * da[0] + da[1] * da[1] + da[2] * da[2]);
            long double lb = sqrtl(db[0] * db[0] + db[1] * db[1] + db[2] * db[2]);
            if (!(s > 1e-12L * la * lb)) {
                continue; /* parallel edges: no facet of M */
            }
            add(m, &in, x);
            x[0] = -x[0];
            x[1] = -x[1];
            x[2] = -x[2];
            add(m, &in, x);
        }
    }
    free(in.wa);
    free(in.wb);
    return 0;
}

void hd_mdiff_free(hd_mdiff *m)
{
    free(m->n);
    free(m->h);
    m->n = NULL;
    m->h = NULL;
    m->count = 0;
}

static long double dotl(const double *a, const double *b)
{
    return (long double)a[0] * b[0] + (long double)a[1] * b[1] + (long double)a[2] * b[2];
}

long double hd_mdiff_exit(const hd_mdiff *m, const double c[3], const double r[3], int *which)
{
    long double best = -INFINITY;
    int arg = -1;
    for (int i = 0; i < m->count; ++i) {
        const double *n = m->n + 3 * i;
        long double den = m->h[i] - dotl(n, c);
        if (!(den > 0)) {
            continue;
        }
        long double psi = dotl(n, r) / den;
        if (psi > best) {
            best = psi;
            arg = i;
        }
    }
    if (which != NULL) {
        *which = arg;
    }
    return best;
}

long double hd_mdiff_sat(const hd_mdiff *m)
{
    long double best = INFINITY;
    for (int i = 0; i < m->count; ++i) {
        if (m->h[i] < best) {
            best = m->h[i];
        }
    }
    return best;
}

int hd_mdiff_chord(const hd_mdiff *m, const double s[3], long double *lo, long double *hi)
{
    long double a = -INFINITY, b = INFINITY;
    for (int i = 0; i < m->count; ++i) {
        long double ns = dotl(m->n + 3 * i, s);
        if (ns > 0) {
            long double t = m->h[i] / ns;
            b = t < b ? t : b;
        } else if (ns < 0) {
            long double t = m->h[i] / ns;
            a = t > a ? t : a;
        } else if (m->h[i] < 0) {
            return 0;
        }
    }
    *lo = a;
    *hi = b;
    return a <= b;
}

int hd_mdiff_interior(const hd_polytope *a, const hd_pose *pa, const hd_polytope *b,
                      const hd_pose *pb, double c[4][3])
{
    double all[4][3];
    long double len[4], best = -1;
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 2; ++j) {
            double p[3], q[3], cl;
            long double wp[3], wq[3];
            hd_polytope_interior(a, i, p, &cl);
            hd_polytope_interior(b, j, q, &cl);
            posed(pa, p, wp);
            posed(pb, q, wq);
            double *d = all[2 * i + j];
            for (int k = 0; k < 3; ++k) {
                d[k] = (double)(wp[k] - wq[k]);
            }
            len[2 * i + j] = sqrtl(dotl(d, d));
            best = len[2 * i + j] > best ? len[2 * i + j] : best;
        }
    }
    int n = 0;
    for (int k = 0; k < 4; ++k) {
        if (len[k] >= best * (1 - 1e-9L)) {
            c[n][0] = all[k][0];
            c[n][1] = all[k][1];
            c[n][2] = all[k][2];
            n++;
        }
    }
    return n;
}

long double hd_mdiff_chord_travel(long double lo, long double hi)
{
    return lo > 0 ? lo : hi < 0 ? -hi : fminl(hi, -lo);
}
