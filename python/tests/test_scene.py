"""hedra.Scene against independent answers: over several frames of moving, added and removed
bodies, every pair that the oracle (tests/oracle.py: HiGHS and the SLSQP bracket) finds clearly
intersecting is reported, and none that it finds clearly separated; queries likewise."""
import gc

import numpy as np
import pytest

import hedra
import oracle

MARGIN = 1e-6  # the oracle's band, relative to a scale of about 1 to 5 here


def random_pose(rng, world):
    return tuple(rng.normal(size=4)) + tuple(rng.uniform(0, world, size=3))


def posed_vertices(polytope, pose):
    return oracle.posed(polytope.vertices, pose)


def oracle_verdict(A, B):
    """'separated' or 'intersecting' when the oracle is sure, else None."""
    if (A.min(axis=0) > B.max(axis=0) + MARGIN).any() or \
            (B.min(axis=0) > A.max(axis=0) + MARGIN).any():
        return "separated"  # boxes apart: no need for the LPs
    lower, _ = oracle.distance_bracket(A, B)
    if lower > MARGIN:
        return "separated"
    if oracle.depth_lower_bound(A, B) > MARGIN:
        return "intersecting"
    return None


def check_frame(bodies, pairs, verdicts):
    """bodies: id -> (polytope, pose); the step's contacts against the oracle, pair by pair."""
    reported = {(int(a), int(b)): int(v) for (a, b), v in zip(pairs, verdicts)}
    assert all(a < b for a, b in reported)
    assert list(reported) == sorted(reported), "contacts sorted by (a, b)"
    ids = sorted(bodies)
    checked = {"separated": 0, "intersecting": 0}
    for i, a in enumerate(ids):
        A = posed_vertices(*bodies[a])
        for b in ids[i + 1:]:
            truth = oracle_verdict(A, posed_vertices(*bodies[b]))
            if truth == "intersecting":
                assert reported.get((a, b)) == hedra.INTERSECTING, (a, b)
            elif truth == "separated":
                assert (a, b) not in reported, (a, b)
            if truth:
                checked[truth] += 1
    return checked


@pytest.mark.parametrize("broadphase, threads", [("tree", 0), ("sap", 1), ("tree", 2)])
def test_scene_frames_against_the_oracle(rng, broadphase, threads):
    world = 4.0
    scene = hedra.Scene(threads=threads, broadphase=broadphase)
    shapes = [hedra.Polytope(rng.normal(scale=0.5, size=(8, 3))) for _ in range(6)]
    bodies = {}
    for _ in range(20):
        shape, pose = shapes[rng.integers(len(shapes))], random_pose(rng, world)
        bodies[scene.add(shape, pose)] = (shape, pose)
    totals = {"separated": 0, "intersecting": 0}
    for frame in range(4):
        pairs, verdicts = scene.step()
        for k, n in check_frame(bodies, pairs, verdicts).items():
            totals[k] += n
        assert scene.stats["bodies"] == len(bodies) == len(scene)
        assert scene.stats["contacts"] == len(pairs) and scene.stats["failures"] == 0
        # move half the bodies a little (one by one and in a batch), remove one, add one
        ids = sorted(bodies)
        moved = ids[::2]
        poses = np.array([np.array(bodies[i][1]) + np.r_[0, 0, 0, 0, rng.normal(0, 0.3, 3)]
                          for i in moved])
        scene.move(moved[0], poses[0])
        scene.move_many(moved[1:], poses[1:])
        for i, pose in zip(moved, poses):
            bodies[i] = (bodies[i][0], tuple(pose))
        gone = ids[rng.integers(len(ids))]
        scene.remove(gone)
        del bodies[gone]
        shape, pose = hedra.Polytope(rng.normal(scale=0.5, size=(8, 3))), random_pose(rng, world)
        bodies[scene.add(shape, pose)] = (shape, pose)
    assert totals["intersecting"] > 0 and totals["separated"] > 0, totals


def test_queries_against_the_oracle(rng):
    scene = hedra.Scene(threads=1)
    bodies = {}
    for _ in range(25):
        shape, pose = hedra.Polytope(rng.normal(scale=0.4, size=(8, 3))), random_pose(rng, 4.0)
        bodies[scene.add(shape, pose)] = (shape, pose)
    probe = hedra.Polytope(rng.normal(scale=0.8, size=(10, 3)))
    probe_pose = (1, 0, 0, 0, 2.0, 2.0, 2.0)
    ids, verdicts = scene.query_polytope(probe, pose=probe_pose)
    found = dict(zip(ids.tolist(), verdicts.tolist()))
    P = posed_vertices(probe, probe_pose)
    for i, body in bodies.items():
        truth = oracle_verdict(P, posed_vertices(*body))
        if truth == "intersecting":
            assert found.get(i) == hedra.INTERSECTING
        elif truth == "separated":
            assert i not in found
    lo, hi = np.array([1.0, 1.0, 1.0]), np.array([2.5, 2.5, 2.5])
    inside = set(scene.query_box(tuple(lo), tuple(hi)).tolist())
    for i, body in bodies.items():
        V = posed_vertices(*body)
        if (V.min(axis=0) <= hi).all() and (V.max(axis=0) >= lo).all():
            assert i in inside, i  # a body's box holds its posed shape
        radius = body[0].sphere[1]
        if (V.min(axis=0) > hi + 2 * radius).any() or (V.max(axis=0) < lo - 2 * radius).any():
            assert i not in inside, i


def test_bodies_keep_their_polytopes():
    scene = hedra.Scene(threads=1)
    body = scene.add(hedra.Polytope([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]),
                     pose=np.eye(4))
    other = scene.add(hedra.Polytope([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]),
                      pose=(1, 0, 0, 0, 0.1, 0.1, 0.1))
    gc.collect()  # the scene holds the only references
    pairs, verdicts = scene.step()
    assert pairs.tolist() == [[body, other]] and verdicts.tolist() == [hedra.INTERSECTING]
    shape, pose = scene.body(other)
    assert len(shape) == 4 and pose[:3, 3].tolist() == pytest.approx([0.1, 0.1, 0.1])
    scene.remove(other)
    gc.collect()
    pairs, _ = scene.step()
    assert len(pairs) == 0 and scene.ids == [body]


def test_scene_errors():
    cube = hedra.Polytope([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)])
    with pytest.raises(hedra.InvalidInputError, match="broadphase"):
        hedra.Scene(broadphase="grid")
    with pytest.raises(hedra.InvalidInputError):
        hedra.Scene(threads=-1)
    with pytest.raises(hedra.InvalidInputError):
        hedra.Scene(algo="epa")
    scene = hedra.Scene(threads=1)
    body = scene.add(cube)
    with pytest.raises(TypeError):
        scene.add([[0, 0, 0]])
    with pytest.raises(hedra.InvalidInputError) as info:
        scene.add(cube, pose=(0, 0, 0, 0, 0, 0, 0))
    assert info.value.status == "HD_ERR_BAD_POSE"
    with pytest.raises(hedra.InvalidInputError) as info:
        scene.move(body, (1, 0, 0, 0, np.nan, 0, 0))
    assert info.value.status == "HD_ERR_NONFINITE"
    with pytest.raises(hedra.InvalidInputError):
        scene.move(body + 7, (1, 0, 0, 0, 0, 0, 0))
    with pytest.raises(hedra.InvalidInputError, match="no body"):
        scene.remove(body + 7)
    with pytest.raises(hedra.InvalidInputError, match="differ in length"):
        scene.move_many([body], np.zeros((2, 7)))
    with pytest.raises(hedra.InvalidInputError) as info:
        scene.move_many([body], np.zeros((1, 7)))
    assert "body 0" in str(info.value) and info.value.status == "HD_ERR_BAD_POSE"
    assert len(scene) == 1 and scene.stats is None


def box_axes(R):
    """The 15 separating-axis candidates of two boxes with rotations R[0], R[1]: the face
    normals of each and the cross products of their edge directions (the facet normals of the
    Minkowski difference of two boxes are among them)."""
    axes = [R[0][:, i] for i in range(3)] + [R[1][:, i] for i in range(3)]
    for i in range(3):
        for j in range(3):
            c = np.cross(R[0][:, i], R[1][:, j])
            if np.linalg.norm(c) > 1e-6:
                axes.append(c / np.linalg.norm(c))
    return axes


def sat_depth(A, B, axes):
    """Penetration depth of two overlapping boxes by brute force over the candidate axes:
    min over u of min(h_A(u) + h_B(-u), h_A(-u) + h_B(u)), from the posed vertices."""
    return min(min((A @ u).max() - (B @ u).min(), (B @ u).max() - (A @ u).min()) for u in axes)


@pytest.mark.parametrize("threads", [1, 2])
def test_contact_details_against_separating_axes(rng, threads):
    """Scene(manifold=True): every contact of random boxes over a few frames against a numpy
    separating-axis computation (independent of hedra): the depth, the normal attaining it, the
    witnesses, and the manifold points inside the overlap slab along the normal."""
    corners = np.array([[x, y, z] for x in (-0.5, 0.5) for y in (-0.4, 0.4)
                        for z in (-0.3, 0.3)])
    box = hedra.Polytope(corners)
    scene = hedra.Scene(threads=threads, manifold=True)
    poses = {}
    for _ in range(60):
        pose = random_pose(rng, 3.0)
        poses[scene.add(box, pose=pose)] = pose
    checked = 0
    for frame in range(4):
        if frame:
            for i in rng.choice(sorted(poses), size=20, replace=False):
                poses[int(i)] = random_pose(rng, 3.0)
                scene.move(int(i), poses[int(i)])
        pairs, verdicts = scene.step()
        d = scene.details
        assert set(d) == {"signed_distance", "normal", "witness_a", "witness_b", "bounds",
                          "manifold_count", "manifold_points", "manifold_separation"}
        assert len(d["signed_distance"]) == len(pairs)
        for k, (a, b) in enumerate(pairs):
            A = posed_vertices(box, poses[int(a)])
            B = posed_vertices(box, poses[int(b)])
            R = [oracle.quaternion_matrix(poses[int(i)][:4]) for i in (a, b)]
            n, s = d["normal"][k], d["signed_distance"][k]
            tol = 1e-9 * 8
            assert abs(np.linalg.norm(n) - 1) < 1e-12
            assert abs((A @ n).max() - (B @ n).min() + s) < tol   # n attains the distance
            assert np.allclose(d["witness_b"][k] - d["witness_a"][k], s * n, atol=tol)
            if verdicts[k] == hedra.INTERSECTING:
                depth = sat_depth(A, B, box_axes(R))
                assert abs(-s - depth) < tol, (a, b, s, depth)
                lo, hi = -d["bounds"][k][1], -d["bounds"][k][0]  # bounds on the depth
                assert lo - tol <= depth <= hi + tol
                checked += 1
            count = d["manifold_count"][k]
            assert 1 <= count <= 4
            along = d["manifold_points"][k, :count] @ n
            assert (along >= (B @ n).min() - tol).all() and (along <= (A @ n).max() + tol).all()
            assert (d["manifold_separation"][k, :count] <= tol).all()
    assert checked > 20
    plain = hedra.Scene(threads=threads)
    plain.add(box)
    plain.step()
    assert plain.details is None


def test_depth_without_manifold():
    """Scene(depth=True): two unit cubes overlapping by 0.25 along x, known by construction."""
    cube = hedra.Polytope(np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)],
                                   float))
    scene = hedra.Scene(threads=1, depth=True)
    scene.add(cube)
    scene.add(cube, pose=(1, 0, 0, 0, 0.75, 0.1, 0.2))
    pairs, verdicts = scene.step()
    assert pairs.tolist() == [[0, 1]] and verdicts.tolist() == [hedra.INTERSECTING]
    d = scene.details
    assert set(d) == {"signed_distance", "normal", "witness_a", "witness_b", "bounds"}
    assert abs(d["signed_distance"][0] + 0.25) < 1e-12
    assert np.allclose(d["normal"][0], [1, 0, 0], atol=1e-12)
    scene.move(1, (1, 0, 0, 0, 5, 0, 0))
    pairs, _ = scene.step()
    assert len(pairs) == 0 and d["signed_distance"].shape == (1,)   # the old dict is a copy
    assert scene.details["normal"].shape == (0, 3)


def test_filters_and_proximity_against_the_oracle(rng):
    """Random filters and a proximity d: every pair the filter lets through that the oracle finds
    clearly closer than d is reported (separated ones with verdict 0 and their distance), none
    that it finds clearly farther, and no filtered pair."""
    d = 0.4
    scene = hedra.Scene(threads=2, proximity=d)
    shapes = [hedra.Polytope(rng.normal(scale=0.4, size=(8, 3))) for _ in range(4)]
    bodies, filters = {}, {}
    for _ in range(16):
        shape, pose = shapes[rng.integers(len(shapes))], random_pose(rng, 3.0)
        i = scene.add(shape, pose)
        bodies[i] = (shape, pose)
        filters[i] = (1 << int(rng.integers(2)), int(rng.choice([1, 2, 3, 0xFFFFFFFF])),
                      int(rng.integers(3)))
        scene.set_filter(i, *filters[i])
        assert scene.filter(i) == filters[i]
    # and a pair of unit cubes 0.2 apart, far from the others, that every filter lets meet
    cube = hedra.Polytope(np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)],
                                   dtype=float))
    for x in (20.0, 21.2):
        pose = (1, 0, 0, 0, x, 20.0, 20.0)
        i = scene.add(cube, pose)
        bodies[i], filters[i] = (cube, pose), (1, 0xFFFFFFFF, 0)
    pairs, verdicts = scene.step()
    reported = {(int(a), int(b)): int(v) for (a, b), v in zip(pairs, verdicts)}
    distances = dict(zip(reported, scene.details["signed_distance"]))
    judged = 0
    ids = sorted(bodies)
    for k, a in enumerate(ids):
        for b in ids[k + 1:]:
            (ca, ma, ga), (cb, mb, gb) = filters[a], filters[b]
            lets = (ca & mb) and (cb & ma) and not (ga and ga == gb)
            if not lets:
                assert (a, b) not in reported, (a, b)
                continue
            A, B = posed_vertices(*bodies[a]), posed_vertices(*bodies[b])
            if oracle.lp_intersects(A, B):
                continue  # contacts are test_scene_frames_against_the_oracle's
            lower, upper = oracle.distance_bracket(A, B)
            if upper < d - MARGIN:
                assert reported.get((a, b)) == hedra.SEPARATED, (a, b)
                assert abs(distances[(a, b)] - upper) <= 1e-6 + (upper - lower)
                judged += 1
            elif lower > d + MARGIN:
                assert (a, b) not in reported, (a, b)
    assert judged > 0, "no pair within the proximity: the test says nothing"
    assert scene.stats["near"] == sum(v == hedra.SEPARATED for v in reported.values())
    with pytest.raises(hedra.InvalidInputError):
        scene.set_filter(999)
    with pytest.raises(hedra.InvalidInputError):
        scene.set_filter(ids[0], category=1 << 40)
    with pytest.raises(hedra.InvalidInputError):
        hedra.Scene(proximity=-1.0)
