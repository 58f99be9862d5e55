"""The path-planning example (examples/python/path_planner.py): the optimised path keeps the
clearance at every waypoint by the oracle's bounds (numpy and scipy, posed with the test's own
rotation formulas), it starts and ends where asked, and the Jacobian the example assembles from
hedra's pose gradients equals central differences of its constraint function where the signed
distance is differentiable (hedra's gradient itself is checked against the oracle's separating-axis
depth in test_gradient.py)."""
import numpy as np
import pytest

import hedra
import oracle
from conftest import load_example

STEP = 1e-6   # central differences: truncation ~ STEP^2, rounding ~ 1e-16 / STEP
REL = 1e-5


@pytest.fixture(scope="module")
def planner():
    return load_example("path_planner")


@pytest.fixture(scope="module")
def scene(planner):
    return planner.make_scene(waypoints=8)


@pytest.fixture(scope="module")
def runs(planner, scene):
    return {name: planner.plan(scene, name) for name in ("analytic", "2-point")}


def body_vertices(planner, q):
    """The body's vertices at waypoint q = (x, y, z, psi): rotated about z by psi, then moved."""
    c, s = np.cos(q[3]), np.sin(q[3])
    rz = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    return planner.box_points(planner.BODY_HALF) @ rz.T + np.asarray(q[:3])


def clearance_lower_bound(A, B, normal):
    """A proven lower bound on the distance of the hulls of A and B: the better of the oracle's
    bracket and the vertex sets' gap along `normal` (any unit direction bounds it)."""
    lower, _ = oracle.distance_bracket(A, B)
    return max(lower, oracle.gap_along(A, B, np.asarray(normal)))


@pytest.mark.parametrize("jacobian", ["analytic", "2-point"])
def test_path_keeps_the_clearance(planner, scene, runs, jacobian):
    run = runs[jacobian]
    assert run["success"], run["message"]
    path = run["path"]
    assert path.shape == (scene["waypoints"], 4)
    np.testing.assert_array_equal(path[0], scene["start"])
    np.testing.assert_array_equal(path[-1], scene["goal"])
    d_min = scene["d_min"]
    worst = np.inf
    for q in path:
        B = body_vertices(planner, q)
        for obstacle, pose_a in zip(scene["obstacles"], scene["obstacle_poses"]):
            A = oracle.posed(obstacle.vertices, pose_a)
            r = hedra.distance(obstacle, scene["body"], pose_a=pose_a,
                               pose_b=planner.body_pose(q))
            assert r.verdict == "separated" and r.check()
            assert oracle.certificate_holds(A, B, r.verdict, r.certificate, r.eps)
            normal = (r.witness_b - r.witness_a) / r.distance
            bound = clearance_lower_bound(A, B, normal)
            worst = min(worst, bound)
            assert bound >= d_min - 1e-6, (q, bound)
    print(f"{jacobian}: least proven clearance {worst:.9f} (d_min {d_min}), "
          f"{run['iterations']} iterations")
    # the optimum is active: some waypoint sits at the clearance, within the solver's tolerance
    assert worst <= d_min + 1e-4
    assert run["min_clearance"] == pytest.approx(worst, abs=1e-6)


def test_both_jacobians_reach_the_same_path(planner, runs):
    exact, differences = runs["analytic"], runs["2-point"]
    assert exact["length"] == pytest.approx(differences["length"], rel=1e-6)
    np.testing.assert_allclose(exact["path"], differences["path"], atol=1e-4)
    steps = np.diff(exact["path"], axis=0) * [1, 1, 1, planner.YAW_ARM]
    assert exact["length"] == pytest.approx(np.sum(steps ** 2), rel=1e-12)


def unique_and_stable(planner, scene, waypoint, obstacle):
    """True when hedra flags the pair's gradient unique and its features stay the same under
    every +-STEP change of the waypoint's 4 variables (no kink inside the differences)."""
    a, pose_a = scene["obstacles"][obstacle], scene["obstacle_poses"][obstacle]

    def features(q):
        r = hedra.signed_distance(a, scene["body"], pose_a=pose_a, pose_b=planner.body_pose(q),
                                  gradient=True)
        return r.feature_a, r.feature_b, r.gradient[2]

    here = features(waypoint)
    if not here[2]:
        return False
    for k in range(4):
        for sign in (-1, 1):
            q = np.array(waypoint, float)
            q[k] += sign * STEP
            if features(q)[:2] != here[:2]:
                return False
    return True


def check_jacobian(planner, scene, x):
    """Analytic Jacobian against central differences of Clearance(exact=False).values at x,
    row by row where the pair is differentiable; the rest of each row must be zero in both.
    Returns (rows compared, separated ones among them, overlapping ones)."""
    jac = planner.Clearance(scene).jacobian(x)
    values = planner.Clearance(scene, exact=False).values
    fd = np.empty_like(jac)
    for k in range(len(x)):
        e = np.zeros_like(x)
        e[k] = STEP
        fd[:, k] = (values(x + e) - values(x - e)) / (2 * STEP)
    delta = values(x) + scene["d_min"]
    J = len(scene["obstacles"])
    waypoints = x.reshape(-1, 4)
    compared = separated = 0
    for row in range(jac.shape[0]):
        i, j = divmod(row, J)
        block = slice(4 * i, 4 * i + 4)
        outside = np.ones(jac.shape[1], bool)
        outside[block] = False
        assert not jac[row, outside].any() and np.abs(fd[row, outside]).max() < 1e-9
        if not unique_and_stable(planner, scene, waypoints[i], j):
            continue
        scale = np.linalg.norm(jac[row, block])
        assert scale > 0.5   # the translation part is the unit normal
        np.testing.assert_allclose(jac[row, block], fd[row, block], rtol=0, atol=REL * scale,
                                   err_msg=f"waypoint {i}, obstacle {j}")
        compared += 1
        separated += bool(delta[row] > 0)
    return compared, separated, compared - separated


def test_jacobian_matches_central_differences_on_the_straight_line(planner, scene):
    x0 = planner.straight_line(scene)
    compared, separated, overlapping = check_jacobian(planner, scene, x0)
    rows = (scene["waypoints"] - 2) * len(scene["obstacles"])
    print(f"straight line: {compared} of {rows} rows compared, {separated} separated, "
          f"{overlapping} overlapping")
    assert compared >= rows - 2 and separated > 0 and overlapping > 0


def test_jacobian_matches_central_differences_on_perturbed_paths(planner, scene, rng):
    x0 = planner.straight_line(scene)
    total = [0, 0, 0]
    for _ in range(3):
        x = x0 + rng.normal(scale=[0.2, 0.2, 0.2, 0.5], size=(len(x0) // 4, 4)).ravel()
        total = [t + c for t, c in zip(total, check_jacobian(planner, scene, x))]
    print(f"perturbed paths: {total[0]} rows compared, {total[1]} separated, "
          f"{total[2]} overlapping")
    assert total[0] >= 0.8 * 3 * (scene["waypoints"] - 2) * len(scene["obstacles"])


def test_objective_gradient_matches_central_differences(planner, scene, rng):
    x = planner.straight_line(scene) + rng.normal(scale=0.3, size=(scene["waypoints"] - 2) * 4)
    f, grad = planner.path_length(x, scene)
    fd = np.empty_like(x)
    for k in range(len(x)):
        e = np.zeros_like(x)
        e[k] = STEP
        fd[k] = (planner.path_length(x + e, scene)[0] - planner.path_length(x - e, scene)[0]) \
            / (2 * STEP)
    np.testing.assert_allclose(grad, fd, rtol=0, atol=REL * max(1.0, np.abs(grad).max()))


def test_command_line_quick(planner, capsys):
    assert planner.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "analytic" in out and "2-point" in out and "8 waypoints" in out


def test_unknown_jacobian_is_refused(planner, scene):
    with pytest.raises(ValueError, match="jacobian"):
        planner.plan(scene, "3-point")
