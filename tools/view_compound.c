/* hedra view --compound: the page's data for two compound bodies, each piece's hull at its world
 * pose and the answer of `hedra collide --compound --json --distance` (keys in docs/VIEWER.md). */
#include "view.h"

/* {"pieces": [polytope...]}: every piece posed by the body pose composed with its own. */
static void json_body(FILE *fp, const hd_compound *c, const hd_pose *body)
{
    fputs("{\"pieces\":[", fp);
    for (int i = 0; i < hd_compound_piece_count(c); ++i) {
        hd_pose pose;
        hd_compound_piece_pose(c, body, i, &pose);
        fputs(i ? "," : "", fp);
        hd_view_json_polytope(fp, hd_compound_piece(c, i, NULL), &pose);
    }
    fputs("]}", fp);
}

int hd_view_write_compound_data(FILE *fp, const hd_view_opts *o, const hd_compound *a,
                                const hd_compound *b)
{
    hd_cli_opts run = o->query;
    run.distance = 1;
    hd_cli_compound_answer ans;
    hd_cli_compound_run(&run, run.algo, a, b, &ans);
    hd_view_json_head(fp, "compound", o);
    fputs(",\"a\":", fp);
    json_body(fp, a, &run.pose_a);
    fputs(",\"b\":", fp);
    json_body(fp, b, &run.pose_b);
    fputs(",\"query\":", fp);
    hd_cli_compound_json(fp, NULL, &run, &ans);
    fputc('}', fp);
    return hd_cli_compound_failed(&ans) ? HD_EXIT_FAILURE : HD_EXIT_OK;
}
