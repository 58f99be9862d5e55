/* hedra view: the algorithm's path drawn in the space of A - B (view.h). CD-Dual's steps are
 * faces of A - B (hd_workspace_path): FV = a face of A minus a vertex of B, VF = a vertex of A
 * minus a face of B, EE = an edge of A minus an edge of B (a parallelogram); each is written as
 * its polygon of differences a_i - b_j of world vertices. */
#include <math.h>
#include <string.h>

#include "view.h"

static const char *const kind_names[] = {"none", "fv", "vf", "ee"};
static const char *const phase_names[] = {"SEARCH-FV", "SEARCH-VF", "SEARCH-EE"};

/* The world point a_i - b_j, written as a JSON array (9 digits: drawing precision). */
static void json_difference_point(FILE *fp, const hd_polytope *a, const hd_polytope *b,
                                  const hd_pose *pose_b, int i, int j, int first)
{
    const double *va = hd_polytope_vertices(a) + 3 * i;
    double bj[3];
    hd_pose_apply(pose_b, hd_polytope_vertices(b) + 3 * j, bj);
    fprintf(fp, "%s[%.9g,%.9g,%.9g]", first ? "" : ",", va[0] - bj[0], va[1] - bj[1],
            va[2] - bj[2]);
}

static int valid(int index, int count)
{
    return index >= 0 && index < count;
}

/* The polygon of one step; 0 (nothing written) when its features are not valid indices. */
static int json_polygon(FILE *fp, const hd_path_step *s, const hd_polytope *a, const hd_polytope *b,
                        const hd_pose *pose_b)
{
    double normal[3], offset;
    const int *loop = NULL;
    int ea[2], eb[2], faces[2], n;
    int nva = hd_polytope_vertex_count(a), nvb = hd_polytope_vertex_count(b);
    switch (s->kind) {
        case HD_FACE_FV:
            n = hd_polytope_face(a, s->feature_a, normal, &offset, &loop);
            if (n == 0 || !valid(s->feature_b, nvb)) {
                return 0;
            }
            for (int k = 0; k < n; ++k) {
                json_difference_point(fp, a, b, pose_b, loop[k], s->feature_b, k == 0);
            }
            return 1;
        case HD_FACE_VF:
            n = hd_polytope_face(b, s->feature_b, normal, &offset, &loop);
            if (n == 0 || !valid(s->feature_a, nva)) {
                return 0;
            }
            for (int k = n - 1; k >= 0; --k) { /* -B reverses the orientation */
                json_difference_point(fp, a, b, pose_b, s->feature_a, loop[k], k == n - 1);
            }
            return 1;
        case HD_FACE_EE:
            if (hd_polytope_edge(a, s->feature_a, ea, faces) != HD_OK ||
                hd_polytope_edge(b, s->feature_b, eb, faces) != HD_OK) {
                return 0;
            }
            json_difference_point(fp, a, b, pose_b, ea[0], eb[0], 1);
            json_difference_point(fp, a, b, pose_b, ea[1], eb[0], 0);
            json_difference_point(fp, a, b, pose_b, ea[1], eb[1], 0);
            json_difference_point(fp, a, b, pose_b, ea[0], eb[1], 0);
            return 1;
        default:
            return 0;
    }
}

static void json_cddual_steps(FILE *fp, const hd_workspace *ws, const hd_polytope *a,
                              const hd_polytope *b, const hd_pose *pose_b)
{
    const hd_path_step *steps = NULL;
    int n = hd_workspace_path(ws, &steps);
    int written = 0;
    for (int i = 0; i < n; ++i) {
        const hd_path_step *s = &steps[i];
        int phase = s->phase >= 0 && s->phase <= 2 ? s->phase : 2;
        fprintf(fp, "%s{\"phase\":\"%s\",\"kind\":\"%s\",\"a\":%d,\"b\":%d,\"dual_distance\":",
                written ? "," : "", phase_names[phase], kind_names[s->kind & 3], s->feature_a,
                s->feature_b);
        hd_json_double(fp, s->dual_distance);
        fputs(",\"polygon\":[", fp);
        json_polygon(fp, s, a, b, pose_b);
        fputs("]}", fp);
        ++written;
    }
}

/* GJK's steps (hd_workspace_gjk_path): the support point found, the simplex after the
 * iteration (its pairs and points) and its point nearest the origin. */
static void json_gjk_steps(FILE *fp, const hd_workspace *ws, const hd_polytope *a,
                           const hd_polytope *b, const hd_pose *pose_b)
{
    const hd_gjk_step *steps = NULL;
    int n = hd_workspace_gjk_path(ws, &steps);
    for (int i = 0; i < n; ++i) {
        const hd_gjk_step *s = &steps[i];
        fprintf(fp, "%s{\"support\":[%d,%d],\"support_point\":", i ? "," : "", s->support_a,
                s->support_b);
        json_difference_point(fp, a, b, pose_b, s->support_a, s->support_b, 1);
        fputs(",\"pairs\":[", fp);
        for (int k = 0; k < s->count; ++k) {
            fprintf(fp, "%s[%d,%d]", k ? "," : "", s->vertex_a[k], s->vertex_b[k]);
        }
        fputs("],\"points\":[", fp);
        for (int k = 0; k < s->count; ++k) {
            json_difference_point(fp, a, b, pose_b, s->vertex_a[k], s->vertex_b[k], k == 0);
        }
        const double *v = s->closest;
        fputs("],\"closest\":", fp);
        hd_json_vec3(fp, v);
        fputs(",\"upper\":", fp);
        hd_json_double(fp, sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
        fputs(",\"lower\":", fp);
        hd_json_double(fp, s->lower);
        fputc('}', fp);
    }
}

/* Why a path is empty, or what it leaves out. */
static void json_note(FILE *fp, const hd_cli_answer *ans, const char *drawn, int count)
{
    char note[256] = "";
    int iterations = ans->result.stats.iterations;
    if (ans->algo == HD_ALGO_LP) {
        snprintf(note, sizeof note,
                 "The LP method's pivots are not drawn: the library does not record them (its "
                 "bases hold artificial columns beside vertices of A and B until the program "
                 "reaches 0, so most pivots have no point of A - B to show).");
    } else if (ans->status != HD_OK) {
        snprintf(note, sizeof note, "The query failed: %s.", hd_status_str(ans->status));
    } else if (ans->algo == HD_ALGO_CDDUAL && strcmp(drawn, "gjk") == 0) {
        snprintf(note, sizeof note,
                 "CD-Dual does not apply to this pair: GJK answered "
                 "(stop: fallback); its path is drawn.");
    } else if (count == 0) {
        snprintf(note, sizeof note, "No step was recorded for this pair (stop: %s).",
                 ans->result.stop == HD_STOP_FALLBACK ? "fallback to the LP method" : "early");
    } else if (strcmp(drawn, "gjk") == 0 && count < iterations) {
        snprintf(note, sizeof note, "The first %d of %d iterations.", count, iterations);
    }
    hd_json_string(fp, note);
}

void hd_view_json_path(FILE *fp, const hd_cli_answer *ans, const hd_workspace *ws,
                       const hd_polytope *a, const hd_polytope *b, const hd_pose *pose_b)
{
    int faces = hd_workspace_path(ws, NULL);
    int simplices = hd_workspace_gjk_path(ws, NULL);
    const char *drawn = ans->algo == HD_ALGO_LP ? "lp"
                        : faces > 0             ? "cddual"
                        : simplices > 0         ? "gjk"
                                                : hd_algo_str(ans->algo);
    fprintf(fp, "{\"algo\":\"%s\",\"steps\":[", drawn);
    if (strcmp(drawn, "cddual") == 0) {
        json_cddual_steps(fp, ws, a, b, pose_b);
    } else if (strcmp(drawn, "gjk") == 0) {
        json_gjk_steps(fp, ws, a, b, pose_b);
    }
    fputs("],\"note\":", fp);
    json_note(fp, ans, drawn, strcmp(drawn, "gjk") == 0 ? simplices : faces);
    fputc('}', fp);
}
