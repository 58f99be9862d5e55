"""Rounded shapes (Polytope(points, radius), Sphere, Capsule, Box, Cylinder, Cone) against closed
forms in numpy: sphere-sphere and sphere-box distances, capsule-capsule by the segment distance of
oracle.py, the polygon vertices of hedra/shapes.h; every query and batch answering for them."""
import pickle

import numpy as np
import pytest

import hedra
import oracle


def random_pose(rng, spread=2.0):
    q = rng.normal(size=4)
    return tuple(q / np.linalg.norm(q)) + tuple(rng.uniform(-spread, spread, 3))


def test_radius_property_pickle_and_repr():
    p = hedra.Polytope(np.eye(3), radius=0.25)
    assert p.radius == 0.25 and hedra.Polytope(np.eye(3)).radius == 0.0
    q = pickle.loads(pickle.dumps(p))
    assert q.radius == 0.25 and np.array_equal(q.vertices, p.vertices)
    assert "radius=0.25" in repr(p)
    # the box and sphere grow by the radius (include/hedra/polytope.h)
    assert np.allclose(p.bounds, [[-0.25] * 3, [1.25] * 3])


@pytest.mark.parametrize("bad, status", [(-1.0, "HD_ERR_INVALID_ARG"),
                                         (float("nan"), "HD_ERR_NONFINITE"),
                                         (float("inf"), "HD_ERR_NONFINITE")])
def test_bad_radius(bad, status):
    for make in (lambda: hedra.Polytope(np.eye(3), radius=bad), lambda: hedra.Sphere(bad),
                 lambda: hedra.Capsule(1.0, bad), lambda: hedra.Box((1, 1, 1), bad),
                 lambda: hedra.Cylinder(1.0, 1.0, rounding=bad)):
        with pytest.raises(hedra.HedraError) as e:
            make()
        assert e.value.status == status


def test_bad_sizes():
    with pytest.raises(hedra.InvalidInputError):
        hedra.Box((1, 2))
    with pytest.raises(hedra.InvalidInputError):
        hedra.Cylinder(1.0, 1.0, sides=2)
    with pytest.raises(hedra.InvalidInputError):
        hedra.Cone(1.0, -1.0)
    with pytest.raises(TypeError):
        hedra.Sphere("one")


def test_sphere_pairs_closed_form(rng):
    for _ in range(200):
        ra, rb = rng.uniform(0.1, 1.0, 2)
        ca, cb = rng.uniform(-1, 1, (2, 3))
        pa, pb = random_pose(rng), random_pose(rng)
        a, b = hedra.Sphere(ra, ca), hedra.Sphere(rb, cb)
        wa, wb = oracle.posed([ca], pa)[0], oracle.posed([cb], pb)[0]
        gap = np.linalg.norm(wb - wa) - ra - rb
        sd = hedra.signed_distance(a, b, pa, pb)
        assert abs(sd.signed_distance - gap) <= 1e-12 * 8
        assert np.allclose(sd.normal, (wb - wa) / np.linalg.norm(wb - wa), atol=1e-9)
        assert np.allclose(sd.witness_b - sd.witness_a, gap * sd.normal, atol=1e-9)
        d = hedra.distance(a, b, pa, pb)
        assert abs(d.distance - max(gap, 0.0)) <= 1e-11
        verdict = hedra.collide(a, b, pa, pb).verdict
        if abs(gap) > 1e-9:
            assert verdict == ("separated" if gap > 0 else "intersecting")
        m = hedra.contact_manifold(a, b, pa, pb)
        assert abs(m.contact.signed_distance - gap) <= 1e-11
        assert (len(m.points) > 0) == (gap <= 1e-9)


def test_capsule_pairs_closed_form(rng):
    for _ in range(200):
        ha, hb = rng.uniform(0.0, 1.0, 2)
        ra, rb = rng.uniform(0.05, 0.5, 2)
        pa, pb = random_pose(rng, 1.0), random_pose(rng, 1.0)
        a, b = hedra.Capsule(ha, ra), hedra.Capsule(hb, rb)
        sa = oracle.posed([[0, 0, -ha], [0, 0, ha]], pa)
        sb = oracle.posed([[0, 0, -hb], [0, 0, hb]], pb)
        seg = float(oracle._segment_distance(sa[0], sa[1], sb[0], sb[1]))
        gap = seg - ra - rb
        if seg < 1e-6:
            continue  # crossing axes: the depth has no closed form here
        sd = hedra.signed_distance(a, b, pa, pb).signed_distance
        assert abs(sd - gap) <= 1e-9, (sd, gap)
        assert abs(hedra.distance(a, b, pa, pb).distance - max(gap, 0.0)) <= 1e-9
        if abs(gap) > 1e-9:
            want = "separated" if gap > 0 else "intersecting"
            for algo in ("gjk", "cddual", "lp"):
                assert hedra.collide(a, b, pa, pb, algo=algo).verdict == want


def test_rounded_box_against_sphere(rng):
    for _ in range(200):
        h = rng.uniform(0.2, 1.0, 3)
        rbox, rs = rng.uniform(0.0, 0.3), rng.uniform(0.05, 0.5)
        c = rng.uniform(-2.5, 2.5, 3)
        box, ball = hedra.Box(h, rbox), hedra.Sphere(rs, c)
        outside = np.linalg.norm(c - np.clip(c, -h, h))
        if outside == 0.0:
            continue  # the centre inside the core: the depth is a separate closed form
        gap = outside - rbox - rs
        assert abs(hedra.signed_distance(box, ball).signed_distance - gap) <= 1e-9
    assert np.allclose(hedra.Box((1, 2, 3), 0.5).bounds, [[-1.5, -2.5, -3.5], [1.5, 2.5, 3.5]])


def test_cylinder_and_cone_vertices():
    # hedra/shapes.h: the polygon of `sides` sides circumscribed about the circle, first on +x
    for sides in (3, 8, 32):
        angle = 2 * np.pi * np.arange(sides) / sides
        ring = 0.7 / np.cos(np.pi / sides) * np.stack([np.cos(angle), np.sin(angle)], 1)
        want = np.concatenate([np.c_[ring, np.full(sides, -1.5)], np.c_[ring, np.full(sides, 1.5)]])
        got = hedra.Cylinder(1.5, 0.7, sides=sides, rounding=0.1)
        assert got.radius == 0.1 and len(got) == 2 * sides
        assert np.abs(np.sort(got.vertices, 0) - np.sort(want, 0)).max() < 1e-12
        cone = hedra.Cone(1.5, 0.7, sides=sides)
        want = np.concatenate([np.c_[ring, np.full(sides, -1.5)], [[0, 0, 1.5]]])
        assert np.abs(np.sort(cone.vertices, 0) - np.sort(want, 0)).max() < 1e-12
    assert len(hedra.Cylinder(1.0, 1.0)) == 64  # 32 sides by default


def test_batches_on_spheres(rng):
    ra, rb = 0.6, 0.3
    a, b = hedra.Sphere(ra), hedra.Sphere(rb, (0.2, 0.0, 0.0))
    n = 1500
    q = rng.normal(size=(n, 4))
    poses = np.concatenate([q / np.linalg.norm(q, axis=1)[:, None],
                            rng.uniform(-1.5, 1.5, (n, 3))], 1)
    centres = np.array([oracle.posed([[0.2, 0, 0]], p)[0] for p in poses])
    gap = np.linalg.norm(centres, axis=1) - ra - rb
    r1 = hedra.signed_distance_many(a, b, poses, threads=1)
    r2 = hedra.signed_distance_many(a, b, poses, threads=2)
    assert np.abs(r1.signed_distance - gap).max() <= 1e-11
    assert np.array_equal(r1.signed_distance, r2.signed_distance)
    assert np.allclose(r1.normal, centres / np.linalg.norm(centres, axis=1)[:, None], atol=1e-9)
    clear = np.abs(gap) > 1e-9
    codes = hedra.collide_many(a, b, poses)
    assert np.array_equal(codes[clear], np.where(gap[clear] > 0, 0, 2))
    dist = hedra.distance_many(a, b, poses, threads=2)
    assert np.abs(dist - np.maximum(gap, 0)).max() <= 1e-11
