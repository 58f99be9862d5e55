/* hedra core types: version, status codes, poses, tolerances. */
#ifndef HEDRA_CORE_H
#define HEDRA_CORE_H

#include <stdbool.h> /* every yes/no field and answer of the API is a bool */

#ifdef __cplusplus
extern "C" {
#endif

/* The version lives in one place: the project() call of CMakeLists.txt, which writes
 * hedra/version.h at configure time. */
#include "hedra/version.h"

/* HD_API marks the public functions, the only symbols the shared library exports: it is built
 * with hidden visibility, and everything else in it is internal (named hdi_*). */
#if defined(_WIN32) && defined(HEDRA_BUILDING_SHARED)
#define HD_API __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#define HD_API __attribute__((visibility("default")))
#else
#define HD_API
#endif

/* hd_version_string returns "MAJOR.MINOR.PATCH" of the library actually linked. */
HD_API const char *hd_version_string(void);

/* Status of every call that can fail. */
typedef enum hd_status {
    HD_OK = 0,
    HD_ERR_NULL,        /* a required pointer argument was NULL */
    HD_ERR_INVALID_ARG, /* an argument is out of its documented range (count, dimension, enum) */
    HD_ERR_EMPTY,       /* an empty point set where one is not allowed */
    HD_ERR_NONFINITE,   /* a NaN or infinite coordinate, direction or pose entry */
    HD_ERR_TOO_LARGE,   /* a count above HD_MAX_POINTS or one whose memory size overflows */
    HD_ERR_BAD_POSE,    /* a pose whose matrix is not a rotation (orthonormal, det +1) */
    HD_ERR_NOT_CONVEX,  /* an explicit mesh that is not convex within the tolerance */
    HD_ERR_BAD_MESH,    /* an explicit mesh that is not a closed 2-manifold polytope surface */
    HD_ERR_HULL,        /* the hull builder (Qhull) failed */
    HD_ERR_NO_MEMORY,   /* an allocation failed (construction only; queries never allocate) */
    HD_ERR_ITERATION_LIMIT, /* an iteration cap was reached: the query gives no answer */
    HD_ERR_WORKSPACE_FULL,  /* the caller's workspace was too small for this query */
    HD_ERR_UNSUPPORTED,     /* the requested algorithm cannot answer this input */
    HD_ERR_CERTIFICATE,     /* hd_certificate_check rejected a result's certificate */
    HD_ERR_IO,              /* a file could not be opened or read */
    HD_ERR_PARSE,           /* a file is malformed (see hd_parse_error for file, line, reason) */
    HD_ERR_RANGE, /* coordinates outside the supported range (HD_MAX_COORD, HD_MIN_SCALE) */
    HD_STATUS_COUNT
} hd_status;

/* A static English description of a status, never NULL (unknown values give "unknown status"). */
HD_API const char *hd_status_str(hd_status status);

/* Largest number of input points any call accepts: keeps every size computation far from
 * integer overflow and rejects absurd file headers before any allocation. */
#define HD_MAX_POINTS (1 << 24)

/* The supported range of coordinates. Every algorithm multiplies up to three coordinates and
 * compares results relative to the scale, so values far from 1 would overflow or underflow inside
 * the kernels. Rather than answer wrongly there, the library refuses them:
 * - a polytope whose largest absolute coordinate exceeds HD_MAX_COORD is not built;
 * - a query whose scale (see hd_tolerance) exceeds HD_MAX_COORD, or is positive but below
 *   HD_MIN_SCALE, returns HD_ERR_RANGE.
 * Within the range every query behaves the same at every scale. */
#define HD_MAX_COORD 1e30
#define HD_MIN_SCALE 1e-30

/* A rigid motion x -> R x + t. R is row-major: R[3*i + j] is row i, column j.
 * Every query takes one pose per polytope; NULL means the identity. */
typedef struct hd_pose {
    double r[9];
    double t[3];
} hd_pose;

/* The identity pose. */
HD_API hd_pose hd_pose_identity(void);

/* A pose from a quaternion (w, x, y, z) of any non-zero finite magnitude (it is normalized) and a
 * translation. A zero or non-finite quaternion yields HD_ERR_BAD_POSE, a non-finite translation
 * HD_ERR_NONFINITE, NULL arguments HD_ERR_NULL. */
HD_API hd_status hd_pose_from_quaternion(const double q[4], const double t[3], hd_pose *out);

/* HD_OK if every entry is finite and R is a rotation: |R^T R - I| <= tol entrywise and
 * det R > 0. tol <= 0 or not finite selects HD_DEFAULT_POSE_TOL; tol is capped at 1e-3 (a looser
 * "rotation" would scale or shear the polytope). Errors: HD_ERR_NULL, HD_ERR_NONFINITE,
 * HD_ERR_BAD_POSE. */
HD_API hd_status hd_pose_validate(const hd_pose *pose, double tol);

/* Applies a pose to a point: out = R p + t (out may alias p). */
HD_API void hd_pose_apply(const hd_pose *pose, const double p[3], double out[3]);

/* Tolerances, all relative to the scale of the inputs, defined here and nowhere else.
 *
 * scale: for a query, the largest absolute coordinate of either posed polytope's bounding sphere
 *   (|centre| + radius, a rounded polytope's radius included), so that the same configuration
 *   scaled by 1e-6 or 1e6 is answered alike.
 *
 * touch_rel (default HD_DEFAULT_TOUCH_REL = 1e-12): half-width of the touching band. With
 *   eps = touch_rel * scale and delta the signed distance of the pair (their Euclidean distance
 * when disjoint, minus their penetration depth when they overlap): delta >  eps  -> HD_SEPARATED,
 * |delta| <= eps -> HD_TOUCHING,  delta < -eps -> HD_INTERSECTING. The value leaves three orders of
 * magnitude between the rounding error of the certificates (a few units of 2^-53 * scale) and the
 * band, and three between the band and a gap of 1e-9 of the size, which must still be answered
 * exactly. Zero is allowed and asks for the exact verdict; contacts then resolve to the side the
 * rounding error favours.
 *
 * convex_rel (default HD_DEFAULT_CONVEX_REL = 1e-9): an explicit mesh is accepted as convex when no
 *   vertex lies more than convex_rel * scale outside any face plane, and its neighbouring faces
 *   are merged into one polygonal face when their planes agree to this tolerance. Hulls of point
 *   sets (hd_polytope_build) do not use it: they are exact, their faces hold every input point to
 *   the coordinates' resolution (512 DBL_EPSILON times the largest absolute coordinate).
 *
 * pose_tol (default HD_DEFAULT_POSE_TOL = 1e-9): entrywise tolerance of R^T R = I, absolute since
 *   a rotation has unit scale.
 *
 * max_iterations (default 0 = automatic, proportional to the vertex counts): cap on the main loop
 *   of every algorithm; reaching it is HD_ERR_ITERATION_LIMIT, never a guess.
 */
#define HD_DEFAULT_TOUCH_REL 1e-12
#define HD_DEFAULT_CONVEX_REL 1e-9
#define HD_DEFAULT_POSE_TOL 1e-9

typedef struct hd_tolerance {
    double touch_rel;
    double convex_rel;
    double pose_tol;
    int max_iterations;
} hd_tolerance;

/* The documented defaults above. */
HD_API hd_tolerance hd_tolerance_default(void);

/* HD_OK if every field is finite and non-negative, touch_rel and convex_rel < 1e-3 and
 * pose_tol <= 1e-3; else HD_ERR_INVALID_ARG (HD_ERR_NULL for NULL). */
HD_API hd_status hd_tolerance_validate(const hd_tolerance *tol);

#ifdef __cplusplus
}
#endif

#endif
