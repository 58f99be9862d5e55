/* The module hedra._hedra: its functions, types and constants (re-exported by hedra/__init__.py).
 *
 * Adding a query (contact.c binds hedra/contact.h and scene.c binds hedra/scene.h this way):
 * write its entry point in its own file beside query.c (argument parsing with hdpy_parse_args,
 * poses with hdpy_pose, options with hdpy_options, errors with hdpy_raise), its result type beside
 * result.c, declare both in hedra_py.h, list the entry point in `methods` below and its name in
 * hedra/__init__.py's __all__, and add the file to setup.py. A batch form reuses batch.c and the
 * thread pool (pool.c): the per-pose call in run_chunk is the only query-specific line. */
#define HDPY_MAIN
#include "hedra_py.h"

#define FASTCALL_KW METH_FASTCALL | METH_KEYWORDS
#define FN(f) (PyCFunction)(void (*)(void))(f)

static PyMethodDef methods[] = {
    {"collide", FN(hdpy_collide), FASTCALL_KW,
     "collide($module, a, b, pose_a=None, pose_b=None, algo='gjk', touch_rel=None, cache=None)\n"
     "--\n\n-> CollideResult. Whether posed polytopes a and b are 'separated', 'touching' or "
     "'intersecting', with the\n"
     "certificate that proves it. algo: 'gjk', 'cddual' or 'lp'. A pose is a 7-sequence\n"
     "(qw, qx, qy, qz, tx, ty, tz) or a 4x4 matrix; None is the identity."},
    {"distance", FN(hdpy_distance), FASTCALL_KW,
     "distance($module, a, b, pose_a=None, pose_b=None, touch_rel=None, cache=None,\n"
     "         gradient=False)\n--\n\n"
     "-> DistanceResult. Euclidean distance (0 when touching or intersecting) with closest points "
     "witness_a,\n"
     "witness_b, and the verdict and certificate of collide. gradient=True: .gradient =\n"
     "(gradient_a, gradient_b, unique) as in signed_distance, for separated pairs (zero else)."},
    {"gap", FN(hdpy_gap), FASTCALL_KW,
     "gap($module, a, b, direction, pose_a=None, pose_b=None, touch_rel=None)\n--\n\n"
     "-> GapResult. How far B must travel along +direction or -direction to just touch A "
     "(separated), or\n"
     "to leave it (overlapping): CD-Dual section 6."},
    {"contains", FN(hdpy_contains), FASTCALL_KW,
     "contains($module, a, b, pose_a=None, pose_b=None, touch_rel=None)\n--\n\n"
     "-> bool. True when every vertex of B lies in A (the boundary counts as inside)."},
    {"point_inside", FN(hdpy_point_inside), FASTCALL_KW,
     "point_inside($module, a, point, pose_a=None, touch_rel=None)\n--\n\n"
     "-> str. 'intersecting' strictly inside, 'touching' on the boundary, 'separated' outside."},
    {"collide_many", FN(hdpy_collide_many), FASTCALL_KW,
     "collide_many($module, a, b, poses_b, poses_a=None, threads=0, algo='gjk', touch_rel=None,\n"
     "             warm_start=True)\n--\n\n"
     "-> int8 array (N,). The verdict code (0 separated, 1 touching, 2 intersecting) of a against "
     "b at every\n"
     "pose of poses_b, an (N, 7) or (N, 4, 4) array. poses_a: None (identity), one pose for\n"
     "all, or N poses. Runs in C without the GIL on `threads` threads (0: every core), each\n"
     "chunk of consecutive poses warm-starting from the previous pose."},
    {"distance_many", FN(hdpy_distance_many), FASTCALL_KW,
     "distance_many($module, a, b, poses_b, poses_a=None, threads=0, touch_rel=None,\n"
     "              warm_start=True, witnesses=False)\n--\n\n"
     "-> float64 array (N,), or (distances, witness_a, witness_b). The distance of a and b at "
     "every pose, as collide_many; with witnesses=True also the\n"
     "(N, 3) closest points."},
    {"signed_distance_many", FN(hdpy_signed_distance_many), FASTCALL_KW,
     "signed_distance_many($module, a, b, poses_b, poses_a=None, threads=0, touch_rel=None,\n"
     "                     depth='epa', gradient=False)\n--\n\n"
     "-> SignedDistanceBatch (signed_distance, normal, witness_a, witness_b, gradient_a,\n"
     "gradient_b, unique). signed_distance of a and b at every pose of poses_b, an (N, 7) or\n"
     "(N, 4, 4) array (poses_a: None, one pose, or N), in C without the GIL on `threads`\n"
     "threads (0: every core): arrays (N,), (N, 3) and, with gradient=True, (N, 6), (N, 6) and\n"
     "(N,) bool (else None). Each pose starts cold: the bits of signed_distance on that pose,\n"
     "for any thread count."},
    {"signed_distance", FN(hdpy_signed_distance), FASTCALL_KW,
     "signed_distance($module, a, b, pose_a=None, pose_b=None, touch_rel=None, depth='epa',\n"
     "                cache=None, gradient=False)\n--\n\n"
     "-> SignedDistanceResult. The distance when separated, minus the penetration depth when "
     "overlapping, with the unit\n"
     "normal from A towards B, witnesses (witness_b - witness_a = signed_distance * normal),\n"
     "proven bounds lower <= signed_distance <= upper, the supporting features (type, index) of "
     "both polytopes, verdict.\n"
     "depth: 'epa' (expanding polytope) or 'sat' (separating axes); both exact (hedra/contact.h).\n"
     "gradient=True: .gradient = (gradient_a, gradient_b, unique), the derivatives of the signed\n"
     "distance with respect to each pose (6 each: translation, then rotation about the frame's\n"
     "origin, world axes); unique False where it has a kink (then a subgradient)."},
    {"contact_manifold", FN(hdpy_contact_manifold), FASTCALL_KW,
     "contact_manifold($module, a, b, pose_a=None, pose_b=None, touch_rel=None, depth='epa',\n"
     "                 cache=None, gradient=False)\n--\n\n"
     "-> Manifold. Up to four contact points (point, separation, feature_a, feature_b) sharing the "
     "normal\n"
     "of signed_distance, by clipping the incident face against the reference face; none when\n"
     "the pair is separated by more than eps. .contact holds the signed_distance answer."},
    {"Sphere", FN(hdpy_sphere), FASTCALL_KW,
     "Sphere($module, radius, centre=(0.0, 0.0, 0.0))\n--\n\n"
     "-> Polytope. The ball of the given radius about centre: one point rounded by radius."},
    {"Capsule", FN(hdpy_capsule), FASTCALL_KW,
     "Capsule($module, half_length, radius)\n--\n\n"
     "-> Polytope. The segment from (0, 0, -half_length) to (0, 0, half_length) rounded by radius\n"
     "(hd_shape_capsule)."},
    {"Box", FN(hdpy_box), FASTCALL_KW,
     "Box($module, half_extents, radius=0.0)\n--\n\n"
     "-> Polytope. The box [-hx, hx] x [-hy, hy] x [-hz, hz] rounded by radius (reaching h + "
     "radius\n"
     "along each axis; hd_shape_box)."},
    {"Cylinder", FN(hdpy_cylinder), FASTCALL_KW,
     "Cylinder($module, half_height, radius, sides=32, rounding=0.0)\n--\n\n"
     "-> Polytope. The prism over the regular polygon of `sides` sides circumscribed about the\n"
     "circle of radius (axis z, from -half_height to half_height), rounded by rounding: it\n"
     "encloses the cylinder, within radius * (1 / cos(pi / sides) - 1) of it (hd_shape_cylinder)."},
    {"Cone", FN(hdpy_cone), FASTCALL_KW,
     "Cone($module, half_height, radius, sides=32, rounding=0.0)\n--\n\n"
     "-> Polytope. The pyramid over Cylinder's polygon at z = -half_height with its apex at\n"
     "z = half_height, rounded by rounding; encloses the cone (hd_shape_cone)."},
    {"toi", FN(hdpy_toi), FASTCALL_KW,
     "toi($module, a, b, pose0_a=None, pose1_a=None, pose0_b=None, pose1_b=None, touch_rel=None,\n"
     "    time_tol=None, max_iterations=None)\n--\n\n"
     "-> ToiResult. Certified time of impact over t in [0, 1] of A moving from pose0_a to pose1_a\n"
     "and B from pose0_b to pose1_b (frame origins on straight lines, rotations at constant\n"
     "angular velocity along the shorter arc; pose0 None: the identity, pose1 None: at rest at\n"
     "pose0): apart for every t < lo,\n"
     "touching or overlapping at hi, hi - lo <= time_tol (hd_toi)."},
    {"toi_twist", FN(hdpy_toi_twist), FASTCALL_KW,
     "toi_twist($module, a, b, motion_a, motion_b, touch_rel=None, time_tol=None,\n"
     "          max_iterations=None)\n--\n\n"
     "-> ToiResult. toi with each motion a twist (pose0, v, w) or (pose0, v, w, c): a point p\n"
     "(world position at t = 0) is at c + exp(t [w]x) (p - c) + t v; c defaults to pose0's\n"
     "translation. Any number of turns (hd_motion)."},
    {"shape_cast", FN(hdpy_shape_cast), FASTCALL_KW,
     "shape_cast($module, a, b, translation_b, pose_a=None, pose_b=None, touch_rel=None,\n"
     "           time_tol=None, max_iterations=None)\n--\n\n"
     "-> ToiResult. A fixed at pose_a, B moved from pose_b by translation_b over t in [0, 1]:\n"
     "its first contact, with toi's proofs (hd_shape_cast)."},
    {"raycast", FN(hdpy_raycast), FASTCALL_KW,
     "raycast($module, polytope, pose, origin, dir, length=None, touch_rel=None)\n--\n\n"
     "-> RayResult. The least t in [0, length] (None: unbounded) with origin + t dir in the posed\n"
     "polytope, exact on its face planes (hd_ray_cast); dir need not be unit."},
    {"toi_many", FN(hdpy_toi_many), FASTCALL_KW,
     "toi_many($module, a, b, poses0_b, poses1_b, poses0_a=None, poses1_a=None, threads=0,\n"
     "         touch_rel=None, time_tol=None, max_iterations=None)\n--\n\n"
     "-> ToiBatch (hit, toi, lo, hi, normal, witness_a, witness_b, iterations). toi for every\n"
     "row of poses0_b and poses1_b ((N, 7) or (N, 4, 4)); poses0_a, poses1_a: one pose or N\n"
     "(poses0_a None: the identity; poses1_a None: A at rest at poses0_a). In C without the GIL on "
     "`threads` threads (0: every core); each row has\n"
     "the bits of toi on it whatever the thread count."},
    {"raycast_many", FN(hdpy_raycast_many), FASTCALL_KW,
     "raycast_many($module, polytope, origins, dirs, length=None, pose=None, threads=0,\n"
     "             touch_rel=None)\n--\n\n"
     "-> RayBatch (hit, inside, t, point, normal, feature). raycast for every row of origins\n"
     "(N, 3); dirs (N, 3) or one (3,); length None, one number or (N,). In C without the GIL on\n"
     "`threads` threads."},
    {"compound_collide", FN(hdpy_compound_collide), FASTCALL_KW,
     "compound_collide($module, a, b, pose_a=None, pose_b=None, touch_rel=None)\n--\n\n"
     "-> CompoundCollideResult. Compounds a and b intersect when some pair of pieces does, touch\n"
     "when none does and some pair touches; piece_a, piece_b and pair: the deciding pair and its\n"
     "CollideResult (hd_compound_collide)."},
    {"compound_distance", FN(hdpy_compound_distance), FASTCALL_KW,
     "compound_distance($module, a, b, pose_a=None, pose_b=None, touch_rel=None)\n--\n\n"
     "-> CompoundDistanceResult. The least distance over the pairs of pieces, the pair attaining\n"
     "it and its DistanceResult (hd_compound_distance)."},
    {"compound_signed_distance", FN(hdpy_compound_signed_distance), FASTCALL_KW,
     "compound_signed_distance($module, a, b, pose_a=None, pose_b=None, touch_rel=None,\n"
     "                         depth='epa', gradient=False)\n--\n\n"
     "-> CompoundSignedDistanceResult. The least signed distance over the pairs of pieces (minus\n"
     "the deepest pair's depth when overlapping), that pair and its SignedDistanceResult."},
    {"compound_contact_manifold", FN(hdpy_compound_contact_manifold), FASTCALL_KW,
     "compound_contact_manifold($module, a, b, pose_a=None, pose_b=None, touch_rel=None,\n"
     "                          depth='epa', gradient=False)\n--\n\n"
     "-> CompoundManifold. Up to four points of the pairs of pieces in contact, each with its\n"
     "pieces and its pair's normal (hd_compound_contact_manifold)."},
    {"compound_collide_many", FN(hdpy_compound_collide_many), FASTCALL_KW,
     "compound_collide_many($module, a, b, poses_b, poses_a=None, threads=0, algo='gjk',\n"
     "                      touch_rel=None, warm_start=True)\n--\n\n"
     "-> int8 array (N,). collide_many for two Compounds: compound_collide's verdict code at\n"
     "every pose of poses_b (poses_a: None, one pose, or N), in C without the GIL on `threads`\n"
     "threads. Each pose starts cold (warm_start has no effect): the single call's bits."},
    {"compound_distance_many", FN(hdpy_compound_distance_many), FASTCALL_KW,
     "compound_distance_many($module, a, b, poses_b, poses_a=None, threads=0, touch_rel=None,\n"
     "                       warm_start=True, witnesses=False)\n--\n\n"
     "-> float64 array (N,), or (distances, witness_a, witness_b). distance_many for two\n"
     "Compounds: compound_distance at every pose (witnesses: its pair's, world frame)."},
    {"compound_signed_distance_many", FN(hdpy_compound_signed_distance_many), FASTCALL_KW,
     "compound_signed_distance_many($module, a, b, poses_b, poses_a=None, threads=0,\n"
     "                              touch_rel=None, depth='epa', gradient=False)\n--\n\n"
     "-> SignedDistanceBatch. signed_distance_many for two Compounds: compound_signed_distance\n"
     "at every pose (normal, witnesses and gradients: its pair's)."},
    {"enclosure", FN(hdpy_enclosure), FASTCALL_KW,
     "enclosure($module, points, compound, touch_rel=None)\n--\n\n"
     "-> EnclosureResult. How far the (n, 3) points (body frame) lie outside the union of the\n"
     "compound's pieces: the largest distance to the nearest piece (hd_compound_enclosure)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "hedra._hedra",
    .m_doc = "hedra's C extension: exact collision queries between convex polytopes.",
    .m_size = -1,
    .m_methods = methods,
};

static int add_constants(PyObject *m)
{
    return PyModule_AddIntConstant(m, "SEPARATED", HD_SEPARATED) ||
           PyModule_AddIntConstant(m, "TOUCHING", HD_TOUCHING) ||
           PyModule_AddIntConstant(m, "INTERSECTING", HD_INTERSECTING) ||
           PyModule_AddStringConstant(m, "__version__", hd_version_string()) ||
           PyModule_AddObject(m, "DEFAULT_TOUCH_REL", PyFloat_FromDouble(HD_DEFAULT_TOUCH_REL));
}

PyMODINIT_FUNC PyInit__hedra(void); /* the one exported symbol */

PyMODINIT_FUNC PyInit__hedra(void)
{
    import_array();
    PyObject *m = PyModule_Create(&module_def);
    if (m == NULL) {
        return NULL;
    }
    if (hdpy_errors_init(m) < 0 || hdpy_polytope_init_type(m) < 0 ||
        hdpy_result_init_types(m) < 0 || hdpy_cache_init_type(m) < 0 || add_constants(m) < 0 ||
        hdpy_scene_init_type(m) < 0 || hdpy_motion_init_types(m) < 0 ||
        hdpy_compound_init_type(m) < 0 || hdpy_pool_init() < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
