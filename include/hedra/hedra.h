/* hedra: exact collision queries between convex polytopes.
 *
 * This umbrella header is the reference for the public API. Conventions:
 * - every function that can fail returns an hd_status; HD_OK is zero;
 * - the library never prints, never aborts on bad input and holds no global state;
 * - an hd_polytope is immutable after construction and may be shared by any number of threads;
 * - queries never allocate: scratch space lives on the stack or in a caller-owned hd_workspace,
 *   warm-start state in a caller-owned hd_cache (one per ordered pair and per thread).
 */
#ifndef HEDRA_HEDRA_H
#define HEDRA_HEDRA_H

#include "hedra/core.h"
#include "hedra/polytope.h"
#include "hedra/shapes.h"
#include "hedra/query.h"
#include "hedra/contact.h"
#include "hedra/motion.h"
#include "hedra/lp.h"
#include "hedra/io.h"
#include "hedra/gjk2d.h"
#include "hedra/scene.h"
#include "hedra/compound.h"

#endif
