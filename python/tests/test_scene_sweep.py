"""The continuous step of hedra.Scene against closed forms: a thin box falling by 10 a frame
crosses a plate between two frames (apart at both); with its velocity the step catches it at the
closed-form time of impact, without it (or with a threshold above its travel) it is missed; the
same output on 1 and 2 threads; bad input raises clear errors."""
import math

import numpy as np
import pytest

import hedra

PLATE = (1.0, 1.0, 0.01)        # half extents, at the origin
THIN = (0.3, 0.3, 0.01)         # the falling box's half extents
START, FALL = 5.0, 10.0         # its height at the frame's start, its fall per frame
TOI = (START - THIN[2] - PLATE[2]) / FALL   # its bottom face meets the plate's top face


def falling(threads=1, velocity=True, **options):
    scene = hedra.Scene(threads=threads, **options)
    plate = scene.add(hedra.Box(PLATE))
    box = scene.add(hedra.Box(THIN), (1, 0, 0, 0, 0.1, -0.2, START))
    if velocity:
        scene.set_velocity(box, (0.0, 0.0, -FALL))
    return scene, plate, box


@pytest.mark.parametrize("threads", [1, 2])
def test_fast_thin_box_caught_at_the_closed_form_time(threads):
    scene, plate, box = falling(threads)
    pairs, verdicts = scene.step()
    assert pairs.tolist() == [[plate, box]] and verdicts.tolist() == [hedra.TOUCHING]
    assert abs(scene.toi[0] - TOI) <= 1e-8
    assert scene.pieces.tolist() == [[-1, -1]]
    assert scene.stats["swept"] == 1
    # the next frame: below the plate, still falling: nothing ahead
    scene.move(box, (1, 0, 0, 0, 0.1, -0.2, START - FALL))
    pairs, _ = scene.step()
    assert len(pairs) == 0 and len(scene.toi) == 0


def test_missed_without_the_velocity_or_above_the_threshold():
    for scene, plate, box in (falling(velocity=False),
                              falling(sweep_threshold=FALL * 1.1),   # travels 10 < 11
                              falling(sweep_threshold=math.inf)):
        for z in (START, START - FALL):
            scene.move(box, (1, 0, 0, 0, 0.1, -0.2, z))
            pairs, _ = scene.step()
            assert len(pairs) == 0
    scene, plate, box = falling(sweep_threshold=FALL * 0.9)          # travels 10 > 9
    pairs, _ = scene.step()
    assert pairs.tolist() == [[plate, box]] and abs(scene.toi[0] - TOI) <= 1e-8


def test_depth_at_the_impact_and_plain_pairs_at_one():
    scene, plate, box = falling(depth=True)
    # in the plate, no twist, beside the falling box's path (0.71 from it in x, y)
    resting = scene.add(hedra.Sphere(0.5), (1, 0, 0, 0, 0.9, 0.6, 0.3))
    pairs, verdicts = scene.step()
    assert pairs.tolist() == [[plate, box], [plate, resting]]
    assert verdicts.tolist() == [hedra.TOUCHING, hedra.INTERSECTING]
    assert abs(scene.toi[0] - TOI) <= 1e-8 and scene.toi[1] == 1.0
    d = scene.details
    assert abs(d["signed_distance"][0]) <= 1e-6      # at the impact the faces touch
    np.testing.assert_allclose(np.abs(d["normal"][0]), (0, 0, 1), atol=1e-6)
    np.testing.assert_allclose(d["signed_distance"][1], 0.3 - 0.5 - 0.01, atol=1e-9)


def test_swept_compound_names_its_piece():
    """A dumbbell of two spheres (radii 0.2 at x = -1 and 0.3 at x = +1) falling onto the plate,
    its big sphere lower: the big sphere (piece 1) hits first, at (h - 0.3 - 0.01) / 10."""
    scene = hedra.Scene(threads=1)
    plate = scene.add(hedra.Box((3.0, 3.0, 0.01)))
    bell = hedra.Compound([hedra.Sphere(0.2), hedra.Sphere(0.3)],
                          poses=[(1, 0, 0, 0, -1, 0, 0.5), (1, 0, 0, 0, 1, 0, 0)])
    body = scene.add(bell, (1, 0, 0, 0, 0, 0, START))
    scene.set_velocity(body, (0, 0, -FALL))
    pairs, verdicts = scene.step()
    assert pairs.tolist() == [[plate, body]] and verdicts.tolist() == [hedra.TOUCHING]
    assert scene.pieces.tolist() == [[-1, 1]]
    assert abs(scene.toi[0] - (START - 0.3 - 0.01) / FALL) <= 1e-8


def test_one_and_two_threads_agree(rng):
    """Random falling and turning boxes over a plate: the same contacts, times and pieces."""
    outputs = []
    starts = rng.uniform(-3, 3, size=(12, 3)) + (0, 0, 4)
    twists = rng.normal(size=(12, 6)) * (1, 1, 1, 0.5, 0.5, 0.5) + (0, 0, -8, 0, 0, 0)
    starts[0], twists[0] = (0, 0, 2), (0, 0, -8, 0.3, 0, 0)   # one that surely hits
    for threads in (1, 2):
        scene = hedra.Scene(threads=threads, depth=True)
        scene.add(hedra.Box((4.0, 4.0, 0.02)))
        for p, t in zip(starts, twists):
            body = scene.add(hedra.Box((0.2, 0.1, 0.05)), (1, 0, 0, 0, *p))
            scene.set_velocity(body, t[:3], t[3:])
        pairs, verdicts = scene.step()
        outputs.append((pairs, verdicts, scene.toi, scene.pieces,
                        scene.details["signed_distance"]))
    for one, two in zip(*outputs):
        assert one.tobytes() == two.tobytes()
    assert len(outputs[0][0]) > 0 and (outputs[0][2] < 1).any()


def test_bad_input():
    with pytest.raises(hedra.InvalidInputError, match="sweep_threshold must be >= 0"):
        hedra.Scene(sweep_threshold=-1.0)
    with pytest.raises(hedra.InvalidInputError, match="sweep_threshold"):
        hedra.Scene(sweep_threshold=math.nan)
    scene, plate, box = falling()
    with pytest.raises(hedra.InvalidInputError, match="no body 7"):
        scene.set_velocity(7, (0, 0, 1))
    with pytest.raises(hedra.InvalidInputError):
        scene.set_velocity(box, (0, np.nan, 1))
    with pytest.raises(hedra.InvalidInputError):
        scene.set_velocity(box, (0, 0, 1), (np.inf, 0, 0))
    with pytest.raises(hedra.InvalidInputError):
        scene.set_velocity(box, (0, 1))
