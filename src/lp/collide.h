/* The LP method on two hd_polytopes in 3D (the same conventions as gjk/gjk.h). */
#ifndef HD_LP_QUERY_H
#define HD_LP_QUERY_H

#include "support/pair.h"

hd_status hdi_lp_collide(const hdi_pair *pair, const hd_options *opt, hd_collide_result *out);

#endif
