"""hedra.signed_distance(..., gradient=True) against central differences of the numpy
separating-axis depth of test_contact (scipy hulls, every vertex scanned), on random overlapping
pairs, and a vertex-face pair's closed form."""
import numpy as np

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
