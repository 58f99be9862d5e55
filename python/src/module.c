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
        hdpy_scene_init_type(m) < 0 || hdpy_pool_init() < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
