"""A collision-free path for a rigid body between obstacles, by trajectory optimisation with
hedra's exact clearance Jacobians.

The body (a box) moves from a start to a goal through K waypoints, each a translation and a yaw
(x, y, z, psi). As in TrajOpt or CHOMP, the path is found by nonlinear programming: SLSQP
(scipy.optimize.minimize) minimises the path length as the sum of squared differences of
consecutive waypoints, subject to one clearance constraint per (waypoint, obstacle) pair,

    delta_ij(q_i) >= d_min,   delta_ij = hedra.signed_distance(obstacle_j, body at q_i).

The start and goal are fixed; the K - 2 waypoints between them are the variables. delta is the
distance when separated and minus the penetration depth when overlapping, so the straight line
the optimiser starts from (it passes through three obstacles) has useful constraint values and
gradients. With gradient=True hedra returns d delta / d pose of the body: 6 numbers, translation
in world axes, then rotation about the body's origin in world axes. The yaw psi turns the body
about the world z axis through its origin, so d delta / d (x, y, z, psi) is entries 0, 1, 2 and
5 of gradient_b: one signed-distance query gives a whole row of the constraint Jacobian.

The same problem is then solved with the constraint Jacobian by forward differences (scipy's
'2-point', one more evaluation of every constraint per variable), to compare iterations and
time. The objective's gradient is exact in both runs. Clearance is enforced at the waypoints
only (the body between two waypoints is not checked), as in a plain waypoint formulation.

    python path_planner.py            # K = 24 waypoints
    python path_planner.py --quick    # K = 8
    python path_planner.py --waypoints 40 --no-yaw
"""
import argparse
import math
import time

import numpy as np
from scipy.optimize import minimize

import hedra

# ---------------------------------------------------------------------------------------------
# The scene: fixed obstacles, a box-shaped body, a start and a goal.

D_MIN = 0.1            # required clearance
BODY_HALF = (0.35, 0.12, 0.1)
YAW_ARM = BODY_HALF[0]  # a yaw change costs as much as the arc its far end travels


def box_points(half):
    """The 8 corners of a box with half-extents `half`, centred on the origin."""
    signs = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
    return signs * np.asarray(half, float)


def quaternion(axis, angle):
    """The unit quaternion (qw, qx, qy, qz) of a rotation by angle about axis."""
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    return np.concatenate([[np.cos(angle / 2)], np.sin(angle / 2) * axis])


def make_scene(waypoints=24, seed=3):
    """The obstacles (two turned boxes and three hulls of 12 random points, from `seed`), their
    poses (qw, qx, qy, qz, tx, ty, tz), the body, the start and goal (x, y, z, psi)."""
    rng = np.random.default_rng(seed)
    hull = [hedra.Polytope(rng.normal(scale=0.3, size=(12, 3))) for _ in range(3)]
    obstacles = [hedra.Polytope(box_points((0.3, 0.5, 0.8))), hull[0],
                 hedra.Polytope(box_points((0.25, 0.25, 0.6))), hull[1], hull[2]]
    places = [(1.5, 0.15, 0.0), (3.0, -0.25, 0.05), (4.4, 0.5, -0.1), (3.2, 0.9, 0.3),
              (2.2, -1.0, -0.2)]
    poses = [tuple(quaternion(rng.normal(size=3), rng.uniform(0.1, 0.6))) + place
             for place in places]
    return {"body": hedra.Polytope(box_points(BODY_HALF)), "obstacles": obstacles,
            "obstacle_poses": poses, "start": np.array([0.0, 0.0, 0.0, 0.0]),
            "goal": np.array([6.0, 0.4, 0.2, np.pi / 3]), "waypoints": waypoints,
            "d_min": D_MIN}


def body_pose(q):
    """The body's pose at waypoint q = (x, y, z, psi): a yaw about the world z axis, then the
    translation."""
    x, y, z, psi = (float(v) for v in q)
    return (math.cos(psi / 2), 0.0, 0.0, math.sin(psi / 2), x, y, z)


def straight_line(scene):
    """The variables (K - 2 interior waypoints, flattened) of the straight path, yaw included."""
    s = np.linspace(0.0, 1.0, scene["waypoints"])[1:-1, None]
    return ((1 - s) * scene["start"] + s * scene["goal"]).ravel()


def full_path(x, scene):
    """(K, 4): the start, the interior waypoints x, the goal."""
    return np.vstack([scene["start"], np.reshape(x, (-1, 4)), scene["goal"]])


# ---------------------------------------------------------------------------------------------
# The problem: objective, constraints and their derivatives.


def path_length(x, scene, yaw=True):
    """(f, grad): f = sum over consecutive waypoints of |dt|^2 + (YAW_ARM dpsi)^2."""
    weight = np.array([1.0, 1.0, 1.0, YAW_ARM ** 2 if yaw else 0.0])
    steps = np.diff(full_path(x, scene), axis=0)        # (K - 1, 4)
    weighted = steps * weight
    grad = 2 * (weighted[:-1] - weighted[1:])             # waypoint i ends step i-1, starts step i
    return float(np.sum(weighted * steps)), grad.ravel()


class Clearance:
    """delta_ij - d_min for every interior waypoint i and obstacle j (row i * J + j), and its
    Jacobian from hedra's pose gradients. exact=True computes the gradients with the values
    (one query per pair gives both) and keeps them for jacobian(), since SLSQP asks for the
    Jacobian at the point whose values it has just read; `queries` counts signed-distance calls."""

    COLUMNS = [0, 1, 2, 5]   # d delta / d (x, y, z, psi) among gradient_b's 6 entries

    def __init__(self, scene, yaw=True, exact=True):
        self.scene, self.yaw, self.exact = scene, yaw, exact
        self.queries = 0
        self._x, self._values, self._jacobian = None, None, None

    def _evaluate(self, x):
        x = np.array(x, float)
        if self._x is not None and np.array_equal(x, self._x):
            return
        waypoints = x.reshape(-1, 4)
        obstacles, poses = self.scene["obstacles"], self.scene["obstacle_poses"]
        values, gradients = [], []
        for q in waypoints:
            pose_b = body_pose(q)
            for obstacle, pose_a in zip(obstacles, poses):
                r = hedra.signed_distance(obstacle, self.scene["body"], pose_a=pose_a,
                                          pose_b=pose_b, gradient=self.exact)
                values.append(r.signed_distance)
                if self.exact:
                    gradients.append(r.gradient[1])
        self.queries += len(values)
        jac = None
        if self.exact:
            # row i * J + j holds waypoint i's block of 4 columns; the rest of the row is zero
            rows = np.arange(len(values))
            cols = 4 * (rows // len(obstacles))[:, None] + np.arange(4)
            jac = np.zeros((len(values), x.size))
            jac[rows[:, None], cols] = np.array(gradients)[:, self.COLUMNS]
            if not self.yaw:
                jac[:, 3::4] = 0.0
        self._x, self._values = x, np.array(values) - self.scene["d_min"]
        self._jacobian = jac

    def values(self, x):
        self._evaluate(x)
        return self._values.copy()

    def jacobian(self, x):
        if not self.exact:
            raise RuntimeError("Clearance(exact=False) has no Jacobian")
        self._evaluate(x)
        return self._jacobian.copy()


def plan(scene, jacobian="analytic", yaw=True, maxiter=300, ftol=1e-9):
    """Solve the problem from the straight line. jacobian: 'analytic' (hedra's gradients) or
    '2-point' (scipy's forward differences). Returns a dict of the answer and its cost."""
    if jacobian not in ("analytic", "2-point"):
        raise ValueError(f"jacobian: 'analytic' or '2-point', not {jacobian!r}")
    clearance = Clearance(scene, yaw, exact=jacobian == "analytic")
    x0 = straight_line(scene)
    bounds = None
    if not yaw:   # psi stays on the straight line's interpolation of the start's and goal's
        bounds = [(v, v) if k % 4 == 3 else (None, None) for k, v in enumerate(x0)]
    constraint = {"type": "ineq", "fun": clearance.values}
    if clearance.exact:
        constraint["jac"] = clearance.jacobian
    t0 = time.perf_counter()
    res = minimize(path_length, x0, args=(scene, yaw), jac=True, method="SLSQP", bounds=bounds,
                   constraints=[constraint], options={"maxiter": maxiter, "ftol": ftol})
    seconds = time.perf_counter() - t0
    path = full_path(res.x, scene)
    return {"path": path, "x": res.x, "success": bool(res.success), "message": res.message,
            "iterations": int(res.nit), "seconds": seconds, "length": float(res.fun),
            "min_clearance": min_clearance(path, scene), "queries": clearance.queries}


def min_clearance(path, scene):
    """The least signed distance between the body at any waypoint of `path` (endpoints included)
    and any obstacle."""
    return min(hedra.signed_distance(obstacle, scene["body"], pose_a=pose_a,
                                     pose_b=body_pose(q)).signed_distance
               for q in path for obstacle, pose_a in zip(scene["obstacles"],
                                                           scene["obstacle_poses"]))


# ---------------------------------------------------------------------------------------------


def report(name, run):
    print(f"{name:<14} {run['iterations']:>10} {run['seconds']:>9.3f} {run['queries']:>9} "
          f"{run['min_clearance']:>14.6f} {run['length']:>9.4f}  {run['success']}"
          + ("" if run["success"] else f" ({run['message']})"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="K = 8 waypoints (the test's size)")
    parser.add_argument("--waypoints", type=int, default=24, help="K, start and goal included")
    parser.add_argument("--no-yaw", action="store_true",
                        help="keep the yaw on the straight line's interpolation")
    args = parser.parse_args(argv)
    waypoints = 8 if args.quick else args.waypoints
    if waypoints < 3:
        parser.error("--waypoints: at least 3 (start, goal and one between)")
    scene = make_scene(waypoints)
    yaw = not args.no_yaw
    start = min_clearance(full_path(straight_line(scene), scene), scene)
    print(f"{waypoints} waypoints, {len(scene['obstacles'])} obstacles, d_min {scene['d_min']}, "
          f"yaw {'free' if yaw else 'fixed'}; straight line: min clearance {start:.4f}")
    print(f"{'jacobian':<14} {'iterations':>10} {'time (s)':>9} {'queries':>9} "
          f"{'min clearance':>14} {'length':>9}  success")
    runs = {name: plan(scene, name, yaw) for name in ("analytic", "2-point")}
    for name, run in runs.items():
        report(name, run)
    ok = all(r["success"] and r["min_clearance"] >= scene["d_min"] - 1e-6 for r in runs.values())
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
