"""hedra.signed_distance(..., gradient=True) against central differences of the numpy
separating-axis depth of test_contact (scipy hulls, every vertex scanned), on random overlapping
pairs, and a vertex-face pair's closed form."""
import numpy as np
import pytest

import hedra
import oracle
from test_contact import random_rotation, sat_depth

CUBE = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], float)


def turned(pose, k, angle):
    """The 4x4 pose turned by angle about world axis k, about its own origin."""
    c, s = np.cos(angle), np.sin(angle)
    i, j = (k + 1) % 3, (k + 2) % 3
    q = np.eye(3)
    q[i, i], q[i, j], q[j, i], q[j, j] = c, -s, s, c
    out = pose.copy()
    out[:3, :3] = q @ pose[:3, :3]
    return out


def moved(pose, k, step):
    """Coordinate k of the 6: translation (0-2) or rotation (3-5) by step."""
    if k < 3:
        out = pose.copy()
        out[k, 3] += step
        return out
    return turned(pose, k - 3, step)


def oracle_delta(A_pts, B_pts, pa, pb):
    return -sat_depth(oracle.posed(A_pts, pa), oracle.posed(B_pts, pb))


def test_gradient_matches_differences_of_the_oracle():
    rng = np.random.default_rng(43)
    compared = 0
    for _ in range(40):
        A_pts, B_pts = rng.normal(size=(8, 3)), rng.normal(size=(8, 3))
        pa, pb = np.eye(4), np.eye(4)
        pa[:3, :3] = oracle.quaternion_matrix(random_rotation(rng))
        pb[:3, :3] = oracle.quaternion_matrix(random_rotation(rng))
        pa[:3, 3], pb[:3, 3] = rng.normal(size=3), rng.normal(size=3) * 0.5
        r = hedra.signed_distance(hedra.Polytope(A_pts), hedra.Polytope(B_pts), pose_a=pa,
                                  pose_b=pb, gradient=True)
        grad_a, grad_b, unique = r.gradient
        assert np.all(np.isfinite(grad_a)) and np.all(np.isfinite(grad_b))
        if not unique or r.signed_distance > -1e-3:
            continue
        h = 1e-6
        for body, grad in ((0, grad_a), (1, grad_b)):
            for k in range(6):
                def at(step):
                    p = [pa, pb]
                    p[body] = moved(p[body], k, step)
                    return oracle_delta(A_pts, B_pts, *p)
                fwd, bwd = (at(h) - at(0)) / h, (at(0) - at(-h)) / h
                if abs(fwd - bwd) > 1e-4:
                    break  # a facet change within the step
                assert abs(grad[k] - 0.5 * (fwd + bwd)) <= 1e-6 * max(1.0, r.size)
            else:
                continue
            break
        else:
            compared += 1
    assert compared >= 20


def test_gradient_closed_form_and_flag():
    cube, tet = hedra.Polytope(CUBE), hedra.Polytope(
        [[0.5, 0.5, 1.5], [0, 0, 2.5], [1, 0, 2.5], [0.5, 1, 2.5]])
    assert hedra.signed_distance(cube, tet).gradient is None
    grad_a, grad_b, unique = hedra.signed_distance(cube, tet, gradient=True).gradient
    assert unique
    # B's lowest vertex w = (0.5, 0.5, 1.5), n = +z: (n, w x n) for B, -(n, w_a x n) for A
    assert np.allclose(grad_b, [0, 0, 1, 0.5, -0.5, 0], atol=1e-12)
    assert np.allclose(grad_a, [0, 0, -1, -0.5, 0.5, 0], atol=1e-12)
    apart = hedra.signed_distance(cube, hedra.Polytope(CUBE + [2, 0, 0]), gradient=True)
    assert apart.gradient[2] is False  # face on face: a subgradient
    assert np.allclose(apart.gradient[1][:3], [1, 0, 0], atol=1e-12)
    m = hedra.contact_manifold(cube, hedra.Polytope(CUBE + [0.75, 0, 0]), gradient=True)
    assert m.contact.gradient[2] is False


# ---- signed_distance_many, distance(gradient=True), Scene(gradient=True) ----

FIELDS = ("signed_distance", "normal", "witness_a", "witness_b", "gradient_a", "gradient_b",
          "unique")


def random_poses(rng, count, spread):
    """(count, 7) poses: random unit quaternions, translations of scale spread."""
    q = rng.normal(size=(count, 4))
    return np.hstack([q / np.linalg.norm(q, axis=1, keepdims=True),
                      rng.normal(size=(count, 3)) * spread])


def matrices(poses):
    return np.array([oracle.pose_matrix(p) for p in poses])


def test_signed_distance_many_has_the_bits_of_single_calls(rng):
    """Every row against hedra.signed_distance on the same pose, bit for bit, for pairs below
    and above the stack-scratch size (64 vertices), poses as (N, 7) and (N, 4, 4), poses_a
    absent, single and one per pose."""
    for n in (6, 40, 120):
        a, b = hedra.Polytope(rng.normal(size=(n, 3))), hedra.Polytope(rng.normal(size=(n, 3)))
        poses_b, poses_a = random_poses(rng, 60, 1.5), random_poses(rng, 60, 0.5)
        one_a = poses_a[0]
        for given_b, given_a, each_a in ((poses_b, None, [None] * 60),
                                         (matrices(poses_b), one_a, [one_a] * 60),
                                         (poses_b, matrices(poses_a), list(matrices(poses_a)))):
            many = hedra.signed_distance_many(a, b, given_b, poses_a=given_a, gradient=True,
                                              threads=2)
            for i in range(60):
                pb = given_b[i]
                r = hedra.signed_distance(a, b, pose_a=each_a[i], pose_b=pb, gradient=True)
                assert r.signed_distance == many.signed_distance[i]
                for name in ("normal", "witness_a", "witness_b"):
                    assert np.array_equal(getattr(r, name), getattr(many, name)[i]), (n, i, name)
                assert r.gradient[0] == tuple(many.gradient_a[i])
                assert r.gradient[1] == tuple(many.gradient_b[i])
                assert r.gradient[2] == bool(many.unique[i])
    plain = hedra.signed_distance_many(a, b, poses_b, depth="sat")
    assert plain.gradient_a is None and plain.gradient_b is None and plain.unique is None
    for i in range(0, 60, 7):
        r = hedra.signed_distance(a, b, pose_b=poses_b[i], depth="sat")
        assert r.signed_distance == plain.signed_distance[i]


def test_signed_distance_many_same_bits_on_one_and_two_threads(rng):
    """1200 poses: several chunks of at least 256 poses on two threads."""
    for n in (12, 100):
        a, b = hedra.Polytope(rng.normal(size=(n, 3))), hedra.Polytope(rng.normal(size=(n, 3)))
        poses = random_poses(rng, 1200, 1.5)
        one = hedra.signed_distance_many(a, b, poses, gradient=True, threads=1)
        two = hedra.signed_distance_many(a, b, poses, gradient=True, threads=2)
        again = hedra.signed_distance_many(a, b, poses, gradient=True, threads=2)
        for name in FIELDS:
            assert getattr(one, name).tobytes() == getattr(two, name).tobytes(), name
            assert getattr(two, name).tobytes() == getattr(again, name).tobytes(), name
        assert one.signed_distance.shape == (1200,) and one.normal.shape == (1200, 3)
        assert one.gradient_a.shape == (1200, 6) and one.unique.dtype == np.bool_


def central_difference(delta_at, pa, pb, body, k, h):
    """(central, forward - backward) of delta_at along coordinate k of one body's pose."""
    def at(step):
        p = [pa, pb]
        p[body] = moved(p[body], k, step)
        return delta_at(*p)
    mid = at(0)
    fwd, bwd = (at(h) - mid) / h, (mid - at(-h)) / h
    return 0.5 * (fwd + bwd), fwd - bwd


def compare_to_differences(grad_a, grad_b, delta_at, pa, pb, size, h=1e-6):
    """Worst |gradient - central difference| / max(1, size) over the 12 coordinates, or None
    when a one-sided pair disagrees (a feature change within the step: not differentiable)."""
    worst = 0.0
    for body, grad in ((0, grad_a), (1, grad_b)):
        for k in range(6):
            central, spread = central_difference(delta_at, pa, pb, body, k, h)
            if abs(spread) > 1e-4:
                return None
            worst = max(worst, abs(grad[k] - central) / max(1.0, size))
    return worst


def test_signed_distance_many_gradients_against_the_oracle(rng):
    """Overlapping rows against central differences of the separating-axis depth, separated
    rows against those of the brute-force hull distance (oracle.hull_distance), to 1e-6 of the
    size where the row is unique."""
    A_pts, B_pts = rng.normal(size=(8, 3)), rng.normal(size=(8, 3))
    a, b = hedra.Polytope(A_pts), hedra.Polytope(B_pts)
    poses_a, poses_b = random_poses(rng, 80, 0.3), random_poses(rng, 80, 1.6)
    many = hedra.signed_distance_many(a, b, poses_b, poses_a=poses_a, gradient=True)

    def signed(pa, pb):
        A, B = oracle.posed(A_pts, pa), oracle.posed(B_pts, pb)
        depth = sat_depth(A, B)
        return -depth if depth > 0 else oracle.hull_distance(A, B)

    compared = {"overlap": 0, "apart": 0}
    worst = 0.0
    for i in range(80):
        assert np.all(np.isfinite(many.gradient_a[i])) and np.all(np.isfinite(many.gradient_b[i]))
        delta = many.signed_distance[i]
        if not many.unique[i] or abs(delta) < 1e-3:
            continue
        pa, pb = oracle.pose_matrix(poses_a[i]), oracle.pose_matrix(poses_b[i])
        size = np.linalg.norm(np.ptp(np.vstack([oracle.posed(A_pts, pa),
                                                       oracle.posed(B_pts, pb)]), axis=0))
        err = compare_to_differences(many.gradient_a[i], many.gradient_b[i], signed, pa, pb, size)
        if err is None:
            continue
        assert err <= 1e-6, (i, delta, err)
        worst = max(worst, err)
        compared["overlap" if delta < 0 else "apart"] += 1
    print(f"compared {compared}, worst error {worst:.2e} of the size")
    assert compared["overlap"] >= 10 and compared["apart"] >= 10


def test_distance_gradient(rng):
    """Separated pairs: the signed distance's gradient, and central differences of the brute-force
    hull distance; intersecting: zero and unique; without the flag: None."""
    A_pts = rng.normal(size=(10, 3))
    B_pts = rng.normal(size=(10, 3))
    a, b = hedra.Polytope(A_pts), hedra.Polytope(B_pts)
    compared = 0
    for pose_b in random_poses(rng, 30, 3.0):
        r = hedra.distance(a, b, pose_b=pose_b, gradient=True)
        grad_a, grad_b, unique = r.gradient
        if r.verdict == "intersecting":
            assert grad_a == (0.0,) * 6 and grad_b == (0.0,) * 6 and unique
            continue
        if r.verdict != "separated":
            continue
        s = hedra.signed_distance(a, b, pose_b=pose_b, gradient=True)
        assert np.allclose(grad_b, s.gradient[1], atol=1e-9) and unique == s.gradient[2]
        if not unique:
            continue
        pb = oracle.pose_matrix(pose_b)
        err = compare_to_differences(
            grad_a, grad_b,
            lambda pa, pb: oracle.hull_distance(oracle.posed(A_pts, pa), oracle.posed(B_pts, pb)),
            np.eye(4), pb, s.size)
        if err is not None:
            assert err <= 1e-6
            compared += 1
    assert compared >= 5
    assert hedra.distance(a, b).gradient is None


def test_scene_gradients_match_signed_distance(rng):
    """Each contact's gradients against hedra.signed_distance(gradient=True) on the pair's
    poses (the scene warm-starts: equal to rounding, not bit for bit), on one and two threads."""
    shapes = [hedra.Polytope(rng.normal(size=(12, 3)) * 0.6) for _ in range(12)]
    poses = random_poses(rng, 12, 1.0)
    for threads in (1, 2):
        scene = hedra.Scene(threads=threads, depth=True, gradient=True)
        for shape, pose in zip(shapes, poses):
            scene.add(shape, pose)
        pairs, _ = scene.step()
        d = scene.details
        assert len(pairs) >= 5
        assert d["gradient_a"].shape == (len(pairs), 6) and d["gradient_unique"].dtype == np.bool_
        for k, (i, j) in enumerate(pairs):
            r = hedra.signed_distance(shapes[i], shapes[j], pose_a=poses[i], pose_b=poses[j],
                                      gradient=True)
            tol = 1e-9 * r.size
            assert abs(d["signed_distance"][k] - r.signed_distance) <= tol
            assert np.allclose(d["gradient_a"][k], r.gradient[0], rtol=0, atol=tol)
            assert np.allclose(d["gradient_b"][k], r.gradient[1], rtol=0, atol=tol)
            assert bool(d["gradient_unique"][k]) == r.gradient[2]
    plain = hedra.Scene(depth=True)
    plain.add(shapes[0], poses[0])
    plain.add(shapes[0], poses[0])
    plain.step()
    assert "gradient_a" not in plain.details


def test_scene_gradient_closed_form():
    """A tetrahedron's tip p (body frame (0.2, -0.1, 0)) 0.1 deep in the cube's top face z = 1,
    B at t_B = (0.3, 0.6, 0.9). delta = t_Bz + (R_B p)_z - 1: d/d tau_B = e_z, and a rotation theta
    about B's origin moves the tip by theta x p, so d/d theta_B = p x e_z = (-0.1, -0.2, 0). For A,
    delta = n(theta).w - 1 with the face normal turned to e_z + theta x e_z and w the tip
    (0.5, 0.5, 0.9): d/d theta_A = e_z x w = (-0.5, 0.5, 0), d/d tau_A = -e_z."""
    tet = hedra.Polytope(np.array([[0, 0, 0], [-0.5, -0.5, 1], [0.5, -0.5, 1], [0, 0.5, 1]])
                         + [0.2, -0.1, 0])
    scene = hedra.Scene(threads=1, depth=True, gradient=True)
    scene.add(hedra.Polytope(CUBE))
    scene.add(tet, [1, 0, 0, 0, 0.3, 0.6, 0.9])
    pairs, _ = scene.step()
    assert pairs.tolist() == [[0, 1]]
    d = scene.details
    assert abs(d["signed_distance"][0] + 0.1) <= 1e-12 and bool(d["gradient_unique"][0])
    assert np.allclose(d["gradient_b"][0], [0, 0, 1, -0.1, -0.2, 0], atol=1e-12)
    assert np.allclose(d["gradient_a"][0], [0, 0, -1, -0.5, 0.5, 0], atol=1e-12)


def test_signed_distance_many_bad_input():
    cube = hedra.Polytope(CUBE)
    poses = np.tile([1.0, 0, 0, 0, 0.5, 0, 0], (600, 1))
    poses[321, 4] = np.nan
    for threads in (1, 2):
        with pytest.raises(hedra.InvalidInputError) as info:
            hedra.signed_distance_many(cube, cube, poses, gradient=True, threads=threads)
        assert info.value.status == "HD_ERR_NONFINITE" and info.value.index == 321
        assert "signed_distance_many: poses_b[321]" in str(info.value)
    for shape in ((10, 6), (10, 4, 3), (7,), (0,)):
        with pytest.raises(hedra.InvalidInputError, match="poses_b"):
            hedra.signed_distance_many(cube, cube, np.zeros(shape))
    with pytest.raises(hedra.InvalidInputError, match="poses_a holds 3 poses but poses_b 600"):
        hedra.signed_distance_many(cube, cube, poses, poses_a=poses[:3])
    with pytest.raises(hedra.InvalidInputError, match="depth"):
        hedra.signed_distance_many(cube, cube, poses[:2], depth="gjk")
    with pytest.raises(hedra.InvalidInputError, match="threads"):
        hedra.signed_distance_many(cube, cube, poses[:2], threads=-1)
    with pytest.raises(TypeError):
        hedra.signed_distance_many(cube, CUBE, poses[:2])
    empty = hedra.signed_distance_many(cube, cube, np.zeros((0, 7)), gradient=True)
    assert empty.signed_distance.shape == (0,) and empty.gradient_b.shape == (0, 6)
