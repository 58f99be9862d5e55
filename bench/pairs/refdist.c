/* Reference Euclidean distance between conv(A) and conv(B), independent of the methods under
 * test, for the distance experiment.
 *
 * The distance is the norm of the nearest point to the origin of M = A - B = conv{a_i - b_j}.
 * Wolfe's algorithm (P. Wolfe, "Finding the nearest point in a polytope", Math. Programming 11,
 * 1976) finds it: keep a "corral" S of at most 4 points of M and convex weights w; the major cycle
 * adds the point p of M minimising x.p (brute force: min_i x.a_i - max_j x.b_j); the minor cycle
 * moves x to the affine minimiser of S when its affine weights are positive, otherwise as far as
 * the weights stay non-negative towards it and drops the points whose weight vanished.
 * Every x is a point of M, so |x| bounds the distance from above; min_{y in M} (x/|x|).y bounds it
 * from below (a separating plane). The iteration runs until they agree to 1e-6 tol (or stalls);
 * the upper bound is returned when they agree within tol. */
#include <math.h>

#include "pairs/bench.h"

typedef struct hd_ref_corral {
    int count;
    double s[4][3];
    double w[4];
} hd_ref_corral;

static double hd_ref_dot(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Point of M minimising d.y, written to p; returns d.p. */
static double hd_ref_support(const double *a, int na, const double *b, int nb, const double d[3],
                             double p[3])
{
    int ia = 0, ib = 0;
    double lo = hd_ref_dot(d, a), hi = hd_ref_dot(d, b);
    for (int i = 1; i < na; ++i) {
        double v = hd_ref_dot(d, a + 3 * i);
        if (v < lo) {
            lo = v, ia = i;
        }
    }
    for (int j = 1; j < nb; ++j) {
        double v = hd_ref_dot(d, b + 3 * j);
        if (v > hi) {
            hi = v, ib = j;
        }
    }
    for (int k = 0; k < 3; ++k) {
        p[k] = a[3 * ia + k] - b[3 * ib + k];
    }
    return lo - hi;
}

/* Affine minimiser of the corral: x = s0 + sum_{i>=1} beta_i (s_i - s0) with the normal equations
 * G beta = -D^T s0 (G = D^T D), solved by Gaussian elimination with partial pivoting. Writes the
 * affine weights alpha; returns -1 when the points are affinely dependent. */
static int hd_ref_affine(const hd_ref_corral *c, double alpha[4])
{
    int m = c->count - 1;
    double g[3][4];
    double d[3][3];
    for (int i = 0; i < m; ++i) {
        for (int k = 0; k < 3; ++k) {
            d[i][k] = c->s[i + 1][k] - c->s[0][k];
        }
    }
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < m; ++j) {
            g[i][j] = hd_ref_dot(d[i], d[j]);
        }
        g[i][m] = -hd_ref_dot(d[i], c->s[0]);
    }
    for (int col = 0; col < m; ++col) {
        int piv = col;
        for (int r = col + 1; r < m; ++r) {
            piv = fabs(g[r][col]) > fabs(g[piv][col]) ? r : piv;
        }
        if (fabs(g[piv][col]) < 1e-300) {
            return -1;
        }
        for (int k = 0; k <= m; ++k) {
            double t = g[col][k];
            g[col][k] = g[piv][k];
            g[piv][k] = t;
        }
        for (int r = 0; r < m; ++r) {
            if (r != col) {
                double f = g[r][col] / g[col][col];
                for (int k = col; k <= m; ++k) {
                    g[r][k] -= f * g[col][k];
                }
            }
        }
    }
    alpha[0] = 1.0;
    for (int i = 0; i < m; ++i) {
        alpha[i + 1] = g[i][m] / g[i][i];
        alpha[0] -= alpha[i + 1];
    }
    return 0;
}

static void hd_ref_point(const hd_ref_corral *c, double x[3])
{
    x[0] = x[1] = x[2] = 0.0;
    for (int i = 0; i < c->count; ++i) {
        for (int k = 0; k < 3; ++k) {
            x[k] += c->w[i] * c->s[i][k];
        }
    }
}

/* Minor cycles: returns -1 on an affinely dependent corral. */
static int hd_ref_minor(hd_ref_corral *c)
{
    for (int guard = 0; guard < 8; ++guard) {
        double alpha[4];
        if (hd_ref_affine(c, alpha) != 0) {
            return -1;
        }
        int positive = 1;
        for (int i = 0; i < c->count; ++i) {
            positive &= alpha[i] > 0.0;
        }
        if (positive) {
            for (int i = 0; i < c->count; ++i) {
                c->w[i] = alpha[i];
            }
            return 0;
        }
        double theta = 1.0;
        for (int i = 0; i < c->count; ++i) {
            if (alpha[i] <= 0.0) {
                theta = fmin(theta, c->w[i] / (c->w[i] - alpha[i]));
            }
        }
        int kept = 0;
        for (int i = 0; i < c->count; ++i) {
            double w = theta * alpha[i] + (1.0 - theta) * c->w[i];
            if (w > 1e-14) {
                c->w[kept] = w;
                for (int k = 0; k < 3; ++k) {
                    c->s[kept][k] = c->s[i][k];
                }
                kept++;
            }
        }
        c->count = kept;
        if (kept == 1) {
            c->w[0] = 1.0;
            return 0;
        }
    }
    return 0;
}

double hd_bench_reference_distance(const double *a, int na, const double *b, int nb, double tol)
{
    hd_ref_corral c = {1, {{0}}, {1.0}};
    for (int k = 0; k < 3; ++k) {
        c.s[0][k] = a[k] - b[k];
    }
    double x[3] = {c.s[0][0], c.s[0][1], c.s[0][2]};
    double upper = sqrt(hd_ref_dot(x, x)), lower = -HUGE_VAL;
    for (int iter = 0; iter < 1000 && upper > 0.0; ++iter) {
        double p[3];
        double xn = sqrt(hd_ref_dot(x, x));
        double d[3] = {x[0] / xn, x[1] / xn, x[2] / xn};
        lower = fmax(lower, hd_ref_support(a, na, b, nb, d, p));
        if (upper - lower <= 1e-6 * tol || c.count == 4) {
            break;
        }
        for (int k = 0; k < 3; ++k) {
            c.s[c.count][k] = p[k];
        }
        c.w[c.count++] = 0.0;
        if (hd_ref_minor(&c) != 0) {
            break;
        }
        hd_ref_point(&c, x);
        upper = fmin(upper, sqrt(hd_ref_dot(x, x)));
        if (upper <= 0.0) {
            break;
        }
    }
    return upper - lower <= tol && lower > 0.0 ? upper : NAN;
}
