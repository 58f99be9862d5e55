/* placeholder until the contact classifier lands */
#include "algos.h"
hd_status hd_contact_classify(const hd_pair *pair, const hd_options *opt, hd_result *out)
{ (void)pair; (void)opt; (void)out; return HD_ERR_UNSUPPORTED; }
