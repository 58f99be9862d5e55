/* The streaming pair-file reader: one pair at a time into buffers owned by the reader, which
 * only grow when a larger pair arrives, so any number of pairs is read in constant memory. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "io/internal.h"

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

/* The optional "radius <r>" after a set's count: r finite and >= 0 (0 without one). */
static hd_status read_radius(hdi_lexer *lx, const char *q, const char *label, double *radius)
{
    *radius = 0.0;
    char *key = hdi_lex_token(lx);
    if (key == NULL) {
        return HD_OK;
    }
    int is_radius = strcmp(key, "radius") == 0;
    char *value = is_radius ? hdi_lex_token(lx) : NULL;
    char *extra = value != NULL ? hdi_lex_token(lx) : NULL;
    if (is_radius && value == NULL) {
        return hdi_lex_fail(lx, HD_ERR_PARSE, "pair '%s': radius of %s: expected a value", q,
                            label);
    }
    if (value == NULL || extra != NULL) {
        char t[48];
        hdi_lex_quote(extra != NULL ? extra : key, t, sizeof t);
        return hdi_lex_fail(lx, HD_ERR_PARSE,
                            "pair '%s': expected '%s <count>' or '%s <count> radius <r>', found "
                            "'%s' after the count",
                            q, label, label, t);
    }
    hd_status st = hdi_lex_double(lx, value, NULL, radius);
    if (st != HD_OK) {
        hdi_lex_prefix(lx, "pair '%s': radius of %s", q, label);
        return st;
    }
    if (!(*radius >= 0.0)) {
        return hdi_lex_fail(lx, HD_ERR_PARSE, "pair '%s': radius of %s: %s is negative", q, label,
                            value);
    }
    return HD_OK;
}

/* "<label> <count>" (optionally "radius <r>") then count lines "x y z". */
static hd_status read_set(hd_pair_reader *r, const char *label, hdi_point_buf *buf, double *radius)
{
    hdi_lexer *lx = r->lx;
    char q[48];
    hdi_lex_quote(r->name, q, sizeof q);
    hd_status st = hdi_lex_expect_line(
        lx, "pair '%s': unexpected end of file: expected '%s <count>'", q, label);
    if (st != HD_OK) {
        return st;
    }
    char *tok = hdi_lex_token(lx);
    char *count_tok = hdi_lex_token(lx);
    if (strcmp(tok, label) != 0 || count_tok == NULL) {
        char t[48];
        hdi_lex_quote(tok, t, sizeof t);
        return hdi_lex_fail(lx, HD_ERR_PARSE, "pair '%s': expected '%s <count>', found '%s%s'", q,
                            label, t, count_tok != NULL ? " ..." : "");
    }
    int n = 0;
    st = hdi_lex_count(lx, count_tok, NULL, HD_MAX_POINTS, &n);
    if (st != HD_OK) {
        hdi_lex_prefix(lx, "pair '%s': count of %s", q, label);
        return st;
    }
    st = read_radius(lx, q, label, radius);
    if (st != HD_OK) {
        return st;
    }
    buf->count = 0;
    for (int i = 0; i < n; ++i) {
        st = hdi_lex_expect_line(
            lx, "pair '%s': unexpected end of file: expected point %d of %d of %s 'x y z'", q,
            i + 1, n, label);
        if (st != HD_OK) {
            return st;
        }
        double p[3];
        int count = 0;
        st = hdi_lex_numbers(lx, p, 3, 3, &count, NULL, "x y z");
        if (st != HD_OK) {
            hdi_lex_prefix(lx, "pair '%s': point %d of %d of %s", q, i + 1, n, label);
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
        st = read_set(r, "A", &r->a, &r->radius_a);
    }
    if (st == HD_OK) {
        st = read_set(r, "B", &r->b, &r->radius_b);
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
