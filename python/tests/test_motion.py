"""Motion queries against independent answers: the time of impact of spheres (a quadratic's root;
a spinning sphere's angle), safety of toi on turning boxes against a dense-sampled first contact
by separating axes in numpy (scipy's Rotation for the motion), shape_cast of a sphere onto a box
face, rays against a numpy slab method on scipy's hull planes, the batches bit for bit against
the single calls on 1 and 2 threads, Scene.raycast against brute force over the bodies."""
import numpy as np
import pytest
from scipy.spatial import ConvexHull
from scipy.spatial.transform import Rotation

import hedra
import oracle

TIME_TOL = 1e-9


def unit_q(rng):
    q = rng.normal(size=4)
    return q / np.linalg.norm(q)


def sphere_contact_time(d0, dv, r):
    """Least t in [0, 1] with |d0 + t dv| = r (None when none), from |d0|> r."""
    a, b, c = dv @ dv, 2 * d0 @ dv, d0 @ d0 - r * r
    disc = b * b - 4 * a * c
    if a == 0 or disc < 0:
        return None
    t = (-b - np.sqrt(disc)) / (2 * a)
    return t if 0 <= t <= 1 else None


def test_toi_of_spheres_closed_form(rng):
    hits = 0
    for _ in range(200):
        ra, rb = rng.uniform(0.1, 0.6, 2)
        a0, a1, b0, b1 = rng.uniform(-2, 2, (4, 3))
        d0 = b0 - a0
        if np.linalg.norm(d0) <= ra + rb + 1e-6:
            continue
        want = sphere_contact_time(d0, (b1 - b0) - (a1 - a0), ra + rb)
        r = hedra.toi(hedra.Sphere(ra), hedra.Sphere(rb), (1, 0, 0, 0, *a0), (1, 0, 0, 0, *a1),
                      (1, 0, 0, 0, *b0), (1, 0, 0, 0, *b1))
        speed = np.linalg.norm((b1 - b0) - (a1 - a0))
        slack = TIME_TOL + (r.eps + 1e-12) / max(speed, 1e-12)
        if want is None:
            # a grazing pass may come within the band: then the hit is at the closest approach
            assert not r.hit or abs(r.contact.signed_distance) <= r.eps
            continue
        hits += 1
        assert r.hit and r.lo <= want + 1e-12 and r.hi >= want - slack, (r.lo, r.hi, want)
        assert r.hi - r.lo <= TIME_TOL
        n = d0 + r.hi * ((b1 - b0) - (a1 - a0))
        assert np.allclose(r.normal, n / np.linalg.norm(n), atol=1e-6)
        assert np.allclose(r.pose_b[:3, 3], b0 + r.hi * (b1 - b0), atol=1e-12)
    assert hits > 5  # about 30 of the 200 random motions meet


def test_toi_twist_spinning_sphere():
    # B's sphere at (rho, 0, 0) in its frame turns about z at omega; A's sphere sits at angle phi
    rho, phi, omega, ra, rb = 2.0, 1.2, 3.0, 0.3, 0.2
    want = (phi - 2 * np.arcsin((ra + rb) / (2 * rho))) / omega
    a = hedra.Sphere(ra, (rho * np.cos(phi), rho * np.sin(phi), 0))
    b = hedra.Sphere(rb, (rho, 0, 0))
    r = hedra.toi_twist(a, b, (None, (0, 0, 0), (0, 0, 0)), (None, (0, 0, 0), (0, 0, omega)))
    assert r.hit and r.lo <= want + 1e-12 and want - 1e-8 <= r.hi <= r.lo + TIME_TOL
    # the centre given explicitly (here the origin) gives the same motion
    r2 = hedra.toi_twist(a, b, (None, (0, 0, 0), (0, 0, 0)),
                         (None, (0, 0, 0), (0, 0, omega), (0, 0, 0)))
    assert r2.lo == r.lo and r2.hi == r.hi
    with pytest.raises(hedra.InvalidInputError):
        hedra.toi_twist(a, b, (None, (0, 0, 0)), (None, (0, 0, 0), (0, 0, 1)))


BOX_HALF = np.array([[0.5, 0.3, 0.2], [0.4, 0.25, 0.35]])


def box_corners(h):
    return np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * h


def sat_separation(ra, ta, ha, rb, tb, hb):
    """The largest separation over the 15 axes of two boxes (> 0: apart by at least it, a lower
    bound on their distance; <= 0: they overlap, exactly when all 15 say so)."""
    axes = [ra[:, i] for i in range(3)] + [rb[:, i] for i in range(3)]
    axes += [np.cross(ra[:, i], rb[:, j]) for i in range(3) for j in range(3)]
    best = -np.inf
    for u in axes:
        norm = np.linalg.norm(u)
        if norm < 1e-9:
            continue
        u = u / norm
        reach = np.abs(ra.T @ u) @ ha + np.abs(rb.T @ u) @ hb
        best = max(best, abs((tb - ta) @ u) - reach)
    return best


def motion_pose(p0, p1, t):
    """hd_motion_from_poses: translation on a line, rotation along the shorter arc (scipy)."""
    r0, r1 = Rotation.from_quat(np.r_[p0[1:4], p0[0]]), Rotation.from_quat(np.r_[p1[1:4], p1[0]])
    turn = (r1 * r0.inv()).as_rotvec()
    return (Rotation.from_rotvec(t * turn) * r0).as_matrix(), p0[4:] + t * (p1[4:] - p0[4:])


def test_toi_safety_against_dense_sampling(rng):
    a, b = hedra.Box(BOX_HALF[0]), hedra.Box(BOX_HALF[1])
    samples = np.linspace(0, 1, 1001)
    hits = 0
    for _ in range(25):
        # starts apart, ends near each other: most motions meet, some pass
        p = [np.r_[unit_q(rng), rng.uniform(-w, w, 3)] for w in (1.5, 0.6, 1.5, 0.6)]
        sep = [sat_separation(*motion_pose(p[0], p[1], t), BOX_HALF[0],
                              *motion_pose(p[2], p[3], t), BOX_HALF[1]) for t in samples]
        if sep[0] <= 1e-6:
            continue
        r = hedra.toi(a, b, p[0], p[1], p[2], p[3])
        overlapping = np.nonzero(np.array(sep) < -1e-9)[0]
        if len(overlapping):
            assert r.hit and r.lo <= samples[overlapping[0]], (r.lo, samples[overlapping[0]])
            hits += 1
        if r.hit:
            ra, ta = motion_pose(p[0], p[1], r.hi)
            rb, tb = motion_pose(p[2], p[3], r.hi)
            assert sat_separation(ra, ta, BOX_HALF[0], rb, tb, BOX_HALF[1]) <= r.eps + 1e-9
            assert np.allclose(r.pose_b[:3, :3], rb, atol=1e-9)
            assert r.hi - r.lo <= TIME_TOL
        else:
            assert r.lo == r.hi == r.toi == 1.0
    assert hits > 8


def test_toi_many_bits_and_threads(rng):
    a, b = hedra.Box(BOX_HALF[0]), hedra.Sphere(0.3, (0.1, 0, 0))
    n = 600
    q0, q1 = rng.normal(size=(n, 4)), rng.normal(size=(n, 4))
    p0 = np.c_[q0 / np.linalg.norm(q0, axis=1)[:, None], rng.uniform(1.5, 2.5, (n, 3))]
    p1 = np.c_[q1 / np.linalg.norm(q1, axis=1)[:, None], rng.uniform(-1, 1, (n, 3))]
    fixed = (1, 0, 0, 0, 0.1, 0, 0)
    r1 = hedra.toi_many(a, b, p0, p1, fixed, fixed, threads=1)
    r2 = hedra.toi_many(a, b, p0, p1, fixed, fixed, threads=2)
    for k in range(len(r1)):
        assert np.array_equal(r1[k], r2[k]), k
    for i in rng.choice(n, 40, replace=False):
        s = hedra.toi(a, b, fixed, fixed, p0[i], p1[i])
        assert (s.hit, s.lo, s.hi, s.iterations) == (r1.hit[i], r1.lo[i], r1.hi[i],
                                                      r1.iterations[i])
        assert np.array_equal(s.normal, r1.normal[i])
    assert r1.hit.sum() > 100
    # a missing end pose leaves the body at rest at its start pose
    rest = hedra.toi_many(a, b, p0, p1, fixed, threads=2)
    assert np.array_equal(rest.lo, r1.lo) and np.array_equal(rest.hi, r1.hi)
    s = hedra.toi(a, b, fixed, None, p0[0], p1[0])
    assert s.lo == r1.lo[0] and s.hi == r1.hi[0]
    empty = hedra.toi_many(a, b, np.zeros((0, 7)), np.zeros((0, 7)))
    assert empty.toi.shape == (0,)
    bad = p1.copy()
    bad[321, 4] = np.nan
    for threads in (1, 2):
        with pytest.raises(hedra.InvalidInputError) as e:
            hedra.toi_many(a, b, p0, bad, threads=threads)
        assert e.value.index == 321 and "poses1_b[321]" in str(e.value)
    with pytest.raises(hedra.InvalidInputError):
        hedra.toi_many(a, b, p0, p1[:5])


def test_shape_cast_sphere_onto_box_face(rng):
    for _ in range(50):
        h = rng.uniform(0.3, 1.0, 3)
        r = rng.uniform(0.05, 0.3)
        y, z = rng.uniform(-1, 1, 2) * h[1:]
        x0, length = h[0] + r + rng.uniform(0.1, 1.0), rng.uniform(1.5, 3.0)
        res = hedra.shape_cast(hedra.Box(h), hedra.Sphere(r), (-length, 0, 0),
                               pose_b=(1, 0, 0, 0, x0, y, z))
        want = (x0 - h[0] - r) / length
        assert res.hit and res.lo <= want + 1e-12 and res.hi >= want - 1e-8
        assert np.allclose(res.normal, [1, 0, 0], atol=1e-6)
    miss = hedra.shape_cast(hedra.Box((1, 1, 1)), hedra.Sphere(0.1), (0, 1, 0),
                            pose_b=(1, 0, 0, 0, 3, 0, 0))
    assert not miss.hit and miss.toi == 1.0 and miss.contact is None


def slab(planes, origin, direction, length):
    """Exact entry of the ray into {x: n.x <= off} (numpy): (t, entering plane) or None."""
    n, off = planes[:, :3], -planes[:, 3]
    nd, gap = n @ direction, off - n @ origin
    enter, leave, face = 0.0, length, -1
    for k in range(len(n)):
        if abs(nd[k]) < 1e-15:
            if gap[k] < 0:
                return None
            continue
        t = gap[k] / nd[k]
        if nd[k] < 0 and t > enter:
            enter, face = t, k
        elif nd[k] > 0:
            leave = min(leave, t)
    return (enter, face, leave) if enter <= leave else None


def test_raycast_against_slab_method(rng):
    checked = 0
    for _ in range(30):
        pts = rng.normal(size=(12, 3))
        poly, hull = hedra.Polytope(pts), ConvexHull(pts)
        pose = np.r_[unit_q(rng), rng.uniform(-1, 1, 3)]
        m = oracle.pose_matrix(pose)
        origins = rng.uniform(-4, 4, (20, 3))
        dirs = rng.normal(size=(20, 3))
        batch = hedra.raycast_many(poly, origins, dirs, length=3.0, pose=pose, threads=2)
        for i in range(20):
            r = hedra.raycast(poly, pose, origins[i], dirs[i], 3.0)
            assert r.hit == batch.hit[i] and r.t == batch.t[i]
            o_local = m[:3, :3].T @ (origins[i] - m[:3, 3])
            d_local = m[:3, :3].T @ dirs[i]
            want = slab(hull.equations, o_local, d_local, 3.0)
            if want is not None and want[2] - want[0] < 1e-7:
                continue  # grazing: within rounding of a miss
            checked += 1
            assert r.hit == (want is not None)
            if want is not None:
                assert abs(r.t - want[0]) <= 1e-9 * (1 + want[0])
                assert r.inside == (want[1] == -1)
                if not r.inside:
                    assert np.allclose(r.normal, m[:3, :3] @ hull.equations[want[1], :3],
                                       atol=1e-6)
                    assert np.allclose(r.point, origins[i] + r.t * dirs[i])
    assert checked > 400
    # batches: one direction and lengths per row; threads give the same bits
    poly = hedra.Box((1, 1, 1))
    org = rng.uniform(-3, 3, (700, 3))
    l1 = hedra.raycast_many(poly, org, (1, 0.2, 0.1), length=np.full(700, 2.0), threads=1)
    l2 = hedra.raycast_many(poly, org, (1, 0.2, 0.1), length=2.0, threads=2)
    for k in range(len(l1)):
        assert np.array_equal(l1[k], l2[k]), k
    with pytest.raises(hedra.InvalidInputError):
        hedra.raycast(poly, None, (0, 0, 0), (0, 0, 0))
    with pytest.raises(hedra.InvalidInputError):
        hedra.raycast_many(poly, org, np.ones((5, 3)))


# hd_ray_cast on this branch's base answers a rounded solid by its core's planes; main's a3b1388
# enters the rounded shape.
def test_raycast_rounded_closed_form(rng):
    for _ in range(100):
        r, c = rng.uniform(0.2, 1.0), rng.uniform(-1, 1, 3)
        o, d = rng.uniform(-4, 4, 3), rng.normal(size=3)
        # |o + t d - c| = r: the first root of the quadratic, clipped at 0 when o is inside
        a, b, k = d @ d, 2 * d @ (o - c), (o - c) @ (o - c) - r * r
        disc = b * b - 4 * a * k
        ray = hedra.raycast(hedra.Sphere(r, c), None, o, d)
        if disc < 1e-6 * a:
            continue  # a miss or a graze
        t = max((-b - np.sqrt(disc)) / (2 * a), 0.0)
        hit = (-b + np.sqrt(disc)) / (2 * a) >= 0
        assert ray.hit == hit
        if hit:
            assert abs(ray.t - t) <= 1e-9 * (1 + t)
            if k > 1e-9:
                n = o + t * d - c
                assert np.allclose(ray.normal, n / np.linalg.norm(n), atol=1e-6)
    box = hedra.raycast(hedra.Box((1, 1, 1), 0.5), None, (-5, 0, 0), (1, 0, 0))
    assert box.t == pytest.approx(3.5, abs=1e-12)


def test_scene_raycast_against_brute_force(rng):
    scene = hedra.Scene()
    bodies = []
    for _ in range(15):
        pts = rng.normal(size=(8, 3)) * 0.5
        pose = np.r_[unit_q(rng), rng.uniform(-5, 5, 3)]
        bodies.append((scene.add(hedra.Polytope(pts), pose), ConvexHull(pts),
                       oracle.pose_matrix(pose)))
    scene.step()
    for _ in range(60):
        o, d = rng.uniform(-6, 6, 3), rng.normal(size=3)
        want = []
        for id_, hull, m in bodies:
            s = slab(hull.equations, m[:3, :3].T @ (o - m[:3, 3]), m[:3, :3].T @ d, np.inf)
            if s is not None:
                want.append((s[0], id_, s[2] - s[0]))
        if any(w[2] < 1e-7 for w in want):
            continue
        want.sort()
        hits = scene.raycast(o, d, all=True)
        assert [h[0] for h in hits] == [w[1] for w in want]
        for (id_, ray), w in zip(hits, want):
            assert abs(ray.t - w[0]) <= 1e-9 * (1 + w[0])
        nearest = scene.raycast(o, d)
        assert (nearest is None) == (not want)
        if want:
            assert nearest[0] == want[0][1]


def test_bad_input():
    a, b = hedra.Box((1, 1, 1)), hedra.Sphere(0.5)
    far = (1, 0, 0, 0, 5, 0, 0)
    with pytest.raises(hedra.InvalidInputError):
        hedra.toi(a, b, pose0_b=far, pose1_b=(1, 0, 0, 0, 0, 0, 0), max_iterations=0)
    with pytest.raises(hedra.HedraError) as e:
        hedra.toi(a, b, pose0_b=far, pose1_b=(1, 0, 0, 0, 0, 0, 0), time_tol=float("nan"))
    assert e.value.status == "HD_ERR_INVALID_ARG"
    with pytest.raises(hedra.HedraError) as e:
        hedra.toi(a, b, pose0_b=far, pose1_b=(1, 0, 0, 0, float("inf"), 0, 0))
    assert e.value.status == "HD_ERR_NONFINITE"
    with pytest.raises(hedra.InvalidInputError):
        hedra.toi(a, b, pose0_b=far, pose1_b=(0, 0, 0, 0, 0, 0, 0))
    with pytest.raises(hedra.InvalidInputError):
        hedra.shape_cast(a, b, (1, 2))
    with pytest.raises(TypeError):
        hedra.toi(a, "b")
    with pytest.raises(hedra.InvalidInputError):
        hedra.raycast(a, None, (0, 0, 5), (0, 0, -1), -1.0)
    with pytest.raises(hedra.HedraError) as e:
        hedra.raycast(a, None, (0, 0, float("nan")), (0, 0, -1))
    assert e.value.status == "HD_ERR_NONFINITE"
    with pytest.raises(hedra.InvalidInputError) as e:
        hedra.raycast_many(a, np.zeros((4, 3)), (0, 0, 1), length=[1, 2, -3, 4], threads=2)
    assert e.value.index == 2
    # an iteration cap reached raises rather than answering
    with pytest.raises(hedra.HedraError) as e:
        hedra.toi(a, b, pose0_b=far, pose1_b=(1, 0, 0, 0, 1.5 + 1e-13, 0, 0), max_iterations=1)
    assert e.value.status == "HD_ERR_ITERATION_LIMIT"
