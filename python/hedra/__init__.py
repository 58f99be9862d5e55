"""hedra: exact collision queries between convex polytopes, rounded shapes and compounds.

    import numpy as np, hedra
    a = hedra.Polytope(np.random.rand(20, 3))          # the convex hull of the points
    b = hedra.Polytope.read("cube.off")
    r = hedra.collide(a, b, pose_b=(1, 0, 0, 0, 0.5, 0, 0))   # (qw, qx, qy, qz, tx, ty, tz)
    r.verdict                                           # 'separated' | 'touching' | 'intersecting'
    hedra.distance(a, b, pose_b=np.eye(4)).distance    # a 4x4 matrix is a pose too
    hedra.collide_many(a, b, poses)                     # (N, 7) or (N, 4, 4): int8 codes, all cores
    scene = hedra.Scene(); scene.add(a); scene.add(b, pose); scene.step()   # many moving bodies

Verdicts are exact outside the touching band |signed distance| <= touch_rel * scale (default
touch_rel = 1e-12); every CollideResult and DistanceResult carries a certificate that check() verifies by brute
force. Errors raise HedraError (InvalidInputError, ParseError, FileError) with the C status name.
docs/PYTHON.md in the repository describes everything.
"""
from ._hedra import (
    DEFAULT_TOUCH_REL,
    INTERSECTING,
    SEPARATED,
    TOUCHING,
    Box,
    Cache,
    Capsule,
    Certificate,
    CollideResult,
    Compound,
    CompoundCollideResult,
    CompoundContactPoint,
    CompoundDistanceResult,
    CompoundManifold,
    CompoundSignedDistanceResult,
    Cone,
    ContactPoint,
    Cylinder,
    DistanceResult,
    EnclosureResult,
    FileError,
    GapResult,
    HedraError,
    InvalidInputError,
    Manifold,
    ParseError,
    Polytope,
    RayBatch,
    RayResult,
    Scene,
    SignedDistanceBatch,
    SignedDistanceResult,
    Sphere,
    Stats,
    ToiBatch,
    ToiResult,
    __version__,
    collide,
    collide_many,
    compound_collide,
    compound_collide_many,
    compound_contact_manifold,
    compound_distance,
    compound_distance_many,
    compound_signed_distance,
    compound_signed_distance_many,
    contact_manifold,
    contains,
    distance,
    distance_many,
    enclosure,
    gap,
    point_inside,
    raycast,
    raycast_many,
    shape_cast,
    signed_distance,
    signed_distance_many,
    toi,
    toi_many,
    toi_twist,
)

#: The verdict strings, indexed by the codes of collide_many.
VERDICTS = ("separated", "touching", "intersecting")

__all__ = [
    "DEFAULT_TOUCH_REL", "INTERSECTING", "SEPARATED", "TOUCHING", "VERDICTS", "Box", "Cache",
    "Capsule", "Certificate", "CollideResult", "Compound", "CompoundCollideResult",
    "CompoundContactPoint", "CompoundDistanceResult", "CompoundManifold",
    "CompoundSignedDistanceResult", "Cone", "ContactPoint", "Cylinder", "DistanceResult",
    "EnclosureResult", "FileError", "GapResult", "HedraError", "InvalidInputError", "Manifold",
    "ParseError", "Polytope", "RayBatch", "RayResult", "Scene", "SignedDistanceBatch",
    "SignedDistanceResult", "Sphere", "Stats", "ToiBatch", "ToiResult", "__version__",
    "collide", "collide_many", "compound_collide", "compound_collide_many",
    "compound_contact_manifold", "compound_distance", "compound_distance_many",
    "compound_signed_distance", "compound_signed_distance_many", "contact_manifold", "contains", "distance",
    "distance_many", "enclosure", "gap", "point_inside", "raycast", "raycast_many",
    "shape_cast", "signed_distance", "signed_distance_many", "toi", "toi_many", "toi_twist",
]
