/* Entry points of the CD-Dual module (the same conventions as gjk/gjk.h). */
#ifndef HD_CDDUAL_CDDUAL_H
#define HD_CDDUAL_CDDUAL_H

#include "support/pair.h"

hd_status hdi_cddual_collide(const hdi_pair *pair, const hd_options *opt, hd_collide_result *out);

/* Whether the directional gap is defined for the pair: A - B full-dimensional (a solid, two
 * polygons in non-parallel planes, or a polygon and a segment crossing its plane). */
int hdi_cddual_gap_supported(const hdi_pair *pair);

/* Directional gap, CD-Dual section 6, for a pair that hdi_cddual_gap_supported accepts (the
 * caller, query/query.c, asks first), given the pair's verdict (hd_collide's with CD-Dual and its
 * fallbacks, whose stats are added to out's). dir is the direction in A's frame (query/query.c
 * rotates the caller's world direction and sets out->direction). */
hd_status hdi_cddual_gap(const hdi_pair *pair, const hd_collide_result *verdict,
                         const double dir[3], const hd_options *opt, hd_gap_result *out);

#endif
