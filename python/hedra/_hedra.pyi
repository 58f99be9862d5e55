# Type stubs of the C extension hedra._hedra (python/src/*.c). python/tests/test_stubs.py checks
# that every public name of the module has a stub here and that each function's parameters match
# the text signature the extension gives inspect.signature.
from typing import Any, Literal, Optional, Sequence, Tuple, Union, overload

import numpy as np
import numpy.typing as npt

Verdict = Literal["separated", "touching", "intersecting"]
#: a 7-sequence (qw, qx, qy, qz, tx, ty, tz), a 4x4 matrix, or None (the identity)
Pose = Union[Sequence[float], npt.ArrayLike, None]
Vec3 = npt.NDArray[np.float64]

SEPARATED: int
TOUCHING: int
INTERSECTING: int
DEFAULT_TOUCH_REL: float
__version__: str

class HedraError(Exception):
    status: Optional[str]
    code: Optional[int]
    message: Optional[str]
    file: Optional[str]
    line: Optional[int]
    index: Optional[int]

class InvalidInputError(HedraError, ValueError): ...
class ParseError(HedraError, ValueError): ...
class FileError(HedraError, OSError): ...

class Polytope:
    def __init__(self, points: npt.ArrayLike, radius: float = 0.0) -> None: ...
    @classmethod
    def read(cls, path: Union[str, bytes, Any], format: Optional[str] = None) -> "Polytope": ...
    @classmethod
    def from_mesh(
        cls, vertices: npt.ArrayLike, faces: Sequence[Sequence[int]], convex_rel: float = 1e-9
    ) -> "Polytope": ...
    def __len__(self) -> int: ...
    @property
    def vertices(self) -> npt.NDArray[np.float64]: ...
    @property
    def faces(self) -> Any: ...
    @property
    def face_planes(self) -> npt.NDArray[np.float64]: ...
    @property
    def edges(self) -> Any: ...
    @property
    def dimension(self) -> int: ...
    @property
    def bounds(self) -> Any: ...
    @property
    def sphere(self) -> Any: ...
    @property
    def radius(self) -> float: ...

class Cache:
    def __init__(self) -> None: ...
    def reset(self) -> None: ...

class Stats:
    iterations: int
    support_calls: int
    visits_fv: int
    visits_vf: int
    visits_ee: int
    refine_steps: int

class Certificate:
    normal: Optional[Vec3]
    offset: Optional[float]
    gap: Optional[float]
    point: Optional[Vec3]
    a_indices: Any
    a_weights: Any
    b_indices: Any
    b_weights: Any
    depth_bound: Optional[float]

class _QueryResult:
    verdict: Verdict
    code: int
    stop: str
    eps: float
    certificate: Certificate
    stats: Stats
    def check(self) -> bool: ...

class CollideResult(_QueryResult):
    algo: str
    cddual_face: Any

class DistanceResult(_QueryResult):
    distance: float
    witness_a: Vec3
    witness_b: Vec3
    gradient: Optional[Tuple[Tuple[float, ...], Tuple[float, ...], bool]]

class GapResult:
    contact: bool
    verdict: Verdict
    distance: float
    s_sign: int
    direction: Vec3
    stats: Stats

class SignedDistanceResult:
    verdict: Verdict
    signed_distance: float
    normal: Vec3
    witness_a: Vec3
    witness_b: Vec3
    lower: float
    upper: float
    feature_a: Tuple[str, int]
    feature_b: Tuple[str, int]
    method: str
    eps: float
    size: float
    stats: Any
    gradient: Optional[Tuple[Tuple[float, ...], Tuple[float, ...], bool]]

class SignedDistanceBatch:
    signed_distance: npt.NDArray[np.float64]
    normal: npt.NDArray[np.float64]
    witness_a: npt.NDArray[np.float64]
    witness_b: npt.NDArray[np.float64]
    gradient_a: Optional[npt.NDArray[np.float64]]
    gradient_b: Optional[npt.NDArray[np.float64]]
    unique: Optional[npt.NDArray[np.bool_]]

class ContactPoint:
    point: Vec3
    separation: float
    feature_a: Any
    feature_b: Any

class Manifold:
    normal: Vec3
    points: Tuple[ContactPoint, ...]
    contact: SignedDistanceResult

class Scene:
    def __init__(
        self,
        threads: int = 0,
        broadphase: str = "tree",
        margin: float = 0.5,
        algo: str = "gjk",
        touch_rel: Optional[float] = None,
        depth: bool = False,
        manifold: bool = False,
        gradient: bool = False,
        proximity: float = 0.0,
        sweep_threshold: float = 0.0,
    ) -> None: ...
    def add(self, polytope: Union[Polytope, "Compound"], pose: Pose = None) -> int: ...
    def set_velocity(
        self, id: int, v: npt.ArrayLike, w: npt.ArrayLike = (0.0, 0.0, 0.0)
    ) -> None: ...
    def set_filter(
        self, id: int, category: int = 1, mask: int = 0xFFFFFFFF, group: int = 0
    ) -> None: ...
    def filter(self, id: int, /) -> Tuple[int, int, int]: ...
    def remove(self, id: int, /) -> None: ...
    def move(self, id: int, pose: Pose, /) -> None: ...
    def move_many(self, ids: npt.ArrayLike, poses: npt.ArrayLike, /) -> None: ...
    def step(self) -> Tuple[npt.NDArray[np.intc], npt.NDArray[np.int8]]: ...
    def query_box(self, lo: npt.ArrayLike, hi: npt.ArrayLike, /) -> npt.NDArray[np.intc]: ...
    def raycast(
        self, origin: npt.ArrayLike, dir: npt.ArrayLike, length: Optional[float] = None,
        all: bool = False,
    ) -> Any: ...
    def query_polytope(
        self, polytope: Polytope, pose: Pose = None
    ) -> Tuple[npt.NDArray[np.intc], npt.NDArray[np.int8]]: ...
    def body(self, id: int, /) -> Tuple[Union[Polytope, "Compound"], npt.NDArray[np.float64]]: ...
    def __len__(self) -> int: ...
    @property
    def ids(self) -> list[int]: ...
    @property
    def stats(self) -> Optional[dict[str, Any]]: ...
    @property
    def details(self) -> Optional[dict[str, Any]]: ...
    @property
    def pieces(self) -> Optional[npt.NDArray[np.intc]]: ...
    @property
    def toi(self) -> Optional[npt.NDArray[np.float64]]: ...

def collide(
    a: Polytope,
    b: Polytope,
    pose_a: Pose = None,
    pose_b: Pose = None,
    algo: str = "gjk",
    touch_rel: Optional[float] = None,
    cache: Optional[Cache] = None,
) -> CollideResult: ...
def distance(
    a: Polytope,
    b: Polytope,
    pose_a: Pose = None,
    pose_b: Pose = None,
    touch_rel: Optional[float] = None,
    cache: Optional[Cache] = None,
    gradient: bool = False,
) -> DistanceResult: ...
def gap(
    a: Polytope,
    b: Polytope,
    direction: npt.ArrayLike,
    pose_a: Pose = None,
    pose_b: Pose = None,
    touch_rel: Optional[float] = None,
) -> GapResult: ...
def contains(
    a: Polytope,
    b: Polytope,
    pose_a: Pose = None,
    pose_b: Pose = None,
    touch_rel: Optional[float] = None,
) -> bool: ...
def point_inside(
    a: Polytope, point: npt.ArrayLike, pose_a: Pose = None, touch_rel: Optional[float] = None
) -> Verdict: ...
def collide_many(
    a: Polytope,
    b: Polytope,
    poses_b: npt.ArrayLike,
    poses_a: Optional[npt.ArrayLike] = None,
    threads: int = 0,
    algo: str = "gjk",
    touch_rel: Optional[float] = None,
    warm_start: bool = True,
) -> npt.NDArray[np.int8]: ...
@overload
def distance_many(
    a: Polytope,
    b: Polytope,
    poses_b: npt.ArrayLike,
    poses_a: Optional[npt.ArrayLike] = None,
    threads: int = 0,
    touch_rel: Optional[float] = None,
    warm_start: bool = True,
    witnesses: Literal[False] = False,
) -> npt.NDArray[np.float64]: ...
@overload
def distance_many(
    a: Polytope,
    b: Polytope,
    poses_b: npt.ArrayLike,
    poses_a: Optional[npt.ArrayLike] = None,
    threads: int = 0,
    touch_rel: Optional[float] = None,
    warm_start: bool = True,
    witnesses: Literal[True] = ...,
) -> Tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]: ...
def signed_distance_many(
    a: Polytope,
    b: Polytope,
    poses_b: npt.ArrayLike,
    poses_a: Optional[npt.ArrayLike] = None,
    threads: int = 0,
    touch_rel: Optional[float] = None,
    depth: str = "epa",
    gradient: bool = False,
) -> SignedDistanceBatch: ...
def signed_distance(
    a: Polytope,
    b: Polytope,
    pose_a: Pose = None,
    pose_b: Pose = None,
    touch_rel: Optional[float] = None,
    depth: str = "epa",
    cache: Optional[Cache] = None,
    gradient: bool = False,
) -> SignedDistanceResult: ...
def contact_manifold(
    a: Polytope,
    b: Polytope,
    pose_a: Pose = None,
    pose_b: Pose = None,
    touch_rel: Optional[float] = None,
    depth: str = "epa",
    cache: Optional[Cache] = None,
    gradient: bool = False,
) -> Manifold: ...

# ---- rounded shapes (hedra/shapes.h) ----
def Sphere(radius: float, centre: npt.ArrayLike = (0.0, 0.0, 0.0)) -> Polytope: ...
def Capsule(half_length: float, radius: float) -> Polytope: ...
def Box(half_extents: npt.ArrayLike, radius: float = 0.0) -> Polytope: ...
def Cylinder(half_height: float, radius: float, sides: int = 32, rounding: float = 0.0) -> Polytope: ...
def Cone(half_height: float, radius: float, sides: int = 32, rounding: float = 0.0) -> Polytope: ...

# ---- motion (hedra/motion.h) ----
#: (pose0, v, w) or (pose0, v, w, c)
Twist = Sequence[Any]

class ToiResult(Tuple[Any, ...]):
    hit: bool
    toi: float
    lo: float
    hi: float
    normal: Vec3
    witness_a: Vec3
    witness_b: Vec3
    contact: Optional[SignedDistanceResult]
    pose_a: Optional[npt.NDArray[np.float64]]
    pose_b: Optional[npt.NDArray[np.float64]]
    eps: float
    iterations: int

class RayResult(Tuple[Any, ...]):
    hit: bool
    inside: bool
    t: float
    point: Vec3
    normal: Vec3
    feature: Tuple[str, int]

class ToiBatch(Tuple[Any, ...]):
    hit: npt.NDArray[np.bool_]
    toi: npt.NDArray[np.float64]
    lo: npt.NDArray[np.float64]
    hi: npt.NDArray[np.float64]
    normal: npt.NDArray[np.float64]
    witness_a: npt.NDArray[np.float64]
    witness_b: npt.NDArray[np.float64]
    iterations: npt.NDArray[np.int32]

class RayBatch(Tuple[Any, ...]):
    hit: npt.NDArray[np.bool_]
    inside: npt.NDArray[np.bool_]
    t: npt.NDArray[np.float64]
    point: npt.NDArray[np.float64]
    normal: npt.NDArray[np.float64]
    feature: npt.NDArray[np.int32]

def toi(
    a: Polytope, b: Polytope, pose0_a: Pose = None, pose1_a: Pose = None, pose0_b: Pose = None,
    pose1_b: Pose = None, touch_rel: Optional[float] = None, time_tol: Optional[float] = None,
    max_iterations: Optional[int] = None,
) -> ToiResult: ...
def toi_twist(
    a: Polytope, b: Polytope, motion_a: Twist, motion_b: Twist, touch_rel: Optional[float] = None,
    time_tol: Optional[float] = None, max_iterations: Optional[int] = None,
) -> ToiResult: ...
def shape_cast(
    a: Polytope, b: Polytope, translation_b: npt.ArrayLike, pose_a: Pose = None,
    pose_b: Pose = None, touch_rel: Optional[float] = None, time_tol: Optional[float] = None,
    max_iterations: Optional[int] = None,
) -> ToiResult: ...
def raycast(
    polytope: Polytope, pose: Pose, origin: npt.ArrayLike, dir: npt.ArrayLike,
    length: Optional[float] = None, touch_rel: Optional[float] = None,
) -> RayResult: ...
def toi_many(
    a: Polytope, b: Polytope, poses0_b: npt.ArrayLike, poses1_b: npt.ArrayLike,
    poses0_a: Optional[npt.ArrayLike] = None, poses1_a: Optional[npt.ArrayLike] = None,
    threads: int = 0, touch_rel: Optional[float] = None, time_tol: Optional[float] = None,
    max_iterations: Optional[int] = None,
) -> ToiBatch: ...
def raycast_many(
    polytope: Polytope, origins: npt.ArrayLike, dirs: npt.ArrayLike,
    length: Union[float, npt.ArrayLike, None] = None, pose: Pose = None, threads: int = 0,
    touch_rel: Optional[float] = None,
) -> RayBatch: ...

# ---- compounds (hedra/compound.h) ----
class Compound:
    def __init__(self, pieces: Sequence[Polytope], poses: Optional[npt.ArrayLike] = None) -> None: ...
    @classmethod
    def from_obj(cls, path: Union[str, bytes, Any]) -> "Compound": ...
    def __len__(self) -> int: ...
    @property
    def pieces(self) -> Tuple[Polytope, ...]: ...
    @property
    def poses(self) -> npt.NDArray[np.float64]: ...
    @property
    def bounds(self) -> npt.NDArray[np.float64]: ...

class CompoundCollideResult(Tuple[Any, ...]):
    verdict: Verdict
    piece_a: int
    piece_b: int
    pair: Optional[CollideResult]
    stats: dict[str, int]

class CompoundDistanceResult(Tuple[Any, ...]):
    verdict: Verdict
    distance: float
    piece_a: int
    piece_b: int
    pair: DistanceResult
    stats: dict[str, int]

class CompoundSignedDistanceResult(Tuple[Any, ...]):
    signed_distance: float
    piece_a: int
    piece_b: int
    pair: SignedDistanceResult
    stats: dict[str, int]

class CompoundContactPoint(Tuple[Any, ...]):
    point: Vec3
    separation: float
    feature_a: Tuple[str, int]
    feature_b: Tuple[str, int]
    piece_a: int
    piece_b: int
    normal: Vec3

class CompoundManifold(Tuple[Any, ...]):
    normal: Vec3
    points: list[CompoundContactPoint]
    pairs: int
    contact: CompoundSignedDistanceResult

class EnclosureResult(Tuple[Any, ...]):
    distance: float
    vertex: int
    piece: int
    witness: Vec3
    inside: int
    stats: dict[str, int]

def compound_collide(
    a: Compound, b: Compound, pose_a: Pose = None, pose_b: Pose = None,
    touch_rel: Optional[float] = None,
) -> CompoundCollideResult: ...
def compound_distance(
    a: Compound, b: Compound, pose_a: Pose = None, pose_b: Pose = None,
    touch_rel: Optional[float] = None,
) -> CompoundDistanceResult: ...
def compound_signed_distance(
    a: Compound, b: Compound, pose_a: Pose = None, pose_b: Pose = None,
    touch_rel: Optional[float] = None, depth: str = "epa", gradient: bool = False,
) -> CompoundSignedDistanceResult: ...
def compound_contact_manifold(
    a: Compound, b: Compound, pose_a: Pose = None, pose_b: Pose = None,
    touch_rel: Optional[float] = None, depth: str = "epa", gradient: bool = False,
) -> CompoundManifold: ...
def compound_collide_many(
    a: Compound,
    b: Compound,
    poses_b: npt.ArrayLike,
    poses_a: Optional[npt.ArrayLike] = None,
    threads: int = 0,
    algo: str = "gjk",
    touch_rel: Optional[float] = None,
    warm_start: bool = True,
) -> npt.NDArray[np.int8]: ...
@overload
def compound_distance_many(
    a: Compound,
    b: Compound,
    poses_b: npt.ArrayLike,
    poses_a: Optional[npt.ArrayLike] = None,
    threads: int = 0,
    touch_rel: Optional[float] = None,
    warm_start: bool = True,
    witnesses: Literal[False] = False,
) -> npt.NDArray[np.float64]: ...
@overload
def compound_distance_many(
    a: Compound,
    b: Compound,
    poses_b: npt.ArrayLike,
    poses_a: Optional[npt.ArrayLike] = None,
    threads: int = 0,
    touch_rel: Optional[float] = None,
    warm_start: bool = True,
    witnesses: Literal[True] = ...,
) -> Tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]: ...
def compound_signed_distance_many(
    a: Compound,
    b: Compound,
    poses_b: npt.ArrayLike,
    poses_a: Optional[npt.ArrayLike] = None,
    threads: int = 0,
    touch_rel: Optional[float] = None,
    depth: str = "epa",
    gradient: bool = False,
) -> SignedDistanceBatch: ...
def enclosure(
    points: npt.ArrayLike, compound: Compound, touch_rel: Optional[float] = None
) -> EnclosureResult: ...
