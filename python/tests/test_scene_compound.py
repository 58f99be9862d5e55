"""Compound bodies in hedra.Scene against closed forms: a compound of two spheres and a sphere,
whose signed distance is min_i |p - c_i| - r_i - r and whose deciding piece is the argmin; the
piece ids of the step's contacts; filters and proximity on compound bodies."""
import gc

import numpy as np
import pytest

import hedra

R = (0.4, 0.3)            # the two spheres' radii, centred at x = -1 and x = +1
CENTRES = np.array([[-1.0, 0.0, 0.0], [1.0, 0.0, 0.0]])
RS = 0.25                 # the free sphere's radius


def dumbbell():
    return hedra.Compound([hedra.Sphere(R[0]), hedra.Sphere(R[1])],
                          poses=[(1, 0, 0, 0, *CENTRES[0]), (1, 0, 0, 0, *CENTRES[1])])


def closed_form(p):
    """(signed distance, deciding piece) of the free sphere at p against the dumbbell at rest."""
    d = np.linalg.norm(CENTRES - p, axis=1) - np.array(R) - RS
    return float(d.min()), int(d.argmin())


def random_near_point(rng):
    """A point near one of the spheres, inside or out, never equidistant from both."""
    while True:
        i = int(rng.integers(2))
        u = rng.normal(size=3)
        p = CENTRES[i] + u / np.linalg.norm(u) * rng.uniform(0.2, R[i] + RS + 0.2)
        d = np.linalg.norm(CENTRES - p, axis=1) - np.array(R) - RS
        if abs(d[0] - d[1]) > 1e-3 and abs(d.min()) > 1e-6:
            return p


@pytest.mark.parametrize("threads", [1, 2])
def test_dumbbell_against_sphere_closed_form(rng, threads):
    scene = hedra.Scene(threads=threads, depth=True, proximity=0.3)
    body = scene.add(dumbbell())
    ball = scene.add(hedra.Sphere(RS), (1, 0, 0, 0, 5, 5, 5))
    gc.collect()  # the scene keeps the Compound alive
    assert isinstance(scene.body(body)[0], hedra.Compound)
    seen = {"near": 0, "contact": 0}
    for _ in range(20):
        p = random_near_point(rng)
        scene.move(ball, (1, 0, 0, 0, *p))
        pairs, verdicts = scene.step()
        sd, piece = closed_form(p)
        if sd >= 0.3:
            assert len(pairs) == 0
            continue
        assert pairs.tolist() == [[body, ball]]
        expect = hedra.INTERSECTING if sd < 0 else hedra.SEPARATED
        assert verdicts[0] == expect
        seen["contact" if sd < 0 else "near"] += 1
        np.testing.assert_allclose(scene.details["signed_distance"][0], sd, atol=1e-9)
        assert scene.pieces.tolist() == [[piece, -1]]
        # the normal points from the deciding sphere's centre towards the free sphere's
        n = (p - CENTRES[piece]) / np.linalg.norm(p - CENTRES[piece])
        np.testing.assert_allclose(scene.details["normal"][0], n, atol=1e-6)
    print(seen)


def test_two_compounds_name_both_pieces():
    scene = hedra.Scene(threads=1)
    a = scene.add(dumbbell())
    # the second dumbbell turned a quarter about z (piece 0 at y = -1, piece 1 at y = +1) and
    # moved by (x, 1, 0): its piece 0 (radius 0.4) at (x, 0, 0) overlaps piece 1 of the first
    # (radius 0.3, at (1, 0, 0)) by 0.1; its piece 1 is 2 above, far from everything
    c = np.sqrt(0.5)
    x = 1.0 + 0.3 + 0.4 - 0.1
    b = scene.add(dumbbell(), (c, 0, 0, c, x, 1.0, 0))
    pairs, verdicts = scene.step()
    assert pairs.tolist() == [[a, b]] and verdicts.tolist() == [hedra.INTERSECTING]
    assert scene.pieces.tolist() == [[1, 0]]
    assert scene.details is None


def test_compound_filters_and_plain_pairs():
    scene = hedra.Scene(threads=1)
    body = scene.add(dumbbell())
    ball = scene.add(hedra.Sphere(RS), (1, 0, 0, 0, -1.5, 0, 0))      # in piece 0
    cube = scene.add(hedra.Box((0.2, 0.2, 0.2)), (1, 0, 0, 0, -1.3, 0, 0.2))   # in ball
    pairs, _ = scene.step()
    assert pairs.tolist() == [[body, ball], [body, cube], [ball, cube]]
    assert scene.pieces.tolist() == [[0, -1], [0, -1], [-1, -1]]
    scene.set_filter(body, group=7)
    scene.set_filter(ball, group=7)
    pairs, _ = scene.step()
    assert pairs.tolist() == [[body, cube], [ball, cube]]
    scene.set_filter(cube, category=2, mask=1)
    scene.set_filter(body, category=1, mask=1, group=0)
    pairs, _ = scene.step()
    assert pairs.tolist() == [[body, ball], [ball, cube]]


def test_add_refuses_what_is_not_a_shape():
    scene = hedra.Scene(threads=1)
    with pytest.raises(TypeError, match="Polytope or hedra.Compound"):
        scene.add([hedra.Sphere(1.0)])
    with pytest.raises(hedra.InvalidInputError):
        scene.add(dumbbell(), (1, 0, 0, 0, np.nan, 0, 0))
    assert len(scene) == 0
