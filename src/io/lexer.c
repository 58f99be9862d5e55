/* The line reader shared by every file reader: buffered block reads, line numbers, comment and
 * white-space handling, rejection of binary data, and strict number parsing. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "io/internal.h"

/* Optional context prefix of a message: "what: " or nothing when what is NULL. */
#define HD_WHAT(what) ((what) != NULL ? (what) : ""), ((what) != NULL ? ": " : "")

static void set_name(hd_parse_error *err, const char *name)
{
    const char *n = (name != NULL && name[0] != '\0') ? name : "<input>";
    size_t len = strlen(n);
    if (len >= sizeof err->file) {
        len = sizeof err->file - 1;
    }
    memcpy(err->file, n, len);
    err->file[len] = '\0';
}

static void vset_message(hd_parse_error *err, const char *fmt, va_list ap)
{
    vsnprintf(err->message, sizeof err->message, fmt, ap);
}

hd_status hdi_io_error(hd_parse_error *err, const char *name, int line, hd_status status,
                       const char *fmt, ...)
{
    if (err == NULL) {
        return status;
    }
    set_name(err, name);
    err->line = line;
    va_list ap;
    va_start(ap, fmt);
    vset_message(err, fmt, ap);
    va_end(ap);
    return status;
}

hdi_lexer *hdi_lex_create(FILE *fp, const char *name, hd_parse_error *err)
{
    hdi_lexer *lx = malloc(sizeof *lx);
    if (lx == NULL) {
        return NULL;
    }
    lx->fp = fp;
    lx->err = err;
    lx->line_no = 0;
    lx->at_eof = 0;
    lx->commas = 0;
    lx->cursor = lx->line;
    lx->line[0] = '\0';
    lx->block_pos = 0;
    lx->block_len = 0;
    lx->block_eof = 0;
    set_name(err, name);
    err->line = 0;
    err->message[0] = '\0';
    return lx;
}

void hdi_lex_destroy(hdi_lexer *lx)
{
    free(lx);
}

hd_status hdi_lex_fail(hdi_lexer *lx, hd_status status, const char *fmt, ...)
{
    lx->err->line = lx->line_no;
    va_list ap;
    va_start(ap, fmt);
    vset_message(lx->err, fmt, ap);
    va_end(ap);
    return status;
}

/* The error position "the line after the last one" (end of file) and the formatted message. */
static void fail_after_last_line(hdi_lexer *lx, const char *fmt, va_list ap)
{
    lx->err->line = lx->line_no < INT_MAX ? lx->line_no + 1 : INT_MAX;
    vset_message(lx->err, fmt, ap);
}

hd_status hdi_lex_fail_eof(hdi_lexer *lx, hd_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_after_last_line(lx, fmt, ap);
    va_end(ap);
    return status;
}

hd_status hdi_lex_each_line(hdi_lexer *lx, hd_status (*line)(hdi_lexer *lx, void *ctx), void *ctx)
{
    for (;;) {
        int found = 0;
        hd_status st = hdi_lex_next(lx, &found);
        if (st != HD_OK || !found) {
            return st;
        }
        st = line(lx, ctx);
        if (st != HD_OK) {
            return st;
        }
    }
}

hd_status hdi_lex_expect_line(hdi_lexer *lx, const char *fmt, ...)
{
    int found = 0;
    hd_status st = hdi_lex_next(lx, &found);
    if (st != HD_OK || found) {
        return st;
    }
    va_list ap;
    va_start(ap, fmt);
    fail_after_last_line(lx, fmt, ap);
    va_end(ap);
    return HD_ERR_PARSE;
}

void hdi_lex_quote(const char *tok, char *buf, size_t size)
{
    size_t n = 0;
    const size_t limit = 40;
    for (; tok[n] != '\0' && n < limit && n + 4 < size; ++n) {
        unsigned char c = (unsigned char)tok[n];
        buf[n] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    if (tok[n] != '\0' && n + 4 <= size) {
        memcpy(buf + n, "...", 3);
        n += 3;
    }
    buf[n] = '\0';
}

/* Refills the read-ahead block. Returns HD_OK with block_len = 0 at end of file. */
static hd_status fill_block(hdi_lexer *lx)
{
    lx->block_pos = 0;
    lx->block_len = 0;
    if (lx->block_eof) {
        return HD_OK;
    }
    lx->block_len = fread(lx->block, 1, sizeof lx->block, lx->fp);
    if (lx->block_len < sizeof lx->block) {
        if (ferror(lx->fp)) {
            int code = errno;
            return hdi_lex_fail(lx, HD_ERR_IO, "read error after line %d (%s)", lx->line_no,
                                code != 0 ? strerror(code) : "unknown error");
        }
        lx->block_eof = 1;
    }
    return HD_OK;
}

/* Copies the next raw line (without '\n') into lx->line; *len its length, *got = 0 at end of
 * file. A line longer than HD_IO_MAX_LINE (plus one byte for a CR of a CRLF end) is an error. */
static hd_status read_raw_line(hdi_lexer *lx, size_t *len, int *got)
{
    size_t n = 0;
    *got = 0;
    for (;;) {
        if (lx->block_pos == lx->block_len) {
            hd_status st = fill_block(lx);
            if (st != HD_OK) {
                return st;
            }
            if (lx->block_len == 0) {
                break;
            }
        }
        if (!*got) {
            if (lx->line_no == INT_MAX) {
                return hdi_lex_fail(lx, HD_ERR_TOO_LARGE, "more than %d lines", INT_MAX);
            }
            lx->line_no++;
            *got = 1;
        }
        const char *start = lx->block + lx->block_pos;
        size_t avail = lx->block_len - lx->block_pos;
        const char *nl = memchr(start, '\n', avail);
        size_t take = nl != NULL ? (size_t)(nl - start) : avail;
        if (take > HD_IO_MAX_LINE + 1 - n) {
            return hdi_lex_fail(lx, HD_ERR_PARSE, "line longer than %d bytes", HD_IO_MAX_LINE);
        }
        memcpy(lx->line + n, start, take);
        n += take;
        lx->block_pos += take;
        if (nl != NULL) {
            lx->block_pos++;
            break;
        }
    }
    if (n > 0 && lx->line[n - 1] == '\r') {
        n--; /* CRLF line end */
    }
    if (*got && n > HD_IO_MAX_LINE) {
        return hdi_lex_fail(lx, HD_ERR_PARSE, "line longer than %d bytes", HD_IO_MAX_LINE);
    }
    lx->line[n] = '\0';
    *len = n;
    return HD_OK;
}

/* Rejects control bytes (binary data, NUL, a lone CR) anywhere in the line, comments included. */
static hd_status check_bytes(hdi_lexer *lx, const char *s, size_t len)
{
    size_t base = (size_t)(s - lx->line); /* columns count from the start of the raw line */
    for (size_t i = 0; i < len; ++i) {
        unsigned char c = (unsigned char)s[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f) {
            if (c == '\r') {
                return hdi_lex_fail(lx, HD_ERR_PARSE,
                                    "carriage return inside a line at column %zu (only LF and CRLF "
                                    "line ends are accepted)",
                                    base + i + 1);
            }
            return hdi_lex_fail(lx, HD_ERR_PARSE,
                                "unexpected control byte 0x%02X at column %zu (binary data?)",
                                (unsigned)c, base + i + 1);
        }
    }
    return HD_OK;
}

/* XYZ: a comma separates two fields like white space does; empty fields are errors. */
static hd_status split_commas(hdi_lexer *lx, char *s)
{
    int expect_field = 1;
    for (char *p = s; *p != '\0'; ++p) {
        if (*p == ',') {
            if (expect_field) {
                return hdi_lex_fail(lx, HD_ERR_PARSE, "empty field before ',' at column %zu",
                                    (size_t)(p - lx->line) + 1);
            }
            *p = ' ';
            expect_field = 1;
        } else if (*p != ' ' && *p != '\t') {
            expect_field = 0;
        }
    }
    if (expect_field) {
        return hdi_lex_fail(lx, HD_ERR_PARSE, "empty field after the last ','");
    }
    return HD_OK;
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

hd_status hdi_lex_next(hdi_lexer *lx, int *found)
{
    *found = 0;
    while (!lx->at_eof) {
        size_t len = 0;
        int got = 0;
        hd_status st = read_raw_line(lx, &len, &got);
        if (st != HD_OK) {
            return st;
        }
        if (!got) {
            lx->at_eof = 1;
            break;
        }
        char *s = lx->line;
        if (lx->line_no == 1 && len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
            s += 3; /* UTF-8 byte order mark */
            len -= 3;
        }
        st = check_bytes(lx, s, len);
        if (st != HD_OK) {
            return st;
        }
        char *hash = memchr(s, '#', len);
        if (hash != NULL) {
            *hash = '\0';
            len = (size_t)(hash - s);
        }
        while (len > 0 && is_blank(s[len - 1])) {
            s[--len] = '\0';
        }
        while (is_blank(*s)) {
            ++s;
        }
        if (*s == '\0') {
            continue;
        }
        if (lx->commas) {
            st = split_commas(lx, s);
            if (st != HD_OK) {
                return st;
            }
        }
        lx->cursor = s;
        *found = 1;
        return HD_OK;
    }
    lx->cursor = lx->line;
    lx->line[0] = '\0';
    return HD_OK;
}

char *hdi_lex_token(hdi_lexer *lx)
{
    char *p = lx->cursor;
    while (is_blank(*p)) {
        ++p;
    }
    if (*p == '\0') {
        lx->cursor = p;
        return NULL;
    }
    char *tok = p;
    while (*p != '\0' && !is_blank(*p)) {
        ++p;
    }
    if (*p != '\0') {
        *p++ = '\0';
    }
    lx->cursor = p;
    return tok;
}

static int lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

static int equals_nocase(const char *s, const char *word)
{
    for (; *word != '\0'; ++s, ++word) {
        if (lower(*s) != *word) {
            return 0;
        }
    }
    return *s == '\0';
}

static int starts_nocase(const char *s, const char *word)
{
    for (; *word != '\0'; ++s, ++word) {
        if (lower(*s) != *word) {
            return 0;
        }
    }
    return 1;
}

/* The spellings of NaN and infinity that strtod accepts: nan, nan(...), inf, infinity. */
static int is_nonfinite_word(const char *tok)
{
    const char *p = (*tok == '+' || *tok == '-') ? tok + 1 : tok;
    if (equals_nocase(p, "inf") || equals_nocase(p, "infinity") || equals_nocase(p, "nan")) {
        return 1;
    }
    size_t n = strlen(p);
    return starts_nocase(p, "nan(") && p[n - 1] == ')';
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* The decimal grammar [+-](d+[.d*] | .d+)[(e|E)[+-]d+], nothing else (no hex, no spaces). */
static int is_decimal(const char *p)
{
    if (*p == '+' || *p == '-') {
        ++p;
    }
    int digits = 0;
    while (is_digit(*p)) {
        ++p;
        ++digits;
    }
    if (*p == '.') {
        ++p;
        while (is_digit(*p)) {
            ++p;
            ++digits;
        }
    }
    if (digits == 0) {
        return 0;
    }
    if (*p == 'e' || *p == 'E') {
        ++p;
        if (*p == '+' || *p == '-') {
            ++p;
        }
        if (!is_digit(*p)) {
            return 0;
        }
        while (is_digit(*p)) {
            ++p;
        }
    }
    return *p == '\0';
}

hd_status hdi_lex_double(hdi_lexer *lx, const char *tok, const char *what, double *out)
{
    char q[48];
    if (is_nonfinite_word(tok)) {
        hdi_lex_quote(tok, q, sizeof q);
        return hdi_lex_fail(lx, HD_ERR_NONFINITE, "%s%s'%s' is not a finite number", HD_WHAT(what),
                            q);
    }
    if (!is_decimal(tok)) {
        hdi_lex_quote(tok, q, sizeof q);
        return hdi_lex_fail(lx, HD_ERR_PARSE, "%s%sexpected a number, found '%s'", HD_WHAT(what),
                            q);
    }
    char *end = NULL;
    double v = strtod(tok, &end);
    if (end == NULL || *end != '\0') {
        /* The grammar was checked, so only a locale whose decimal point is not '.' gets here. */
        hdi_lex_quote(tok, q, sizeof q);
        return hdi_lex_fail(lx, HD_ERR_PARSE,
                            "%s%scannot convert '%s' (is the C locale's decimal point not '.'?)",
                            HD_WHAT(what), q);
    }
    if (!isfinite(v)) {
        hdi_lex_quote(tok, q, sizeof q);
        return hdi_lex_fail(lx, HD_ERR_NONFINITE, "%s%s'%s' overflows a double (not finite)",
                            HD_WHAT(what), q);
    }
    /* Underflow (ERANGE with a tiny result) keeps strtod's correctly rounded subnormal or zero. */
    *out = v;
    return HD_OK;
}

hd_status hdi_lex_integer(hdi_lexer *lx, const char *tok, const char *what, long long *out)
{
    const char *p = tok;
    int negative = 0;
    if (*p == '+' || *p == '-') {
        negative = *p == '-';
        ++p;
    }
    long long v = 0;
    const char *digits = p;
    for (; is_digit(*p); ++p) {
        if (v < HD_IO_INT_SATURATE) {
            v = v * 10 + (*p - '0');
        }
    }
    if (p == digits || *p != '\0') {
        char q[48];
        hdi_lex_quote(tok, q, sizeof q);
        return hdi_lex_fail(lx, HD_ERR_PARSE, "%s%sexpected an integer, found '%s'", HD_WHAT(what),
                            q);
    }
    if (v > HD_IO_INT_SATURATE) {
        v = HD_IO_INT_SATURATE;
    }
    *out = negative ? -v : v;
    return HD_OK;
}

hd_status hdi_lex_count(hdi_lexer *lx, const char *tok, const char *what, long long max, int *out)
{
    long long v = 0;
    hd_status st = hdi_lex_integer(lx, tok, what, &v);
    if (st != HD_OK) {
        return st;
    }
    char q[48];
    if (v < 0) {
        hdi_lex_quote(tok, q, sizeof q);
        return hdi_lex_fail(lx, HD_ERR_PARSE, "%s%smust not be negative, found '%s'", HD_WHAT(what),
                            q);
    }
    if (v > max) {
        hdi_lex_quote(tok, q, sizeof q);
        return hdi_lex_fail(lx, HD_ERR_TOO_LARGE, "%s%s'%s' is too large (the limit is %lld)",
                            HD_WHAT(what), q, max);
    }
    *out = (int)v;
    return HD_OK;
}

hd_status hdi_lex_numbers(hdi_lexer *lx, double *vals, int min_count, int max_count, int *count,
                          const char *what, const char *syntax)
{
    int n = 0;
    for (char *tok = hdi_lex_token(lx); tok != NULL; tok = hdi_lex_token(lx)) {
        if (n == max_count) {
            char q[48];
            hdi_lex_quote(tok, q, sizeof q);
            int total = n + 1;
            while (hdi_lex_token(lx) != NULL) {
                ++total;
            }
            return hdi_lex_fail(lx, HD_ERR_PARSE,
                                "%s%sexpected '%s', found %d fields (unexpected '%s')",
                                HD_WHAT(what), syntax, total, q);
        }
        hd_status st = hdi_lex_double(lx, tok, what, &vals[n]);
        if (st != HD_OK) {
            return st;
        }
        ++n;
    }
    if (n < min_count) {
        return hdi_lex_fail(lx, HD_ERR_PARSE, "%s%sexpected '%s', found %d field%s", HD_WHAT(what),
                            syntax, n, n == 1 ? "" : "s");
    }
    *count = n;
    return HD_OK;
}

void hdi_lex_prefix(hdi_lexer *lx, const char *fmt, ...)
{
    char prefix[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    /* message = prefix ": " old message, cut to the buffer (truncation is intended). */
    char *msg = lx->err->message;
    const size_t cap = sizeof lx->err->message;
    size_t plen = strlen(prefix);
    size_t mlen = strlen(msg);
    if (plen + 2 >= cap) {
        plen = cap - 3;
    }
    if (plen + 2 + mlen >= cap) {
        mlen = cap - 1 - plen - 2;
    }
    memmove(msg + plen + 2, msg, mlen);
    memcpy(msg, prefix, plen);
    msg[plen] = ':';
    msg[plen + 1] = ' ';
    msg[plen + 2 + mlen] = '\0';
}
