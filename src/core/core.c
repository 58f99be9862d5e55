/* Version, status strings, poses and tolerances. */
#include <math.h>
#include <stddef.h>

#include "hedra/core.h"
#include "core/math.h"
#include "core/tolerances.h"

const char *hd_version_string(void)
{
    return HD_VERSION_STRING;
}

const char *hd_status_str(hd_status status)
{
    static const char *const names[HD_STATUS_COUNT] = {
        [HD_OK] = "ok",
        [HD_ERR_NULL] = "a required pointer argument is NULL",
        [HD_ERR_INVALID_ARG] = "an argument is out of range",
        [HD_ERR_EMPTY] = "empty point set",
        [HD_ERR_NONFINITE] = "non-finite value (NaN or infinity)",
        [HD_ERR_TOO_LARGE] = "count too large",
        [HD_ERR_BAD_POSE] = "pose is not a rotation plus translation",
        [HD_ERR_NOT_CONVEX] = "mesh is not convex",
        [HD_ERR_BAD_MESH] = "mesh is not a closed polytope surface",
        [HD_ERR_HULL] = "convex hull construction failed",
        [HD_ERR_NO_MEMORY] = "out of memory",
        [HD_ERR_ITERATION_LIMIT] = "iteration limit reached without an answer",
        [HD_ERR_WORKSPACE_FULL] = "workspace too small for this query",
        [HD_ERR_UNSUPPORTED] = "algorithm does not support this input",
        [HD_ERR_CERTIFICATE] = "certificate check failed",
        [HD_ERR_IO] = "input/output error",
        [HD_ERR_PARSE] = "malformed input",
        [HD_ERR_RANGE] = "coordinates outside the supported range (1e-30 to 1e30)",
    };
    if ((int)status < 0 || status >= HD_STATUS_COUNT || names[status] == NULL) {
        return "unknown status";
    }
    return names[status];
}

hd_pose hd_pose_identity(void)
{
    hd_pose pose = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}};
    return pose;
}

hd_status hd_pose_from_quaternion(const double q[4], const double t[3], hd_pose *out)
{
    if (q == NULL || t == NULL || out == NULL) {
        return HD_ERR_NULL;
    }
    /* normalize by the largest component first so that neither the squares overflow nor they
     * underflow, whatever the quaternion's magnitude */
    double m = fmax(fmax(fabs(q[0]), fabs(q[1])), fmax(fabs(q[2]), fabs(q[3])));
    if (!isfinite(m) || m == 0.0 || !isfinite(q[0] + q[1] + q[2] + q[3])) {
        return HD_ERR_BAD_POSE;
    }
    if (!hdi_v3_is_finite(t)) {
        return HD_ERR_NONFINITE;
    }
    double s[4] = {q[0] / m, q[1] / m, q[2] / m, q[3] / m};
    double n = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2] + s[3] * s[3]);
    double w = s[0] / n, x = s[1] / n, y = s[2] / n, z = s[3] / n;
    double r[9] = {
        1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
        2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
        2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y),
    };
    for (int i = 0; i < 9; ++i) {
        out->r[i] = r[i];
    }
    hdi_v3_copy(out->t, t);
    return HD_OK;
}

hd_status hd_pose_validate(const hd_pose *pose, double tol)
{
    if (pose == NULL) {
        return HD_ERR_NULL;
    }
    if (!(tol > 0.0) || !isfinite(tol)) {
        tol = HD_DEFAULT_POSE_TOL;
    }
    if (tol > HD_TOL_REL_MAX) {
        tol = HD_TOL_REL_MAX;
    }
    if (hdi_pose_passes(pose->r, pose->t, tol)) {
        return HD_OK; /* the common case; the checks below name what fails */
    }
    for (int i = 0; i < 9; ++i) {
        if (!isfinite(pose->r[i])) {
            return HD_ERR_NONFINITE;
        }
    }
    if (!hdi_v3_is_finite(pose->t)) {
        return HD_ERR_NONFINITE;
    }
    double rtr[9];
    hdi_m3_tmul_m(rtr, pose->r, pose->r);
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            double want = (i == j) ? 1.0 : 0.0;
            if (fabs(rtr[3 * i + j] - want) > tol) {
                return HD_ERR_BAD_POSE;
            }
        }
    }
    const double *r = pose->r;
    if (hdi_det3(r, r + 3, r + 6) <= 0.0) {
        return HD_ERR_BAD_POSE;
    }
    return HD_OK;
}

void hd_pose_apply(const hd_pose *pose, const double p[3], double out[3])
{
    double q[3];
    hdi_m3_mul_v(q, pose->r, p);
    hdi_v3_add(out, q, pose->t);
}

hd_tolerance hd_tolerance_default(void)
{
    hd_tolerance tol = {HD_DEFAULT_TOUCH_REL, HD_DEFAULT_CONVEX_REL, HD_DEFAULT_POSE_TOL, 0};
    return tol;
}

hd_status hd_tolerance_validate(const hd_tolerance *tol)
{
    if (tol == NULL) {
        return HD_ERR_NULL;
    }
    /* each range test is false for NaN and for infinities too (HD_TOL_REL_MAX is finite), so no
     * separate finiteness test is needed; combined without branches (every query checks) */
    int ok = (tol->touch_rel >= 0.0) & (tol->touch_rel < HD_TOL_REL_MAX) &
             (tol->convex_rel >= 0.0) & (tol->convex_rel < HD_TOL_REL_MAX) &
             (tol->pose_tol >= 0.0) & (tol->pose_tol <= HD_TOL_REL_MAX) &
             (tol->max_iterations >= 0);
    return ok ? HD_OK : HD_ERR_INVALID_ARG;
}
