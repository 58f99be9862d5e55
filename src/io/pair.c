/* The streaming pair-file reader: one pair at a time into buffers owned by the reader, which
 * only grow when a larger pair arrives, so any number of pairs is read in constant memory. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "hedra/compound.h"
#include "io/internal.h"

/* The pieces of one set read as a compound ("A pieces <k>"): k = 0 for a plain set. */
typedef struct hdi_pair_pieces {
    int count;
    int *sizes;
    int capacity;
} hdi_pair_pieces;

struct hd_pair_reader {
    hdi_lexer *lx;
    FILE *fp;
    int close_stream;
    int finished;       /* the clean end of the file was reached */
    hd_status failed;   /* sticky error, HD_OK while none */
    int resumed;        /* hd_pair_reader_resume left a header line: 1 whole, 2 past 'pair' */
    int header_failed;  /* the error was in a "pair <name>" line: resuming skips past it */
    hd_parse_error err; /* the lexer writes here; copied out to the caller */
    char name[HD_PAIR_NAME_MAX + 1];
    hdi_point_buf a;
    hdi_point_buf b;
    double radius_a; /* the sets' "radius <r>", 0 without one */
    double radius_b;
    bool has_motion;
    double motion[9];
    hdi_pair_pieces pieces_a;
    hdi_pair_pieces pieces_b;
};

hd_status hdi_pair_reader_open_stream(FILE *fp, const char *name, int close_stream,
                                      hd_pair_reader **out, hd_parse_error *err)
{
    const char *shown = name != NULL ? name : "<stream>";
    if (out != NULL) {
        *out = NULL;
    }
    if (fp == NULL || out == NULL) {
        return hdi_io_error(err, shown, 0, HD_ERR_NULL, "no stream or no output given");
    }
    hd_pair_reader *r = calloc(1, sizeof *r);
    if (r == NULL) {
        return hdi_io_error(err, shown, 0, HD_ERR_NO_MEMORY, "out of memory");
    }
    r->lx = hdi_lex_create(fp, shown, &r->err);
    if (r->lx == NULL) {
        free(r);
        return hdi_io_error(err, shown, 0, HD_ERR_NO_MEMORY, "out of memory");
    }
    r->fp = fp;
    r->close_stream = close_stream;
    r->failed = HD_OK;
    *out = r;
    if (err != NULL) {
        *err = r->err;
    }
    return HD_OK;
}

hd_status hd_pair_reader_open(const char *path, hd_pair_reader **out, hd_parse_error *err)
{
    if (out != NULL) {
        *out = NULL;
    }
    if (path == NULL || out == NULL) {
        return hdi_io_error(err, path != NULL ? path : "<null>", 0, HD_ERR_NULL,
                            "no path or no output given");
    }
    if (strcmp(path, "-") == 0) {
        return hdi_pair_reader_open_stream(stdin, "<stdin>", 0, out, err);
    }
    FILE *fp = fopen(path, "rb");
    if (fp == NULL) {
        int code = errno;
        return hdi_io_error(err, path, 0, HD_ERR_IO, "cannot open for reading (%s)",
                            strerror(code));
    }
    hd_status st = hdi_pair_reader_open_stream(fp, path, 1, out, err);
    if (st != HD_OK) {
        fclose(fp);
    }
    return st;
}

void hd_pair_reader_close(hd_pair_reader *reader)
{
    if (reader == NULL) {
        return;
    }
    if (reader->close_stream) {
        fclose(reader->fp);
    }
    hdi_lex_destroy(reader->lx);
    hdi_point_buf_free(&reader->a);
    hdi_point_buf_free(&reader->b);
    free(reader->pieces_a.sizes);
    free(reader->pieces_b.sizes);
    free(reader);
}

/* "pair <name>": the name is one token of at most HD_PAIR_NAME_MAX bytes. */
static hd_status read_pair_header(hd_pair_reader *r)
{
    hdi_lexer *lx = r->lx;
    const char *key = r->resumed == 2 ? "pair" : hdi_lex_token(lx);
    char q[48];
    if (strcmp(key, "pair") != 0) {
        hdi_lex_quote(key, q, sizeof q);
        int numeric =
            (key[0] >= '0' && key[0] <= '9') || key[0] == '-' || key[0] == '+' || key[0] == '.';
        return hdi_lex_fail(lx, HD_ERR_PARSE, "expected 'pair <name>', found '%s'%s", q,
                            numeric ? " (more point lines than the count said?)" : "");
    }
    char *name = hdi_lex_token(lx);
    if (name == NULL) {
        return hdi_lex_fail(lx, HD_ERR_PARSE, "expected a name after 'pair'");
    }
    size_t len = strlen(name);
    if (len > HD_PAIR_NAME_MAX) {
        return hdi_lex_fail(lx, HD_ERR_PARSE, "pair name longer than %d bytes", HD_PAIR_NAME_MAX);
    }
    char *extra = hdi_lex_token(lx);
    if (extra != NULL) {
        hdi_lex_quote(extra, q, sizeof q);
        return hdi_lex_fail(lx, HD_ERR_PARSE,
                            "unexpected '%s' after the pair name (a name is one word without "
                            "spaces)",
                            q);
    }
    memcpy(r->name, name, len + 1);
    return HD_OK;
}

/* The optional "radius <r>" of a plain set, whose tokens after the count are key, value and
 * extra (NULL when absent): r finite and >= 0 (0 without one). */
static hd_status read_radius(hd_pair_reader *r, const char *label, const char *key,
                             const char *value, const char *extra, double *radius)
{
    char q[48];
    hdi_lex_quote(r->name, q, sizeof q);
    *radius = 0.0;
    if (key == NULL) {
        return HD_OK;
    }
    int is_radius = strcmp(key, "radius") == 0;
    if (is_radius && value == NULL) {
        return hdi_lex_fail(r->lx, HD_ERR_PARSE, "pair '%s': radius of %s: expected a value", q,
                            label);
    }
    if (!is_radius || extra != NULL) {
        char t[48];
        hdi_lex_quote(extra != NULL ? extra : key, t, sizeof t);
        return hdi_lex_fail(r->lx, HD_ERR_PARSE,
                            "pair '%s': expected '%s <count>' or '%s <count> radius <r>', found "
                            "'%s' after the count",
                            q, label, label, t);
    }
    hd_status st = hdi_lex_double(r->lx, value, NULL, radius);
    if (st != HD_OK) {
        hdi_lex_prefix(r->lx, "pair '%s': radius of %s", q, label);
        return st;
    }
    if (!(*radius >= 0.0)) {
        return hdi_lex_fail(r->lx, HD_ERR_PARSE, "pair '%s': radius of %s: %s is negative", q,
                            label, value);
    }
    return HD_OK;
}

/* n lines "x y z" appended to buf; what names the set in messages ("A", "piece 2 of A"). */
static hd_status read_points(hd_pair_reader *r, const char *what, int n, hdi_point_buf *buf)
{
    hdi_lexer *lx = r->lx;
    char q[48];
    hdi_lex_quote(r->name, q, sizeof q);
    for (int i = 0; i < n; ++i) {
        hd_status st = hdi_lex_expect_line(
            lx, "pair '%s': unexpected end of file: expected point %d of %d of %s 'x y z'", q,
            i + 1, n, what);
        if (st != HD_OK) {
            return st;
        }
        double p[3];
        int count = 0;
        st = hdi_lex_numbers(lx, p, 3, 3, &count, NULL, "x y z");
        if (st != HD_OK) {
            hdi_lex_prefix(lx, "pair '%s': point %d of %d of %s", q, i + 1, n, what);
            return st;
        }
        st = hdi_point_buf_push(buf, lx, p);
        if (st != HD_OK) {
            return st;
        }
    }
    return HD_OK;
}

/* Does the unread rest of the current line start with the keyword kw? */
static int at_keyword(const char *text, const char *kw)
{
    size_t n = strlen(kw);
    while (*text == ' ' || *text == '\t') {
        ++text;
    }
    return strncmp(text, kw, n) == 0 && (text[n] == '\0' || text[n] == ' ' || text[n] == '\t');
}

/* After B's points, an optional line "motion vx vy vz wx wy wz cx cy cz" (B's twist over
 * [0, 1]); any other line is left for the next pair's header (resumed = 1: read it whole). */
static hd_status read_motion(hd_pair_reader *r)
{
    r->has_motion = false;
    int found = 0;
    hd_status st = hdi_lex_next(r->lx, &found);
    if (st != HD_OK || !found) {
        return st;
    }
    if (!at_keyword(r->lx->cursor, "motion")) {
        r->resumed = 1;
        return HD_OK;
    }
    hdi_lex_token(r->lx);
    int count = 0;
    char q[48];
    hdi_lex_quote(r->name, q, sizeof q);
    st = hdi_lex_numbers(r->lx, r->motion, 9, 9, &count, NULL, "motion vx vy vz wx wy wz cx cy cz");
    if (st != HD_OK) {
        hdi_lex_prefix(r->lx, "pair '%s'", q);
        return st;
    }
    r->has_motion = true;
    return HD_OK;
}

/* The next line as "<key> <count>" (exactly two tokens); *count_tok NULL when it is not. */
static hd_status read_key_line(hd_pair_reader *r, const char *expected, char **key,
                               char **count_tok, char **extra)
{
    char q[48];
    hdi_lex_quote(r->name, q, sizeof q);
    hd_status st =
        hdi_lex_expect_line(r->lx, "pair '%s': unexpected end of file: expected '%s'", q, expected);
    if (st != HD_OK) {
        return st;
    }
    *key = hdi_lex_token(r->lx);
    *count_tok = hdi_lex_token(r->lx);
    *extra = *count_tok != NULL ? hdi_lex_token(r->lx) : NULL;
    return HD_OK;
}

static hd_status expected_line(hd_pair_reader *r, const char *expected, const char *found, int more)
{
    char q[48], t[48];
    hdi_lex_quote(r->name, q, sizeof q);
    hdi_lex_quote(found, t, sizeof t);
    return hdi_lex_fail(r->lx, HD_ERR_PARSE, "pair '%s': expected '%s', found '%s%s'", q, expected,
                        t, more ? " ..." : "");
}

/* A count token, at least `least`, at most max; errors prefixed with what it counts. */
static hd_status read_count(hd_pair_reader *r, const char *tok, const char *what, int least,
                            long long max, int *n)
{
    char q[48];
    hdi_lex_quote(r->name, q, sizeof q);
    hd_status st = hdi_lex_count(r->lx, tok, NULL, max, n);
    if (st != HD_OK) {
        hdi_lex_prefix(r->lx, "pair '%s': %s", q, what);
        return st;
    }
    if (*n < least) {
        return hdi_lex_fail(r->lx, HD_ERR_EMPTY, "pair '%s': %s must be at least %d", q, what,
                            least);
    }
    return HD_OK;
}

/* "pieces <k>" after the label, then k blocks "P <n>" with n >= 1 lines "x y z" each. */
static hd_status read_pieces(hd_pair_reader *r, const char *label, const char *count_tok,
                             hdi_point_buf *buf, hdi_pair_pieces *pieces)
{
    char what[64];
    snprintf(what, sizeof what, "the piece count of %s", label);
    int k = 0;
    hd_status st = read_count(r, count_tok, what, 1, HD_COMPOUND_MAX_PIECES, &k);
    for (int i = 0; st == HD_OK && i < k; ++i) {
        char *key = NULL, *n_tok = NULL, *extra = NULL;
        st = read_key_line(r, "P <count>", &key, &n_tok, &extra);
        if (st == HD_OK && (strcmp(key, "P") != 0 || n_tok == NULL || extra != NULL)) {
            st = expected_line(r, "P <count>", key, n_tok != NULL);
        }
        int n = 0, failed = 0;
        snprintf(what, sizeof what, "the point count of piece %d of %s", i + 1, label);
        if (st == HD_OK) {
            st = read_count(r, n_tok, what, 1, HD_MAX_POINTS, &n);
        }
        if (st == HD_OK && !hdi_array_reserve(&pieces->sizes, &pieces->capacity, i + 1, 8,
                                              sizeof *pieces->sizes, &failed)) {
            st = hdi_lex_fail(r->lx, HD_ERR_NO_MEMORY, "out of memory for the pieces");
        }
        snprintf(what, sizeof what, "piece %d of %s", i + 1, label);
        if (st == HD_OK) {
            pieces->sizes[i] = n;
            pieces->count = i + 1;
            st = read_points(r, what, n, buf);
        }
    }
    return st;
}

/* "<label> <count>" then count lines "x y z", or "<label> pieces <k>" and the pieces. */
static hd_status read_set(hd_pair_reader *r, const char *label, hdi_point_buf *buf,
                          hdi_pair_pieces *pieces, double *radius)
{
    char expected[32];
    snprintf(expected, sizeof expected, "%s <count>", label);
    char *tok = NULL, *count_tok = NULL, *extra = NULL;
    hd_status st = read_key_line(r, expected, &tok, &count_tok, &extra);
    if (st != HD_OK) {
        return st;
    }
    buf->count = 0;
    pieces->count = 0;
    *radius = 0.0;
    int compound = count_tok != NULL && strcmp(count_tok, "pieces") == 0;
    if (strcmp(tok, label) != 0 || count_tok == NULL || (compound && extra == NULL) ||
        (compound && hdi_lex_token(r->lx) != NULL)) {
        return expected_line(r, expected, tok, count_tok != NULL);
    }
    if (compound) {
        return read_pieces(r, label, extra, buf, pieces);
    }
    char what[32];
    snprintf(what, sizeof what, "count of %s", label);
    int n = 0;
    st = read_count(r, count_tok, what, 0, HD_MAX_POINTS, &n);
    if (st == HD_OK && extra != NULL) {
        const char *value = hdi_lex_token(r->lx);
        st = read_radius(r, label, extra, value, value != NULL ? hdi_lex_token(r->lx) : NULL,
                         radius);
    }
    return st != HD_OK ? st : read_points(r, label, n, buf);
}

static hd_status read_pair(hd_pair_reader *r, hd_pair_data *pair, bool *done)
{
    int found = r->resumed != 0;
    hd_status st = found ? HD_OK : hdi_lex_next(r->lx, &found);
    if (st != HD_OK) {
        return st;
    }
    if (!found) {
        r->finished = 1;
        *done = true;
        return HD_OK;
    }
    int line = r->lx->line_no;
    st = read_pair_header(r);
    r->resumed = 0;
    r->header_failed = st != HD_OK;
    if (st == HD_OK) {
        st = read_set(r, "A", &r->a, &r->pieces_a, &r->radius_a);
    }
    if (st == HD_OK) {
        st = read_set(r, "B", &r->b, &r->pieces_b, &r->radius_b);
    }
    if (st == HD_OK) {
        st = read_motion(r);
    }
    if (st != HD_OK) {
        return st;
    }
    pair->name = r->name;
    pair->a.count = r->a.count;
    pair->a.xyz = r->a.xyz;
    pair->b.count = r->b.count;
    pair->b.xyz = r->b.xyz;
    pair->radius_a = r->radius_a;
    pair->radius_b = r->radius_b;
    pair->pieces_a = r->pieces_a.count;
    pair->piece_sizes_a = r->pieces_a.sizes;
    pair->pieces_b = r->pieces_b.count;
    pair->piece_sizes_b = r->pieces_b.sizes;
    pair->line = line;
    pair->has_motion = r->has_motion;
    memcpy(pair->motion, r->motion, sizeof pair->motion);
    return HD_OK;
}

hd_status hd_pair_reader_next(hd_pair_reader *reader, hd_pair_data *pair, bool *done,
                              hd_parse_error *err)
{
    if (done != NULL) {
        *done = false;
    }
    if (reader == NULL || pair == NULL || done == NULL) {
        return hdi_io_error(err, "<pair reader>", 0, HD_ERR_NULL, "no reader or no output given");
    }
    memset(pair, 0, sizeof *pair);
    if (reader->failed == HD_OK && reader->finished) {
        *done = true;
        return HD_OK;
    }
    if (reader->failed == HD_OK) {
        reader->failed = read_pair(reader, pair, done);
    }
    if (reader->failed != HD_OK) {
        memset(pair, 0, sizeof *pair);
        if (err != NULL) {
            *err = reader->err;
        }
    }
    return reader->failed;
}

/* Was the failing line's first token the keyword 'pair' (a pair header read as a point, when a
 * set has fewer lines than its count)? The lexer NUL-terminated the tokens it read in place. */
static int failed_on_pair_keyword(const hdi_lexer *lx)
{
    const char *start = lx->line;
    if (lx->line_no == 1 && memcmp(start, "\xEF\xBB\xBF", 3) == 0) {
        start += 3;
    }
    while (*start == ' ' || *start == '\t') {
        ++start;
    }
    return strcmp(start, "pair") == 0 && lx->cursor > start;
}

hd_status hd_pair_reader_resume(hd_pair_reader *reader, hd_parse_error *err)
{
    if (reader == NULL) {
        return hdi_io_error(err, "<pair reader>", 0, HD_ERR_NULL, "no reader given");
    }
    hd_status st = reader->failed;
    if (st == HD_OK || st == HD_ERR_IO || st == HD_ERR_NO_MEMORY) {
        return st; /* nothing to skip, or nothing more to be read */
    }
    reader->failed = HD_OK;
    int header_failed = reader->header_failed;
    reader->header_failed = 0;
    if (!header_failed && failed_on_pair_keyword(reader->lx)) {
        reader->resumed = 2;
        return HD_OK;
    }
    for (;;) {
        int found = 0;
        st = hdi_lex_next(reader->lx, &found);
        if (st != HD_OK && st != HD_ERR_PARSE) {
            /* HD_ERR_IO, or HD_ERR_TOO_LARGE past INT_MAX lines: nothing more can be read */
            reader->failed = st;
            if (err != NULL) {
                *err = reader->err;
            }
            return st;
        }
        if (st == HD_OK && !found) { /* no further pair: the next call ends cleanly */
            reader->finished = 1;
            return HD_OK;
        }
        if (st == HD_OK && at_keyword(reader->lx->cursor, "pair")) {
            reader->resumed = 1;
            return HD_OK;
        }
    }
}
