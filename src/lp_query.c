/* placeholder until the LP module lands */
#include "algos.h"
#include "hedra/lp.h"
hd_status hd_lp_collide(const hd_pair *pair, const hd_options *opt, hd_result *out)
{ (void)pair; (void)opt; (void)out; return HD_ERR_UNSUPPORTED; }
hd_status hd_lp_intersect(int dim, const double *s, int ns, const double *t, int nt,
                          const hd_tolerance *tol, hd_lp_result *out, double *weights_s,
                          double *weights_t)
{ (void)dim; (void)s; (void)ns; (void)t; (void)nt; (void)tol; (void)out; (void)weights_s; (void)weights_t; return HD_ERR_UNSUPPORTED; }
hd_status hd_lp_contains(int dim, const double *s, int ns, const double *t, int nt,
                         const hd_tolerance *tol, int *inside)
{ (void)dim; (void)s; (void)ns; (void)t; (void)nt; (void)tol; (void)inside; return HD_ERR_UNSUPPORTED; }
hd_status hd_lp_point_inside(int dim, const double *s, int ns, const double *point,
                             const hd_tolerance *tol, hd_verdict *out)
{ (void)dim; (void)s; (void)ns; (void)point; (void)tol; (void)out; return HD_ERR_UNSUPPORTED; }
hd_status hd_contains(const hd_polytope *a, const hd_pose *pose_a, const hd_polytope *b,
                      const hd_pose *pose_b, const hd_options *opt, int *inside)
{ (void)a; (void)pose_a; (void)b; (void)pose_b; (void)opt; (void)inside; return HD_ERR_UNSUPPORTED; }
hd_status hd_point_inside(const hd_polytope *a, const hd_pose *pose_a, const double point[3],
                          const hd_options *opt, hd_verdict *out)
{ (void)a; (void)pose_a; (void)point; (void)opt; (void)out; return HD_ERR_UNSUPPORTED; }
