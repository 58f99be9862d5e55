/* Brute-force separating-axis depth in long double; see depth_oracle.h. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "brute.h"
#include "depth_oracle.h"

typedef long double ld;

/* The posed vertices of p in long double (3 per vertex, malloc'd). */
static ld *posed(const hd_polytope *p, const hd_pose *pose)
{
    int n = hd_polytope_vertex_count(p);
    const double *v = hd_polytope_vertices(p);
    ld *out = malloc(3 * sizeof(ld) * (size_t)n);
    for (int i = 0; i < n; ++i) {
        for (int r = 0; r < 3; ++r) {
            ld x = v[3 * i + r];
            if (pose != NULL) {
                x = (ld)pose->r[3 * r] * v[3 * i] + (ld)pose->r[3 * r + 1] * v[3 * i + 1] +
                    (ld)pose->r[3 * r + 2] * v[3 * i + 2] + (ld)pose->t[r];
            }
            out[3 * i + r] = x;
        }
    }
    return out;
}

static ld extreme(const ld *w, int n, const ld u[3], ld sign)
{
    ld best = -INFINITY;
    for (int i = 0; i < n; ++i) {
        ld x = sign * (u[0] * w[3 * i] + u[1] * w[3 * i + 1] + u[2] * w[3 * i + 2]);
        best = x > best ? x : best;
    }
    return best;
}

typedef struct hd_oracle_in {
    ld *wa, *wb;
    int na, nb;
    ld best;
    double axis[3];
} hd_oracle_in;

static void try_axis(hd_oracle_in *in, const ld d[3])
{
    ld len = sqrtl(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(len > 0)) {
        return;
    }
    ld u[3] = {d[0] / len, d[1] / len, d[2] / len};
    ld h = extreme(in->wa, in->na, u, 1) + extreme(in->wb, in->nb, u, -1);
    if (h < in->best) {
        in->best = h;
        for (int k = 0; k < 3; ++k) {
            in->axis[k] = (double)u[k];
        }
    }
}

/* Newell's normal of face f of p (posed vertices w), outward for a counter-clockwise loop. */
static void newell(const hd_polytope *p, const ld *w, int f, ld n[3])
{
    double nd[3], off;
    const int *loop;
    int m = hd_polytope_face(p, f, nd, &off, &loop);
    n[0] = n[1] = n[2] = 0;
    for (int i = 0; i < m; ++i) {
        const ld *x = w + 3 * loop[i], *y = w + 3 * loop[(i + 1) % m];
        n[0] += (x[1] - y[1]) * (x[2] + y[2]);
        n[1] += (x[2] - y[2]) * (x[0] + y[0]);
        n[2] += (x[0] - y[0]) * (x[1] + y[1]);
    }
}

static void edge_dir(const hd_polytope *p, const ld *w, int e, ld d[3])
{
    int v[2], f[2];
    hd_polytope_edge(p, e, v, f);
    for (int k = 0; k < 3; ++k) {
        d[k] = w[3 * v[1] + k] - w[3 * v[0] + k];
    }
}

long double hd_oracle_depth(const hd_polytope *a, const hd_pose *pa, const hd_polytope *b,
                            const hd_pose *pb, double axis[3])
{
    hd_oracle_in in = {
        posed(a, pa), posed(b, pb), hd_polytope_vertex_count(a), hd_polytope_vertex_count(b),
        INFINITY,     {1, 0, 0}};
    ld n[3];
    for (int f = 0; f < hd_polytope_face_count(a); ++f) {
        newell(a, in.wa, f, n);
        try_axis(&in, n);
    }
    for (int f = 0; f < hd_polytope_face_count(b); ++f) {
        newell(b, in.wb, f, n);
        n[0] = -n[0], n[1] = -n[1], n[2] = -n[2];
        try_axis(&in, n);
    }
    for (int i = 0; i < hd_polytope_edge_count(a); ++i) {
        ld da[3], db[3], x[3];
        edge_dir(a, in.wa, i, da);
        for (int j = 0; j < hd_polytope_edge_count(b); ++j) {
            edge_dir(b, in.wb, j, db);
            x[0] = da[1] * db[2] - da[2] * db[1];
            x[1] = da[2] * db[0] - da[0] * db[2];
            x[2] = da[0] * db[1] - da[1] * db[0];
            try_axis(&in, x);
            x[0] = -x[0], x[1] = -x[1], x[2] = -x[2];
            try_axis(&in, x);
        }
    }
    if (axis != NULL) {
        for (int k = 0; k < 3; ++k) {
            axis[k] = in.axis[k];
        }
    }
    free(in.wa);
    free(in.wb);
    return in.best;
}

static ld max_abs(const ld *w, int n)
{
    ld m = 0;
    for (int i = 0; i < 3 * n; ++i) {
        m = fabsl(w[i]) > m ? fabsl(w[i]) : m;
    }
    return m;
}

long double hd_oracle_error(const hd_polytope *a, const hd_pose *pa, const hd_polytope *b,
                            const hd_pose *pb)
{
    ld *wa = posed(a, pa), *wb = posed(b, pb);
    ld m =
        fmaxl(max_abs(wa, hd_polytope_vertex_count(a)), max_abs(wb, hd_polytope_vertex_count(b)));
    free(wa);
    free(wb);
    return 16 * LDBL_EPSILON * m;
}

long double hd_oracle_support(const hd_polytope *a, const hd_pose *pa, const hd_polytope *b,
                              const hd_pose *pb, const double u[3])
{
    ld *wa = posed(a, pa), *wb = posed(b, pb);
    ld len = sqrtl((ld)u[0] * u[0] + (ld)u[1] * u[1] + (ld)u[2] * u[2]);
    ld v[3] = {u[0] / len, u[1] / len, u[2] / len};
    ld h = extreme(wa, hd_polytope_vertex_count(a), v, 1) +
           extreme(wb, hd_polytope_vertex_count(b), v, -1);
    free(wa);
    free(wb);
    return h;
}

long double hd_oracle_extreme(const hd_polytope *p, const hd_pose *pose, const double u[3])
{
    ld *w = posed(p, pose);
    ld v[3] = {u[0], u[1], u[2]};
    ld h = extreme(w, hd_polytope_vertex_count(p), v, 1);
    free(w);
    return h;
}

long double hd_oracle_outside(const hd_polytope *p, const hd_pose *pose, const double x[3])
{
    int nv = hd_polytope_vertex_count(p);
    if (hd_polytope_dimension(p) < 3) {
        double *w = malloc(3 * sizeof(double) * (size_t)nv);
        hd_brute_posed_vertices(p, pose, w);
        double d = hd_brute_distance(w, nv, x, 1, NULL, NULL);
        free(w);
        return d;
    }
    ld *w = posed(p, pose);
    ld worst = -INFINITY;
    for (int f = 0; f < hd_polytope_face_count(p); ++f) {
        ld n[3];
        newell(p, w, f, n);
        ld len = sqrtl(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        double nd[3], off;
        const int *loop;
        hd_polytope_face(p, f, nd, &off, &loop);
        const ld *q = w + 3 * loop[0];
        ld s = (n[0] * (x[0] - q[0]) + n[1] * (x[1] - q[1]) + n[2] * (x[2] - q[2])) / len;
        worst = s > worst ? s : worst;
    }
    free(w);
    return worst;
}
