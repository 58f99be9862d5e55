"""Single queries against independent answers: HiGHS on the vertex-set LP for the verdicts, an
SLSQP bracket for the distance (tests/oracle.py), exact constructions for contact."""
import numpy as np
import pytest
from hypothesis import event, example, given, note, settings
from hypothesis import strategies as st

import hedra
import oracle
from conftest import examples

ALGOS = ("gjk", "cddual", "lp")

# Coordinates on a coarse grid (exact coincidences: shared faces, coplanar and repeated points)
# or anywhere in [-1, 1] away from the tiny magnitudes that hedra refuses (HD_ERR_RANGE below a
# scale of 1e-30, tested in test_errors.py).
coordinate = st.one_of(
    st.integers(-8, 8).map(lambda k: k / 8),
    st.floats(-1.0, 1.0, allow_nan=False).map(lambda x: x if abs(x) > 1e-6 else 0.0))
point_sets = st.lists(st.tuples(coordinate, coordinate, coordinate), min_size=1, max_size=10)


@st.composite
def poses(draw):
    """A 7-sequence with a quaternion well away from zero, or the same pose as a 4x4 matrix."""
    q = [draw(coordinate) for _ in range(4)]
    if np.linalg.norm(q) < 0.1:
        q[0] += 1.0
    t = [0.6 * draw(coordinate) for _ in range(3)]
    pose = tuple(q) + tuple(t)
    return oracle.pose_matrix(pose) if draw(st.booleans()) else pose


def clear_margin(A, B):
    """Oracle band: verdicts are compared only where the independent bounds put the pair at least
    this far from contact (HiGHS answers to about 1e-9; hedra's band is 1e-12 of the scale)."""
    return 1e-6 * max(1.0, np.abs(A).max(), np.abs(B).max())


@settings(max_examples=examples(300))
@given(pa=point_sets, pb=point_sets, pose_a=poses(), pose_b=poses(), algo=st.sampled_from(ALGOS))
# a point 0.01 from a tetrahedron, where HiGHS in the world frame ends with status 4
@example(pa=[(0.0, 0.0, 0.25)],
         pb=[(0.0, 0.0, -0.125), (0.0, 0.0, -1.0), (0.0, 0.125, 0.0), (0.125, 0.0, 0.0)],
         pose_a=(1.0, 0.0, 0.0, 0.0, 0.15, 0.0, -0.15),
         pose_b=(0.125, 0.0, -0.25, 1.1444091796875e-05, 0.0, -3.662109375e-05, 0.0),
         algo="gjk")
def test_collide_matches_lp_oracle(pa, pb, pose_a, pose_b, algo):
    a, b = hedra.Polytope(pa), hedra.Polytope(pb)
    r = hedra.collide(a, b, pose_a=pose_a, pose_b=pose_b, algo=algo)
    A, B = oracle.posed(a.vertices, pose_a), oracle.posed(b.vertices, pose_b)
    margin = clear_margin(A, B)
    lower, upper = oracle.distance_bracket(A, B)
    depth = oracle.depth_lower_bound(A, B)
    note(f"verdict {r.verdict}, distance in [{lower}, {upper}], depth >= {depth}")
    common_point = oracle.lp_intersects(A, B)  # None: HiGHS could not decide
    if common_point is None:
        event("HiGHS undecided")
    if lower > margin:
        event("clearly separated")
        assert r.verdict == "separated"
        assert common_point is not True
    elif depth > margin:
        event("clearly intersecting")
        assert r.verdict == "intersecting"
        assert common_point is not False
    elif upper > margin and common_point is False:
        event("no common point (HiGHS), near contact")
        assert r.verdict in ("separated", "touching")
    else:
        event(f"within the oracle's band: {r.verdict}")
    # whatever the band, the certificate must hold over the vertices
    assert oracle.certificate_holds(A, B, r.verdict, r.certificate, r.eps)
    assert r.check()


@given(pa=point_sets, pb=point_sets, pose_a=poses(), pose_b=poses())
def test_distance_within_oracle_bracket(pa, pb, pose_a, pose_b):
    a, b = hedra.Polytope(pa), hedra.Polytope(pb)
    r = hedra.distance(a, b, pose_a=pose_a, pose_b=pose_b)
    A, B = oracle.posed(a.vertices, pose_a), oracle.posed(b.vertices, pose_b)
    tol = 1e-9 * max(1.0, np.abs(A).max(), np.abs(B).max())
    lower, upper = oracle.distance_bracket(A, B)
    note(f"hedra {r.distance!r}, oracle [{lower!r}, {upper!r}], verdict {r.verdict}")
    assert lower - tol <= r.distance <= upper + tol
    wa, wb = r.witness_a, r.witness_b
    assert abs(np.linalg.norm(wb - wa) - r.distance) <= tol
    if r.distance > 0:
        # hedra's own direction, checked here: the vertex sets' gap along it is its distance
        n = (wb - wa) / np.linalg.norm(wb - wa)
        assert oracle.gap_along(A, B, n) >= r.distance - tol
        assert r.verdict == "separated"


def test_distance_bracket_is_tight_on_random_pairs(rng):
    """The bracket above is only as strong as the oracle: check that it is tight, and hedra's
    distance inside it, on solids in general position."""
    for _ in range(40):
        pa = rng.normal(size=(8, 3))
        pb = rng.normal(size=(8, 3)) + rng.normal(scale=3, size=3)
        a, b = hedra.Polytope(pa), hedra.Polytope(pb)
        lower, upper = oracle.distance_bracket(a.vertices, b.vertices)
        d = hedra.distance(a, b).distance
        if upper > 1e-6:
            assert upper - lower < 1e-6 * max(1, upper)
            assert lower - 1e-9 <= d <= upper + 1e-9
        else:
            assert d == 0.0


UNIT_CUBE = [(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)]


@pytest.mark.parametrize("algo", ALGOS)
@pytest.mark.parametrize("offset, expected", [
    ((1, 0, 0), "touching"),            # face on face
    ((1, 1, 0), "touching"),            # edge on edge
    ((1, 1, 1), "touching"),            # corner on corner
    ((1 + 1e-9, 0.5, 0.5), "separated"),
    ((1 - 1e-9, 0.5, 0.5), "intersecting"),
    ((0.5, 0.5, 0.5), "intersecting"),
    ((3, 0, 0), "separated"),
])
def test_exact_contacts(algo, offset, expected):
    """Translated unit cubes: the verdict is known exactly from the construction (the band is
    1e-12 of the scale, so a 1e-9 gap or overlap is decided)."""
    cube = hedra.Polytope(UNIT_CUBE)
    r = hedra.collide(cube, cube, pose_b=(1, 0, 0, 0) + offset, algo=algo)
    assert r.verdict == expected
    assert r.code == hedra.VERDICTS.index(expected)
    assert r.check()


def test_distance_of_separated_cubes():
    cube = hedra.Polytope(UNIT_CUBE)
    r = hedra.distance(cube, cube, pose_b=(1, 0, 0, 0, 3, 4, 0))
    assert r.distance == pytest.approx(np.hypot(2, 3), abs=1e-12)  # corner (1,1,z) to (3,4,z)
    assert r.witness_a[:2] == pytest.approx([1, 1], abs=1e-12)
    assert r.witness_b[:2] == pytest.approx([3, 4], abs=1e-12)


def test_quaternion_and_matrix_poses_agree(rng):
    a = hedra.Polytope(rng.normal(size=(15, 3)))
    b = hedra.Polytope(rng.normal(size=(15, 3)))
    for _ in range(50):
        q = rng.normal(size=4)
        pose = tuple(q) + tuple(rng.normal(size=3))
        m = oracle.pose_matrix(pose)
        r1 = hedra.distance(a, b, pose_b=pose)
        r2 = hedra.distance(a, b, pose_b=m)
        r3 = hedra.distance(a, b, pose_b=list(pose))
        r4 = hedra.distance(a, b, pose_b=m.tolist())
        assert r1.distance == pytest.approx(r2.distance, abs=1e-12)
        assert r1.distance == r3.distance == pytest.approx(r4.distance, abs=1e-12)


def test_pose_a_moves_a(rng):
    """Moving A by T and B by T changes nothing; moving only A is the inverse motion of B."""
    a = hedra.Polytope(rng.normal(size=(10, 3)))
    b = hedra.Polytope(rng.normal(size=(10, 3)))
    t = oracle.pose_matrix(tuple(rng.normal(size=4)) + (1.0, 2.0, -1.0))
    base = hedra.distance(a, b, pose_b=(1, 0, 0, 0, 2.5, 0, 0)).distance
    moved = hedra.distance(a, b, pose_a=t,
                           pose_b=t @ oracle.pose_matrix((1, 0, 0, 0, 2.5, 0, 0))).distance
    assert moved == pytest.approx(base, abs=1e-12)


def test_cache_gives_the_same_answers(rng):
    a = hedra.Polytope(rng.normal(size=(30, 3)))
    b = hedra.Polytope(rng.normal(size=(30, 3)))
    cache = hedra.Cache()
    assert "cold" in repr(cache)
    for x in np.linspace(-4, 4, 200):
        pose = (1, 0, 0, 0.1 * x, x, 0.2, 0)
        cold = hedra.collide(a, b, pose_b=pose)
        warm = hedra.collide(a, b, pose_b=pose, cache=cache)
        assert warm.verdict == cold.verdict
        d_cold = hedra.distance(a, b, pose_b=pose).distance
        assert hedra.distance(a, b, pose_b=pose, cache=cache).distance == pytest.approx(
            d_cold, abs=1e-12)
    assert "warm" in repr(cache)
    cache.reset()
    assert "cold" in repr(cache)


def test_contains_and_point_inside():
    cube = hedra.Polytope(UNIT_CUBE)
    small = hedra.Polytope(np.array(UNIT_CUBE) * 0.5 + 0.25)
    assert hedra.contains(cube, small)
    assert not hedra.contains(small, cube)
    assert hedra.contains(cube, small, pose_b=(1, 0, 0, 0, 0.25, 0, 0))  # touches the face x = 1
    assert not hedra.contains(cube, small, pose_b=(1, 0, 0, 0, 0.3, 0, 0))
    assert hedra.point_inside(cube, (0.5, 0.5, 0.5)) == "intersecting"
    assert hedra.point_inside(cube, (1, 0.5, 0.5)) == "touching"
    assert hedra.point_inside(cube, (1.5, 0.5, 0.5)) == "separated"
    assert hedra.point_inside(cube, (1.5, 0.5, 0.5), pose_a=(1, 0, 0, 0, 1, 0, 0)) == "intersecting"


def test_gap_along_a_direction():
    cube = hedra.Polytope(UNIT_CUBE)
    g = hedra.gap(cube, cube, (1, 0, 0), pose_b=(1, 0, 0, 0, 3, 0, 0))
    assert g.contact and g.verdict == "separated"
    assert g.distance == pytest.approx(2.0, abs=1e-12) and g.s_sign == -1  # B moves along -x
    assert g.direction.tolist() == [1, 0, 0]
    g = hedra.gap(cube, cube, (0, 1, 0), pose_b=(1, 0, 0, 0, 3, 0, 0))
    assert not g.contact  # sliding along y never meets A
    g = hedra.gap(cube, cube, (2, 0, 0), pose_b=(1, 0, 0, 0, 0.25, 0, 0))
    assert g.verdict == "intersecting" and g.distance == pytest.approx(0.75, abs=1e-12)


def test_result_fields():
    cube = hedra.Polytope(UNIT_CUBE)
    r = hedra.collide(cube, cube, pose_b=(1, 0, 0, 0, 0.5, 0.5, 0.5), algo="cddual")
    assert r.verdict == "intersecting" and r.algo == "cddual"
    assert r.stop in ("converged", "early_exit", "refined", "fallback")
    assert isinstance(r, hedra.CollideResult)
    assert not hasattr(r, "distance") and not hasattr(r, "witness_a")  # collide computes none
    assert r.eps == pytest.approx(1e-12 * r.eps / 1e-12)
    cert = r.certificate
    assert cert.point is not None and cert.depth_bound > 0
    assert isinstance(r.stats, hedra.Stats) and r.stats.iterations >= 1
    assert r.cddual_face is None or r.cddual_face[0] in ("fv", "vf", "ee")
    assert "intersecting" in repr(r)
    s = hedra.collide(cube, cube, pose_b=(1, 0, 0, 0, 3, 0, 0))
    assert s.certificate.normal is not None and s.certificate.point is None
    assert s.certificate.gap == pytest.approx(2.0)


def test_one_result_type_per_query():
    cube = hedra.Polytope(UNIT_CUBE)
    far = (1, 0, 0, 0, 3, 0, 0)
    d = hedra.distance(cube, cube, pose_b=far)
    assert isinstance(d, hedra.DistanceResult) and not isinstance(d, hedra.CollideResult)
    assert d.distance == pytest.approx(2.0) and d.witness_b[0] - d.witness_a[0] == pytest.approx(2.0)
    assert not hasattr(d, "algo") and not hasattr(d, "cddual_face") and d.check()
    over = hedra.distance(cube, cube, pose_b=(1, 0, 0, 0, 0.5, 0, 0))
    assert over.verdict == "intersecting" and over.distance == 0.0  # never a sentinel
    # CD-Dual's face is reported whenever its search answered, None for the other algorithms
    assert hedra.collide(cube, cube, pose_b=far, algo="gjk").cddual_face is None
    assert hedra.collide(cube, cube, pose_b=far, algo="cddual").cddual_face[0] in ("fv", "vf", "ee")
    s = hedra.signed_distance(cube, cube, pose_b=far)
    assert isinstance(s, hedra.SignedDistanceResult) and s.lower <= 2.0 <= s.upper
    assert s.upper - s.lower <= 1e-9  # GJK's distance bounds, proven, not negated
    g = hedra.gap(cube, cube, (1, 0, 0), pose_b=far)
    assert g.contact is True and type(hedra.contains(cube, cube)) is bool
    # point_inside speaks the verdict vocabulary, like hedra.VERDICTS and the CLI's `inside`
    words = {hedra.point_inside(cube, p) for p in ((0.5, 0.5, 0.5), (1, 1, 1), (2, 2, 2))}
    assert words == set(hedra.VERDICTS)


def test_touch_rel_widens_the_band():
    cube = hedra.Polytope(UNIT_CUBE)
    pose = (1, 0, 0, 0, 1 + 1e-7, 0, 0)
    assert hedra.collide(cube, cube, pose_b=pose).verdict == "separated"
    r = hedra.collide(cube, cube, pose_b=pose, touch_rel=1e-6)
    assert r.verdict == "touching" and r.eps == pytest.approx(1e-6 * r.eps / 1e-6)
