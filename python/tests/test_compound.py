"""Compounds against brute force over the pairs of pieces with the oracle (HiGHS feasibility,
the depth lower bound and the SLSQP distance bracket on the posed vertices, never hedra): verdicts,
distances, signed distances, manifold pieces and the enclosure; OBJ files and their errors."""
import numpy as np
import pytest

import hedra
import oracle


def unit_q(rng):
    q = rng.normal(size=4)
    return q / np.linalg.norm(q)


def compose(body, piece):
    return oracle.pose_matrix(body) @ oracle.pose_matrix(piece)


def random_compound(rng, k):
    points = [rng.normal(size=(rng.integers(4, 9), 3)) * 0.4 for _ in range(k)]
    poses = np.array([np.r_[unit_q(rng), rng.uniform(-1, 1, 3)] for _ in range(k)])
    return hedra.Compound([hedra.Polytope(p) for p in points], poses), poses


def posed_pieces(compound, piece_poses, body):
    return [oracle.posed(p.vertices, compose(body, q)) for p, q in zip(compound.pieces, piece_poses)]


def test_compound_object():
    a, b = hedra.Box((1, 1, 1)), hedra.Sphere(0.5)
    c = hedra.Compound([a, b], [np.eye(4), np.eye(4)])
    assert len(c) == 2 and c.pieces[0] is a and c.pieces[1] is b
    assert np.array_equal(c.poses[1], np.eye(4))
    assert np.allclose(c.bounds, [[-1, -1, -1], [1, 1, 1]])
    assert len(hedra.Compound([a])) == 1
    assert np.array_equal(hedra.Compound([a, b], [(1, 0, 0, 0, 0, 0, 2)] * 2).poses[1][:3, 3],
                          [0, 0, 2])
    with pytest.raises(TypeError):
        hedra.Compound([a, "b"])
    with pytest.raises(hedra.InvalidInputError):
        hedra.Compound([a, b], np.zeros((3, 7)))
    with pytest.raises(hedra.HedraError) as e:
        hedra.Compound([])
    assert e.value.status == "HD_ERR_EMPTY"
    with pytest.raises(hedra.HedraError):
        hedra.Compound([a, b], [(0, 0, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0, 0)])
    with pytest.raises(TypeError):
        hedra.compound_collide(a, c)


def test_queries_against_brute_force(rng):
    decided = 0
    for _ in range(30):
        ca, pa = random_compound(rng, int(rng.integers(1, 4)))
        cb, pb = random_compound(rng, int(rng.integers(1, 4)))
        body_a = np.r_[unit_q(rng), rng.uniform(-0.5, 0.5, 3)]
        body_b = np.r_[unit_q(rng), rng.uniform(-2.0, 2.0, 3)]
        A, B = posed_pieces(ca, pa, body_a), posed_pieces(cb, pb, body_b)
        overlap = {(i, j): oracle.depth_lower_bound(A[i], B[j]) for i in range(len(A))
                   for j in range(len(B))}
        brackets = {(i, j): oracle.distance_bracket(A[i], B[j]) for i in range(len(A))
                    for j in range(len(B))}
        deep = max(overlap.values())
        lower = min(lo for lo, _ in brackets.values())
        upper = min(up for _, up in brackets.values())
        col = hedra.compound_collide(ca, cb, body_a, body_b)
        dist = hedra.compound_distance(ca, cb, body_a, body_b)
        sd = hedra.compound_signed_distance(ca, cb, body_a, body_b)
        if deep > 1e-6:
            decided += 1
            assert col.verdict == "intersecting" and dist.distance == 0.0
            assert overlap[col.piece_a, col.piece_b] > 0 or oracle.lp_intersects(
                A[col.piece_a], B[col.piece_b])
            assert sd.signed_distance <= -deep + 1e-9
        elif lower > 1e-6:
            decided += 1
            assert col.verdict == "separated" and col.piece_a == -1 and col.pair is None
            assert lower - 1e-9 <= dist.distance <= upper + 1e-9
            assert sd.signed_distance == pytest.approx(dist.distance, abs=1e-9)
            lo, up = brackets[dist.piece_a, dist.piece_b]
            assert lo - 1e-9 <= dist.pair.distance <= up + 1e-9
        if col.pair is not None:
            assert col.pair.check()
        assert dist.pair.check()
        assert sd.pair.signed_distance == sd.signed_distance
        m = hedra.compound_contact_manifold(ca, cb, body_a, body_b)
        for p in m.points:
            lo, _ = brackets[p.piece_a, p.piece_b]
            assert lo <= 1e-9  # only pieces in contact carry points
        assert (len(m.points) > 0) == (sd.signed_distance <= sd.pair.eps)
    assert decided > 20


# src/compound/ on this branch builds the tree's boxes from the hull vertices only, so the descent
# prunes a pair of rounded pieces that is nearer than its core boxes; main's 58b8aca grows the
# boxes by the radius.
def test_rounded_pieces_closed_form():
    # two dumbbells of spheres: the distance is the closest centre pair's less the radii
    a = hedra.Compound([hedra.Sphere(0.5, (-1, 0, 0)), hedra.Sphere(0.3, (1, 0, 0))])
    b = hedra.Compound([hedra.Sphere(0.2), hedra.Capsule(0.5, 0.1)],
                       [(1, 0, 0, 0, 0, 2, 0), (1, 0, 0, 0, 0, -2, 0)])
    body_b = (1, 0, 0, 0, 1, 0, 0)  # b's sphere at (1, 2, 0), its capsule about (1, -2, z)
    d = hedra.compound_distance(a, b, None, body_b)
    assert d.distance == pytest.approx(1.5, abs=1e-12) and (d.piece_a, d.piece_b) == (1, 0)
    sd = hedra.compound_signed_distance(a, b, None, (1, 0, 0, 0, 1, -1.7, 0))
    # b's sphere now at (1, 0.3, 0): 0.3 from a's sphere of radius 0.3, so 0.3 - 0.5 deep
    assert sd.signed_distance == pytest.approx(-0.2, abs=1e-12)
    assert (sd.piece_a, sd.piece_b) == (1, 0)


def test_enclosure_against_brute_force(rng):
    for _ in range(8):
        c, poses = random_compound(rng, 3)
        pieces = posed_pieces(c, poses, None)
        pts = rng.uniform(-1.5, 1.5, (12, 3))
        r = hedra.enclosure(pts, c)
        brackets = [[oracle.distance_bracket(p, x[None]) for p in pieces] for x in pts]
        lows = [min(b[0] for b in row) for row in brackets]
        ups = [min(b[1] for b in row) for row in brackets]
        assert max(lows) - 1e-9 <= r.distance <= max(ups) + 1e-9
        if r.vertex >= 0:
            assert ups[r.vertex] >= max(lows) - 1e-9
            lo, up = brackets[r.vertex][r.piece]
            assert lo - 1e-9 <= np.linalg.norm(r.witness - pts[r.vertex]) <= up + 1e-9
        clearly_in = sum(1 for u in ups if u < 1e-12)
        clearly_out = sum(1 for lo in lows if lo > 1e-9)
        assert clearly_in <= r.inside <= len(pts) - clearly_out
    with pytest.raises(hedra.HedraError) as e:
        hedra.enclosure(np.zeros((0, 3)), c)
    assert e.value.status == "HD_ERR_EMPTY"


def cube_obj(offset):
    v = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], float) + offset
    return v


def test_from_obj(tmp_path):
    text = []
    for name, offset in (("left", (0, 0, 0)), ("right", (3, 0, 0))):
        text.append(f"o {name}")
        text += [f"v {x} {y} {z}" for x, y, z in cube_obj(offset)]
    path = tmp_path / "two.obj"
    path.write_text("\n".join(text) + "\n")
    c = hedra.Compound.from_obj(str(path))
    assert len(c) == 2
    for piece, offset in zip(c.pieces, ((0, 0, 0), (3, 0, 0))):
        assert np.array_equal(np.sort(piece.vertices, 0), np.sort(cube_obj(offset), 0))
    # a unit cube at x in [1.5, 2.5] lies 0.5 from both pieces
    probe = hedra.Compound([hedra.Polytope(cube_obj((1.5, 0, 0)))])
    assert hedra.compound_distance(c, probe).distance == pytest.approx(0.5, abs=1e-12)
    bad = tmp_path / "bad.obj"
    bad.write_text("o a\nv 0 0 0\nv 1 x 0\n")
    with pytest.raises(hedra.ParseError) as e:
        hedra.Compound.from_obj(str(bad))
    assert e.value.line == 3
    with pytest.raises(hedra.FileError):
        hedra.Compound.from_obj(str(tmp_path / "missing.obj"))
