/* Running and printing one query for the collide and batch commands. */
#ifndef HD_CLI_QUERY_H
#define HD_CLI_QUERY_H

#include <stdio.h>

#include "cli.h"

/* Options shared by collide and batch. */
typedef struct hd_cli_opts {
    int all; /* --algo all */
    hd_algo algo;
    int distance; /* --distance */
    int depth;    /* --depth: signed distance, normal, witnesses, bounds (hedra/contact.h) */
    int manifold; /* --manifold: the contact manifold too (implies --depth) */
    int json;
    int repeat;              /* --repeat K (batch) */
    int toi;                 /* --toi (batch): the time of impact under each pair's motion */
    int check;               /* verify each certificate independently (default on) */
    hd_options query;        /* tolerances, flags */
    hd_format format;        /* --format: of both shape files */
    hd_pose pose_a;          /* --translate-a / --rotate-a */
    hd_pose pose_b;          /* --translate-b / --rotate-b */
    int record_path;         /* --path: CD-Dual records its search path in the workspace */
    hd_workspace *workspace; /* CD-Dual's, sized for the pair (hd_cli_workspace_for) */
} hd_cli_opts;

typedef struct hd_cli_answer {
    hd_algo algo;
    hd_status status;
    hd_collide_result result;
    long long ns;                /* median over the repeats of the hd_collide call alone */
    hd_distance_result distance; /* with --distance: the hd_distance answer */
    hd_status distance_status;
    long long distance_ns;             /* median over the repeats of the hd_distance call */
    int cert_ok;                       /* 1 accepted, 0 rejected, -1 not checked */
    hd_signed_distance_result contact; /* with --depth: the hd_signed_distance answer */
    hd_manifold manifold;              /* with --manifold */
    hd_status contact_status;
    long long contact_ns; /* median over the repeats of the contact call */
} hd_cli_answer;

/* Sets defaults; parses one option of argv at *i (advancing it past a value); returns 1 when the
 * option was consumed, 0 when it is not a query option, -1 on a usage error (printed). */
void hd_cli_opts_init(hd_cli_opts *o);
void hd_cli_opts_free(hd_cli_opts *o);
int hd_cli_opts_parse(hd_cli_opts *o, const char *cmd, int argc, char **argv, int *i);

/* Runs hd_collide with algo on the pair, and hd_distance when asked, repeat times each; CD-Dual
 * with o->workspace made big enough for the pair first. */
void hd_cli_run(hd_cli_opts *o, hd_algo algo, const hd_polytope *a, const hd_polytope *b,
                hd_cli_answer *ans);

/* The start of an answer's JSON object: '{', the name (when not NULL) and the algorithm; for a
 * failed query the "error" key and the closing brace, and then 0 (else 1). */
int hd_cli_json_head(FILE *fp, const char *name, hd_algo algo, hd_status status);

/* One JSON object (no newline). name may be NULL. */
void hd_cli_print_json(FILE *fp, const char *name, const hd_cli_opts *o, const hd_cli_answer *ans);

/* Human-readable block. */
void hd_cli_print_text(FILE *fp, const hd_cli_opts *o, const hd_cli_answer *ans);

/* cli_contact.c: with --depth / --manifold, runs hd_signed_distance or hd_contact_manifold
 * (repeat times, with a workspace sized by hd_contact_workspace_capacity) into ans; prints its
 * JSON keys (appended to an object: each starts with a comma) and its human-readable block. */
void hd_cli_run_contact(const hd_cli_opts *o, const hd_polytope *a, const hd_polytope *b,
                        hd_cli_answer *ans);
void hd_cli_print_contact_json(FILE *fp, const hd_cli_opts *o, const hd_cli_answer *ans);
void hd_cli_print_contact_text(FILE *fp, const hd_cli_opts *o, const hd_cli_answer *ans);

/* The contact keys of a contact from signed_distance to depth_method (no timing), and the
 * "manifold" key, each starting with a comma (shared with hedra scene). */
void hd_cli_contact_keys_json(FILE *fp, const hd_signed_distance_result *c);
void hd_cli_manifold_json(FILE *fp, const hd_manifold *m);

/* The "gradient_a", "gradient_b" and "gradient_unique" keys, each starting with a comma. */
void hd_cli_gradient_json(FILE *fp, const hd_pose_gradient *g);

/* The option help shared by collide and batch. */
extern const char *const hd_cli_query_help;

#endif
