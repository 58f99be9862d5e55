/* Shared by the query module's public entry points (query.c, query/contact.c). */
#ifndef HD_QUERY_INTERNAL_H
#define HD_QUERY_INTERNAL_H

#include "support/pair.h"

/* The argument checks every query shares, and the pair in A's frame: a NULL opt becomes the
 * defaults (stored in *defaults, *opt pointed at them), an invalid algo is HD_ERR_INVALID_ARG,
 * then hdi_pair_init's checks (NULL polytopes, poses, tolerances, range). */
hd_status hdi_query_prepare(const hd_polytope *a, const hd_pose *pose_a, const hd_polytope *b,
                            const hd_pose *pose_b, const hd_options **opt, hd_options *defaults,
                            hdi_pair *pair);

#endif
