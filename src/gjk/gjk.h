/* Entry points of the GJK module, called by the query dispatcher (query/query.c) after
 * hdi_pair_init succeeded, and by CD-Dual when it does not apply. Each fills *out in A's local
 * frame (certificate normal, point, witnesses); the dispatcher maps them to the world frame. On
 * entry *out is zeroed except out->algo and out->eps. */
#ifndef HD_GJK_GJK_H
#define HD_GJK_GJK_H

#include "kernel/gjk_core.h"
#include "support/pair.h"

hd_status hdi_gjk_collide(const hdi_pair *pair, const hd_options *opt, hd_collide_result *out);
/* hd_distance: the verdict and certificate in out, the distance and witnesses in closest. */
hd_status hdi_gjk_distance(const hdi_pair *pair, const hd_options *opt, hd_collide_result *out,
                           hdi_closest *closest);

/* The warm fast paths of hdi_gjk_collide (gjk/warm.c): with a valid cache, its axis as a
 * separating plane beyond the band, else its tetrahedron as an intersection proof. 1 when one
 * decided (out's verdict and certificate set, the cache updated), 0 to run GJK. */
int hdi_gjk_warm_collide(const hdi_pair *pair, hd_cache *cache, hd_collide_result *out);

#endif
