"""Independent answers for the tests: numpy and scipy only, never hedra.

- posed(): the vertices of a posed polytope, with this module's own quaternion formula.
- lp_intersects(): feasibility of sum w_i a_i = sum v_j b_j with convex weights (HiGHS).
- depth_lower_bound(): a proven lower bound on the penetration depth: the largest t with all six
  points +-t e_k in A - B (six HiGHS LPs); their hull, an octahedron, holds the ball of radius
  t / sqrt(3) about the origin, so depth >= t / sqrt(3) (less the LP's residual).
- distance_bracket(): lower and upper bounds on the Euclidean distance: the upper bound from a
  feasible pair of convex combinations (SLSQP on the weights, clipped back onto the simplices),
  the lower bound from the gap of the two vertex sets along that pair's direction (for any unit n,
  distance >= min_j n.b_j - max_i n.a_i).
- certificate_holds(): a result's certificate checked by brute force over the vertices.
- hull_distance(): the Euclidean distance between two convex hulls by brute force over their
  features (scipy's hull triangles): every vertex against every triangle of the other hull, and
  every edge against every edge; the closest pair of two disjoint convex polytopes is attained by
  one of these feature pairs.
"""
import pathlib

import numpy as np
from scipy.optimize import linprog, minimize
from scipy.spatial import ConvexHull

REPO = pathlib.Path(__file__).resolve().parents[2]


def quaternion_matrix(q):
    w, x, y, z = np.asarray(q, float) / np.linalg.norm(q)
    return np.array([
        [w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z],
    ])


def pose_matrix(pose):
    """A 4x4 matrix from a 7-sequence (qw, qx, qy, qz, tx, ty, tz), a 4x4 matrix or None."""
    if pose is None:
        return np.eye(4)
    pose = np.asarray(pose, float)
    if pose.shape == (4, 4):
        return pose
    m = np.eye(4)
    m[:3, :3] = quaternion_matrix(pose[:4])
    m[:3, 3] = pose[4:]
    return m


def posed(points, pose):
    m = pose_matrix(pose)
    return np.asarray(points, float) @ m[:3, :3].T + m[:3, 3]


def _combination_lp(A, B, direction=None):
    """min -t s.t. A^T w - B^T v = t * direction, w, v on simplices, t >= 0 (t absent without a
    direction: plain feasibility). Returns (status, w, v, t)."""
    na, nb = len(A), len(B)
    nt = 0 if direction is None else 1
    a_eq = np.zeros((5, na + nb + nt))
    a_eq[:3, :na] = A.T
    a_eq[:3, na:na + nb] = -B.T
    if nt:
        a_eq[:3, -1] = -np.asarray(direction, float)
    a_eq[3, :na] = 1
    a_eq[4, na:na + nb] = 1
    b_eq = np.array([0, 0, 0, 1, 1], float)
    c = np.zeros(na + nb + nt)
    if nt:
        c[-1] = -1
    res = linprog(c, A_eq=a_eq, b_eq=b_eq, bounds=(0, None), method="highs")
    if res.status != 0:
        return res.status, None, None, 0.0
    x = res.x
    return 0, x[:na], x[na:na + nb], (x[-1] if nt else 0.0)


def _combination_lp_centred(A, B, direction=None):
    """_combination_lp on the pair moved by -c for a few centres c: A - B, and so the LP's
    answer, is the same for any common translation, but HiGHS is not. On a point 0.18 from the
    origin against a tetrahedron 0.01 away it ends with 'model status unknown' (status 4) in the
    world frame, and answers 'infeasible' once the point is at the origin. Status 4 is returned
    only when every centre gives it."""
    A, B = np.asarray(A, float), np.asarray(B, float)
    for centre in (A.mean(axis=0), B.mean(axis=0), np.zeros(3)):
        result = _combination_lp(A - centre, B - centre, direction)
        if result[0] != 4:
            return result
    return result


def lp_intersects(A, B):
    """True or False from HiGHS; None when HiGHS cannot decide (status 4 at every centre)."""
    status, _, _, _ = _combination_lp_centred(A, B)
    assert status in (0, 2, 4), f"HiGHS status {status}"
    return None if status == 4 else status == 0


def _on_simplex(w):
    w = np.clip(w, 0, None)
    return w / w.sum()


def depth_lower_bound(A, B):
    """>= 0; positive only when the origin is inside A - B by at least that much."""
    bound = np.inf
    for k in range(3):
        for sign in (1.0, -1.0):
            e = np.zeros(3)
            e[k] = sign
            status, w, v, t = _combination_lp_centred(A, B, e)
            if status != 0 or t <= 0:
                return 0.0
            # the exact point of the clipped weights, and how far it is from t e
            p = _on_simplex(w) @ A - _on_simplex(v) @ B
            residual = np.linalg.norm(p - t * e)
            bound = min(bound, t / np.sqrt(3) - residual)
    return max(bound, 0.0)


def gap_along(A, B, n):
    """min_j n.b_j - max_i n.a_i: a lower bound on the distance for any unit n."""
    return float(np.min(B @ n) - np.max(A @ n))


def distance_bracket(A, B):
    """(lower, upper) bounds on the Euclidean distance between the hulls of A and B."""
    na = len(A)

    def objective(x):
        d = x[:na] @ A - x[na:] @ B
        return d @ d, np.concatenate([2 * A @ d, -2 * B @ d])

    x0 = np.concatenate([np.full(na, 1 / na), np.full(len(B), 1 / len(B))])
    cons = [{"type": "eq", "fun": lambda x: np.sum(x[:na]) - 1},
            {"type": "eq", "fun": lambda x: np.sum(x[na:]) - 1}]
    res = minimize(objective, x0, jac=True, method="SLSQP", bounds=[(0, 1)] * len(x0),
                   constraints=cons, options={"ftol": 1e-16, "maxiter": 500})
    p, q = _on_simplex(res.x[:na]) @ A, _on_simplex(res.x[na:]) @ B
    upper = float(np.linalg.norm(q - p))
    lower = gap_along(A, B, (q - p) / upper) if upper > 0 else 0.0
    return max(lower, 0.0), upper


def certificate_holds(A, B, verdict, cert, eps, slack=1e-9):
    """The certificate of a result (hedra.Certificate), checked over the posed vertices A, B."""
    scale = max(1.0, np.abs(A).max(), np.abs(B).max())
    tol = slack * scale
    plane_ok = point_ok = True
    if cert.normal is not None:
        n = np.asarray(cert.normal)
        sep = np.min(B @ n) - np.max(A @ n)  # the vertex sets' gap across the plane
        plane_ok = abs(np.linalg.norm(n) - 1) < 1e-9 and sep >= (
            eps if verdict == "separated" else -eps) - tol
    if cert.point is not None:
        wa, wb = np.asarray(cert.a_weights), np.asarray(cert.b_weights)
        pa = wa @ A[np.asarray(cert.a_indices)]
        pb = wb @ B[np.asarray(cert.b_indices)]
        point_ok = (wa.min() >= -tol and wb.min() >= -tol and abs(wa.sum() - 1) < 1e-9
                    and abs(wb.sum() - 1) < 1e-9 and np.linalg.norm(pa - pb) <= eps + tol)
    needs = {"separated": (True, False), "touching": (True, True), "intersecting": (False, True)}
    has_plane, has_point = needs[verdict]
    return ((not has_plane or cert.normal is not None) and (not has_point or cert.point is not None)
            and plane_ok and point_ok)


def _hull_features(points):
    """(triangles (T, 3, 3), edges (E, 2, 3)) of the convex hull of points."""
    hull = ConvexHull(points)
    pairs = {tuple(sorted((t[k], t[(k + 1) % 3]))) for t in hull.simplices for k in range(3)}
    return points[hull.simplices], points[np.array(sorted(pairs))]


def _segment_distance(p0, p1, q0, q1):
    """Distance between segments p0 p1 and q0 q1 (broadcast). |p(s) - q(t)|^2 is a convex
    quadratic on the unit square: its least value is the interior stationary point when that lies
    in the square, else on the square's boundary, i.e. an endpoint of one segment against the other
    segment (point-segment: the foot point clamped to the segment)."""
    def point_segment(x, a, b):
        d = b - a
        t = np.clip(np.sum((x - a) * d, -1) / np.maximum(np.sum(d * d, -1), 1e-300), 0, 1)
        return np.linalg.norm(x - a - t[..., None] * d, axis=-1)

    best = np.minimum.reduce([point_segment(p0, q0, q1), point_segment(p1, q0, q1),
                              point_segment(q0, p0, p1), point_segment(q1, p0, p1)])
    u, v, w = p1 - p0, q1 - q0, p0 - q0
    a, b, c = np.sum(u * u, -1), np.sum(u * v, -1), np.sum(v * v, -1)
    d, e = np.sum(u * w, -1), np.sum(v * w, -1)
    det = a * c - b * b
    ok = det > 1e-12 * a * c  # not parallel: the stationary point solves the 2x2 normal equations
    with np.errstate(divide="ignore", invalid="ignore"):
        s, t = (b * e - c * d) / det, (a * e - b * d) / det
    inside = ok & (s >= 0) & (s <= 1) & (t >= 0) & (t <= 1)
    gap = np.linalg.norm(w + np.nan_to_num(s)[..., None] * u - np.nan_to_num(t)[..., None] * v,
                         axis=-1)
    return np.where(inside, np.minimum(gap, best), best)


def _point_triangle_distance(x, tri):
    """Distance from points x (P, 3) to triangles tri (T, 3, 3), (P, T): the plane distance when
    the foot point's barycentric coordinates are all >= 0, else the nearest of the three sides."""
    a, b, c = tri[None, :, 0], tri[None, :, 1], tri[None, :, 2]
    x = x[:, None, :]
    n = np.cross(b - a, c - a)
    n = n / np.linalg.norm(n, axis=-1, keepdims=True)
    h = np.sum((x - a) * n, -1)
    foot = x - h[..., None] * n
    inside = np.ones(h.shape, bool)
    for p, q in ((a, b), (b, c), (c, a)):
        inside &= np.sum(np.cross(q - p, foot - p) * n, -1) >= 0
    sides = np.minimum.reduce([_segment_distance(x, x, p, q) for p, q in ((a, b), (b, c), (c, a))])
    return np.where(inside, np.abs(h), sides)


def hull_distance(A, B):
    """The distance between the convex hulls of the point sets A and B (each spanning a volume);
    0 < the result only when they are disjoint (an overlap is not detected here: use
    lp_intersects first)."""
    A, B = np.asarray(A, float), np.asarray(B, float)
    tri_a, edge_a = _hull_features(A)
    tri_b, edge_b = _hull_features(B)
    vf = _point_triangle_distance(A, tri_b).min()
    fv = _point_triangle_distance(B, tri_a).min()
    ee = _segment_distance(edge_a[:, None, 0], edge_a[:, None, 1], edge_b[None, :, 0],
                           edge_b[None, :, 1]).min()
    return float(min(vf, fv, ee))
