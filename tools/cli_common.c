/* Shared pieces of the hedra command-line tool. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

/* Standard input holds at most this many bytes (a mesh of ~40 million vertices). */
#define HD_CLI_STDIN_MAX ((size_t)1 << 30)

/* Reads all of fp into a NUL-terminated buffer; NULL (with a message) on error or overflow. */
static char *read_all(FILE *fp, size_t *size)
{
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap + 1);
    while (buf != NULL) {
        len += fread(buf + len, 1, cap - len, fp);
        if (len < cap) {
            break;
        }
        char *grown = cap < HD_CLI_STDIN_MAX ? realloc(buf, 2 * cap + 1) : NULL;
        if (grown == NULL) {
            fprintf(stderr, "hedra: <stdin>: more than %zu bytes or out of memory\n", cap);
            free(buf);
            return NULL;
        }
        buf = grown;
        cap *= 2;
    }
    if (buf != NULL && ferror(fp)) {
        fprintf(stderr, "hedra: <stdin>: read error\n");
        free(buf);
        return NULL;
    }
    if (buf != NULL) {
        buf[len] = '\0';
        *size = len;
    }
    return buf;
}

/* The format of a point file read from standard input, from its first token outside comments:
 * an OFF header keyword (OFF, COFF, NOFF, ...), an OBJ statement keyword, or else XYZ (a number
 * or anything the XYZ reader will then report with its line). */
static hd_format sniff_format(const char *text)
{
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') {
            ++p;
        }
        if (*p != '#') {
            break;
        }
        while (*p != '\0' && *p != '\n') {
            ++p;
        }
    }
    size_t n = strcspn(p, " \t\r\n");
    if (n >= 3 && strncmp(p + n - 3, "OFF", 3) == 0) {
        return HD_FORMAT_OFF;
    }
    static const char *const obj_words[] = {"v", "vt", "vn", "vp",     "f",     "l",
                                            "o", "g",  "s",  "mtllib", "usemtl"};
    for (size_t i = 0; i < sizeof obj_words / sizeof obj_words[0]; ++i) {
        if (strlen(obj_words[i]) == n && strncmp(p, obj_words[i], n) == 0) {
            return HD_FORMAT_OBJ;
        }
    }
    return HD_FORMAT_XYZ;
}

/* The points of standard input, its format told from its content. */
static hd_status read_stdin_points(hd_points *pts, hd_parse_error *err)
{
    size_t size = 0;
    char *text = read_all(stdin, &size);
    if (text == NULL) {
        return HD_ERR_IO;
    }
    hd_status st = HD_ERR_IO;
    FILE *mem = size > 0 ? fmemopen(text, size, "r") : NULL;
    if (size == 0) {
        fprintf(stderr, "hedra: <stdin>: empty input\n");
    } else if (mem == NULL) {
        fprintf(stderr, "hedra: <stdin>: cannot read\n");
    } else {
        st = hd_read_points_stream(mem, "<stdin>", sniff_format(text), pts, err);
        fclose(mem);
    }
    free(text);
    return st;
}

hd_polytope *hd_cli_load(const char *path)
{
    hd_points pts = {0, NULL};
    hd_parse_error err;
    memset(&err, 0, sizeof err);
    int from_stdin = strcmp(path, "-") == 0;
    hd_status st = from_stdin ? read_stdin_points(&pts, &err)
                              : hd_read_points(path, HD_FORMAT_AUTO, &pts, &err);
    if (st != HD_OK) {
        if (err.message[0] == '\0' && from_stdin) {
            return NULL; /* read_stdin_points said why */
        }
        char msg[600];
        hd_parse_error_format(&err, msg, (int)sizeof msg);
        fprintf(stderr, "hedra: %s\n", msg[0] ? msg : hd_status_str(st));
        return NULL;
    }
    hd_polytope *poly = NULL;
    st = hd_polytope_build(pts.xyz, pts.count, NULL, &poly);
    hd_points_free(&pts);
    if (st != HD_OK) {
        fprintf(stderr, "hedra: %s: cannot build the hull: %s\n", from_stdin ? "<stdin>" : path,
                hd_status_str(st));
        return NULL;
    }
    return poly;
}

int hd_cli_parse_vec3(const char *text, double out[3])
{
    const char *p = text;
    for (int i = 0; i < 3; ++i) {
        char *end = NULL;
        errno = 0;
        out[i] = strtod(p, &end);
        if (end == p || errno == ERANGE || !isfinite(out[i])) {
            return 0;
        }
        p = end;
        if (i < 2) {
            if (*p != ',') {
                return 0;
            }
            ++p;
        }
    }
    return *p == '\0';
}

int hd_cli_usage_error(const char *cmd, const char *message, const char *arg)
{
    fprintf(stderr, "hedra %s: %s%s%s\n(see 'hedra %s --help')\n", cmd, message, arg ? ": " : "",
            arg ? arg : "", cmd);
    return HD_EXIT_USAGE;
}

int hd_cli_is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

void hd_json_double(FILE *fp, double v)
{
    if (isfinite(v)) {
        fprintf(fp, "%.17g", v);
    } else {
        fputs("null", fp);
    }
}

void hd_json_vec3(FILE *fp, const double v[3])
{
    fputc('[', fp);
    for (int i = 0; i < 3; ++i) {
        if (i) {
            fputc(',', fp);
        }
        hd_json_double(fp, v[i]);
    }
    fputc(']', fp);
}

void hd_json_string(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (const unsigned char *c = (const unsigned char *)s; *c; ++c) {
        if (*c == '"' || *c == '\\') {
            fprintf(fp, "\\%c", *c);
        } else if (*c < 0x20 || *c == '<' || *c == '>') {
            fprintf(fp, "\\u%04x", *c);
        } else {
            fputc(*c, fp);
        }
    }
    fputc('"', fp);
}

long long hd_cli_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

hd_status hd_cli_workspace_for(hd_workspace **ws, const hd_polytope *a, const hd_polytope *b,
                               const hd_tolerance *tol)
{
    int need;
    hd_status st = hd_workspace_capacity_for(a, b, tol, &need);
    if (st != HD_OK || hd_workspace_capacity(*ws) >= need) {
        return st;
    }
    hd_workspace_destroy(*ws);
    *ws = NULL;
    return hd_workspace_create(need, ws);
}
