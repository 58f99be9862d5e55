"""hedra.Polytope: hulls checked against an LP extreme-point oracle, topology, files, pickling."""
import pickle

import numpy as np
import pytest
from scipy.optimize import linprog

import hedra


def in_hull(p, points):
    """HiGHS: is p a convex combination of points?"""
    n = len(points)
    a_eq = np.vstack([np.asarray(points).T, np.ones(n)])
    res = linprog(np.zeros(n), A_eq=a_eq, b_eq=np.append(p, 1), bounds=(0, None), method="highs")
    return res.status == 0


def test_hull_vertices_are_the_extreme_points(rng):
    points = rng.normal(size=(40, 3))
    poly = hedra.Polytope(points)
    v = poly.vertices
    assert v.shape == (len(poly), 3) and poly.dimension == 3
    rows = {tuple(p): i for i, p in enumerate(points)}
    assert all(tuple(x) in rows for x in v), "every vertex is an input point"
    chosen = {rows[tuple(x)] for x in v}
    for i, p in enumerate(points):
        others = np.delete(points, i, axis=0)
        # an input point is a vertex exactly when it is not in the hull of the others
        assert (i in chosen) == (not in_hull(p, others)), f"point {i}"


def test_faces_planes_and_edges_of_a_solid(rng):
    poly = hedra.Polytope(rng.normal(size=(30, 3)))
    v, faces, planes, edges = poly.vertices, poly.faces, poly.face_planes, poly.edges
    assert len(v) - len(edges) + len(faces) == 2  # Euler
    assert planes.shape == (len(faces), 4) and edges.shape[1] == 2
    for loop, (nx, ny, nz, offset) in zip(faces, planes):
        n = np.array([nx, ny, nz])
        assert abs(np.linalg.norm(n) - 1) < 1e-12
        np.testing.assert_allclose(v[loop] @ n, offset, atol=1e-12)  # the loop is on its plane
        assert (v @ n <= offset + 1e-12).all()  # every vertex inside
        # counter-clockwise seen from outside: the loop's area vector points along n
        area = sum(np.cross(v[loop[k]], v[loop[(k + 1) % len(loop)]]) for k in range(len(loop)))
        assert area @ n > 0
    assert sorted({i for loop in faces for i in loop}) == list(range(len(v)))


@pytest.mark.parametrize("points, dimension, vertices", [
    ([[1, 2, 3]] * 4, 0, 1),
    ([[0, 0, 0], [1, 1, 1], [2, 2, 2], [0.5, 0.5, 0.5]], 1, 2),
    ([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0], [0.5, 0.5, 0]], 2, 4),
    ([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], 3, 4),
])
def test_dimensions(points, dimension, vertices):
    poly = hedra.Polytope(points)
    assert poly.dimension == dimension and len(poly.vertices) == vertices
    assert repr(poly) == (f"<hedra.Polytope dimension={dimension} vertices={vertices} "
                          f"faces={len(poly.faces)}>")


def test_vertices_are_a_read_only_view_that_keeps_the_polytope():
    poly = hedra.Polytope([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
    v = poly.vertices
    with pytest.raises(ValueError):
        v[0, 0] = 5
    del poly
    assert v.sum() == 3  # still valid memory


def test_any_real_dtype_and_layout(rng):
    points = rng.normal(size=(25, 3))
    want = hedra.Polytope(points).vertices
    fortran = np.asfortranarray(points)
    strided = np.zeros((25, 6))
    strided[:, ::2] = points
    for variant in (fortran, strided[:, ::2], points.tolist(), points.astype(">f8")):
        np.testing.assert_array_equal(hedra.Polytope(variant).vertices, want)
    ints = hedra.Polytope(np.array([[0, 0, 0], [2, 0, 0], [0, 2, 0], [0, 0, 2]], dtype=np.int32))
    assert ints.vertices.dtype == np.float64 and ints.vertices.max() == 2


def test_bounds_and_sphere():
    poly = hedra.Polytope([[0, 0, 0], [2, 0, 0], [0, 4, 0], [0, 0, 6]])
    np.testing.assert_array_equal(poly.bounds, [[0, 0, 0], [2, 4, 6]])
    centre, radius = poly.sphere
    assert all(np.linalg.norm(poly.vertices - centre, axis=1) <= radius * (1 + 1e-12))


def test_read_examples(examples_dir):
    cube = hedra.Polytope.read(examples_dir / "cube.off")
    assert cube.dimension == 3 and len(cube) == 8 and len(cube.faces) == 6
    square = hedra.Polytope.read(str(examples_dir / "square.obj"), format="obj")
    assert square.dimension == 2 and len(square) == 4
    ellipsoid = hedra.Polytope.read(examples_dir / "ellipsoid.xyz")
    assert len(ellipsoid) == 200  # every lattice point is on the surface


def test_read_errors_name_file_and_line(tmp_path):
    bad = tmp_path / "bad.off"
    bad.write_text("OFF\n4 1 0\n0 0 0\n1 0 x\n")
    with pytest.raises(hedra.ParseError) as info:
        hedra.Polytope.read(bad)
    e = info.value
    assert e.status == "HD_ERR_PARSE" and e.code == 16
    assert e.file == str(bad) and e.line == 4 and f"{bad}:4:" in str(e)
    assert isinstance(e, hedra.HedraError) and isinstance(e, ValueError)
    with pytest.raises(hedra.FileError) as info:
        hedra.Polytope.read(tmp_path / "missing.off")
    assert info.value.status == "HD_ERR_IO" and isinstance(info.value, OSError)
    nan = tmp_path / "nan.xyz"
    nan.write_text("0 0 0\n1 nan 0\n")
    with pytest.raises(hedra.InvalidInputError) as info:
        hedra.Polytope.read(nan)
    assert info.value.status == "HD_ERR_NONFINITE" and info.value.line == 2
    with pytest.raises(hedra.InvalidInputError):
        hedra.Polytope.read(bad, format="stl")
    with pytest.raises(hedra.InvalidInputError):
        hedra.Polytope.read(tmp_path / "points.unknown")  # the format cannot be told


CUBE_V = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]]
CUBE_F = [[0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [2, 3, 7, 6], [0, 4, 7, 3], [1, 2, 6, 5]]


def test_from_mesh():
    cube = hedra.Polytope.from_mesh(CUBE_V, CUBE_F)
    assert len(cube) == 8 and len(cube.faces) == 6
    dented = [list(p) for p in CUBE_V]
    dented[6] = [0.9, 0.9, 0.9]  # pushed in: faces through vertex 6 are no longer planar/convex
    with pytest.raises(hedra.InvalidInputError) as info:
        hedra.Polytope.from_mesh(dented, CUBE_F)
    assert info.value.status == "HD_ERR_NOT_CONVEX"
    with pytest.raises(hedra.InvalidInputError) as info:
        hedra.Polytope.from_mesh(CUBE_V, CUBE_F[:5])  # not closed
    assert info.value.status == "HD_ERR_BAD_MESH"
    with pytest.raises(hedra.InvalidInputError) as info:
        hedra.Polytope.from_mesh(CUBE_V, CUBE_F[:5] + [[1, 2, 6, 99]])
    assert info.value.status == "HD_ERR_INVALID_ARG"
    with pytest.raises(TypeError):
        hedra.Polytope.from_mesh(CUBE_V, [[0.5, 1, 2]])  # indices must be integers


def test_pickle_round_trip(rng):
    poly = hedra.Polytope(rng.normal(size=(30, 3)))
    back = pickle.loads(pickle.dumps(poly))
    assert isinstance(back, hedra.Polytope)
    assert sorted(map(tuple, back.vertices)) == sorted(map(tuple, poly.vertices))
    pose = (1, 0, 0, 0, 0.5, 0.2, 0)
    assert hedra.distance(back, poly, pose_b=pose).distance == pytest.approx(
        hedra.distance(poly, poly, pose_b=pose).distance, abs=1e-12)
