/* placeholder until the CD-Dual module lands */
#include "algos.h"
hd_status hd_cddual_collide(const hd_pair *pair, const hd_options *opt, hd_result *out)
{ (void)pair; (void)opt; (void)out; return HD_ERR_UNSUPPORTED; }
hd_status hd_cddual_gap(const hd_pair *pair, const double dir[3], const hd_options *opt,
                        hd_gap_result *out)
{ (void)pair; (void)dir; (void)opt; (void)out; return HD_ERR_UNSUPPORTED; }
