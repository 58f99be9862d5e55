/* Compound bodies in the collide and batch commands: running the compound queries and printing
 * them with the keys of one pair, plus the pieces (docs/FORMATS.md). */
#ifndef HD_CLI_COMPOUND_H
#define HD_CLI_COMPOUND_H

#include <stdio.h>

#include "cli_query.h"

typedef struct hd_cli_compound_answer {
    hd_algo algo;
    hd_status status;
    hd_compound_collide_result result;
    long long ns; /* median over the repeats of the hd_compound_collide call */
    int cert_ok;  /* the deciding pair's certificate: 1 accepted, 0 rejected, -1 not checked */
    hd_compound_distance_result distance; /* with --distance */
    hd_status distance_status;
    hd_compound_signed_distance_result contact; /* with --depth */
    hd_compound_manifold manifold;              /* with --manifold */
    hd_status contact_status;
} hd_cli_compound_answer;

/* A body of the command line: a compound, and the polytopes it borrows (freed with it). */
typedef struct hd_cli_body {
    hd_compound *compound;
    hd_polytope **owned;
    int owned_count;
} hd_cli_body;

/* A body from a shape file: the groups of an OBJ file as pieces, any other file's hull as one
 * piece. Prints "hedra: file:line: message" and returns HD_EXIT_INPUT on failure, else 0. */
int hd_cli_body_load(const char *path, hd_format format, hd_cli_body *out);

/* A body from points: pieces of the given sizes (pieces 0: one piece of every point). HD_OK or
 * the first build status. */
hd_status hd_cli_body_from_points(const double *xyz, int count, int pieces, const int *sizes,
                                  const hd_tolerance *tol, hd_cli_body *out);
void hd_cli_body_free(hd_cli_body *body);

void hd_cli_compound_run(const hd_cli_opts *o, hd_algo algo, const hd_compound *a,
                         const hd_compound *b, hd_cli_compound_answer *ans);

/* Whether the answer is a failure (a query error or a rejected certificate). */
int hd_cli_compound_failed(const hd_cli_compound_answer *ans);

/* One JSON object (no newline; name may be NULL), or a human-readable block. */
void hd_cli_compound_json(FILE *fp, const char *name, const hd_cli_opts *o,
                          const hd_cli_compound_answer *ans);
void hd_cli_compound_text(FILE *fp, const hd_cli_opts *o, const hd_cli_compound_answer *ans);

#endif
