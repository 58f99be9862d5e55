"""Scene.move_many takes ids of any integer dtype that fits (numpy's default int64 from
np.arange included) and names an id that is not a body; the poses it sets are read back with
Scene.body and compared with the translations given."""
import numpy as np
import pytest

import hedra

CUBE = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=float)


def scene_of(n):
    scene = hedra.Scene(threads=1)
    ids = [scene.add(hedra.Polytope(CUBE)) for _ in range(n)]
    return scene, ids


def poses_along_x(n, step=3.0):
    poses = np.zeros((n, 7))
    poses[:, 0] = 1.0
    poses[:, 4] = step * np.arange(n)
    return poses


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.int16, np.uint8, np.uint64, np.intp])
def test_move_many_integer_dtypes(dtype):
    scene, ids = scene_of(3)
    assert ids == [0, 1, 2]
    scene.move_many(np.arange(3, dtype=dtype), poses_along_x(3))
    for i in range(3):
        _, pose = scene.body(i)
        assert pose[0, 3] == 3.0 * i
    pairs, _ = scene.step()
    assert len(pairs) == 0  # unit cubes 3 apart: no contact


def test_move_many_default_arange_and_list():
    scene, _ = scene_of(3)
    scene.move_many(np.arange(3), poses_along_x(3, 0.5))  # the new user's call
    pairs, _ = scene.step()
    assert sorted(map(tuple, pairs.tolist())) == [(0, 1), (0, 2), (1, 2)]  # overlapping along x
    scene.move_many([2, 1], poses_along_x(2, 10.0))
    assert scene.body(2)[1][0, 3] == 0.0 and scene.body(1)[1][0, 3] == 10.0


@pytest.mark.parametrize("bad", [3, -1, 2**31, 2**40])
def test_move_many_unknown_id(bad):
    scene, _ = scene_of(3)
    ids = np.array([0, bad], dtype=np.int64)
    with pytest.raises(hedra.InvalidInputError, match=rf"ids\[1\] = {bad}: no such body"):
        scene.move_many(ids, poses_along_x(2))
    assert scene.body(0)[1][0, 3] == 0.0  # the body before the bad id was moved (to x = 0)


def test_move_many_huge_unsigned_id():
    scene, _ = scene_of(1)
    with pytest.raises(hedra.InvalidInputError, match=r"ids\[0\] = 18446744073709551615"):
        scene.move_many(np.array([2**64 - 1], dtype=np.uint64), poses_along_x(1))


def test_move_many_float_ids_refused():
    scene, _ = scene_of(2)
    with pytest.raises(TypeError, match="ids must be integers"):
        scene.move_many(np.array([0.0, 1.0]), poses_along_x(2))
