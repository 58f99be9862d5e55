/* OFF reader (Geomview's Object File Format, ASCII): header, counts, vertices, faces.
 *
 *   [C][N]OFF [nv nf ne]     header keyword, the counts may follow on the same line
 *   nv nf ne                 vertex, face and edge counts (ne optional, ignored)
 *   x y z [nx ny nz] [r g b [a]]       nv vertex lines (normals with N, colour with C)
 *   k i1 ... ik [colour]     nf face lines: k >= 3 zero-based indices, up to 4 colour values
 *
 * The header keyword may be omitted (Geomview makes it optional) when the format is known to be
 * OFF. Faces are validated but not kept: the hull is rebuilt from the vertices. */
#include <stdio.h>

#include "io/internal.h"

/* Faces are not stored, so their count only needs a sane bound: four times the vertex limit is
 * far above the 2V - 4 faces of any triangulated closed surface of V vertices. */
#define HD_OFF_MAX_FACES (4LL * HD_MAX_POINTS)

/* At most this many vertices are reserved from the header's count; beyond it the array grows
 * as lines actually arrive, so a lying header costs nothing. */
#define HD_OFF_RESERVE 4096

typedef struct hdi_off_layout {
    int normals; /* NOFF: 3 normal values after the coordinates */
    int colours; /* COFF: 3 or 4 colour values after the normals */
} hdi_off_layout;

static int is_letter(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static int is_count_start(char c)
{
    return (c >= '0' && c <= '9') || c == '+' || c == '-';
}

static int ends_with_off(const char *s)
{
    size_t n = 0;
    while (s[n] != '\0') {
        ++n;
    }
    return n >= 3 && s[n - 3] == 'O' && s[n - 2] == 'F' && s[n - 1] == 'F';
}

/* Reads the header keyword tok; *next is the token after it (the first count, if any). */
static hd_status parse_header(hdi_lexer *lx, const char *tok, hdi_off_layout *layout, char **next)
{
    const char *p = tok;
    layout->colours = *p == 'C';
    p += layout->colours;
    layout->normals = *p == 'N';
    p += layout->normals;
    char q[48];
    hdi_lex_quote(tok, q, sizeof q);
    if (p[0] != 'O' || p[1] != 'F' || p[2] != 'F' || p[3] != '\0') {
        if (ends_with_off(tok)) {
            return hdi_lex_fail(lx, HD_ERR_PARSE,
                                "unsupported OFF variant '%s' (only OFF, COFF, NOFF and CNOFF are "
                                "read)",
                                q);
        }
        return hdi_lex_fail(lx, HD_ERR_PARSE, "expected the header 'OFF', found '%s'", q);
    }
    *next = hdi_lex_token(lx);
    if (*next != NULL && is_letter(**next)) {
        hdi_lex_quote(*next, q, sizeof q);
        return hdi_lex_fail(lx, HD_ERR_PARSE,
                            "unsupported '%s' after the header (only ASCII OFF is read)", q);
    }
    return HD_OK;
}

/* Reads "nv nf [ne]" starting at token tok of the current line. */
static hd_status parse_counts(hdi_lexer *lx, char *tok, int *nv, int *nf)
{
    char *toks[3] = {tok, NULL, NULL};
    int n = 1;
    for (char *t = hdi_lex_token(lx); t != NULL; t = hdi_lex_token(lx)) {
        if (n == 3) {
            char q[48];
            hdi_lex_quote(t, q, sizeof q);
            return hdi_lex_fail(lx, HD_ERR_PARSE,
                                "expected the counts 'nv nf ne', found unexpected '%s' after them",
                                q);
        }
        toks[n++] = t;
    }
    if (n < 2) {
        return hdi_lex_fail(
            lx, HD_ERR_PARSE,
            "expected the counts 'nv nf ne' (vertices, faces, edges), found 1 field");
    }
    hd_status st = hdi_lex_count(lx, toks[0], "vertex count", HD_MAX_POINTS, nv);
    if (st == HD_OK) {
        st = hdi_lex_count(lx, toks[1], "face count", HD_OFF_MAX_FACES, nf);
    }
    int ne = 0;
    if (st == HD_OK && toks[2] != NULL) {
        st = hdi_lex_count(lx, toks[2], "edge count", 0x7fffffff, &ne);
    }
    if (st == HD_OK && *nv == 0) {
        return hdi_lex_fail(lx, HD_ERR_EMPTY, "the header declares no vertices (nv = 0)");
    }
    return st;
}

static hd_status read_vertices(hdi_lexer *lx, const hdi_off_layout *layout, int nv,
                               hdi_point_buf *buf)
{
    static const char *const syntax[2][2] = {
        {"x y z", "x y z r g b [a]"},
        {"x y z nx ny nz", "x y z nx ny nz r g b [a]"},
    };
    const char *form = syntax[layout->normals][layout->colours];
    int min_count = 3 + 3 * layout->normals + 3 * layout->colours;
    int max_count = min_count + layout->colours;
    hd_status st = hdi_point_buf_reserve(buf, lx, nv < HD_OFF_RESERVE ? nv : HD_OFF_RESERVE);
    for (int i = 0; i < nv && st == HD_OK; ++i) {
        st = hdi_lex_expect_line(lx, "unexpected end of file: expected vertex %d of %d '%s'", i + 1,
                                 nv, form);
        if (st != HD_OK) {
            break;
        }
        double vals[10];
        int count = 0;
        st = hdi_lex_numbers(lx, vals, min_count, max_count, &count, NULL, form);
        if (st == HD_ERR_PARSE || st == HD_ERR_NONFINITE) {
            hdi_lex_prefix(lx, "vertex %d of %d", i + 1, nv);
        }
        if (st == HD_OK) {
            st = hdi_point_buf_push(buf, lx, vals);
        }
    }
    return st;
}

/* Optional colour after a face's indices: none, a colour-map index, RGB or RGBA. */
static hd_status read_face_colour(hdi_lexer *lx)
{
    int n = 0;
    for (char *tok = hdi_lex_token(lx); tok != NULL; tok = hdi_lex_token(lx)) {
        double v = 0.0;
        hd_status st = hdi_lex_double(lx, tok, "colour", &v);
        if (st != HD_OK) {
            return st;
        }
        ++n;
    }
    if (n == 2 || n > 4) {
        return hdi_lex_fail(lx, HD_ERR_PARSE,
                            "expected 'k i1 ... ik' and 0, 1, 3 or 4 colour values, found %d "
                            "values after the indices",
                            n);
    }
    return HD_OK;
}

/* One face line "k i1 ... ik [colour]"; messages get their "face f of nf" prefix from the
 * caller. */
static hd_status read_face(hdi_lexer *lx, int nv)
{
    char *tok = hdi_lex_token(lx);
    long long k = 0;
    if (hdi_lex_integer(lx, tok, NULL, &k) != HD_OK) {
        char q[48];
        hdi_lex_quote(tok, q, sizeof q);
        return hdi_lex_fail(lx, HD_ERR_PARSE,
                            "expected 'k i1 ... ik', found '%s' (are there more vertex lines than "
                            "the %d declared?)",
                            q, nv);
    }
    if (k < 3) {
        return hdi_lex_fail(lx, HD_ERR_PARSE,
                            "a face needs at least 3 vertices, found k = %lld (are there more "
                            "vertex lines than the %d declared?)",
                            k, nv);
    }
    if (k > nv) {
        return hdi_lex_fail(lx, HD_ERR_PARSE, "k = %lld is more than the %d vertices", k, nv);
    }
    for (long long j = 0; j < k; ++j) {
        tok = hdi_lex_token(lx);
        if (tok == NULL) {
            return hdi_lex_fail(lx, HD_ERR_PARSE, "expected %lld vertex indices, found %lld", k, j);
        }
        long long index = 0;
        hd_status st = hdi_lex_integer(lx, tok, "vertex index", &index);
        if (st != HD_OK) {
            return st;
        }
        if (index < 0 || index >= nv) {
            char q[48];
            hdi_lex_quote(tok, q, sizeof q);
            return hdi_lex_fail(lx, HD_ERR_PARSE, "vertex index %s out of range 0..%d", q, nv - 1);
        }
    }
    return read_face_colour(lx);
}

static hd_status read_faces(hdi_lexer *lx, int nv, int nf)
{
    for (int f = 0; f < nf; ++f) {
        hd_status st = hdi_lex_expect_line(
            lx, "unexpected end of file: expected face %d of %d 'k i1 ... ik'", f + 1, nf);
        if (st != HD_OK) {
            return st;
        }
        st = read_face(lx, nv);
        if (st != HD_OK) {
            if (st == HD_ERR_PARSE || st == HD_ERR_NONFINITE) {
                hdi_lex_prefix(lx, "face %d of %d", f + 1, nf);
            }
            return st;
        }
    }
    return HD_OK;
}

hd_status hdi_io_read_off(hdi_lexer *lx, hdi_point_buf *buf)
{
    int found = 0;
    hd_status st = hdi_lex_next(lx, &found);
    if (st != HD_OK) {
        return st;
    }
    if (!found) {
        return hdi_lex_fail_eof(lx, HD_ERR_EMPTY, "empty input: expected the header 'OFF'");
    }
    hdi_off_layout layout = {0, 0};
    char *tok = hdi_lex_token(lx);
    int header = is_letter(*tok) || ends_with_off(tok);
    if (!header && !is_count_start(*tok)) {
        char q[48];
        hdi_lex_quote(tok, q, sizeof q);
        return hdi_lex_fail(lx, HD_ERR_PARSE, "expected the header 'OFF', found '%s'", q);
    }
    if (header) {
        st = parse_header(lx, tok, &layout, &tok);
        if (st == HD_OK && tok == NULL) {
            st = hdi_lex_expect_line(lx, "unexpected end of file: expected the counts 'nv nf ne'");
            if (st != HD_OK) {
                return st;
            }
            tok = hdi_lex_token(lx);
        }
    }
    int nv = 0, nf = 0;
    if (st == HD_OK) {
        st = parse_counts(lx, tok, &nv, &nf);
    }
    if (st == HD_OK) {
        st = read_vertices(lx, &layout, nv, buf);
    }
    if (st == HD_OK) {
        st = read_faces(lx, nv, nf);
    }
    if (st == HD_OK) {
        st = hdi_lex_next(lx, &found);
        if (st == HD_OK && found) {
            return hdi_lex_fail(lx, HD_ERR_PARSE,
                                "unexpected data after the last face (the header declares %d "
                                "vertices and %d faces)",
                                nv, nf);
        }
    }
    return st;
}
