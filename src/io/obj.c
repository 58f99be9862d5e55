/* Wavefront OBJ reader: the "v" lines give the points; "f" lines are validated (index range,
 * relative negative indices, the v, v/vt, v//vn and v/vt/vn forms) and otherwise ignored; "vt"
 * and "vn" lines are counted so that face references to them can be checked; every other
 * statement (o, g, s, usemtl, mtllib, l, p, ...) is ignored. The groups reader
 * (hdi_io_read_obj_groups) reads the same grammar and also keeps the faces and the "o" / "g"
 * statements, for convex decompositions. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/array.h"
#include "io/internal.h"

/* The references of one kind (vertices, texture coordinates or normals) seen so far. Positive
 * indices may refer ahead, so the largest one beyond the count defined at its line is kept and
 * checked against the final count at the end of the file. */
typedef struct hdi_obj_refs {
    const char *kind;  /* "vertex" */
    const char *kinds; /* "vertices" */
    const char *what;  /* "f: vertex index", the context of number errors */
    long long limit;   /* no file can define more than this many */
    int defined;
    long long max_ahead;
    int ahead_line;
} hdi_obj_refs;

static int is_letter(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static int same(const char *a, const char *b)
{
    while (*a != '\0' && *a == *b) {
        ++a;
        ++b;
    }
    return *a == *b;
}

static hd_status read_vertex(hdi_lexer *lx, hdi_point_buf *buf)
{
    double vals[6];
    int count = 0;
    hd_status st = hdi_lex_numbers(lx, vals, 3, 6, &count, "v", "x y z [w]' or 'x y z r g b");
    if (st != HD_OK) {
        return st;
    }
    if (count == 5) {
        return hdi_lex_fail(lx, HD_ERR_PARSE,
                            "v: expected 'x y z [w]' or 'x y z r g b', found 5 "
                            "fields");
    }
    /* w (a rational weight) and r g b (a common colour extension) are validated, then ignored. */
    return hdi_point_buf_push(buf, lx, vals);
}

/* Checks one reference; *vertex (may be NULL) receives it as a 0-based absolute index. */
static hd_status check_ref(hdi_lexer *lx, hdi_obj_refs *refs, const char *text, long long *vertex)
{
    long long index = 0;
    hd_status st = hdi_lex_integer(lx, text, refs->what, &index);
    if (st != HD_OK) {
        return st;
    }
    if (index > refs->limit) {
        char q[48];
        hdi_lex_quote(text, q, sizeof q);
        return hdi_lex_fail(lx, HD_ERR_PARSE, "%s '%s' out of range (at most %lld %s can exist)",
                            refs->what, q, refs->limit, refs->kinds);
    }
    if (index == 0) {
        return hdi_lex_fail(lx, HD_ERR_PARSE, "f: %s index 0 is invalid (OBJ indices start at 1)",
                            refs->kind);
    }
    if (index < 0 && -index > refs->defined) {
        char q[48];
        hdi_lex_quote(text, q, sizeof q);
        return hdi_lex_fail(lx, HD_ERR_PARSE,
                            "f: relative %s index %s reaches before the first one (%d defined so "
                            "far)",
                            refs->kind, q, refs->defined);
    }
    if (index > refs->defined && index > refs->max_ahead) {
        refs->max_ahead = index;
        refs->ahead_line = lx->line_no;
    }
    if (vertex != NULL) {
        *vertex = index < 0 ? refs->defined + index : index - 1;
    }
    return HD_OK;
}

/* One face corner: "v", "v/vt", "v//vn" or "v/vt/vn" (split in place at the slashes). */
static hd_status read_corner(hdi_lexer *lx, char *tok, hdi_obj_refs refs[3], long long *vertex)
{
    char *parts[3] = {tok, NULL, NULL};
    int n = 1;
    for (char *p = tok; *p != '\0'; ++p) {
        if (*p == '/') {
            if (n == 3) {
                n = 4;
                break;
            }
            *p = '\0';
            parts[n++] = p + 1;
        }
    }
    int bad = n == 4 || parts[0][0] == '\0' || (n == 2 && parts[1][0] == '\0') ||
              (n == 3 && parts[2][0] == '\0');
    if (bad) {
        for (int i = 1; i < n && i < 3; ++i) {
            parts[i][-1] = '/';
        }
        char q[48];
        hdi_lex_quote(tok, q, sizeof q);
        return hdi_lex_fail(lx, HD_ERR_PARSE,
                            "f: expected a corner 'v', 'v/vt', 'v//vn' or 'v/vt/vn', found '%s'",
                            q);
    }
    for (int i = 0; i < n; ++i) {
        if (parts[i][0] != '\0') {
            hd_status st = check_ref(lx, &refs[i], parts[i], i == 0 ? vertex : NULL);
            if (st != HD_OK) {
                return st;
            }
        }
    }
    return HD_OK;
}

/* Appends one corner's vertex to the groups' face data (groups may be NULL). */
static hd_status keep_corner(hdi_lexer *lx, hdi_obj_groups *groups, long long vertex)
{
    if (groups == NULL) {
        return HD_OK;
    }
    int failed = 0;
    if (!hdi_array_reserve(&groups->corners, &groups->corner_cap, groups->corner_count + 1, 64,
                           sizeof *groups->corners, &failed)) {
        return hdi_lex_fail(lx, HD_ERR_NO_MEMORY, "out of memory for the faces");
    }
    groups->corners[groups->corner_count++] = (int)vertex;
    return HD_OK;
}

static hd_status keep_face(hdi_lexer *lx, hdi_obj_groups *groups, int first_corner)
{
    if (groups == NULL) {
        return HD_OK;
    }
    int failed = 0, n = groups->face_count;
    if (!hdi_array_reserve(&groups->faces, &groups->face_cap, n + 1, 64, sizeof *groups->faces,
                           &failed)) {
        return hdi_lex_fail(lx, HD_ERR_NO_MEMORY, "out of memory for the faces");
    }
    groups->faces[n] =
        (hdi_obj_face){first_corner, groups->corner_count - first_corner, lx->line_no};
    groups->face_count = n + 1;
    return HD_OK;
}

static hd_status read_face(hdi_lexer *lx, hdi_obj_refs refs[3], hdi_obj_groups *groups)
{
    int corners = 0;
    int first = groups != NULL ? groups->corner_count : 0;
    for (char *tok = hdi_lex_token(lx); tok != NULL; tok = hdi_lex_token(lx)) {
        long long vertex = 0;
        hd_status st = read_corner(lx, tok, refs, &vertex);
        if (st == HD_OK) {
            st = keep_corner(lx, groups, vertex);
        }
        if (st != HD_OK) {
            return st;
        }
        ++corners;
    }
    if (corners < 3) {
        return hdi_lex_fail(lx, HD_ERR_PARSE, "f: a face needs at least 3 vertices, found %d",
                            corners);
    }
    return keep_face(lx, groups, first);
}

/* At the end of the file, the largest forward reference of each kind must exist. */
static hd_status check_ahead(hdi_lexer *lx, const hdi_obj_refs refs[3])
{
    for (int i = 0; i < 3; ++i) {
        if (refs[i].max_ahead > refs[i].defined) {
            hd_status st =
                hdi_lex_fail(lx, HD_ERR_PARSE, "%s %lld out of range (the file defines %d %s)",
                             refs[i].what, refs[i].max_ahead, refs[i].defined, refs[i].kinds);
            lx->err->line = refs[i].ahead_line;
            return st;
        }
    }
    return HD_OK;
}

/* What the statements of one file share: the points read and the references seen. */
typedef struct hdi_obj_ctx {
    hdi_point_buf *buf;
    hdi_obj_refs *refs;
    hdi_obj_groups *groups; /* NULL: faces and groups are not kept */
} hdi_obj_ctx;

/* An "o" or "g" statement starts a group at the faces and vertices read so far. */
static hd_status start_group(hdi_lexer *lx, hdi_obj_groups *groups, const hdi_point_buf *buf)
{
    int failed = 0, n = groups->group_count;
    if (!hdi_array_reserve(&groups->groups, &groups->group_cap, n + 1, 16, sizeof *groups->groups,
                           &failed)) {
        return hdi_lex_fail(lx, HD_ERR_NO_MEMORY, "out of memory for the groups");
    }
    groups->groups[n] = (hdi_obj_group){groups->face_count, buf->count, lx->line_no};
    groups->group_count = n + 1;
    return HD_OK;
}

static hd_status read_statement(hdi_lexer *lx, void *ctx)
{
    hdi_point_buf *buf = ((hdi_obj_ctx *)ctx)->buf;
    hdi_obj_refs *refs = ((hdi_obj_ctx *)ctx)->refs;
    char *key = hdi_lex_token(lx);
    if (!is_letter(key[0])) {
        char q[48];
        hdi_lex_quote(key, q, sizeof q);
        return hdi_lex_fail(lx, HD_ERR_PARSE,
                            "expected a statement such as 'v x y z' or 'f i j k', found '%s'", q);
    }
    if (same(key, "v")) {
        hd_status st = read_vertex(lx, buf);
        refs[0].defined = buf->count;
        return st;
    }
    if (same(key, "f")) {
        return read_face(lx, refs, ((hdi_obj_ctx *)ctx)->groups);
    }
    hdi_obj_groups *groups = ((hdi_obj_ctx *)ctx)->groups;
    if (groups != NULL && (same(key, "o") || same(key, "g"))) {
        return start_group(lx, groups, buf);
    }
    if (same(key, "vt")) {
        refs[1].defined++;
    } else if (same(key, "vn")) {
        refs[2].defined++;
    }
    return HD_OK;
}

static hd_status read_obj(hdi_lexer *lx, hdi_point_buf *buf, hdi_obj_groups *groups)
{
    hdi_obj_refs refs[3] = {
        {"vertex", "vertices", "f: vertex index", HD_MAX_POINTS, 0, 0, 0},
        {"texture coordinate", "texture coordinates", "f: texture coordinate index", INT_MAX, 0, 0,
         0},
        {"normal", "normals", "f: normal index", INT_MAX, 0, 0, 0},
    };
    hdi_obj_ctx ctx = {buf, refs, groups};
    hd_status st = hdi_lex_each_line(lx, read_statement, &ctx);
    if (st != HD_OK) {
        return st;
    }
    if (buf->count == 0) {
        return hdi_lex_fail_eof(lx, HD_ERR_EMPTY, "no vertices: expected 'v x y z' lines");
    }
    return check_ahead(lx, refs);
}

hd_status hdi_io_read_obj(hdi_lexer *lx, hdi_point_buf *buf)
{
    return read_obj(lx, buf, NULL);
}

hd_status hdi_io_read_obj_groups(hdi_lexer *lx, hdi_obj_groups *out)
{
    return read_obj(lx, &out->verts, out);
}

void hdi_obj_groups_free(hdi_obj_groups *groups)
{
    hdi_point_buf_free(&groups->verts);
    free(groups->corners);
    free(groups->faces);
    free(groups->groups);
    *groups = (hdi_obj_groups){{NULL, 0, 0}, NULL, 0, 0, NULL, 0, 0, NULL, 0, 0};
}
