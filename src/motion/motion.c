/* The public constructors and evaluation of hd_motion (hedra/motion.h). */
#include <string.h>

#include "core/math.h"
#include "motion/twist.h"

hd_status hd_motion_from_poses(const hd_pose *pose0, const hd_pose *pose1, hd_motion *out)
{
    if (pose0 == NULL || pose1 == NULL || out == NULL) {
        return HD_ERR_NULL;
    }
    hd_status st = hd_pose_validate(pose0, 0.0);
    if (st == HD_OK) {
        st = hd_pose_validate(pose1, 0.0);
    }
    if (st != HD_OK) {
        return st;
    }
    double rel[9];
    /* R1 R0^T: row i of R1 dotted with row j of R0 */
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            rel[3 * i + j] = hdi_v3_dot(pose1->r + 3 * i, pose0->r + 3 * j);
        }
    }
    out->pose0 = *pose0;
    hdi_so3_log(rel, out->w);
    hdi_v3_copy(out->c, pose0->t);
    hdi_v3_sub(out->v, pose1->t, pose0->t);
    return hdi_v3_is_finite(out->v) ? HD_OK : HD_ERR_NONFINITE;
}

hd_status hd_motion_translation(const hd_pose *pose0, const double translation[3], hd_motion *out)
{
    if (translation == NULL || out == NULL) {
        return HD_ERR_NULL;
    }
    if (!hdi_v3_is_finite(translation)) {
        return HD_ERR_NONFINITE;
    }
    memset(out, 0, sizeof *out);
    out->pose0 = pose0 != NULL ? *pose0 : hd_pose_identity();
    hdi_v3_copy(out->c, out->pose0.t);
    hdi_v3_copy(out->v, translation);
    return HD_OK;
}

hd_status hd_motion_pose(const hd_motion *motion, double t, hd_pose *out)
{
    if (motion == NULL || out == NULL) {
        return HD_ERR_NULL;
    }
    if (!isfinite(t) || !hdi_v3_is_finite(motion->v) || !hdi_v3_is_finite(motion->w) ||
        !hdi_v3_is_finite(motion->c)) {
        return HD_ERR_NONFINITE;
    }
    for (int i = 0; i < 9; ++i) {
        if (!isfinite(motion->pose0.r[i])) {
            return HD_ERR_NONFINITE;
        }
    }
    if (!hdi_v3_is_finite(motion->pose0.t)) {
        return HD_ERR_NONFINITE;
    }
    hdi_motion_pose_at(motion, t, out);
    return hdi_v3_is_finite(out->t) ? HD_OK : HD_ERR_NONFINITE;
}
