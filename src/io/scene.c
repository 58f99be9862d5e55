/* The scene-file reader (hedra/io.h, docs/FORMATS.md): one pass over the file into plain data,
 * every name resolved on the spot (hash tables of shape and body names), so that an unknown or
 * duplicate name is reported at its own line. No polytope is built here. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "io/internal.h"

/* Shapes, bodies, operations and frames a scene file's arrays hold at first (then doubled). */
#define HD_SCENE_FILE_MIN_CAPACITY 16

/* Open addressing, linear probing; keys point to names owned by the file's arrays. */
typedef struct name_table {
    const char **keys;
    int *values;
    int count;
    int mask;
} name_table;

typedef struct scene_reader {
    hdi_lexer *lx;
    hd_scene_file *f;
    int shape_cap, body_cap, op_cap, frame_cap;
    name_table shapes; /* name -> shape index */
    name_table bodies; /* name -> body index while present, -1 once removed */
} scene_reader;

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s != '\0'; ++s) {
        h = (h ^ (unsigned char)*s) * 16777619u;
    }
    return h;
}

/* The slot of name: where it is, or the empty slot where it would go. */
static int table_slot(const name_table *t, const char *name)
{
    int i = (int)(name_hash(name) & (uint32_t)t->mask);
    while (t->keys[i] != NULL && strcmp(t->keys[i], name) != 0) {
        i = (i + 1) & t->mask;
    }
    return i;
}

/* The value of name, or -2 when absent. */
static int table_get(const name_table *t, const char *name)
{
    if (t->mask <= 0) {
        return -2;
    }
    int i = table_slot(t, name);
    return t->keys[i] != NULL ? t->values[i] : -2;
}

static hd_status table_grow(name_table *t)
{
    int size = t->mask > 0 ? 2 * (t->mask + 1) : 64;
    name_table g = {calloc((size_t)size, sizeof(char *)), malloc((size_t)size * sizeof(int)), 0,
                    size - 1};
    if (g.keys == NULL || g.values == NULL) {
        free(g.keys);
        free(g.values);
        return HD_ERR_NO_MEMORY;
    }
    for (int i = 0; t->mask > 0 && i <= t->mask; ++i) {
        if (t->keys[i] != NULL) {
            int j = table_slot(&g, t->keys[i]);
            g.keys[j] = t->keys[i];
            g.values[j] = t->values[i];
            g.count++;
        }
    }
    free(t->keys);
    free(t->values);
    *t = g;
    return HD_OK;
}

/* Sets name's value (inserting the key, which must outlive the table). */
static hd_status table_put(name_table *t, const char *name, int value)
{
    if (2 * (t->count + 1) > t->mask + 1 && table_grow(t) != HD_OK) {
        return HD_ERR_NO_MEMORY;
    }
    int i = table_slot(t, name);
    if (t->keys[i] == NULL) {
        t->keys[i] = name;
        t->count++;
    }
    t->values[i] = value;
    return HD_OK;
}

static void table_free(name_table *t)
{
    free(t->keys);
    free(t->values);
}

/* Room for one more element in the array at array_ptr (a `T **`; count used, *cap allocated, size
 * bytes each); at most 2^28 elements. */
static hd_status grow_array(scene_reader *r, void *array_ptr, int count, int *cap, size_t size)
{
    int failed = 0;
    if (count < (1 << 28) &&
        hdi_array_reserve(array_ptr, cap, count + 1, HD_SCENE_FILE_MIN_CAPACITY, size, &failed)) {
        return HD_OK;
    }
    return hdi_lex_fail(r->lx, HD_ERR_NO_MEMORY, "out of memory");
}

/* A copy of a name token (at most HD_SCENE_NAME_MAX bytes); what names it in messages. */
static hd_status take_name(scene_reader *r, const char *tok, const char *what, char **out)
{
    *out = NULL;
    if (tok == NULL) {
        return hdi_lex_fail(r->lx, HD_ERR_PARSE, "expected %s", what);
    }
    size_t len = strlen(tok);
    if (len > HD_SCENE_NAME_MAX) {
        return hdi_lex_fail(r->lx, HD_ERR_PARSE, "%s longer than %d bytes", what,
                            HD_SCENE_NAME_MAX);
    }
    *out = malloc(len + 1);
    if (*out == NULL) {
        return hdi_lex_fail(r->lx, HD_ERR_NO_MEMORY, "out of memory");
    }
    memcpy(*out, tok, len + 1);
    return HD_OK;
}

/* No token may follow on the line. */
static hd_status expect_end(scene_reader *r, const char *after)
{
    char *extra = hdi_lex_token(r->lx);
    if (extra == NULL) {
        return HD_OK;
    }
    char q[48];
    hdi_lex_quote(extra, q, sizeof q);
    return hdi_lex_fail(r->lx, HD_ERR_PARSE, "unexpected '%s' after %s", q, after);
}

/* "qw qx qy qz tx ty tz": a non-zero quaternion, normalised as the CLI's --rotate-b is
 * (hd_pose_from_quaternion), and a translation. */
static hd_status read_pose(scene_reader *r, hd_pose *pose)
{
    double v[7];
    int n = 0;
    hd_status st = hdi_lex_numbers(r->lx, v, 7, 7, &n, "pose", "qw qx qy qz tx ty tz");
    if (st != HD_OK) {
        return st;
    }
    if (hd_pose_from_quaternion(v, v + 4, pose) != HD_OK) {
        return hdi_lex_fail(r->lx, HD_ERR_BAD_POSE,
                            "pose: quaternion (%.10g, %.10g, %.10g, %.10g) gives no rotation: it "
                            "must be non-zero (any length: it is normalised)",
                            v[0], v[1], v[2], v[3]);
    }
    return HD_OK;
}

static hd_status push_op(scene_reader *r, hd_scene_file_op_kind kind, int body, const hd_pose *pose)
{
    hd_scene_file *f = r->f;
    hd_status st = grow_array(r, &f->ops, f->op_count, &r->op_cap, sizeof *f->ops);
    if (st != HD_OK) {
        return st;
    }
    hd_scene_file_op *op = &f->ops[f->op_count++];
    memset(op, 0, sizeof *op);
    op->kind = kind;
    op->body = body;
    op->line = r->lx->line_no;
    op->pose = pose != NULL ? *pose : hd_pose_identity();
    memset(op->twist, 0, sizeof op->twist);
    return HD_OK;
}

/* "P n" then n lines "x y z" into the shape's points. */
static hd_status read_points(scene_reader *r, const char *q, hdi_point_buf *buf)
{
    hdi_lexer *lx = r->lx;
    hd_status st =
        hdi_lex_expect_line(lx, "shape '%s': unexpected end of file: expected 'P <count>'", q);
    if (st != HD_OK) {
        return st;
    }
    char *tok = hdi_lex_token(lx), *count_tok = hdi_lex_token(lx);
    if (strcmp(tok, "P") != 0 || count_tok == NULL || hdi_lex_token(lx) != NULL) {
        char t[48];
        hdi_lex_quote(tok, t, sizeof t);
        return hdi_lex_fail(lx, HD_ERR_PARSE, "shape '%s': expected 'P <count>', found '%s%s'", q,
                            t, count_tok != NULL ? " ..." : "");
    }
    int n = 0;
    st = hdi_lex_count(lx, count_tok, NULL, HD_MAX_POINTS, &n);
    if (st != HD_OK) {
        hdi_lex_prefix(lx, "shape '%s': count of points", q);
        return st;
    }
    if (n == 0) {
        return hdi_lex_fail(lx, HD_ERR_EMPTY, "shape '%s': a shape needs at least one point", q);
    }
    for (int i = 0; i < n && st == HD_OK; ++i) {
        st = hdi_lex_expect_line(
            lx, "shape '%s': unexpected end of file: expected point %d of %d 'x y z'", q, i + 1, n);
        double p[3];
        int count = 0;
        if (st == HD_OK && (st = hdi_lex_numbers(lx, p, 3, 3, &count, NULL, "x y z")) != HD_OK) {
            hdi_lex_prefix(lx, "shape '%s': point %d of %d", q, i + 1, n);
        }
        if (st == HD_OK) {
            st = hdi_point_buf_push(buf, lx, p);
        }
    }
    return st;
}

/* Most pieces of a compound shape (hedra/compound.h). */
#define HD_SCENE_FILE_MAX_PIECES (1 << 16)

/* The options of a "shape" line after its name: "radius <r>" (finite, >= 0) and "pieces <k>"
 * (1 <= k <= 65536), each at most once, in any order. */
static hd_status read_shape_options(scene_reader *r, const char *q, hd_scene_file_shape *s)
{
    hdi_lexer *lx = r->lx;
    int have_radius = 0;
    for (char *key = hdi_lex_token(lx); key != NULL; key = hdi_lex_token(lx)) {
        int is_radius = strcmp(key, "radius") == 0, is_pieces = strcmp(key, "pieces") == 0;
        char *value = is_radius || is_pieces ? hdi_lex_token(lx) : NULL;
        if ((!is_radius && !is_pieces) || value == NULL || (is_radius && have_radius) ||
            (is_pieces && s->pieces > 0)) {
            char t[48];
            hdi_lex_quote(key, t, sizeof t);
            return hdi_lex_fail(lx, HD_ERR_PARSE,
                                "shape '%s': expected 'shape <name> [radius <r>] [pieces <k>]', "
                                "found '%s'%s",
                                q, t,
                                value == NULL && (is_radius || is_pieces) ? " without a value"
                                : is_radius || is_pieces                  ? " twice"
                                                                          : "");
        }
        hd_status st = is_radius
                           ? hdi_lex_double(lx, value, NULL, &s->radius)
                           : hdi_lex_count(lx, value, NULL, HD_SCENE_FILE_MAX_PIECES, &s->pieces);
        if (st != HD_OK) {
            hdi_lex_prefix(lx, "shape '%s': %s", q, is_radius ? "radius" : "pieces");
            return st;
        }
        have_radius |= is_radius;
        if (is_radius && !(s->radius >= 0.0)) {
            return hdi_lex_fail(lx, HD_ERR_PARSE, "shape '%s': radius %s is negative", q, value);
        }
        if (is_pieces && s->pieces == 0) {
            return hdi_lex_fail(lx, HD_ERR_EMPTY, "shape '%s': a compound needs a piece", q);
        }
    }
    return HD_OK;
}

/* The points of a shape: one "P <n>" block, or one per piece with their offsets. */
static hd_status read_shape_points(scene_reader *r, const char *q, hd_scene_file_shape *s)
{
    hdi_point_buf buf = {NULL, 0, 0};
    hd_status st = HD_OK;
    if (s->pieces > 0) {
        s->piece_start = malloc(((size_t)s->pieces + 1) * sizeof *s->piece_start);
        st = s->piece_start == NULL ? hdi_lex_fail(r->lx, HD_ERR_NO_MEMORY, "out of memory") : st;
    }
    int blocks = s->pieces > 0 ? s->pieces : 1;
    for (int i = 0; i < blocks && st == HD_OK; ++i) {
        if (s->piece_start != NULL) {
            s->piece_start[i] = buf.count;
        }
        st = read_points(r, q, &buf);
    }
    if (st == HD_OK && s->piece_start != NULL) {
        s->piece_start[s->pieces] = buf.count;
    }
    s->points.count = buf.count;
    s->points.xyz = buf.xyz;
    return st;
}

/* "shape NAME [radius R] [pieces K]" and its points. */
static hd_status read_shape(scene_reader *r)
{
    hd_scene_file *f = r->f;
    char *name = NULL;
    hd_status st = take_name(r, hdi_lex_token(r->lx), "a name after 'shape'", &name);
    int previous = st == HD_OK ? table_get(&r->shapes, name) : -2;
    if (previous >= 0) {
        st = hdi_lex_fail(r->lx, HD_ERR_PARSE, "duplicate shape name '%s' (defined at line %d)",
                          name, f->shapes[previous].line);
    }
    if (st == HD_OK) {
        st = grow_array(r, &f->shapes, f->shape_count, &r->shape_cap, sizeof *f->shapes);
    }
    if (st != HD_OK) {
        free(name);
        return st;
    }
    hd_scene_file_shape *s = &f->shapes[f->shape_count++];
    memset(s, 0, sizeof *s);
    s->name = name;
    s->line = r->lx->line_no;
    char q[48];
    hdi_lex_quote(name, q, sizeof q);
    st = read_shape_options(r, q, s);
    if (st == HD_OK) {
        st = read_shape_points(r, q, s);
    }
    if (st == HD_OK && table_put(&r->shapes, name, f->shape_count - 1) != HD_OK) {
        st = hdi_lex_fail(r->lx, HD_ERR_NO_MEMORY, "out of memory");
    }
    return st;
}

/* A present body by name for "move" and "remove"; -1 after an error. */
static int find_body(scene_reader *r, const char *keyword)
{
    char *tok = hdi_lex_token(r->lx);
    if (tok == NULL) {
        hdi_lex_fail(r->lx, HD_ERR_PARSE, "expected a body name after '%s'", keyword);
        return -1;
    }
    int b = table_get(&r->bodies, tok);
    if (b < 0) {
        char q[48];
        hdi_lex_quote(tok, q, sizeof q);
        hdi_lex_fail(r->lx, HD_ERR_PARSE,
                     b == -1 ? "unknown body '%s' (it was removed)" : "unknown body '%s'", q);
    }
    return b;
}

/* "body NAME SHAPE pose". */
static hd_status read_body(scene_reader *r)
{
    hd_scene_file *f = r->f;
    char *name = NULL;
    hd_status st = take_name(r, hdi_lex_token(r->lx), "a name after 'body'", &name);
    int present = st == HD_OK ? table_get(&r->bodies, name) : -2;
    if (present >= 0) {
        st = hdi_lex_fail(r->lx, HD_ERR_PARSE, "duplicate body name '%s' (defined at line %d)",
                          name, f->bodies[present].line);
    }
    char *shape_tok = st == HD_OK ? hdi_lex_token(r->lx) : NULL;
    int shape = shape_tok != NULL ? table_get(&r->shapes, shape_tok) : -2;
    if (st == HD_OK && shape < 0) {
        char q[48];
        hdi_lex_quote(shape_tok != NULL ? shape_tok : "", q, sizeof q);
        st = shape_tok == NULL
                 ? hdi_lex_fail(r->lx, HD_ERR_PARSE, "expected 'body <name> <shape> %s'",
                                "qw qx qy qz tx ty tz")
                 : hdi_lex_fail(r->lx, HD_ERR_PARSE, "unknown shape '%s'", q);
    }
    hd_pose pose;
    if (st == HD_OK) {
        st = read_pose(r, &pose);
    }
    if (st == HD_OK) {
        st = grow_array(r, &f->bodies, f->body_count, &r->body_cap, sizeof *f->bodies);
    }
    if (st != HD_OK) {
        free(name);
        return st;
    }
    hd_scene_file_body *b = &f->bodies[f->body_count++];
    b->name = name;
    b->shape = shape;
    b->line = r->lx->line_no;
    if (table_put(&r->bodies, name, f->body_count - 1) != HD_OK) {
        return hdi_lex_fail(r->lx, HD_ERR_NO_MEMORY, "out of memory");
    }
    return push_op(r, HD_SCENE_FILE_ADD, f->body_count - 1, &pose);
}

static hd_status read_move(scene_reader *r)
{
    int b = find_body(r, "move");
    if (b < 0) {
        return HD_ERR_PARSE;
    }
    hd_pose pose;
    hd_status st = read_pose(r, &pose);
    return st != HD_OK ? st : push_op(r, HD_SCENE_FILE_MOVE, b, &pose);
}

static hd_status read_remove(scene_reader *r)
{
    int b = find_body(r, "remove");
    if (b < 0) {
        return HD_ERR_PARSE;
    }
    hd_status st = expect_end(r, "the body name");
    if (st == HD_OK) {
        st = table_put(&r->bodies, r->f->bodies[b].name, -1);
        st = st == HD_OK ? HD_OK : hdi_lex_fail(r->lx, HD_ERR_NO_MEMORY, "out of memory");
    }
    return st != HD_OK ? st : push_op(r, HD_SCENE_FILE_REMOVE, b, NULL);
}

/* An unsigned 32-bit field of a "filter" line, in decimal. */
static hd_status read_bits(scene_reader *r, const char *what, uint32_t *out)
{
    char *tok = hdi_lex_token(r->lx);
    long long v = 0;
    if (tok == NULL) {
        return hdi_lex_fail(r->lx, HD_ERR_PARSE,
                            "expected 'filter <body> <category> <mask> "
                            "[<group>]', found no %s",
                            what);
    }
    hd_status st = hdi_lex_integer(r->lx, tok, what, &v);
    if (st == HD_OK && (v < 0 || v > 0xffffffffLL)) {
        st = hdi_lex_fail(r->lx, HD_ERR_PARSE, "%s: %lld is not in [0, 4294967295]", what, v);
    }
    *out = (uint32_t)v;
    return st;
}

/* "filter NAME CATEGORY MASK [GROUP]" (hd_scene_filter). */
static hd_status read_filter(scene_reader *r)
{
    int b = find_body(r, "filter");
    if (b < 0) {
        return HD_ERR_PARSE;
    }
    uint32_t category = 0, mask = 0;
    hd_status st = read_bits(r, "category", &category);
    st = st == HD_OK ? read_bits(r, "mask", &mask) : st;
    long long group = 0;
    char *tok = st == HD_OK ? hdi_lex_token(r->lx) : NULL;
    if (tok != NULL) {
        st = hdi_lex_integer(r->lx, tok, "group", &group);
        if (st == HD_OK && (group < -2147483647LL || group > 2147483647LL)) {
            st = hdi_lex_fail(r->lx, HD_ERR_PARSE, "group: %lld is not a 32-bit integer", group);
        }
        st = st == HD_OK ? expect_end(r, "the group") : st;
    }
    st = st == HD_OK ? push_op(r, HD_SCENE_FILE_FILTER, b, NULL) : st;
    if (st == HD_OK) {
        hd_scene_file_op *op = &r->f->ops[r->f->op_count - 1];
        op->category = category;
        op->mask = mask;
        op->group = (int)group;
    }
    return st;
}

/* "velocity NAME vx vy vz wx wy wz": the body's twist over each frame from this one on. */
static hd_status read_velocity(scene_reader *r)
{
    int b = find_body(r, "velocity");
    if (b < 0) {
        return HD_ERR_PARSE;
    }
    double v[6];
    int n = 0;
    hd_status st = hdi_lex_numbers(r->lx, v, 6, 6, &n, "velocity", "vx vy vz wx wy wz");
    st = st == HD_OK ? push_op(r, HD_SCENE_FILE_VELOCITY, b, NULL) : st;
    if (st == HD_OK) {
        hd_scene_file_op *op = &r->f->ops[r->f->op_count - 1];
        memcpy(op->v, v, sizeof op->v);
        memcpy(op->w, v + 3, sizeof op->w);
    }
    return st;
}

/* "margin D": the proximity of the scene, once, a finite D >= 0. */
static hd_status read_margin(scene_reader *r)
{
    hd_scene_file *f = r->f;
    if (f->margin_line > 0) {
        return hdi_lex_fail(r->lx, HD_ERR_PARSE, "a second 'margin' line (the first at line %d)",
                            f->margin_line);
    }
    double d = 0.0;
    int n = 0;
    hd_status st = hdi_lex_numbers(r->lx, &d, 1, 1, &n, "margin", "d");
    if (st == HD_OK && !(d >= 0.0)) {
        st = hdi_lex_fail(r->lx, HD_ERR_PARSE, "margin: %.10g is negative", d);
    }
    if (st == HD_OK) {
        f->margin = d;
        f->margin_line = r->lx->line_no;
    }
    return st;
}

/* Closes the current frame at the current op count. */
static hd_status close_frame(scene_reader *r)
{
    hd_scene_file *f = r->f;
    hd_status st =
        grow_array(r, &f->frame_start, f->frame_count + 1, &r->frame_cap, sizeof *f->frame_start);
    if (st == HD_OK) {
        f->frame_start[++f->frame_count] = f->op_count;
    }
    return st;
}

/* One content line, by its keyword. */
static hd_status read_line(scene_reader *r)
{
    char *key = hdi_lex_token(r->lx);
    if (strcmp(key, "shape") == 0) {
        return read_shape(r);
    }
    if (strcmp(key, "body") == 0) {
        return read_body(r);
    }
    if (strcmp(key, "move") == 0) {
        return read_move(r);
    }
    if (strcmp(key, "remove") == 0) {
        return read_remove(r);
    }
    if (strcmp(key, "filter") == 0) {
        return read_filter(r);
    }
    if (strcmp(key, "margin") == 0) {
        return read_margin(r);
    }
    if (strcmp(key, "velocity") == 0) {
        return read_velocity(r);
    }
    if (strcmp(key, "frame") == 0) {
        hd_status st = expect_end(r, "'frame'");
        return st != HD_OK ? st : close_frame(r);
    }
    char q[48];
    hdi_lex_quote(key, q, sizeof q);
    int numeric =
        (key[0] >= '0' && key[0] <= '9') || key[0] == '-' || key[0] == '+' || key[0] == '.';
    return hdi_lex_fail(
        r->lx, HD_ERR_PARSE,
        "expected 'shape', 'body', 'frame', 'move', 'remove', 'filter', 'velocity' or "
        "'margin', found '%s'%s",
        q, numeric ? " (more point lines than the count said?)" : "");
}

void hd_scene_file_free(hd_scene_file *file)
{
    if (file == NULL) {
        return;
    }
    for (int i = 0; i < file->shape_count; ++i) {
        free(file->shapes[i].name);
        hd_points_free(&file->shapes[i].points);
        free(file->shapes[i].piece_start);
    }
    for (int i = 0; i < file->body_count; ++i) {
        free(file->bodies[i].name);
    }
    free(file->shapes);
    free(file->bodies);
    free(file->ops);
    free(file->frame_start);
    memset(file, 0, sizeof *file);
}

/* Reads every line; frame 0 opens at once and the last frame closes at the end. */
static hd_status read_all(scene_reader *r)
{
    hd_scene_file *f = r->f;
    hd_status st = grow_array(r, &f->frame_start, 0, &r->frame_cap, sizeof *f->frame_start);
    if (st != HD_OK) {
        return st;
    }
    f->frame_start[0] = 0;
    for (;;) {
        int found = 0;
        st = hdi_lex_next(r->lx, &found);
        if (st != HD_OK || !found) {
            break;
        }
        st = read_line(r);
        if (st != HD_OK) {
            return st;
        }
    }
    return st != HD_OK ? st : close_frame(r);
}

hd_status hd_read_scene_stream(FILE *fp, const char *name, hd_scene_file *out, hd_parse_error *err)
{
    hd_parse_error local;
    hd_parse_error *e = err != NULL ? err : &local;
    const char *shown = name != NULL ? name : "<stream>";
    if (out != NULL) {
        memset(out, 0, sizeof *out);
    }
    if (fp == NULL || out == NULL) {
        return hdi_io_error(e, shown, 0, HD_ERR_NULL, "no stream or no output given");
    }
    scene_reader r;
    memset(&r, 0, sizeof r);
    r.f = out;
    r.lx = hdi_lex_create(fp, shown, e);
    if (r.lx == NULL) {
        return hdi_io_error(e, shown, 0, HD_ERR_NO_MEMORY, "out of memory");
    }
    hd_status st = read_all(&r);
    hdi_lex_destroy(r.lx);
    table_free(&r.shapes);
    table_free(&r.bodies);
    if (st != HD_OK) {
        hd_scene_file_free(out);
    }
    return st;
}

hd_status hd_read_scene(const char *path, hd_scene_file *out, hd_parse_error *err)
{
    if (out != NULL) {
        memset(out, 0, sizeof *out);
    }
    if (path == NULL || out == NULL) {
        return hdi_io_error(err, path != NULL ? path : "<null>", 0, HD_ERR_NULL,
                            "no path or no output given");
    }
    if (strcmp(path, "-") == 0) {
        return hd_read_scene_stream(stdin, "<stdin>", out, err);
    }
    FILE *fp = fopen(path, "rb");
    if (fp == NULL) {
        int code = errno;
        return hdi_io_error(err, path, 0, HD_ERR_IO, "cannot open for reading (%s)",
                            strerror(code));
    }
    hd_status st = hd_read_scene_stream(fp, path, out, err);
    fclose(fp);
    return st;
}
