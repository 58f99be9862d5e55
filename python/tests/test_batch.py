"""collide_many and distance_many: every answer equals the single call's, whatever the thread count,
chunking, warm start and pose layout; the GIL is released (threads of Python run batches at once)."""
import threading

import numpy as np
import pytest

import hedra
import oracle


def random_poses(rng, count, spread=3.0, coherent=False):
    """(count, 7) poses: independent, or a smooth path (consecutive poses close)."""
    poses = np.empty((count, 7))
    if coherent:
        s = np.linspace(0, 1, count)
        poses[:, 0] = np.cos(2 * s)
        poses[:, 1:4] = np.outer(np.sin(2 * s), [0.3, 0.5, 0.8])
        poses[:, 4] = spread * (10 * s - 5)  # from far left to far right of A
        poses[:, 5:] = 0.2
    else:
        poses[:, :4] = rng.normal(size=(count, 4))
        poses[:, 4:] = rng.uniform(-spread, spread, size=(count, 3))
    return poses


def matrices(poses):
    return np.array([oracle.pose_matrix(p) for p in poses])


@pytest.fixture
def pair(rng):
    return hedra.Polytope(rng.normal(size=(20, 3))), hedra.Polytope(rng.normal(size=(12, 3)) * 0.7)


@pytest.mark.parametrize("algo", ["gjk", "cddual", "lp"])
@pytest.mark.parametrize("coherent", [False, True])
def test_collide_many_equals_single_calls(rng, pair, algo, coherent):
    a, b = pair
    poses = random_poses(rng, 400, coherent=coherent)
    single = np.array([hedra.collide(a, b, pose_b=p, algo=algo).code for p in poses])
    assert set(single) >= {0, 2}, "the workload must mix verdicts"
    for threads in (1, 2, 3, 0):
        for warm in (True, False):
            codes = hedra.collide_many(a, b, poses, threads=threads, algo=algo, warm_start=warm)
            assert codes.dtype == np.int8 and codes.shape == (400,)
            np.testing.assert_array_equal(codes, single)
    np.testing.assert_array_equal(hedra.collide_many(a, b, matrices(poses), algo=algo), single)


def test_poses_a_forms(rng, pair):
    a, b = pair
    poses_b = random_poses(rng, 300)
    poses_a = random_poses(rng, 300, spread=0.5)
    fixed = (0.9, 0.1, -0.2, 0.3, 0.1, 0.2, 0.3)
    per_pose = [hedra.collide(a, b, pose_a=pa, pose_b=pb).code for pa, pb in zip(poses_a, poses_b)]
    np.testing.assert_array_equal(hedra.collide_many(a, b, poses_b, poses_a=poses_a), per_pose)
    np.testing.assert_array_equal(
        hedra.collide_many(a, b, matrices(poses_b), poses_a=matrices(poses_a), threads=2), per_pose)
    one = [hedra.collide(a, b, pose_a=fixed, pose_b=pb).code for pb in poses_b]
    np.testing.assert_array_equal(hedra.collide_many(a, b, poses_b, poses_a=fixed), one)
    np.testing.assert_array_equal(
        hedra.collide_many(a, b, poses_b, poses_a=oracle.pose_matrix(fixed)), one)


def test_distance_many_equals_single_calls(rng, pair):
    a, b = pair
    poses = random_poses(rng, 300, spread=3, coherent=True)
    singles = [hedra.distance(a, b, pose_b=p) for p in poses]
    d = np.array([r.distance for r in singles])
    assert (d > 0).any() and (d == 0).any()
    for threads in (1, 2, 0):
        got = hedra.distance_many(a, b, poses, threads=threads)
        np.testing.assert_allclose(got, d, rtol=1e-12, atol=1e-12)
    dist, wa, wb = hedra.distance_many(a, b, poses, witnesses=True, warm_start=False)
    np.testing.assert_allclose(dist, d, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(wa, [r.witness_a for r in singles], atol=1e-9)
    np.testing.assert_allclose(wb, [r.witness_b for r in singles], atol=1e-9)
    np.testing.assert_allclose(np.linalg.norm(wb - wa, axis=1), d, atol=1e-12)


def test_large_batch_on_all_cores(rng, pair):
    a, b = pair
    poses = random_poses(rng, 20000, coherent=True)
    codes = hedra.collide_many(a, b, poses, threads=0)
    np.testing.assert_array_equal(codes, hedra.collide_many(a, b, poses, threads=1))
    sample = rng.choice(len(poses), 200, replace=False)
    np.testing.assert_array_equal(codes[sample],
                                  [hedra.collide(a, b, pose_b=poses[i]).code for i in sample])


def test_empty_batch(pair):
    a, b = pair
    assert hedra.collide_many(a, b, np.empty((0, 7))).shape == (0,)
    assert hedra.collide_many(a, b, np.empty((0, 4, 4))).shape == (0,)
    assert hedra.distance_many(a, b, np.empty((0, 7))).shape == (0,)
    d, wa, wb = hedra.distance_many(a, b, np.empty((0, 7)), witnesses=True)
    assert d.shape == (0,) and wa.shape == (0, 3) and wb.shape == (0, 3)


def test_other_layouts_are_converted(rng, pair):
    """Non-contiguous, Fortran-ordered, float32, integer and list inputs are converted (copied)."""
    a, b = pair
    poses = random_poses(rng, 200)
    want = hedra.collide_many(a, b, poses)
    wide = np.zeros((200, 14))
    wide[:, ::2] = poses
    np.testing.assert_array_equal(hedra.collide_many(a, b, wide[:, ::2]), want)
    np.testing.assert_array_equal(hedra.collide_many(a, b, np.asfortranarray(poses)), want)
    np.testing.assert_array_equal(hedra.collide_many(a, b, poses.tolist()), want)
    np.testing.assert_array_equal(hedra.collide_many(a, b, poses[::-1])[::-1], want)
    big_endian = poses.astype(">f8")
    np.testing.assert_array_equal(hedra.collide_many(a, b, big_endian), want)
    p32 = poses.astype(np.float32)
    np.testing.assert_array_equal(
        hedra.collide_many(a, b, p32), hedra.collide_many(a, b, p32.astype(np.float64)))
    ints = np.tile([1, 0, 0, 0, 0, 0, 0], (5, 1))
    ints[:, 4] = np.arange(5) - 2
    assert hedra.collide_many(a, b, ints).shape == (5,)


def test_python_threads_run_batches_concurrently(rng, pair):
    """Four Python threads share the polytopes and call collide_many at once (the GIL is released
    while C runs); each gets the answers of a lone call."""
    a, b = pair
    poses = [random_poses(rng, 3000) for _ in range(4)]
    want = [hedra.collide_many(a, b, p, threads=1) for p in poses]
    got = [None] * 4

    def work(k):
        got[k] = hedra.collide_many(a, b, poses[k], threads=2)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in range(4):
        np.testing.assert_array_equal(got[k], want[k])


def test_python_threads_mix_thread_counts(rng, pair):
    """Six Python threads run batches at once, each several in a row with 1, 2, 3 or 5 threads
    (so that pools of several sizes are borrowed, given back and reused concurrently), and
    distance_many beside collide_many; every answer equals the lone one-thread call's."""
    a, b = pair
    poses = [random_poses(rng, 1500 + 500 * k) for k in range(6)]
    want_codes = [hedra.collide_many(a, b, p, threads=1) for p in poses]
    want_dist = [hedra.distance_many(a, b, p, threads=1, warm_start=False) for p in poses]
    errors = []

    def work(k):
        try:
            for round_ in range(4):
                count = (1, 2, 3, 5)[(k + round_) % 4]
                np.testing.assert_array_equal(
                    hedra.collide_many(a, b, poses[k], threads=count), want_codes[k])
                np.testing.assert_array_equal(
                    hedra.distance_many(a, b, poses[k], threads=count, warm_start=False),
                    want_dist[k])
        except AssertionError as e:
            errors.append((k, e))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def _codes_in_child(args):
    a_points, b_points, poses = args
    a, b = hedra.Polytope(a_points), hedra.Polytope(b_points)
    return hedra.collide_many(a, b, poses, threads=2)


def test_pool_after_fork(rng, pair):
    """A child forked after the parent used the thread pool starts its own pool."""
    import multiprocessing

    a, b = pair
    poses = random_poses(rng, 3000, coherent=True)
    want = hedra.collide_many(a, b, poses, threads=2)
    with multiprocessing.get_context("fork").Pool(2) as workers:
        got = workers.map(_codes_in_child, [(a.vertices.copy(), b.vertices.copy(), poses)] * 2)
    for codes in got:
        np.testing.assert_array_equal(codes, want)


def test_thread_pool_under_thread_sanitizer(tmp_path):
    """pool.c and the library's pool under it (src/scene/pool.c), built with ThreadSanitizer
    (tests/c/pool_stress.c): concurrent jobs with failures; any data race or wrong entry fails. Needs a C compiler and the build directory of
    the library the package was built against (scripts/test_python.sh exports HEDRA_BUILD_DIR)."""
    import os
    import shutil
    import subprocess
    import sysconfig

    build = os.environ.get("HEDRA_BUILD_DIR")
    cc = shutil.which("gcc") or shutil.which("cc")
    if not build or not cc:
        pytest.skip("needs HEDRA_BUILD_DIR and a C compiler")
    src = oracle.REPO / "python" / "src"
    exe = tmp_path / "pool_stress"
    subprocess.run([cc, "-std=gnu11", "-O1", "-g", "-fsanitize=thread",
                    "-I", str(src), "-I", str(oracle.REPO / "include"),
                    "-I", str(oracle.REPO / "src"),
                    "-I", os.path.join(build, "include"), "-I", sysconfig.get_paths()["include"],
                    "-isystem", np.get_include(),
                    str(oracle.REPO / "python" / "tests" / "c" / "pool_stress.c"),
                    str(src / "pool.c"), str(oracle.REPO / "src" / "scene" / "pool.c"),
                    "-o", str(exe), "-lpthread"], check=True)
    run = subprocess.run([str(exe)], capture_output=True, text=True,
                         env={**os.environ, "TSAN_OPTIONS": "halt_on_error=1"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 wrong entries" in run.stdout
