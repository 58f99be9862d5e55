/* Every internal threshold of libhedra, with its reason; docs/ALGORITHMS.md and
 * the pages of docs/algorithms hold the longer derivations. The public tolerances (touch_rel,
 * convex_rel) are hd_tolerance (hedra/core.h). Units: "units" are multiples of DBL_EPSILON (2^-52)
 * times the pair's or polytope's scale unless a line says otherwise. */
#ifndef HD_CORE_TOLERANCES_H
#define HD_CORE_TOLERANCES_H

#include <float.h>

/* ---- core: arguments -------------------------------------------------------------------- */

/* No valid touch_rel or convex_rel reaches 1e-3: a wider band would no longer describe rounding
 * but a different question. The certificate checker refuses such bands too. */
#define HD_TOL_REL_MAX 1e-3

/* ---- certificate checkers (query/certify.c, gjk/gjk2d_query.c) -------------------------
 * Their own constant, used by no algorithm, so that a check stays independent of what it
 * checks: world coordinates carry a few roundings each (rotation, translation); 64 units leave a
 * margin and stay far below the default band (about 4500 units). */
#define HD_CHECK_ROUNDING_UNITS 64.0

/* ---- polytope: construction ------------------------------------------------------------- */

/* Coordinates of magnitude m are known to about 2^-52 m: sets thinner than a few hundred units
 * cannot define a direction (Qhull reports relative thickness 1e-13 as flat). The floor of the
 * construction length tolerance (polytope/build.h, hdi_poly_length_tol). */
#define HD_COORD_RESOLUTION (512.0 * DBL_EPSILON)

/* Construction runs on a copy scaled by an exact power of two when the largest coordinate is
 * outside [2^-400, 2^400]: squared lengths would otherwise overflow or underflow. */
#define HD_SCALE_RANGE 400

/* A unit normal computed in double has length 1 within a few units of 2^-53; this accepts 1e-12. */
#define HD_VALIDATE_UNIT_TOL 1e-12

/* The bounding sphere's radius is widened by 8 units so that every vertex lies inside it despite
 * the rounding of its computation. */
#define HD_SPHERE_INFLATE (8.0 * DBL_EPSILON)

/* Support direction table (polytope/support_table.c): a vertex's cone is widened by about 1e-9
 * rad, each cell by 1e-9 in face coordinates and the clipped box by 1e-7, all far above the
 * rounding of the query's cell computation, so that a cell never misses a maximiser. */
#define HD_TABLE_ANGLE_MARGIN 1e-9
#define HD_TABLE_CELL_MARGIN 1e-9
#define HD_TABLE_BOX_MARGIN 1e-7

/* ---- support ---------------------------------------------------------------------------- */

/* Polytopes of at most this many vertices are scanned rather than climbed: a scan's predictable
 * branches beat a climb's few unpredictable steps until the vertices are many. */
#define HD_SUPPORT_SCAN_MAX 32

/* Polytopes of at most this many vertices also keep their vertices in structure-of-arrays blocks
 * for the vector scans (polytope/blocks.c): the scanned ones; larger ones use a table or a climb,
 * which read verts, so blocks there would be 3n doubles that no support reads. */
#define HD_SCAN_BLOCKS_MAX HD_SUPPORT_SCAN_MAX

/* ---- kernel: GJK ------------------------------------------------------------------------ */

/* GJK stops when upper - lower <= max(REL |v|, ABS scale): a point of M is known only to a few
 * units, so asking for less is noise; 8 units is 280 times below the default band (1e-12) and is
 * also the "origin reached" threshold (docs/algorithms/gjk.md, termination). */
#define HD_GJK_ABS_TOL (8.0 * DBL_EPSILON)
#define HD_GJK_REL_TOL (8.0 * DBL_EPSILON)

/* A step that fails to decrease |v| ends GJK only when the bounds are within this many
 * tolerances: below that the guaranteed decrease is under the rounding of |v|^2. */
#define HD_GJK_STALL_FACTOR 64.0

/* Steps of hdi_gjk_polish at most (each one support query and a double-double solve of the
 * simplex): a separated answer whose bounds the double solve left apart is polished from the
 * simplex GJK stopped on, which is then at most a few points away from the nearest features. */
#define HD_GJK_POLISH_STEPS 16

/* The warm plane test (gjk/warm.c) answers separated only when the cached axis's gap exceeds the
 * band by this many units of the scale: the gap of two posed vertices carries a few units, and
 * the checker allows HD_CHECK_ROUNDING_UNITS, so such an answer is outside the band to spare. */
#define HD_WARM_MARGIN_UNITS 64.0

/* A cached axis is used only when |axis|^2 is within this of 1: GJK stores u / |u|, a few units
 * off; a longer or shorter vector would scale the gap by up to half of this. */
#define HD_WARM_AXIS_UNIT_TOL (16.0 * DBL_EPSILON)

/* A simplex counts as a needle (hdi_simplex_is_needle: its double solve may be off by an eighth of
 * the band) when this many units of DBL_EPSILON max|w|^2 / width exceed eps / 8 (the width: a
 * segment's length, else the smallest height of the simplex's triangles). */
#define HD_NEEDLE_ROUNDING_UNITS 4.0

/* The triangle's own closest point is kept when its signed areas disagree in sign by at most 16
 * units of their rounding: lq lr + (L + W) |q - r| for the area of the edge q r, capped by
 * L (L + W) (L the longest edge, W the largest coordinate; kernel/simplex.c). */
#define HD_SIMPLEX_AREA_UNITS 16.0

/* The inner-ball bound of a tetrahedron (kernel/simplex.c) subtracts 16 units of max |w| for the
 * rounding of each n.x and of |p|. */
#define HD_INNER_ROUNDING (16.0 * DBL_EPSILON)

/* Above this sine of the angle at a vertex, a triangle's unit normal is computed in double (a few
 * units of relative error over the sine); below it in double-double. The contact queries' facets
 * use it too: edge pairs of smaller sine, faces of smaller area over squared length (mface.c). */
#define HD_PLAIN_NORMAL_SINE 1e-3

/* The expanding polytope's faces and the faces of a depth bound's tetrahedron take the plain cross
 * product of their edges (no scaling) when both squared edge lengths lie in this range: every
 * product is then far from under- and overflow, so it is as accurate as the scaled one
 * (hdi_triangle_normal_plain, kernel/simplex_robust.c). */
#define HD_EPA_PLAIN_EDGE2_MIN 1e-140
#define HD_EPA_PLAIN_EDGE2_MAX 1e140

/* GJK's direction u is normalized by its length when |u|^2 exceeds this (|u|^2 and u.w are then
 * far above the subnormal range and keep their full precision); below it u is scaled by its
 * largest component first and the bound taken as n.w (kernel/gjk_core.c). */
#define HD_GJK_PLAIN_NORM2_MIN 1e-280

/* Planar GJK of the plane search (kernel/plane_search.c): no progress when
 * |v|^2 - v.w <= this times |v|^2: v is the nearest point up to rounding. */
#define HD_PLANE_PROGRESS_REL 1e-14

/* ---- contact: the touching classifier --------------------------------------------------- */

/* Two distance bounds this many units apart are "on the band edge to within rounding": a support
 * point and a sub-simplex solution carry a few units; the default band is about 4500 units. */
#define HD_CONTACT_ROUNDING_UNITS 64.0

/* ---- query: rounded polytopes (docs/algorithms/rounded.md) ------------------------------
 * The directional gap's Newton steps on f(tau) = dist(tau s, M) stop once f is within eps / 16
 * of R (the travel then errs by that over the slope, far inside the band where the slope is not
 * tiny); at most 64 steps (quadratic convergence needs a handful) and 64 bisections (one per bit
 * of the interval) for the line's nearest point when a step passes it. */
#define HD_ROUNDED_LEVEL_FRACTION 16.0
#define HD_ROUNDED_NEWTON_STEPS 64
#define HD_ROUNDED_BISECTIONS 64

/* ---- contact: signed distance, depth, manifold (docs/algorithms/contact.md) ------------
 * Rounding allowance of the proven bounds, in units of the largest coordinate in A's frame: a
 * support value is a difference of two posed vertices and a dot product (about 3 + 3 + 3 units),
 * the relative pose adds 3; 32 covers them with a factor of two. */
#define HD_SD_ROUNDING_UNITS 32.0

/* Edge-edge witnesses (contact/signed_distance.c) take one step of iterative refinement when the
 * first solve leaves a residual above this many units of the edges' length: a well-conditioned
 * solve leaves a few, one on edges 6e-9 rad from parallel leaves about 2^-53 / 6e-9. */
#define HD_EDGE_WITNESS_UNITS 16.0

/* The overlap proof of a pair every algorithm left undecided (contact/overlap.c; gjk.md section
 * 5): the depth bound's rounding allowance in units of 2^-53 of |a| + |b| + |t| (the candidate
 * normal's direction, 8 units; the support values, 15; the relative pose, 9; a factor of two),
 * the least sine between the two edges behind a candidate normal (below it the double-double
 * normal could turn by more than the allowance, and no proof is given), and the most candidate
 * normals times vertices it evaluates (a bound on the proof's time, which grows as V^4). */
#define HD_OVERLAP_ROUNDING_UNITS 64.0
#define HD_OVERLAP_SINE_MIN 1e-12
#define HD_OVERLAP_WORK_MAX 2000000.0

/* The expanding polytope stops once upper - lower <= this times the pair's size: far below the
 * 1e-9 accuracy contract; the depth is then read from the facet's exact plane anyway. */
#define HD_SD_EPA_TARGET_REL 1e-12

/* Bounds still further apart than this times the size (plus twice the rounding allowance) after
 * the facet search mean the expanding polytope did not converge (degenerate or full inner
 * polytope): the separating-axis method decides instead. */
#define HD_SD_ACCEPT_REL 1e-10

/* A face at the contact's supporting feature whose normal is within this cosine of the contact
 * normal (about 2.6 degrees) is clipped as a face contact even when the exact depth facet is an
 * edge-edge one: nearly parallel faces keep a stable multi-point manifold under small turns, as
 * physics engines' face-contact tolerances do. */
#define HD_MANIFOLD_FACE_COS 0.999

/* A manifold clipped by such a face, for an edge-edge depth, whose deepest point is shallower than
 * the depth by more than this times the pair's size also gets the edge-edge point at the depth. */
#define HD_MANIFOLD_DEPTH_REL 1e-9

/* A point of the incident polygon this far outside a side plane of the reference face, beyond the
 * rounding allowance, still counts as inside it (its features kept from frame to frame): the
 * band eps, but at most this times the pair's size. Far from the origin the band can be wider
 * than a small face, and a point kept that far outside a reference face tilted from the normal
 * reports a separation below the signed distance by the excess times the tilt. */
#define HD_MANIFOLD_SIDE_REL 1e-10

/* The gradient's tie test (contact/gradient.c): another facet of M whose support value is within
 * this times the pair's size of the depth makes the gradient a subgradient. The accuracy contract
 * of the depth is the same 1e-9 size: closer facets cannot be told apart from a tie. */
#define HD_GRADIENT_TIE_REL 1e-9

/* The local tie test (contact/tie.c): the cap's radius is doubled and widened by this many
 * radians, a margin far above the rounding of the radius's closed form and of the stored face
 * normals; caps of HD_GRADIENT_CAP_MAX radians or more, and walks of more than
 * HD_GRADIENT_CAP_VERTICES vertices of one polytope, go to the pass over every facet instead (a
 * wide cap saves little and the walk's marks live on the stack). */
#define HD_GRADIENT_CAP_SLACK 1e-7
#define HD_GRADIENT_CAP_MAX 1.0
#define HD_GRADIENT_CAP_VERTICES 64

/* ---- cddual ----------------------------------------------------------------------------- */

/* Rounding allowance of CD-Dual's intersection certificate: the interior points, the hit point
 * and the location each carry a few roundings of coordinates of size scale. */
#define HD_CDDUAL_ROUNDING 32.0

/* Edges whose directions make an angle with sine below this are parallel (their sum is an edge of
 * M, not a face); a face skipped is a sliver at most 1e-10 of its length wide. */
#define HD_PARALLEL_SINE 1e-10

/* Angular tolerance (radians) of "this face's normal is d" / "this edge is perpendicular to d":
 * parallel features differ by a few 1e-16; a superset of the true neighbours is harmless. */
#define HD_FEATURE_ANGLE 1e-9

/* Two faces whose normals make an angle with sine below this (a few roundings of the stored
 * normals and of the relative rotation) are parallel as far as the doubles tell: CD-Dual's ray
 * search then expands only their planar Minkowski sum; above it, and below HD_FEATURE_ANGLE, also
 * the edge-edge faces at their support vertices (cddual/neighbours.c). */
#define HD_FACES_PARALLEL_SINE (16.0 * DBL_EPSILON)

/* hdi_feature_support's pre-filter looks for an edge within this many feature angles of
 * perpendicular before it reads the faces (kernel/feature.c): a margin over the angle so that
 * rounding at the boundary never hides a face the full test would accept. */
#define HD_FEATURE_PREFILTER 4.0

/* Cheap pre-filter before the exact face-normal test: cos^2 >= 1 - 1e-6 (about 1e-3 rad). */
#define HD_FEATURE_COS2_FILTER 1e-6

/* Dual distances within this relative difference tie in the ray search. */
#define HD_TIE_REL 1e-10

/* Two lower-dimensional polytopes span a flat M below this sine: the gap search would otherwise
 * walk faces of M thinner than 1e-6 of their size. */
#define HD_FLAT_SINE 1e-6

/* ---- lp (normalized units: coordinates <= 1, weights in [0, 1]; docs/algorithms/lp.md) ---- */

/* An entering-column entry counts in the ratio test above 2^-46 of its row's magnitude (128 units
 * of its rounding) and above 2^-44 absolute: ignoring smaller ones leaves a variable negative by
 * at most about 2e-13 of the extent, below the touching band. */
#define HD_LP_NOISE 0x1.0p-46
#define HD_LP_PIVOT_ABS 0x1.0p-44

/* After a pivot on an element below 1e-6 of its column's largest entry the basis is re-inverted
 * at once (thin overlaps need such pivots). */
#define HD_LP_SMALL_PIVOT 1e-6

/* A reduced cost is negative below -1e-11 (1 + max |y_i|): a few thousand units of rounding. */
#define HD_LP_DUAL_REL 1e-11

/* A pivot lowering the objective by less than 1e-13 (1 + |objective|) is degenerate. */
#define HD_LP_STALL 1e-13

/* Re-inversion fails on a pivot below 2^-48 of the basis' largest entry. */
#define HD_LP_SINGULAR 0x1.0p-48

/* Ratio-test ties: within 2^-50 relative plus 2^-52 times this absolute (degenerate zeros). */
#define HD_LP_TIE_REL 0x1.0p-50
#define HD_LP_TIE_ABS 1e-3

/* Phase 1 stops at f <= 2^-46: only pairs closer than ~3e-14 of their extent are treated as
 * meeting, inside the band of any touch_rel >= 1e-13, and their depth proof fails. */
#define HD_LP_F_ZERO 0x1.0p-46

/* Proven bounds are shrunk by 2^-30 relative to cover the rounding of the LP solution (its
 * residual is below 1e-14 relative). */
#define HD_LP_BOUND_SHRINK (1.0 - 0x1.0p-30)

/* A fresh inverse is refined only when its residual |I - B B^-1| is below 2^-50 m ||B^-1||;
 * otherwise the basis is re-inverted. */
#define HD_LP_INVERSE_RESIDUAL 0x1.0p-50

/* The basis bound trusts B^-1 only when ||B|| ||B^-1|| <= 1e10 (five correct digits at least). */
#define HD_LP_COND_MAX 1e10

/* The updated inverse is rebuilt from the basis every 32 pivots, before its rounding grows. */
#define HD_LP_REFACTOR 32

/* After 4 m degenerate pivots in a row pricing switches to Bland's rule, which cannot cycle. */
#define HD_LP_BLAND_AFTER 4

/* Sets of at most 48 points are priced in full at every pivot (lp/problem.h): below that a full
 * scan costs no more than keeping partial-pricing candidates. */
#define HD_LP_PARTIAL_MIN 48

/* ---- scene (scene/body.c) ------------------------------------------------------------------
 * A body's box is widened by (touch_rel + HD_SCENE_POSE_FACTOR pose_tol + HD_SCENE_ROUNDING
 * units) times S = |posed sphere|_max + |t|_max, so that no pair hd_collide could call touching
 * is cut by the boxes: a rotation orthonormal only to pose_tol moves B, seen in A's frame, by up
 * to about 3 pose_tol |B - t_A|; 64 units cover the rounding of the posed support points. */
#define HD_SCENE_POSE_FACTOR 8.0
#define HD_SCENE_ROUNDING 64.0

/* ---- scene: when to change method ------------------------------------------------------- */

/* Tree: a batch of at least 64 new bodies, and at least as many as the tree holds, rebuilds the
 * tree top down and finds the pairs in one descent (sync.c): cheaper than inserting each. */
#define HD_SCENE_BULK_MIN 64

/* Tree: hdi_tree_update enlarges at most this many ancestors of a leaf in place, then reinserts;
 * the step's cost hardly depends on it, and a few levels keep the enlarged boxes local. */
#define HD_TREE_ENLARGE_LEVELS 3

/* Sweep-and-prune: more appended end points than 64 plus an eighth of the sorted ones make a
 * full sort and sweep cheaper than insertion sort (each appended point may travel the list). */
#define HD_SAP_REBUILD_MIN 64
#define HD_SAP_REBUILD_DIVISOR 8

/* Contacts up to which straight insertion sorts them (step.c): about n^2 / 4 moves of 16 bytes,
 * against the radix sort's passes over 256 buckets. */
#define HD_SCENE_INSERTION_SORT_MAX 48

/* ---- motion (motion/twist.c, motion/toi.c) ----------------------------------------------
 * A body's reach about its centre is widened by 16 units of the magnitudes that enter it (the
 * posing of a vertex and its norm round a few units each), so that it bounds every point. */
#define HD_MOTION_REACH_UNITS 16.0

/* Every certified gap along a motion is lowered by 128 units of the scale (the pose at t: exp,
 * one product, one translation, a few units; the certificate's gap, which hd_certificate_check
 * accepts within 64 units) and 2 units of the speed bound (the rounding of t + dt). */
#define HD_MOTION_ROUNDING_UNITS 128.0
#define HD_MOTION_STEP_UNITS 2.0

/* The speed bound along a plane normal is raised by 8 units of the speed bound: its three
 * products and two cross-product norms round a few units each. */
#define HD_MOTION_SPEED_UNITS 8.0

/* The Taylor bound of the gap along a motion (motion/toi.c, docs/algorithms/motion.md section
 * 3b) is lowered by 64 units of the magnitudes it sums: each support value (a rotated direction,
 * a scan of dot products, the pose's translation) and each linear term rounds a few units. */
#define HD_TOI_TAYLOR_UNITS 64.0

/* Its search for the longest step tries at most this many times (each two support scans, a
 * fraction of a distance query) and stops once the bound left at the step is below this part
 * of the room at its start: the next distance query then starts near the contact. */
#define HD_TOI_TAYLOR_SEARCH 5
#define HD_TOI_TAYLOR_SETTLE 0.05

/* A ray against a rounded polytope steps from one supporting plane of the rounded shape to the
 * next (motion/ray.c); each step at least closes the gap to the surface by the factor a smooth
 * surface gives, and a ray that grazes the surface needs more. The cap makes such a ray a status,
 * never a silent miss. */
#define HD_RAY_ROUNDED_ITERATIONS 200

/* ---- compound: the trees of boxes over the pieces (docs/algorithms/compound.md) ---------
 * A pair of tree nodes is skipped only when its boxes are farther apart than the bound by more
 * than a pad of this many units of 2^-53 of the largest coordinate involved: the boxes' and the
 * relative pose's rounding (a few units each), with a factor of four. */
#define HD_COMPOUND_BOX_ROUNDING_UNITS 64.0

/* The band of a pair of pieces is touch_rel times its scale, the largest |centre| + radius of
 * their bounding spheres; this many times the largest coordinate of the boxes bounds it (centre
 * and radius each at most sqrt(3) times it). */
#define HD_COMPOUND_SCALE_FACTOR 4.0

/* The composed pose of a piece (body pose times piece pose) carries the error of both rotations
 * and the product's rounding: the piece queries accept this many times the options' pose_tol,
 * plus the product's rounding in units of 2^-53. */
#define HD_COMPOUND_POSE_TOL_FACTOR 3.0
#define HD_COMPOUND_POSE_ROUNDING_UNITS 64.0

/* The convexity test of a piece read from an OBJ file (compound/read.c), relative to the piece's
 * box diagonal, when the options' convex_rel is smaller: decompositions are written with about
 * six significant digits, which puts coplanar vertices up to 5e-7 of the size off their faces'
 * planes; a dent below this is read as its hull, as every piece is. */
#define HD_COMPOUND_OBJ_CONVEX_REL 1e-6

#endif
