/* A convex decomposition read from an OBJ file: one piece per "o" / "g" group (io/obj.c keeps
 * the groups and faces), each the hull of its points, after a check that its faces describe a
 * convex solid: no face plane with vertices of the piece beyond it on both sides. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compound/internal.h"
#include "core/math.h"
#include "core/tolerances.h"
#include "io/internal.h"

/* A piece's range: faces [face, face_end) or, without faces, vertices [vertex, vertex_end). */
typedef struct hdi_piece_range {
    int face;
    int face_end;
    int vertex;
    int vertex_end;
    int line;
} hdi_piece_range;

/* The ranges of group g (g = -1: what precedes the first statement). */
static hdi_piece_range group_range(const hdi_obj_groups *gr, int g)
{
    hdi_piece_range r;
    r.face = g < 0 ? 0 : gr->groups[g].face;
    r.vertex = g < 0 ? 0 : gr->groups[g].vertex;
    r.line = g < 0 ? 1 : gr->groups[g].line;
    r.face_end = g + 1 < gr->group_count ? gr->groups[g + 1].face : gr->face_count;
    r.vertex_end = g + 1 < gr->group_count ? gr->groups[g + 1].vertex : gr->verts.count;
    return r;
}

/* The piece's points: the vertices its faces use (each once, in order of first use), or its own
 * "v" lines when the file has no faces. mark (one int per vertex, -1 initially) is stamped. */
static int piece_points(const hdi_obj_groups *gr, const hdi_piece_range *r, int stamp, int *mark,
                        double *xyz)
{
    int n = 0;
    if (gr->face_count == 0) {
        n = r->vertex_end - r->vertex;
        memcpy(xyz, gr->verts.xyz + 3 * (size_t)r->vertex, 3 * (size_t)n * sizeof *xyz);
        return n;
    }
    for (int f = r->face; f < r->face_end; ++f) {
        const hdi_obj_face *face = &gr->faces[f];
        for (int k = 0; k < face->count; ++k) {
            int v = gr->corners[face->first + k];
            if (mark[v] != stamp) {
                mark[v] = stamp;
                hdi_v3_copy(xyz + 3 * (size_t)n++, gr->verts.xyz + 3 * (size_t)v);
            }
        }
    }
    return n;
}

/* The face's plane through its first corner with Newell's normal; 0 for a degenerate face. */
static int face_plane(const hdi_obj_groups *gr, const hdi_obj_face *face, double n[3],
                      double *offset)
{
    n[0] = n[1] = n[2] = 0.0;
    for (int k = 0; k < face->count; ++k) {
        const double *p = gr->verts.xyz + 3 * (size_t)gr->corners[face->first + k];
        const double *q =
            gr->verts.xyz + 3 * (size_t)gr->corners[face->first + (k + 1) % face->count];
        n[0] += (p[1] - q[1]) * (p[2] + q[2]);
        n[1] += (p[2] - q[2]) * (p[0] + q[0]);
        n[2] += (p[0] - q[0]) * (p[1] + q[1]);
    }
    if (!(hdi_v3_normalize(n) > 0.0)) {
        return 0;
    }
    *offset = hdi_v3_dot(n, gr->verts.xyz + 3 * (size_t)gr->corners[face->first]);
    return 1;
}

/* The first face of the piece with points beyond its plane by more than tol on both sides. */
static int nonconvex_face(const hdi_obj_groups *gr, const hdi_piece_range *r, const double *xyz,
                          int n, double tol)
{
    for (int f = r->face; f < r->face_end; ++f) {
        double normal[3], offset = 0.0, above = 0.0, below = 0.0;
        if (!face_plane(gr, &gr->faces[f], normal, &offset)) {
            continue;
        }
        for (int i = 0; i < n; ++i) {
            double s = hdi_v3_dot(normal, xyz + 3 * (size_t)i) - offset;
            above = fmax(above, s);
            below = fmin(below, s);
        }
        if (above > tol && below < -tol) {
            return f;
        }
    }
    return -1;
}

static double diagonal(const double *xyz, int n)
{
    double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (int i = 0; i < n; ++i) {
        for (int k = 0; k < 3; ++k) {
            lo[k] = fmin(lo[k], xyz[3 * (size_t)i + k]);
            hi[k] = fmax(hi[k], xyz[3 * (size_t)i + k]);
        }
    }
    double d[3];
    hdi_v3_sub(d, hi, lo);
    return hdi_v3_len(d);
}

/* The reader's state: the file's groups, the scratch for one piece, the pieces built. */
typedef struct hdi_cread {
    const char *name;
    const hd_tolerance *tol;
    hd_parse_error *err;
    hdi_obj_groups gr;
    int *mark;
    double *xyz;
    hd_polytope **pieces;
    int count;
} hdi_cread;

static hd_status build_piece(hdi_cread *rd, const hdi_piece_range *r)
{
    int n = piece_points(&rd->gr, r, rd->count, rd->mark, rd->xyz);
    if (n == 0) {
        return HD_OK; /* an empty group (a name repeated by "o" and "g") is no piece */
    }
    if (rd->count == HD_COMPOUND_MAX_PIECES) {
        return hdi_io_error(rd->err, rd->name, r->line, HD_ERR_TOO_LARGE,
                            "more than %d pieces (HD_COMPOUND_MAX_PIECES)", HD_COMPOUND_MAX_PIECES);
    }
    double rel = rd->tol != NULL ? rd->tol->convex_rel : HD_DEFAULT_CONVEX_REL;
    double tol = fmax(rel, HD_COMPOUND_OBJ_CONVEX_REL) * diagonal(rd->xyz, n);
    int bad = nonconvex_face(&rd->gr, r, rd->xyz, n, tol);
    if (bad >= 0) {
        return hdi_io_error(rd->err, rd->name, rd->gr.faces[bad].line, HD_ERR_NOT_CONVEX,
                            "piece %d is not convex: points of the piece lie on both sides of "
                            "this face",
                            rd->count);
    }
    hd_status st = hd_polytope_build(rd->xyz, n, rd->tol, &rd->pieces[rd->count]);
    if (st != HD_OK) {
        return hdi_io_error(rd->err, rd->name, r->line, st, "piece %d: %s", rd->count,
                            hd_status_str(st));
    }
    rd->count++;
    return HD_OK;
}

/* Whether a range holds a piece: faces when the file has any, else vertices. */
static int holds_piece(const hdi_obj_groups *gr, const hdi_piece_range *r)
{
    return gr->face_count > 0 ? r->face_end > r->face : r->vertex_end > r->vertex;
}

static hd_status build_pieces(hdi_cread *rd)
{
    int nv = rd->gr.verts.count, slots = rd->gr.group_count + 1;
    rd->mark = malloc((size_t)nv * sizeof *rd->mark);
    rd->xyz = malloc(3 * (size_t)nv * sizeof *rd->xyz);
    rd->pieces = calloc((size_t)slots, sizeof *rd->pieces);
    if (rd->mark == NULL || rd->xyz == NULL || rd->pieces == NULL) {
        return hdi_io_error(rd->err, rd->name, 0, HD_ERR_NO_MEMORY, "out of memory");
    }
    for (int i = 0; i < nv; ++i) {
        rd->mark[i] = -1;
    }
    for (int g = -1; g < rd->gr.group_count; ++g) {
        hdi_piece_range r = group_range(&rd->gr, g);
        hd_status st = holds_piece(&rd->gr, &r) ? build_piece(rd, &r) : HD_OK;
        if (st != HD_OK) {
            return st;
        }
    }
    return HD_OK;
}

static hd_status read_groups(FILE *fp, hdi_cread *rd)
{
    hdi_lexer *lx = hdi_lex_create(fp, rd->name, rd->err);
    if (lx == NULL) {
        return hdi_io_error(rd->err, rd->name, 0, HD_ERR_NO_MEMORY, "out of memory");
    }
    hd_status st = hdi_io_read_obj_groups(lx, &rd->gr);
    hdi_lex_destroy(lx);
    return st;
}

static hd_status open_and_read(const char *path, hdi_cread *rd)
{
    if (strcmp(path, "-") == 0) {
        rd->name = "<stdin>";
        return read_groups(stdin, rd);
    }
    FILE *fp = fopen(path, "rb");
    if (fp == NULL) {
        int code = errno;
        return hdi_io_error(rd->err, path, 0, HD_ERR_IO, "cannot open for reading (%s)",
                            strerror(code));
    }
    hd_status st = read_groups(fp, rd);
    fclose(fp);
    return st;
}

static void finish(hdi_cread *rd, hd_status st, hd_compound *c)
{
    for (int i = 0; st != HD_OK && i < rd->count; ++i) {
        hd_polytope_destroy(rd->pieces[i]);
    }
    if (c != NULL) {
        c->owns = 1;
    }
    free(rd->pieces);
    free(rd->mark);
    free(rd->xyz);
    hdi_obj_groups_free(&rd->gr);
}

/* Reads from fp (or opens path when fp is NULL) and builds the compound. */
static hd_status read_compound(FILE *fp, const char *name, const hd_tolerance *tol,
                               hd_compound **out, hd_parse_error *err)
{
    hd_parse_error local;
    err = err != NULL ? err : &local;
    memset(err, 0, sizeof *err);
    if (out != NULL) {
        *out = NULL;
    }
    if (name == NULL || out == NULL) {
        return hdi_io_error(err, name != NULL ? name : "<null>", 0, HD_ERR_NULL,
                            "no path or no output given");
    }
    hdi_cread rd;
    memset(&rd, 0, sizeof rd);
    rd.name = name;
    rd.tol = tol;
    rd.err = err;
    hd_status st = fp != NULL ? read_groups(fp, &rd) : open_and_read(name, &rd);
    if (st == HD_OK) {
        st = build_pieces(&rd);
    }
    hd_compound *c = NULL;
    if (st == HD_OK) {
        st = hd_compound_build((const hd_polytope *const *)rd.pieces, NULL, rd.count, &c);
        if (st != HD_OK) {
            hdi_io_error(err, rd.name, 0, st, "%s", hd_status_str(st));
        }
    }
    finish(&rd, st, c);
    *out = c;
    return st;
}

hd_status hd_compound_read_obj(const char *path, const hd_tolerance *tol, hd_compound **out,
                               hd_parse_error *err)
{
    return read_compound(NULL, path, tol, out, err);
}

hd_status hd_compound_read_obj_stream(FILE *fp, const char *name, const hd_tolerance *tol,
                                      hd_compound **out, hd_parse_error *err)
{
    if (fp == NULL) {
        if (out != NULL) {
            *out = NULL;
        }
        return hdi_io_error(err, name != NULL ? name : "<stream>", 0, HD_ERR_NULL,
                            "no stream given");
    }
    return read_compound(fp, name != NULL ? name : "<stream>", tol, out, err);
}
