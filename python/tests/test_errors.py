"""Bad input raises clearly, never crashes or answers: wrong shapes, NaN and infinity, empty sets,
wrong dtypes, bad poses and options. Non-contiguous and other real-typed arrays are converted
(test_batch.py, test_polytope.py check that they give the same answers).

The rule: array shape and option errors, and every bad value hedra's C library reports, raise
hedra.InvalidInputError (a ValueError and a HedraError, with .status); a value numpy cannot turn
into float64 (complex, objects, strings) raises numpy's own TypeError or ValueError; an argument
of the wrong kind (not a Polytope, not a Cache) raises TypeError."""
import numpy as np
import pytest

import hedra

CUBE = hedra.Polytope([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)])
SEGMENT = hedra.Polytope([[0, 0, 0], [1, 0, 0]])
IDENTITY = (1, 0, 0, 0, 0, 0, 0)


def status_of(call):
    with pytest.raises(hedra.HedraError) as info:
        call()
    return info.value.status


@pytest.mark.parametrize("points, status", [
    (np.empty((0, 3)), "HD_ERR_EMPTY"),
    ([], "HD_ERR_EMPTY"),
    (np.zeros((3, 2)), "HD_ERR_INVALID_ARG"),
    (np.zeros((2, 2, 3)), "HD_ERR_INVALID_ARG"),
    ([0, 0, 0], "HD_ERR_INVALID_ARG"),
    (3.0, "HD_ERR_INVALID_ARG"),
    (None, "HD_ERR_INVALID_ARG"),
    ([[0, 0, 0], [np.nan, 0, 0]], "HD_ERR_NONFINITE"),
    ([[0, 0, 0], [0, -np.inf, 0]], "HD_ERR_NONFINITE"),
    ([[1e31, 0, 0], [0, 0, 0]], "HD_ERR_RANGE"),
])
def test_bad_points(points, status):
    with pytest.raises(hedra.InvalidInputError) as info:
        hedra.Polytope(points)
    e = info.value
    assert e.status == status and isinstance(e, ValueError)
    assert status in str(e) or "(n, 3)" in str(e)
    assert e.file is None and e.line is None


@pytest.mark.parametrize("points, error", [
    (np.ones((3, 3), dtype=complex), TypeError),
    ([[1j, 0, 0]], TypeError),
    (np.array([[object(), 0, 0]], dtype=object), TypeError),
    ([["a", "b", "c"]], ValueError),
    ([[0, 0, 0], [1, 0]], ValueError),  # ragged
])
def test_points_numpy_cannot_convert(points, error):
    with pytest.raises(error):
        hedra.Polytope(points)


M_BAD_ROW = np.eye(4)
M_BAD_ROW[3, 2] = 1
M_SCALED = np.diag([2.0, 2.0, 2.0, 1.0])
M_REFLECTION = np.diag([1.0, 1.0, -1.0, 1.0])
M_NAN = np.eye(4)
M_NAN[0, 3] = np.nan


@pytest.mark.parametrize("pose, status", [
    ((1, 0, 0, 0, 0, 0), "HD_ERR_INVALID_ARG"),          # 6 numbers
    (np.eye(3), "HD_ERR_INVALID_ARG"),                    # 3x3
    (np.zeros((2, 7)), "HD_ERR_INVALID_ARG"),             # a batch where one pose is taken
    ((0, 0, 0, 0, 1, 2, 3), "HD_ERR_BAD_POSE"),          # zero quaternion
    ((np.nan, 0, 0, 0, 1, 2, 3), "HD_ERR_BAD_POSE"),     # NaN quaternion
    ((1, 0, 0, 0, 1, np.inf, 3), "HD_ERR_NONFINITE"),    # infinite translation
    (M_BAD_ROW, "HD_ERR_BAD_POSE"),
    (M_SCALED, "HD_ERR_BAD_POSE"),
    (M_REFLECTION, "HD_ERR_BAD_POSE"),
    (M_NAN, "HD_ERR_NONFINITE"),
])
@pytest.mark.parametrize("where", ["pose_a", "pose_b"])
def test_bad_single_poses(pose, status, where):
    with pytest.raises(hedra.InvalidInputError) as info:
        hedra.collide(CUBE, CUBE, **{where: pose})
    assert info.value.status == status and where in str(info.value)
    assert status_of(lambda: hedra.distance(CUBE, CUBE, **{where: pose})) == status


def test_bad_pose_values_numpy_cannot_convert():
    with pytest.raises(ValueError):
        hedra.collide(CUBE, CUBE, pose_b=("a", 0, 0, 0, 0, 0, 0))
    with pytest.raises(TypeError):
        hedra.collide(CUBE, CUBE, pose_b=np.zeros(7, dtype=complex))


def test_bad_arguments():
    with pytest.raises(TypeError, match="b must be a hedra.Polytope"):
        hedra.collide(CUBE, [[0, 0, 0]])
    with pytest.raises(TypeError, match="unexpected keyword"):
        hedra.collide(CUBE, CUBE, pose_c=IDENTITY)
    with pytest.raises(TypeError, match="multiple values"):
        hedra.collide(CUBE, CUBE, None, pose_a=None)
    with pytest.raises(TypeError, match="missing required argument 'b'"):
        hedra.collide(CUBE)
    with pytest.raises(TypeError, match="at most"):
        hedra.distance(CUBE, CUBE, None, None, None, None, None, None)
    with pytest.raises(TypeError, match="hedra.Cache"):
        hedra.collide(CUBE, CUBE, cache={})
    with pytest.raises(TypeError):
        hedra.collide(CUBE, CUBE, algo=1)
    assert status_of(lambda: hedra.collide(CUBE, CUBE, algo="epa")) == "HD_ERR_INVALID_ARG"
    for touch_rel in (-1.0, float("nan"), 0.01):
        assert status_of(lambda: hedra.collide(CUBE, CUBE, touch_rel=touch_rel)) == \
            "HD_ERR_INVALID_ARG"
    assert status_of(lambda: hedra.gap(CUBE, CUBE, (1, 0))) == "HD_ERR_INVALID_ARG"
    assert status_of(lambda: hedra.gap(CUBE, CUBE, (0, 0, 0))) == "HD_ERR_INVALID_ARG"
    assert status_of(lambda: hedra.point_inside(CUBE, (np.nan, 0, 0))) == "HD_ERR_NONFINITE"
    with pytest.raises(TypeError):
        hedra.Cache(1)


def test_library_errors_that_are_not_bad_input():
    # two segments span no volume: the directional gap is undefined there (HD_ERR_UNSUPPORTED)
    with pytest.raises(hedra.HedraError) as info:
        hedra.gap(SEGMENT, SEGMENT, (0, 0, 1), pose_b=(1, 0, 0, 0, 0, 1, 0))
    e = info.value
    assert e.status == "HD_ERR_UNSUPPORTED" and e.code == 13
    assert not isinstance(e, ValueError) and "gap" in e.message
    # a pair whose scale is below 1e-30: refused, not answered
    tiny = hedra.Polytope([[1e-31, 0, 0]])
    assert status_of(lambda: hedra.collide(tiny, hedra.Polytope([[0, 0, 0]]))) == "HD_ERR_RANGE"


POSES = np.tile(np.array(IDENTITY, float), (10, 1))


@pytest.mark.parametrize("poses, status", [
    (np.zeros((10, 6)), "HD_ERR_INVALID_ARG"),
    (np.zeros((10, 3, 3)), "HD_ERR_INVALID_ARG"),
    (np.zeros((10, 4, 4, 1)), "HD_ERR_INVALID_ARG"),
    (np.array(IDENTITY, float), "HD_ERR_INVALID_ARG"),  # one pose: poses_b needs (N, 7)
    (np.zeros(0), "HD_ERR_INVALID_ARG"),
])
@pytest.mark.parametrize("func", [hedra.collide_many, hedra.distance_many,
                                  hedra.signed_distance_many])
def test_bad_pose_array_shapes(func, poses, status):
    with pytest.raises(hedra.InvalidInputError) as info:
        func(CUBE, CUBE, poses)
    assert info.value.status == status and "poses_b" in str(info.value)


@pytest.mark.parametrize("func", [hedra.collide_many, hedra.distance_many,
                                  hedra.signed_distance_many])
@pytest.mark.parametrize("threads", [1, 2])
def test_bad_pose_in_a_batch_names_its_index(func, threads):
    """The lowest failing index is reported, whatever the thread count."""
    poses = np.tile(np.array(IDENTITY, float), (500, 1))
    poses[123, 5] = np.nan
    poses[400, :4] = 0
    with pytest.raises(hedra.InvalidInputError) as info:
        func(CUBE, CUBE, poses, threads=threads)
    e = info.value
    assert e.status == "HD_ERR_NONFINITE" and e.index == 123 and "poses_b[123]" in str(e)
    matrices = np.tile(np.eye(4), (300, 1, 1))
    matrices[77, 0, 0] = 1.5
    with pytest.raises(hedra.InvalidInputError) as info:
        func(CUBE, CUBE, matrices, threads=threads)
    assert info.value.status == "HD_ERR_BAD_POSE" and info.value.index == 77
    poses_a = np.tile(np.array(IDENTITY, float), (500, 1))
    poses_a[250, 0] = np.inf
    with pytest.raises(hedra.InvalidInputError) as info:
        func(CUBE, CUBE, np.tile(np.array(IDENTITY, float), (500, 1)), poses_a=poses_a)
    assert info.value.index == 250 and "poses_a[250]" in str(info.value)


def test_bad_batch_arguments():
    with pytest.raises(hedra.InvalidInputError, match="poses_a holds 4 poses but poses_b 10"):
        hedra.collide_many(CUBE, CUBE, POSES, poses_a=POSES[:4])
    assert status_of(lambda: hedra.collide_many(CUBE, CUBE, POSES, poses_a=(0, 0, 0, 0, 0, 0, 0))
                     ) == "HD_ERR_BAD_POSE"
    for threads in (-1, 100000):
        assert status_of(lambda: hedra.collide_many(CUBE, CUBE, POSES, threads=threads)) == \
            "HD_ERR_INVALID_ARG"
    with pytest.raises(TypeError):
        hedra.collide_many(CUBE, CUBE, POSES, threads="all")
    with pytest.raises(TypeError):
        hedra.collide_many(CUBE, CUBE, POSES.astype(complex))
    with pytest.raises(TypeError):
        hedra.collide_many(CUBE, POSES, POSES)
    assert status_of(lambda: hedra.collide_many(CUBE, CUBE, POSES, algo="x")) == \
        "HD_ERR_INVALID_ARG"


def test_a_failing_query_in_a_batch_names_its_pair():
    tiny = hedra.Polytope([[1e-31, 0, 0]])  # the pair's scale is below 1e-30: HD_ERR_RANGE
    with pytest.raises(hedra.InvalidInputError) as info:
        hedra.collide_many(tiny, hedra.Polytope([[0, 0, 0]]), POSES, threads=2)
    e = info.value
    assert e.status == "HD_ERR_RANGE" and e.index == 0 and "collide_many: pair 0" in str(e)
