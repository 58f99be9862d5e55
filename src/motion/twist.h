/* The motion module's shared pieces: the exponential and logarithm of rotations, a motion's
 * pose at t and the speed bound of its points (docs/algorithms/motion.md, sections 1 and 2). */
#ifndef HD_MOTION_TWIST_H
#define HD_MOTION_TWIST_H

#include "hedra/motion.h"

/* r = exp([w]x), the rotation by |w| radians about w / |w| (Rodrigues). */
void hdi_so3_exp(const double w[3], double r[9]);

/* w with exp([w]x) = r and |w| in [0, pi], for a rotation matrix r. */
void hdi_so3_log(const double r[9], double w[3]);

/* HD_OK when every field of the motion is finite and pose0 is a rotation. */
hd_status hdi_motion_validate(const hd_motion *m);

/* The motion's pose at t (no checks). */
void hdi_motion_pose_at(const hd_motion *m, double t, hd_pose *out);

/* The reach of a posed polytope about the motion's centre: an upper bound, rounding included,
 * of |p - c| over its points p at t = 0, which the rotation keeps. */
double hdi_motion_reach(const hd_polytope *p, const hd_motion *m);

#endif
