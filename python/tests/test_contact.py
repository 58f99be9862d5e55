"""hedra.signed_distance and hedra.contact_manifold against an independent numpy oracle.

The oracle is the separating-axis theorem by brute force: for convex polytopes A and B whose
Minkowski difference M = A - B holds the origin, the penetration depth is the least support value
h_M(u) = max_i a_i.u - min_j b_j.u over unit axes u, and the least is attained at a face normal of
A or of B or at a cross product of an edge of A with an edge of B. The candidates come from
scipy's ConvexHull of the posed vertices (its facet equations and the edges of its triangles;
extra axes are harmless: h_M(u) >= depth for every unit u) and h_M is evaluated over all
vertices. Separated pairs are checked against hedra.distance and the vertex sets' gap along the
returned normal."""
import numpy as np
import pytest
from scipy.spatial import ConvexHull

import hedra
import oracle

CUBE = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], float)
REL = 1e-9  # the accuracy contract of hedra/contact.h, times size


def hull_axes(points):
    """Unit face normals and unit edge directions of the convex hull of points."""
    hull = ConvexHull(points)
    normals = hull.equations[:, :3]
    edges = set()
    for tri in hull.simplices:
        for k in range(3):
            i, j = sorted((tri[k], tri[(k + 1) % 3]))
            edges.add((i, j))
    e = np.array([points[j] - points[i] for i, j in sorted(edges)])
    return normals, e / np.linalg.norm(e, axis=1)[:, None]


def support_gap(A, B, u):
    """h_{A-B}(u) for every row u: max_i a_i.u - min_j b_j.u."""
    return (A @ u.T).max(axis=0) - (B @ u.T).min(axis=0)


def sat_depth(A, B):
    """Brute-force penetration depth (the least h_{A-B} over the candidate axes), or a value
    <= 0 when some axis separates the pair."""
    na, ea = hull_axes(A)
    nb, eb = hull_axes(B)
    cross = np.cross(ea[:, None, :], eb[None, :, :]).reshape(-1, 3)
    length = np.linalg.norm(cross, axis=1)
    cross = cross[length > 1e-9] / length[length > 1e-9][:, None]
    axes = np.vstack([na, -na, nb, -nb, cross, -cross])
    return support_gap(A, B, axes).min()


def size_of(A, B):
    both = np.vstack([A, B])
    return np.linalg.norm(both.max(axis=0) - both.min(axis=0))


def random_rotation(rng):
    q = rng.normal(size=4)
    return q / np.linalg.norm(q)


def check_features(r, a, b):
    for (kind, index), poly in ((r.feature_a, a), (r.feature_b, b)):
        counts = {"vertex": len(poly.vertices), "edge": len(poly.edges), "face": len(poly.faces)}
        assert kind in counts and 0 <= index < counts[kind]


def check_pair(A_pts, B_pts, pose_a, pose_b):
    """Every property of one pair; returns the oracle's depth (<= 0 when separated)."""
    a, b = hedra.Polytope(A_pts), hedra.Polytope(B_pts)
    A, B = oracle.posed(A_pts, pose_a), oracle.posed(B_pts, pose_b)
    size = size_of(A, B)
    tol = REL * size
    r = hedra.signed_distance(a, b, pose_a=pose_a, pose_b=pose_b)
    n = r.normal
    assert abs(np.linalg.norm(n) - 1) <= 1e-12
    assert r.size > 0  # tolerances below use the oracle's own size (the world box diagonal)
    assert np.all(np.abs(r.witness_b - r.witness_a - r.signed_distance * n) <= tol)
    assert r.lower <= r.signed_distance <= r.upper
    lower, upper = -r.upper, -r.lower  # the bounds on the depth
    check_features(r, a, b)
    depth = sat_depth(A, B)
    if depth > tol:  # overlapping beyond rounding
        assert r.verdict == "intersecting" and r.method in ("epa", "sat")
        assert abs(-r.signed_distance - depth) <= tol
        assert support_gap(A, B, n[None, :])[0] - depth <= tol
        assert lower - tol <= depth <= upper + tol
        check_manifold(a, b, pose_a, pose_b, A, B, r, depth, tol)
    elif depth < -tol:  # separated
        d = hedra.distance(a, b, pose_a=pose_a, pose_b=pose_b).distance
        assert r.verdict == "separated" and r.signed_distance > 0 and r.method == "none"
        assert abs(r.signed_distance - d) <= tol
        # the vertex sets' gap along n proves the distance from below
        assert (B @ n).min() - (A @ n).max() >= r.signed_distance - tol
        assert lower - tol <= -d <= upper + tol
        assert hedra.contact_manifold(a, b, pose_a=pose_a, pose_b=pose_b).points == ()
    return depth


def check_manifold(a, b, pose_a, pose_b, A, B, r, depth, tol):
    m = hedra.contact_manifold(a, b, pose_a=pose_a, pose_b=pose_b)
    assert np.allclose(m.normal, r.normal, atol=1e-12)
    assert m.contact.signed_distance == r.signed_distance
    assert 1 <= len(m.points) <= 4
    n = m.normal
    for p in m.points:
        # within the overlap slab along n: between B's back and A's front
        assert -depth - tol <= p.separation <= r.eps + tol
        assert (B @ n).min() - tol <= p.point @ n <= (A @ n).max() + tol
        check_features(p, a, b)


def test_random_pairs_match_the_separating_axis_oracle(rng):
    counts = {"overlap": 0, "separated": 0}
    for _ in range(100):
        A_pts = rng.normal(size=(rng.integers(8, 21), 3))
        B_pts = rng.normal(size=(rng.integers(8, 21), 3)) * rng.uniform(0.3, 1.5)
        t = rng.normal(size=3)
        t *= rng.uniform(0, 3.5) / np.linalg.norm(t)
        pose_b = tuple(random_rotation(rng)) + tuple(t)
        pose_a = None if rng.random() < 0.5 else tuple(random_rotation(rng)) + (0.1, -0.2, 0.3)
        depth = check_pair(A_pts, B_pts, pose_a, pose_b)
        counts["overlap" if depth > 0 else "separated"] += 1
    print("pairs:", counts)
    assert counts["overlap"] >= 10 and counts["separated"] >= 10


def test_sat_method_agrees_with_the_oracle(rng):
    for _ in range(20):
        A_pts = rng.normal(size=(12, 3))
        B_pts = rng.normal(size=(12, 3)) + rng.normal(size=3) * 0.5
        A, B = A_pts, B_pts
        depth = sat_depth(A, B)
        if depth <= 1e-6:
            continue
        r = hedra.signed_distance(hedra.Polytope(A_pts), hedra.Polytope(B_pts), depth="sat")
        assert r.method == "sat"
        assert abs(-r.signed_distance - depth) <= REL * size_of(A, B)


@pytest.mark.parametrize("pose_b", [(1, 0, 0, 0, 0.75, 0, 0), np.array(
    [[1, 0, 0, 0.75], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]])])
def test_unit_cubes_overlapping_by_a_quarter(pose_b):
    cube = hedra.Polytope(CUBE)
    r = hedra.signed_distance(cube, cube, pose_b=pose_b)
    assert r.verdict == "intersecting"
    assert r.signed_distance == pytest.approx(-0.25, abs=1e-12)
    # contact.h: the normal points from A towards B; moving B by depth * n separates to touching
    assert np.allclose(r.normal, [1, 0, 0], atol=1e-12)
    assert -r.upper <= 0.25 <= -r.lower
    assert r.feature_a[0] == "face" and r.feature_b[0] == "face"
    m = hedra.contact_manifold(cube, cube, pose_b=pose_b)
    assert len(m.points) == 4
    for p in m.points:
        assert p.separation == pytest.approx(-0.25, abs=1e-12)
        assert p.point[0] == pytest.approx(0.875, abs=1e-12)  # half-way between x = 0.75 and 1


def test_unit_cubes_overlapping_along_minus_x():
    cube = hedra.Polytope(CUBE)
    r = hedra.signed_distance(cube, cube, pose_a=(1, 0, 0, 0, 0.75, 0, 0))
    assert r.signed_distance == pytest.approx(-0.25, abs=1e-12)
    assert np.allclose(r.normal, [-1, 0, 0], atol=1e-12)
    assert np.allclose(r.witness_b - r.witness_a, [0.25, 0, 0], atol=1e-12)


def test_separated_cubes():
    cube = hedra.Polytope(CUBE)
    r = hedra.signed_distance(cube, cube, pose_b=(1, 0, 0, 0, 3, 0, 0))
    assert r.verdict == "separated" and r.signed_distance == pytest.approx(2.0, abs=1e-12)
    assert np.allclose(r.normal, [1, 0, 0], atol=1e-12)
    assert -r.upper <= -2.0 <= -r.lower
    assert hedra.contact_manifold(cube, cube, pose_b=(1, 0, 0, 0, 3, 0, 0)).points == ()


def test_large_polytopes_release_the_gil_and_still_agree(rng):
    pts = rng.normal(size=(3000, 3))
    pts /= np.linalg.norm(pts, axis=1)[:, None]
    ball = hedra.Polytope(pts)
    r = hedra.signed_distance(ball, ball, pose_b=(1, 0, 0, 0, 1.5, 0, 0))
    assert r.verdict == "intersecting" and -0.55 < r.signed_distance < -0.45
    m = hedra.contact_manifold(ball, ball, pose_b=(1, 0, 0, 0, 1.5, 0, 0))
    assert 1 <= len(m.points) <= 4


@pytest.mark.parametrize("func", [hedra.signed_distance, hedra.contact_manifold])
def test_bad_input_raises(func):
    cube = hedra.Polytope(CUBE)
    with pytest.raises(TypeError):
        func(cube, None)
    with pytest.raises(TypeError):
        func(cube)
    with pytest.raises(hedra.InvalidInputError):
        func(cube, cube, pose_b=(1, 0, 0, 0, np.nan, 0, 0))
    with pytest.raises(hedra.InvalidInputError):
        func(cube, cube, pose_a=np.diag([2.0, 2.0, 2.0, 1.0]))
    with pytest.raises(hedra.InvalidInputError):
        func(cube, cube, touch_rel=-1.0)
    with pytest.raises(hedra.InvalidInputError, match="depth"):
        func(cube, cube, depth="gjk")
    with pytest.raises(hedra.InvalidInputError, match="depth"):
        func(cube, cube, depth=3)
    with pytest.raises(TypeError):
        func(cube, cube, cache=3)
