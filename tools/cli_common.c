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
static hd_status read_stdin_points(hd_format format, hd_points *pts, hd_parse_error *err)
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
        st = hd_read_points_stream(
            mem, "<stdin>", format == HD_FORMAT_AUTO ? sniff_format(text) : format, pts, err);
        fclose(mem);
    }
    free(text);
    return st;
}

int hd_cli_parse_format_option(const char *cmd, int argc, char **argv, int *i, hd_format *format)
{
    if (strcmp(argv[*i], "--format") != 0) {
        return 0;
    }
    static const char *const names[] = {"off", "obj", "xyz"};
    static const hd_format formats[] = {HD_FORMAT_OFF, HD_FORMAT_OBJ, HD_FORMAT_XYZ};
    const char *val = *i + 1 < argc ? argv[++*i] : "";
    for (int k = 0; k < 3; ++k) {
        if (strcmp(val, names[k]) == 0) {
            *format = formats[k];
            return 1;
        }
    }
    hd_cli_usage_error(cmd, "--format expects off, obj or xyz", val[0] ? val : NULL);
    return -1;
}

hd_polytope *hd_cli_load(const char *path, hd_format format)
{
    return hd_cli_load_rounded(path, format, 0.0);
}

hd_polytope *hd_cli_load_rounded(const char *path, hd_format format, double radius)
{
    hd_points pts = {0, NULL};
    hd_parse_error err;
    memset(&err, 0, sizeof err);
    int from_stdin = strcmp(path, "-") == 0;
    hd_status st = from_stdin ? read_stdin_points(format, &pts, &err)
                              : hd_read_points(path, format, &pts, &err);
    if (st != HD_OK) {
        if (err.message[0] == '\0' && from_stdin) {
            return NULL; /* read_stdin_points said why */
        }
        char msg[600];
        hd_parse_error_format(&err, msg, (int)sizeof msg);
        fprintf(stderr, "hedra: %s\n", msg[0] ? msg : hd_status_str(st));
        if (st == HD_ERR_INVALID_ARG && format == HD_FORMAT_AUTO && !from_stdin) {
            fprintf(stderr, "hedra: name the format with --format off, obj or xyz\n");
        }
        return NULL;
    }
    hd_polytope *poly = NULL;
    st = hd_polytope_build_rounded(pts.xyz, pts.count, radius, NULL, &poly);
    hd_points_free(&pts);
    if (st != HD_OK) {
        fprintf(stderr, "hedra: %s: cannot build the hull: %s\n", from_stdin ? "<stdin>" : path,
                hd_status_str(st));
        return NULL;
    }
    return poly;
}

/* Parses n comma-separated finite doubles ("x,y,z"), nothing else around them; with
 * refuse_underflow also no value that underflows (the vectors' rule; a quaternion is normalised,
 * so a tiny component is harmless there). */
static int parse_numbers(const char *text, int n, bool refuse_underflow, double *out)
{
    const char *p = text;
    for (int i = 0; i < n; ++i) {
        char *end = NULL;
        errno = 0;
        out[i] = strtod(p, &end);
        if (end == p || (refuse_underflow && errno == ERANGE) || !isfinite(out[i])) {
            return 0;
        }
        p = end;
        if (i < n - 1) {
            if (*p != ',') {
                return 0;
            }
            ++p;
        }
    }
    return *p == '\0';
}

int hd_cli_parse_vec3(const char *text, double out[3])
{
    return parse_numbers(text, 3, true, out);
}

int hd_cli_parse_radius_option(const char *cmd, int argc, char **argv, int *i, double radius[2])
{
    int which = strcmp(argv[*i], "--radius-a") == 0   ? 0
                : strcmp(argv[*i], "--radius-b") == 0 ? 1
                                                      : -1;
    if (which < 0) {
        return 0;
    }
    const char *opt = argv[*i];
    const char *val = *i + 1 < argc ? argv[++*i] : "";
    char *end = NULL;
    double r = strtod(val, &end);
    if (val[0] == '\0' || *end != '\0' || !isfinite(r) || !(r >= 0.0)) {
        hd_cli_usage_error(cmd,
                           which == 0 ? "--radius-a expects a finite number >= 0"
                                      : "--radius-b expects a finite number >= 0",
                           val[0] ? val : opt);
        return -1;
    }
    radius[which] = r;
    return 1;
}

static int is_pose_option(const char *arg)
{
    return strcmp(arg, "--translate-a") == 0 || strcmp(arg, "--translate-b") == 0 ||
           strcmp(arg, "--rotate-a") == 0 || strcmp(arg, "--rotate-b") == 0;
}

int hd_cli_parse_pose_option(const char *cmd, int argc, char **argv, int *i, hd_pose *poses[2])
{
    const char *opt = argv[*i];
    size_t len = strlen(opt);
    hd_pose *pose = poses[opt[len - 1] == 'a' ? 0 : 1];
    if (pose == NULL) {
        hd_cli_usage_error(cmd, "this command has no shape for that option", opt);
        return -1;
    }
    if (*i + 1 >= argc) {
        hd_cli_usage_error(cmd, "option needs a value", opt);
        return -1;
    }
    const char *val = argv[++*i];
    char msg[96];
    if (strncmp(opt, "--translate", 11) == 0) {
        if (hd_cli_parse_vec3(val, pose->t)) {
            return 1;
        }
        snprintf(msg, sizeof msg, "%s expects X,Y,Z (three finite numbers)", opt);
        hd_cli_usage_error(cmd, msg, val);
        return -1;
    }
    double q[4], t[3] = {pose->t[0], pose->t[1], pose->t[2]};
    if (parse_numbers(val, 4, false, q) && hd_pose_from_quaternion(q, t, pose) == HD_OK) {
        return 1;
    }
    snprintf(msg, sizeof msg, "%s expects a non-zero finite quaternion W,X,Y,Z", opt);
    hd_cli_usage_error(cmd, msg, val);
    return -1;
}

int hd_cli_parse_shape_option(const char *cmd, int argc, char **argv, int *i, hd_pose *poses[2],
                              hd_format *format)
{
    return is_pose_option(argv[*i]) ? hd_cli_parse_pose_option(cmd, argc, argv, i, poses)
                                    : hd_cli_parse_format_option(cmd, argc, argv, i, format);
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
