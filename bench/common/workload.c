/* The benchmark workload: seeded point sets, rotations and the pair-file format; see workload.h. */
#include "common/workload.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* splitmix64 (Steele, Lea, Flood 2014): a Weyl sequence passed through a 64-bit mixer. */
void hd_wl_rng_init(hd_wl_rng *rng, uint64_t seed)
{
    rng->state = seed;
}

uint64_t hd_wl_rng_next(hd_wl_rng *rng)
{
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double hd_wl_rng_uniform(hd_wl_rng *rng)
{
    return (double)(hd_wl_rng_next(rng) >> 11) * 0x1.0p-53;
}

int hd_wl_rng_int(hd_wl_rng *rng, int n)
{
    return n <= 0 ? 0 : (int)(hd_wl_rng_next(rng) % (uint64_t)n);
}

/* Box-Muller: a standard normal from two uniforms (the first kept away from 0). */
static double hd_wl_rng_normal(hd_wl_rng *rng)
{
    double u = 0x1.0p-53 + hd_wl_rng_uniform(rng) * (1.0 - 0x1.0p-53);
    double v = hd_wl_rng_uniform(rng);
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

/* A normalized vector of three independent normals is uniform on the sphere (Muller 1959). */
void hd_wl_rng_unit(hd_wl_rng *rng, double out[3])
{
    double len;
    do {
        out[0] = hd_wl_rng_normal(rng);
        out[1] = hd_wl_rng_normal(rng);
        out[2] = hd_wl_rng_normal(rng);
        len = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2]);
    } while (len < 1e-3);
    out[0] /= len;
    out[1] /= len;
    out[2] /= len;
}

uint64_t hd_wl_seed(uint64_t base, uint64_t i, uint64_t j, uint64_t k)
{
    hd_wl_rng rng;
    hd_wl_rng_init(&rng, base);
    uint64_t s = hd_wl_rng_next(&rng);
    uint64_t parts[3] = {i, j, k};
    for (int p = 0; p < 3; ++p) {
        rng.state = s ^ (parts[p] * 0xD1B54A32D192ED03ull);
        s = hd_wl_rng_next(&rng);
    }
    return s;
}

void hd_wl_ellipsoid_points(hd_wl_rng *rng, int n, hd_wl_shape shape, double *xyz)
{
    for (int i = 0; i < n; ++i) {
        double u[3];
        hd_wl_rng_unit(rng, u);
        xyz[3 * i + 0] = shape.a * u[0];
        xyz[3 * i + 1] = shape.b * u[1];
        xyz[3 * i + 2] = shape.c * u[2];
    }
}

/* A unit quaternion with four independent normal components is uniform on S^3, hence a uniformly
 * random rotation (Shoemake 1992); the matrix is the usual quaternion-to-rotation formula. */
void hd_wl_random_rotation(hd_wl_rng *rng, double r[9])
{
    double q[4], len;
    do {
        for (int i = 0; i < 4; ++i) {
            q[i] = hd_wl_rng_normal(rng);
        }
        len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    } while (len < 1e-3);
    double w = q[0] / len, x = q[1] / len, y = q[2] / len, z = q[3] / len;
    r[0] = 1 - 2 * (y * y + z * z);
    r[1] = 2 * (x * y - w * z);
    r[2] = 2 * (x * z + w * y);
    r[3] = 2 * (x * y + w * z);
    r[4] = 1 - 2 * (x * x + z * z);
    r[5] = 2 * (y * z - w * x);
    r[6] = 2 * (x * z - w * y);
    r[7] = 2 * (y * z + w * x);
    r[8] = 1 - 2 * (x * x + y * y);
}

/* Rodrigues' formula: R = cos(a) I + sin(a) [k]x + (1 - cos(a)) k k^T. */
void hd_wl_axis_rotation(const double axis[3], double angle, double r[9])
{
    double c = cos(angle), s = sin(angle), v = 1.0 - c;
    double x = axis[0], y = axis[1], z = axis[2];
    r[0] = c + x * x * v;
    r[1] = x * y * v - z * s;
    r[2] = x * z * v + y * s;
    r[3] = y * x * v + z * s;
    r[4] = c + y * y * v;
    r[5] = y * z * v - x * s;
    r[6] = z * x * v - y * s;
    r[7] = z * y * v + x * s;
    r[8] = c + z * z * v;
}

void hd_wl_mat_mul(const double r[9], const double m[9], double out[9])
{
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            out[3 * i + j] = r[3 * i] * m[j] + r[3 * i + 1] * m[3 + j] + r[3 * i + 2] * m[6 + j];
        }
    }
}

void hd_wl_transform(const double r[9], const double t[3], const double *xyz, int n, double *out)
{
    for (int i = 0; i < n; ++i) {
        double p[3] = {xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]};
        for (int k = 0; k < 3; ++k) {
            out[3 * i + k] = r[3 * k] * p[0] + r[3 * k + 1] * p[1] + r[3 * k + 2] * p[2];
            if (t != NULL) {
                out[3 * i + k] += t[k];
            }
        }
    }
}

static int hd_wl_write_set(FILE *fp, char label, const double *xyz, int n)
{
    if (fprintf(fp, "%c %d\n", label, n) < 0) {
        return -1;
    }
    for (int i = 0; i < n; ++i) {
        if (fprintf(fp, "%.17g %.17g %.17g\n", xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]) < 0) {
            return -1;
        }
    }
    return 0;
}

int hd_wl_write_pair(FILE *fp, const char *name, const double *a, int na, const double *b, int nb)
{
    if (fprintf(fp, "pair %s\n", name) < 0) {
        return -1;
    }
    if (hd_wl_write_set(fp, 'A', a, na) != 0 || hd_wl_write_set(fp, 'B', b, nb) != 0) {
        return -1;
    }
    return 0;
}

/* Next line that is neither blank nor a comment, into buf; 0 at end of file. */
static int hd_wl_next_line(FILE *fp, char *buf, int size)
{
    while (fgets(buf, size, fp) != NULL) {
        char *p = buf;
        while (isspace((unsigned char)*p)) {
            ++p;
        }
        if (*p != '\0' && *p != '#') {
            return 1;
        }
    }
    return 0;
}

static int hd_wl_read_set(FILE *fp, char label, double **out, int *count, char *err, int err_size)
{
    char line[512];
    char got = 0;
    int n = -1;
    if (!hd_wl_next_line(fp, line, sizeof line) || sscanf(line, " %c %d", &got, &n) != 2 ||
        got != label || n < 0 || n > (1 << 24)) {
        snprintf(err, (size_t)err_size, "expected '%c <count>'", label);
        return -1;
    }
    *out = malloc(sizeof(double) * 3 * (size_t)(n > 0 ? n : 1));
    if (*out == NULL) {
        snprintf(err, (size_t)err_size, "out of memory");
        return -1;
    }
    for (int i = 0; i < n; ++i) {
        double *p = *out + 3 * i;
        if (!hd_wl_next_line(fp, line, sizeof line) ||
            sscanf(line, "%lf %lf %lf", &p[0], &p[1], &p[2]) != 3) {
            snprintf(err, (size_t)err_size, "expected point %d of %c", i + 1, label);
            return -1;
        }
    }
    *count = n;
    return 0;
}

int hd_wl_read_pair(FILE *fp, hd_wl_pair *pair, char *err, int err_size)
{
    char line[512];
    memset(pair, 0, sizeof *pair);
    if (!hd_wl_next_line(fp, line, sizeof line)) {
        return 0;
    }
    if (strncmp(line, "pair", 4) != 0 || sscanf(line + 4, " %255s", pair->name) != 1) {
        snprintf(err, (size_t)err_size, "expected 'pair <name>'");
        return -1;
    }
    if (hd_wl_read_set(fp, 'A', &pair->a, &pair->na, err, err_size) != 0 ||
        hd_wl_read_set(fp, 'B', &pair->b, &pair->nb, err, err_size) != 0) {
        hd_wl_pair_free(pair);
        return -1;
    }
    return 1;
}

void hd_wl_pair_free(hd_wl_pair *pair)
{
    free(pair->a);
    free(pair->b);
    pair->a = pair->b = NULL;
    pair->na = pair->nb = 0;
}
