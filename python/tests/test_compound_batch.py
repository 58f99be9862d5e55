"""compound_collide_many, compound_distance_many, compound_signed_distance_many against a numpy
brute force over the pairs of pieces, with closed forms: sphere-sphere |c1 - c2| - r1 - r2 and
sphere-box, the box's signed distance to the sphere's centre minus the radius; and against the
single calls, bit for bit, on 1 and 2 threads (enough poses that both threads get chunks)."""
import numpy as np
import pytest

import hedra

N = 600                   # two chunks of at least 256 poses: both threads work
SPHERES_A = [((-0.8, 0.0, 0.0), 0.5), ((0.8, 0.0, 0.0), 0.35)]
SPHERE_B = ((0.0, 0.0, 0.9), 0.3)
BOX_B = np.array([0.5, 0.3, 0.2])            # half extents, at the origin of B's frame, turned
BOX_TURN = (np.cos(0.3), 0.0, np.sin(0.3), 0.0)   # 0.6 rad about y


def quat_matrix(q):
    w, x, y, z = np.asarray(q, dtype=float) / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def compounds():
    a = hedra.Compound([hedra.Sphere(r) for _, r in SPHERES_A],
                       poses=[(1, 0, 0, 0, *c) for c, _ in SPHERES_A])
    b = hedra.Compound([hedra.Sphere(SPHERE_B[1]), hedra.Box(tuple(BOX_B))],
                       poses=[(1, 0, 0, 0, *SPHERE_B[0]), (*BOX_TURN, 0, 0, 0)])
    return a, b


def box_signed_distance(p):
    """Signed distance of points p (n, 3), in the box's frame, to the box (negative inside)."""
    q = np.abs(p) - BOX_B
    return np.linalg.norm(np.maximum(q, 0.0), axis=1) + np.minimum(q.max(axis=1), 0.0)


def brute_force(poses_a, poses_b):
    """The least signed distance over the four pairs of pieces at each pose (n,)."""
    ra = np.array([quat_matrix(p[:4]) for p in poses_a])
    rb = np.array([quat_matrix(p[:4]) for p in poses_b])
    ta, tb = poses_a[:, 4:], poses_b[:, 4:]
    rbox = rb @ quat_matrix(BOX_TURN)
    sb = tb + np.einsum("nij,j->ni", rb, SPHERE_B[0])
    best = np.full(len(poses_a), np.inf)
    for c, r in SPHERES_A:
        sa = ta + np.einsum("nij,j->ni", ra, c)
        best = np.minimum(best, np.linalg.norm(sa - sb, axis=1) - r - SPHERE_B[1])
        local = np.einsum("nji,nj->ni", rbox, sa - tb)   # the sphere's centre in the box's frame
        best = np.minimum(best, box_signed_distance(local) - r)
    return best


def random_poses(rng, n, spread):
    q = rng.normal(size=(n, 4))
    return np.hstack([q / np.linalg.norm(q, axis=1)[:, None], rng.uniform(-spread, spread,
                                                                           size=(n, 3))])


@pytest.fixture
def batch(rng):
    a, b = compounds()
    poses_a = random_poses(rng, N, 0.5)
    poses_b = random_poses(rng, N, 2.0)
    return a, b, poses_a, poses_b, brute_force(poses_a, poses_b)


def test_against_the_brute_force(batch):
    a, b, poses_a, poses_b, truth = batch
    clear = np.abs(truth) > 1e-6
    assert clear.sum() > N // 2
    verdicts = hedra.compound_collide_many(a, b, poses_b, poses_a)
    assert (verdicts[clear & (truth > 0)] == hedra.SEPARATED).all()
    assert (verdicts[clear & (truth < 0)] == hedra.INTERSECTING).all()
    print("intersecting:", int((truth < 0).sum()), "of", N)
    dist = hedra.compound_distance_many(a, b, poses_b, poses_a)
    np.testing.assert_allclose(dist, np.maximum(truth, 0.0), atol=1e-9)
    sd = hedra.compound_signed_distance_many(a, b, poses_b, poses_a)
    np.testing.assert_allclose(sd.signed_distance, truth, atol=1e-8)
    np.testing.assert_allclose(np.linalg.norm(sd.normal, axis=1), 1.0, atol=1e-9)
    gap = sd.witness_b - sd.witness_a
    np.testing.assert_allclose(gap, sd.signed_distance[:, None] * sd.normal, atol=1e-8)


@pytest.mark.parametrize("threads", [1, 2])
def test_bits_of_the_single_calls(batch, threads):
    a, b, poses_a, poses_b, _ = batch
    verdicts = hedra.compound_collide_many(a, b, poses_b, poses_a, threads=threads)
    dist, wa, wb = hedra.compound_distance_many(a, b, poses_b, poses_a, threads=threads,
                                                witnesses=True)
    sd = hedra.compound_signed_distance_many(a, b, poses_b, poses_a, threads=threads,
                                             gradient=True)
    codes = {v: i for i, v in enumerate(hedra.VERDICTS)}
    for i in range(0, N, 7):
        pa, pb = poses_a[i], poses_b[i]
        assert verdicts[i] == codes[hedra.compound_collide(a, b, pa, pb).verdict]
        d = hedra.compound_distance(a, b, pa, pb)
        assert dist[i] == d.distance
        assert (wa[i] == d.pair.witness_a).all() and (wb[i] == d.pair.witness_b).all()
        s = hedra.compound_signed_distance(a, b, pa, pb, gradient=True)
        assert sd.signed_distance[i] == s.signed_distance
        assert (sd.normal[i] == s.pair.normal).all()
        assert (sd.witness_a[i] == s.pair.witness_a).all()
        assert (sd.gradient_a[i] == s.pair.gradient[0]).all()
        assert (sd.gradient_b[i] == s.pair.gradient[1]).all()


def test_one_pose_for_all_and_thread_counts_agree(batch):
    a, b, poses_a, poses_b, _ = batch
    one = hedra.compound_signed_distance_many(a, b, poses_b, poses_a[0], threads=1)
    two = hedra.compound_signed_distance_many(a, b, poses_b, np.tile(poses_a[0], (N, 1)),
                                              threads=2)
    assert (one.signed_distance == two.signed_distance).all()
    m = np.array([np.eye(4)] * N)
    m[:, :3, 3] = poses_b[:, 4:]
    quat = np.hstack([np.tile([1.0, 0, 0, 0], (N, 1)), poses_b[:, 4:]])
    assert (hedra.compound_distance_many(a, b, m) == hedra.compound_distance_many(a, b, quat)).all()


def test_bad_input(batch):
    a, b, poses_a, poses_b, _ = batch
    for func in (hedra.compound_collide_many, hedra.compound_distance_many,
                 hedra.compound_signed_distance_many):
        with pytest.raises(TypeError, match="must be a hedra.Compound"):
            func(a.pieces[0], b, poses_b)
        with pytest.raises(TypeError, match="b must be a hedra.Compound"):
            func(a, "box", poses_b)
        bad = poses_b.copy()
        bad[321, 5] = np.nan
        with pytest.raises(hedra.InvalidInputError) as info:
            func(a, b, bad, poses_a, threads=2)
        assert info.value.index == 321 and "poses_b[321]" in str(info.value)
        with pytest.raises(hedra.InvalidInputError, match="poses_a holds"):
            func(a, b, poses_b, poses_a[:5])


def test_large_pieces_on_workspaces(rng):
    """Pieces too large for the stack scratch: each worker's workspace gives the single call's
    bits, and a pose whose bounding spheres are apart is separated."""
    cyl = hedra.Cylinder(0.5, 0.4, sides=48)
    a = hedra.Compound([cyl, cyl], poses=[(1, 0, 0, 0, -0.6, 0, 0), (1, 0, 0, 0, 0.6, 0, 0)])
    b = hedra.Compound([hedra.Box((0.3, 0.3, 0.3))])
    poses_b = random_poses(rng, N, 2.0)
    sd = hedra.compound_signed_distance_many(a, b, poses_b, threads=2)
    for i in range(0, N, 37):
        s = hedra.compound_signed_distance(a, b, None, poses_b[i])
        assert sd.signed_distance[i] == s.signed_distance
        assert (sd.normal[i] == s.pair.normal).all()
    # far poses: farther than both bounding spheres (|centre| + 0.5 + 0.6 and 0.3 sqrt 3) apart
    far = np.linalg.norm(poses_b[:, 4:], axis=1) > 0.6 + np.hypot(0.5, 0.4) + 0.3 * np.sqrt(3)
    assert (sd.signed_distance[far] > 0).all()
