# Type stubs of the package: the names of hedra/__init__.py, from the extension's stubs.
from typing import Tuple

from ._hedra import (
    DEFAULT_TOUCH_REL as DEFAULT_TOUCH_REL,
    INTERSECTING as INTERSECTING,
    SEPARATED as SEPARATED,
    TOUCHING as TOUCHING,
    Cache as Cache,
    Certificate as Certificate,
    ContactPoint as ContactPoint,
    CollideResult as CollideResult,
    FileError as FileError,
    DistanceResult as DistanceResult,
    GapResult as GapResult,
    HedraError as HedraError,
    InvalidInputError as InvalidInputError,
    Manifold as Manifold,
    ParseError as ParseError,
    Polytope as Polytope,
    SignedDistanceBatch as SignedDistanceBatch,
    SignedDistanceResult as SignedDistanceResult,
    Scene as Scene,
    Stats as Stats,
    __version__ as __version__,
    collide as collide,
    collide_many as collide_many,
    contact_manifold as contact_manifold,
    contains as contains,
    distance as distance,
    distance_many as distance_many,
    gap as gap,
    point_inside as point_inside,
    signed_distance as signed_distance,
    signed_distance_many as signed_distance_many,
)

VERDICTS: Tuple[str, str, str]
__all__: list[str]
