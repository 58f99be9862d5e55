/* placeholder until the GJK module lands */
#include "algos.h"
hd_status hd_gjk_collide(const hd_pair *pair, const hd_options *opt, hd_result *out)
{ (void)pair; (void)opt; (void)out; return HD_ERR_UNSUPPORTED; }
hd_status hd_gjk_distance(const hd_pair *pair, const hd_options *opt, hd_result *out)
{ (void)pair; (void)opt; (void)out; return HD_ERR_UNSUPPORTED; }
