/* libFuzzer target: the scene API driven by arbitrary operations, each step checked against the
 * all-pairs answer. The input's first bytes choose the options (broad phase, threads, detail,
 * algorithm, margin, the scene's distance from the origin); then each operation is a byte (add,
 * move, move many, remove, step, query by box, query by polytope) followed by its arguments: body
 * ids (often stale or out of range), shapes from a fixed set (solid, flat, segment, point, a tiny
 * cube), poses from quaternions and small translations (so that bodies touch and overlap often) or
 * raw doubles (usually refused). A finding is a crash, a sanitizer report, or:
 *   - a step whose contacts are not sorted, name a body that is not in the scene, or differ from
 *     hd_collide on every pair of bodies (pair set and verdicts; pairs whose hd_collide fails are
 *     left out);
 *   - a body whose pose is not the last one accepted for it;
 *   - a polytope query that differs from hd_collide on every body, or a box query whose ids are
 *     not increasing bodies of the scene. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hedra/hedra.h"
#include "input.h"

#define HD_FUZZ_BODIES 48 /* ids beyond it are refused by the mirror, not by the scene */
#define HD_FUZZ_SHAPES 6
#define HD_FUZZ_BATCH 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What the scene should hold: each id's shape and pose, as accepted. */
typedef struct hd_fuzz_mirror {
    double offset; /* added to every translation: the scene far from the origin */
    int alive[HD_FUZZ_BODIES];
    int shape[HD_FUZZ_BODIES];
    hd_pose pose[HD_FUZZ_BODIES];
} hd_fuzz_mirror;

static hd_polytope *shapes[HD_FUZZ_SHAPES];

static hd_polytope *build(const double *xyz, int n, double scale)
{
    double p[3 * 8];
    for (int i = 0; i < 3 * n; ++i) {
        p[i] = xyz[i] * scale;
    }
    hd_polytope *poly = NULL;
    return hd_polytope_build(p, n, NULL, &poly) == HD_OK ? poly : NULL;
}

/* A cube, a tetrahedron, a flat square, a segment, a point, and the cube at 1e-5. */
static int shapes_ready(void)
{
    static int ready = -1;
    if (ready >= 0) {
        return ready;
    }
    static const double cube[24] = {-1, -1, -1, 1, -1, -1, -1, 1, -1, 1, 1, -1,
                                    -1, -1, 1,  1, -1, 1,  -1, 1, 1,  1, 1, 1};
    static const double tetra[12] = {0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2};
    static const double square[12] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
    static const double segment[6] = {-1, 0, 0, 1, 0, 0};
    static const double point[3] = {0.5, 0.25, 0};
    shapes[0] = build(cube, 8, 1.0);
    shapes[1] = build(tetra, 4, 1.0);
    shapes[2] = build(square, 4, 1.0);
    shapes[3] = build(segment, 2, 1.0);
    shapes[4] = build(point, 1, 1.0);
    shapes[5] = build(cube, 8, 1e-5);
    ready = 1;
    for (int i = 0; i < HD_FUZZ_SHAPES; ++i) {
        ready &= shapes[i] != NULL;
    }
    return ready;
}

/* A pose: mostly a rotation from four bytes and a translation in steps of 1/8 within 4 units (the
 * shapes' size, so that they meet); sometimes raw doubles, which the scene must refuse unless
 * they happen to form a rotation. */
static hd_pose next_pose(hd_fuzz_input *in, double offset)
{
    int mode = hd_fuzz_byte(in);
    hd_pose pose = hd_pose_identity();
    if (mode % 8 == 7) {
        for (int i = 0; i < 9; ++i) {
            pose.r[i] = hd_fuzz_double(in);
        }
        for (int k = 0; k < 3; ++k) {
            pose.t[k] = hd_fuzz_double(in);
        }
        return pose;
    }
    double q[4], t[3];
    for (int k = 0; k < 4; ++k) {
        q[k] = (double)(int8_t)hd_fuzz_byte(in);
    }
    for (int k = 0; k < 3; ++k) {
        t[k] = offset + (double)(int8_t)hd_fuzz_byte(in) / 32.0;
    }
    if (hd_pose_from_quaternion(q, t, &pose) != HD_OK) {
        pose = hd_pose_identity();
        memcpy(pose.t, t, sizeof t);
    }
    return pose;
}

static int next_id(hd_fuzz_input *in)
{
    return hd_fuzz_byte(in) % (HD_FUZZ_BODIES + 4) - 2; /* a few out of range, -2 and -1 included */
}

static int known(const hd_fuzz_mirror *m, int id)
{
    return id >= 0 && id < HD_FUZZ_BODIES && m->alive[id];
}

static int same_pose(const hd_pose *x, const hd_pose *y)
{
    return memcmp(x->r, y->r, sizeof x->r) == 0 && memcmp(x->t, y->t, sizeof x->t) == 0;
}

/* The options of the scene's own queries, for hd_collide as the oracle. */
static hd_options collide_options(const hd_scene_options *opt)
{
    hd_options q = hd_options_default();
    q.algo = opt->algo;
    q.tol = opt->tol;
    return q;
}

/* hd_collide on a pair of mirrored bodies: the verdict, or -1 when the query fails. */
static int oracle(const hd_fuzz_mirror *m, const hd_scene_options *opt, int a, int b)
{
    hd_options q = collide_options(opt);
    hd_collide_result r;
    if (hd_collide(shapes[m->shape[a]], &m->pose[a], shapes[m->shape[b]], &m->pose[b], &q, &r) !=
        HD_OK) {
        return -1;
    }
    return (int)r.verdict;
}

static void check_contact_detail(const hd_scene_contact *c, const hd_scene_options *opt)
{
    if (opt->detail == HD_SCENE_VERDICT) {
        if (c->contact != NULL || c->manifold != NULL) {
            abort();
        }
        return;
    }
    if (c->contact == NULL || !isfinite(c->contact->signed_distance) ||
        (opt->detail == HD_SCENE_MANIFOLD &&
         (c->manifold == NULL || c->manifold->count < 0 || c->manifold->count > HD_MANIFOLD_MAX))) {
        abort();
    }
}

/* The step's contacts against every pair of the mirror. */
static void check_step(const hd_fuzz_mirror *m, const hd_scene_options *opt,
                       const hd_scene_contact *c, int count)
{
    int k = 0;
    for (int a = 0; a < HD_FUZZ_BODIES; ++a) {
        for (int b = a + 1; b < HD_FUZZ_BODIES; ++b) {
            if (!known(m, a) || !known(m, b)) {
                continue;
            }
            int want = oracle(m, opt, a, b);
            int listed = k < count && c[k].a == a && c[k].b == b;
            if (want < 0) { /* failed here: the scene's query fails too and lists nothing */
                k += listed;
                continue;
            }
            if (listed != (want != (int)HD_SEPARATED) || (listed && (int)c[k].verdict != want)) {
                abort();
            }
            if (listed) {
                check_contact_detail(&c[k], opt);
            }
            k += listed;
        }
    }
    if (k != count) { /* unsorted, or a body that is not in the scene */
        abort();
    }
}

static void check_poses(const hd_scene *s, const hd_fuzz_mirror *m)
{
    for (int id = 0; id < HD_FUZZ_BODIES; ++id) {
        hd_pose pose;
        const hd_polytope *shape;
        if (known(m, id) && (hd_scene_body(s, id, &shape, &pose, NULL) != HD_OK ||
                             shape != shapes[m->shape[id]] || !same_pose(&pose, &m->pose[id]))) {
            abort();
        }
    }
}

static void op_add(hd_scene *s, hd_fuzz_mirror *m, const hd_scene_options *opt, hd_fuzz_input *in)
{
    (void)opt;
    int shape = hd_fuzz_byte(in) % HD_FUZZ_SHAPES;
    hd_pose pose = next_pose(in, m->offset);
    int id = -1;
    if (hd_scene_add(s, shapes[shape], &pose, NULL, &id) != HD_OK) {
        return;
    }
    if (id < 0 || (id < HD_FUZZ_BODIES && m->alive[id])) {
        abort(); /* a live body's id is never handed out again */
    }
    if (id >= HD_FUZZ_BODIES) { /* beyond the mirror (many adds): not followed */
        (void)hd_scene_remove(s, id);
        return;
    }
    m->alive[id] = 1;
    m->shape[id] = shape;
    m->pose[id] = pose;
}

/* 1: hd_scene_move must accept the pose for a body of the scene (a rotation, a translation far
 * inside HD_MAX_COORD); 0: it must refuse it; -1: it may do either (a huge translation). */
static int acceptable(const hd_pose *pose)
{
    if (hd_pose_validate(pose, HD_DEFAULT_POSE_TOL) != HD_OK) {
        return 0;
    }
    return fmax(fabs(pose->t[0]), fmax(fabs(pose->t[1]), fabs(pose->t[2]))) <= 1e20 ? 1 : -1;
}

static void op_move(hd_scene *s, hd_fuzz_mirror *m, const hd_scene_options *opt, hd_fuzz_input *in)
{
    (void)opt;
    int id = next_id(in);
    hd_pose pose = next_pose(in, m->offset);
    hd_status st = hd_scene_move(s, id, &pose);
    int ok = known(m, id) ? acceptable(&pose) : 0;
    if ((ok >= 0 && (st == HD_OK) != ok) || (st == HD_OK && !known(m, id))) {
        abort();
    }
    if (st == HD_OK) {
        m->pose[id] = pose;
    }
}

/* After a batch: body id holds the pose of its last entry that hd_scene_move would accept, or
 * its own when there is none (unless an entry that may or may not pass comes after those). */
static void check_batch_body(const hd_scene *s, hd_fuzz_mirror *m, int id, const int *ids,
                             const hd_pose *poses, int count)
{
    int last = -1, maybe = -1; /* the last entry surely accepted, the last perhaps accepted */
    for (int j = 0; j < count; ++j) {
        int ok = ids[j] == id ? acceptable(&poses[j]) : 0;
        last = ok == 1 ? j : last;
        maybe = ok == -1 ? j : maybe;
    }
    hd_pose now;
    if (hd_scene_body(s, id, NULL, &now, NULL) != HD_OK) {
        abort();
    }
    if ((maybe < last || maybe < 0) && !same_pose(&now, last >= 0 ? &poses[last] : &m->pose[id])) {
        abort();
    }
    m->pose[id] = now;
}

static void op_move_many(hd_scene *s, hd_fuzz_mirror *m, const hd_scene_options *opt,
                         hd_fuzz_input *in)
{
    (void)opt;
    int count = hd_fuzz_byte(in) % (HD_FUZZ_BATCH + 1);
    int ids[HD_FUZZ_BATCH];
    hd_pose poses[HD_FUZZ_BATCH];
    for (int i = 0; i < count; ++i) {
        ids[i] = next_id(in);
        poses[i] = next_pose(in, m->offset);
    }
    int failed = -2;
    hd_status st = hd_scene_move_many(s, count, ids, poses, &failed);
    if (st == HD_ERR_NO_MEMORY) {
        return;
    }
    if ((st == HD_OK) != (failed == -1) || failed < -1 || failed >= count) {
        abort();
    }
    for (int i = 0; i < count; ++i) {
        int first = known(m, ids[i]); /* each body of the batch once */
        for (int j = 0; j < i; ++j) {
            first &= ids[j] != ids[i];
        }
        if (first) {
            check_batch_body(s, m, ids[i], ids, poses, count);
        }
    }
}

static void op_remove(hd_scene *s, hd_fuzz_mirror *m, const hd_scene_options *opt,
                      hd_fuzz_input *in)
{
    (void)opt;
    int id = next_id(in);
    hd_status st = hd_scene_remove(s, id);
    if ((st == HD_OK) != known(m, id)) {
        abort();
    }
    if (st == HD_OK) {
        m->alive[id] = 0;
    }
}

static void op_step(hd_scene *s, hd_fuzz_mirror *m, const hd_scene_options *opt, hd_fuzz_input *in)
{
    (void)in;
    const hd_scene_contact *c = NULL;
    int count = -1;
    hd_scene_stats stats;
    hd_status st = hd_scene_step(s, &c, &count, &stats);
    if (st == HD_ERR_NO_MEMORY) {
        return;
    }
    if (count < 0 || (count > 0 && c == NULL)) {
        abort();
    }
    check_poses(s, m);
    check_step(m, opt, c, count);
}

static void op_query_box(hd_scene *s, hd_fuzz_mirror *m, const hd_scene_options *opt,
                         hd_fuzz_input *in)
{
    (void)opt;
    double lo[3], hi[3];
    for (int k = 0; k < 3; ++k) {
        lo[k] = (double)(int8_t)hd_fuzz_byte(in) / 16.0;
        hi[k] = lo[k] + (double)hd_fuzz_byte(in) / 16.0;
    }
    int ids[HD_FUZZ_BODIES], count = -1;
    if (hd_scene_query_box(s, lo, hi, ids, HD_FUZZ_BODIES, &count) != HD_OK) {
        return;
    }
    for (int i = 0; i < count && i < HD_FUZZ_BODIES; ++i) {
        if (!known(m, ids[i]) || (i > 0 && ids[i] <= ids[i - 1])) {
            abort();
        }
    }
}

static void op_query_polytope(hd_scene *s, hd_fuzz_mirror *m, const hd_scene_options *opt,
                              hd_fuzz_input *in)
{
    int shape = hd_fuzz_byte(in) % HD_FUZZ_SHAPES;
    hd_pose pose = next_pose(in, m->offset);
    int ids[HD_FUZZ_BODIES], count = -1;
    hd_verdict verdicts[HD_FUZZ_BODIES];
    if (hd_scene_query_polytope(s, shapes[shape], &pose, ids, verdicts, HD_FUZZ_BODIES, &count) !=
        HD_OK) {
        return;
    }
    hd_options q = collide_options(opt);
    int k = 0;
    for (int id = 0; id < HD_FUZZ_BODIES; ++id) {
        hd_collide_result r;
        if (!known(m, id) ||
            hd_collide(shapes[m->shape[id]], &m->pose[id], shapes[shape], &pose, &q, &r) != HD_OK) {
            continue;
        }
        int listed = k < count && ids[k] == id;
        if (listed != (r.verdict != HD_SEPARATED) || (listed && verdicts[k] != r.verdict)) {
            abort();
        }
        k += listed;
    }
    if (k != count) {
        abort();
    }
}

typedef void (*hd_fuzz_op)(hd_scene *, hd_fuzz_mirror *, const hd_scene_options *, hd_fuzz_input *);
static const hd_fuzz_op op_table[7] = {op_add,  op_move,      op_move_many,     op_remove,
                                       op_step, op_query_box, op_query_polytope};

/* The options, and the scene's offset from the origin (0, 1e4, 1e9 or 1e14). */
static hd_scene_options next_options(hd_fuzz_input *in, double *offset)
{
    static const double offsets[4] = {0.0, 1e4, 1e9, 1e14};
    hd_scene_options opt = hd_scene_options_default();
    int b = hd_fuzz_byte(in);
    *offset = offsets[(b >> 6) & 3];
    opt.broadphase = (b & 1) ? HD_BROADPHASE_SAP : HD_BROADPHASE_TREE;
    opt.threads = 1 + ((b >> 1) & 1);
    opt.detail = (hd_scene_detail)(((b >> 2) & 3) % HD_SCENE_DETAIL_COUNT);
    opt.algo = (hd_algo)(((b >> 4) & 3) % HD_ALGO_COUNT);
    opt.margin = (double)hd_fuzz_byte(in) / 16.0; /* [0, 16) */
    return opt;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!shapes_ready()) {
        abort();
    }
    hd_fuzz_input in = {data, size, 0};
    static hd_fuzz_mirror m;
    memset(&m, 0, sizeof m);
    hd_scene_options opt = next_options(&in, &m.offset);
    hd_scene *s = NULL;
    if (hd_scene_create(&opt, &s) != HD_OK) {
        abort();
    }
    for (int ops = 0; ops < 64 && in.pos < in.size; ++ops) {
        op_table[hd_fuzz_byte(&in) % 7](s, &m, &opt, &in);
    }
    op_step(s, &m, &opt, &in);
    hd_scene_destroy(s);
    return 0;
}
