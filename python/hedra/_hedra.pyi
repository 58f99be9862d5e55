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
    def __init__(self, points: npt.ArrayLike) -> None: ...
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
    ) -> None: ...
    def add(self, polytope: Polytope, pose: Pose = None) -> int: ...
    def set_filter(
        self, id: int, category: int = 1, mask: int = 0xFFFFFFFF, group: int = 0
    ) -> None: ...
    def filter(self, id: int, /) -> Tuple[int, int, int]: ...
    def remove(self, id: int, /) -> None: ...
    def move(self, id: int, pose: Pose, /) -> None: ...
    def move_many(self, ids: npt.ArrayLike, poses: npt.ArrayLike, /) -> None: ...
    def step(self) -> Tuple[npt.NDArray[np.intc], npt.NDArray[np.int8]]: ...
    def query_box(self, lo: npt.ArrayLike, hi: npt.ArrayLike, /) -> npt.NDArray[np.intc]: ...
    def query_polytope(
        self, polytope: Polytope, pose: Pose = None
    ) -> Tuple[npt.NDArray[np.intc], npt.NDArray[np.int8]]: ...
    def body(self, id: int, /) -> Tuple[Polytope, npt.NDArray[np.float64]]: ...
    def __len__(self) -> int: ...
    @property
    def ids(self) -> list[int]: ...
    @property
    def stats(self) -> Optional[dict[str, Any]]: ...
    @property
    def details(self) -> Optional[dict[str, Any]]: ...

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
