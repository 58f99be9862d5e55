/* Writers: a polytope as OFF, a pair in the pair-file format. Coordinates are written with
 * %.17g, which reads back to the identical double. */
#include <math.h>
#include <stdio.h>

#include "hedra/io.h"

static int all_finite(const double *xyz, int n)
{
    for (int i = 0; i < 3 * n; ++i) {
        if (!isfinite(xyz[i])) {
            return 0;
        }
    }
    return 1;
}

static int write_points(FILE *fp, const double *xyz, int n)
{
    for (int i = 0; i < n; ++i) {
        const double *p = xyz + 3 * (size_t)i;
        if (fprintf(fp, "%.17g %.17g %.17g\n", p[0], p[1], p[2]) < 0) {
            return 0;
        }
    }
    return 1;
}

/* Face f's loop as "k i1 ... ik". */
static int write_face(FILE *fp, const hd_polytope *poly, int f)
{
    double normal[3], offset;
    const int *loop = NULL;
    int k = hd_polytope_face(poly, f, normal, &offset, &loop);
    if (k < 3 || loop == NULL || fprintf(fp, "%d", k) < 0) {
        return 0;
    }
    for (int j = 0; j < k; ++j) {
        if (fprintf(fp, " %d", loop[j]) < 0) {
            return 0;
        }
    }
    return fputc('\n', fp) != EOF;
}

/* A solid writes all its faces; a polygon one face, its loop counter-clockwise about its plane
 * normal (face 0; face 1 is the same polygon seen from the other side); a segment or a point
 * writes its vertices and no face, since an OFF face needs at least three vertices. */
hd_status hd_write_off(FILE *fp, const hd_polytope *poly)
{
    if (fp == NULL || poly == NULL) {
        return HD_ERR_NULL;
    }
    int dim = hd_polytope_dimension(poly);
    int nv = hd_polytope_vertex_count(poly);
    int ne = hd_polytope_edge_count(poly);
    int nf = dim == 3 ? hd_polytope_face_count(poly) : (dim == 2 ? 1 : 0);
    const double *xyz = hd_polytope_vertices(poly);
    if (nv < 1 || xyz == NULL) {
        return HD_ERR_INVALID_ARG;
    }
    if (fprintf(fp, "OFF\n%d %d %d\n", nv, nf, ne) < 0 || !write_points(fp, xyz, nv)) {
        return HD_ERR_IO;
    }
    for (int f = 0; f < nf; ++f) {
        if (!write_face(fp, poly, f)) {
            return ferror(fp) ? HD_ERR_IO : HD_ERR_INVALID_ARG;
        }
    }
    return ferror(fp) ? HD_ERR_IO : HD_OK;
}

/* A name the reader accepts back: one token of 1..HD_PAIR_NAME_MAX bytes, no white space, no
 * control bytes, no '#'. */
static int valid_name(const char *name)
{
    int n = 0;
    for (; name[n] != '\0'; ++n) {
        unsigned char c = (unsigned char)name[n];
        if (c <= 0x20 || c == 0x7f || c == '#' || n >= HD_PAIR_NAME_MAX) {
            return 0;
        }
    }
    return n > 0;
}

hd_status hd_write_pair(FILE *fp, const char *name, const double *a, int na, const double *b,
                        int nb)
{
    if (fp == NULL || name == NULL || (na > 0 && a == NULL) || (nb > 0 && b == NULL)) {
        return HD_ERR_NULL;
    }
    if (na < 0 || nb < 0 || !valid_name(name)) {
        return HD_ERR_INVALID_ARG;
    }
    if (na > HD_MAX_POINTS || nb > HD_MAX_POINTS) {
        return HD_ERR_TOO_LARGE;
    }
    if (!all_finite(a, na) || !all_finite(b, nb)) {
        return HD_ERR_NONFINITE;
    }
    int ok = fprintf(fp, "pair %s\nA %d\n", name, na) >= 0 && write_points(fp, a, na) &&
             fprintf(fp, "B %d\n", nb) >= 0 && write_points(fp, b, nb);
    return (ok && !ferror(fp)) ? HD_OK : HD_ERR_IO;
}
