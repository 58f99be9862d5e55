/* Shared pieces of the hedra command-line tool. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

hd_polytope *hd_cli_load(const char *path)
{
    hd_points pts = {0, NULL};
    hd_parse_error err;
    memset(&err, 0, sizeof err);
    hd_status st = hd_read_points(path, HD_FORMAT_AUTO, &pts, &err);
    if (st != HD_OK) {
        char msg[600];
        hd_parse_error_format(&err, msg, (int)sizeof msg);
        fprintf(stderr, "hedra: %s\n", msg[0] ? msg : hd_status_str(st));
        return NULL;
    }
    hd_polytope *poly = NULL;
    st = hd_polytope_build(pts.xyz, pts.count, NULL, &poly);
    hd_points_free(&pts);
    if (st != HD_OK) {
        fprintf(stderr, "hedra: %s: cannot build the hull: %s\n", path, hd_status_str(st));
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
        } else if (*c < 0x20) {
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
