"""The Python package's cost over the C library: time per pair of hedra.collide called once per pair
from Python, and of hedra.collide_many on one and on all cores, against hd_collide called from C
(bench/pairs/pose_timing.c, built as hedra_pose_timing) on exactly the same pairs.

Workload, for each vertex count n: A and B the hulls of n points on ellipsoids (every point a
vertex); B moves along a smooth path through A and out again, turning as it goes, so that the
poses are coherent (as in a trajectory or a roadmap edge) and the verdicts mix separated and
intersecting. A sits at the identity.

Timing: rounds alternate the C program and the Python variants so that both see the same machine
load; every sample is one pass over all the poses (ns per pair); the tables give medians over all
samples. The C program times the query on poses it converted beforehand; the Python calls convert
each pose (quaternion to matrix) themselves, so the overhead shown includes that.

    build-py/venv/bin/python bench/tools/python_bench.py [--sizes 12,100,1000] [--pairs 2000]
        [--rounds 7] [--reps 3] [--timing build/bench/hedra_pose_timing] [--csv out.csv]
bench/tools/python.sh builds everything in Release and runs this.
"""
import argparse
import gc
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import hedra


def ellipsoid_points(rng, n, radii):
    """n points on an ellipsoid surface: each is a vertex of the hull."""
    p = rng.normal(size=(n, 3))
    p /= np.linalg.norm(p, axis=1, keepdims=True)
    return p * radii


def quaternion_about(axis, angle):
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    return np.concatenate([[np.cos(angle / 2)], np.sin(angle / 2) * axis])


def quaternion_mul(p, q):
    w1, x1, y1, z1 = p
    w2, x2, y2, z2 = q
    return np.array([w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                     w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2])


def trajectory(rng, count):
    """(count, 7) poses of B: a straight pass through A from x = -3 to x = 3 with a slow turn."""
    axis = rng.normal(size=3)
    q0 = quaternion_about(rng.normal(size=3), rng.uniform(0, np.pi))
    offset = rng.uniform(-0.3, 0.3, size=2)
    poses = np.empty((count, 7))
    for i, s in enumerate(np.linspace(-3.0, 3.0, count)):
        poses[i, :4] = quaternion_mul(quaternion_about(axis, 0.002 * i), q0)
        poses[i, 4:] = (s, offset[0], offset[1])
    return poses


def write_xyz(path, points):
    np.savetxt(path, points, fmt="%.17g")


def time_pass(fn, reps):
    """(wall, cpu) ns of fn() over reps samples, each one pass (fn runs the whole sequence); cpu
    is the process's CPU time, all threads together."""
    wall, cpu = [], []
    for _ in range(reps):
        c0, t0 = time.process_time_ns(), time.perf_counter_ns()
        fn()
        wall.append(time.perf_counter_ns() - t0)
        cpu.append(time.process_time_ns() - c0)
    return wall, cpu


def python_variants(a, b, poses, threads_all):
    """name -> function running every pose once (single calls, batches)."""
    as_tuples = [tuple(p) for p in poses.tolist()]  # Python floats
    as_rows = list(poses)  # 1-D ndarray views

    def single(plist):
        def run():
            for p in plist:
                hedra.collide(a, b, pose_b=p)
        return run

    def single_warm():
        cache = hedra.Cache()
        for p in as_tuples:
            hedra.collide(a, b, pose_b=p, cache=cache)

    return {
        "single_tuple": single(as_tuples),
        "single_ndarray": single(as_rows),
        "single_warm": single_warm,
        "many_1_cold": lambda: hedra.collide_many(a, b, poses, threads=1, warm_start=False),
        "many_1_warm": lambda: hedra.collide_many(a, b, poses, threads=1),
        "many_all_warm": lambda: hedra.collide_many(a, b, poses, threads=threads_all),
    }


def run_c(exe, files, reps, *mode):
    """The C program's output lines as {first word: the other words}; mode: its optional mode."""
    out = subprocess.run([exe, *files, str(reps), *mode], check=True, capture_output=True,
                         text=True)
    return {line.split()[0]: line.split()[1:] for line in out.stdout.splitlines()}


def write_workload(rng, n, pairs, tmp):
    """The files the C program reads (A's and B's points, B's poses) and the same polytopes, read
    back from them, and poses, for vertex count n: (files, a, b, poses)."""
    pa = ellipsoid_points(rng, n, (1.0, 0.8, 0.6))
    pb = ellipsoid_points(rng, n, (0.7, 0.5, 0.9))
    poses = trajectory(rng, pairs)
    files = [os.path.join(tmp, f"a{n}.xyz"), os.path.join(tmp, f"b{n}.xyz"),
             os.path.join(tmp, f"poses{n}.txt")]
    write_xyz(files[0], pa)
    write_xyz(files[1], pb)
    np.savetxt(files[2], poses, fmt="%.17g")
    return files, hedra.Polytope.read(files[0]), hedra.Polytope.read(files[1]), poses


def bench_size(args, n, rng, tmp):
    files, a, b, poses = write_workload(rng, n, args.pairs, tmp)
    variants = python_variants(a, b, poses, args.threads)
    samples = {"c_cold": [], "c_warm": [], "many_1_warm_cpu": [], "many_all_warm_cpu": []}
    samples.update({name: [] for name in variants})
    c_counts = None
    for _ in range(args.rounds):
        c = run_c(args.timing, files, args.reps)
        # the C program reports medians of its reps: keep each as one sample
        samples["c_cold"].append(float(c["cold"][0]))
        samples["c_warm"].append(float(c["warm"][0]))
        c_counts = [int(x) for x in c["verdicts"]]
        gc.disable()
        for name, fn in variants.items():
            wall, cpu = time_pass(fn, args.reps)
            samples[name].extend(t / len(poses) for t in wall)
            if name + "_cpu" in samples:
                samples[name + "_cpu"].extend(t / len(poses) for t in cpu)
        gc.enable()
    codes = hedra.collide_many(a, b, poses, threads=1, warm_start=False)
    py_counts = np.bincount(codes, minlength=3).tolist()
    if py_counts != c_counts:
        sys.exit(f"n={n}: verdict counts differ: C {c_counts}, Python {py_counts}")
    return {name: statistics.median(v) for name, v in samples.items()}, c_counts


def print_table(results, threads):
    print(f"\nmedian ns per pair (rounds x reps samples); all cores = {threads} threads; CPU: "
          "process CPU time per pair of collide_many warm, all threads together")
    head = ("n", "verdicts s/t/i", "C cold", "C warm", "single", "single-C", "single nd",
            "single warm", "many 1 cold", "x C", "many 1 warm", "x C", "many all", "speedup",
            "CPU 1", "CPU all")
    print(" | ".join(head))
    print(" | ".join("---" for _ in head))
    for n, (m, counts) in results.items():
        row = (n, "/".join(map(str, counts)), m["c_cold"], m["c_warm"], m["single_tuple"],
               m["single_tuple"] - m["c_cold"], m["single_ndarray"], m["single_warm"],
               m["many_1_cold"], m["many_1_cold"] / m["c_cold"], m["many_1_warm"],
               m["many_1_warm"] / m["c_warm"], m["many_all_warm"],
               m["many_1_warm"] / m["many_all_warm"], m["many_1_warm_cpu"],
               m["many_all_warm_cpu"])
        print(" | ".join(f"{x:.2f}" if isinstance(x, float) else str(x) for x in row))


def write_csv(path, results):
    with open(path, "w", encoding="utf-8") as f:
        names = list(next(iter(results.values()))[0])
        f.write("n," + ",".join(names) + "\n")
        for n, (m, _) in results.items():
            f.write(f"{n}," + ",".join(f"{m[k]:.3f}" for k in names) + "\n")


def scaling(args, rng):
    """collide_many on one thread and on all, for longer and longer batches (n = 100)."""
    a = hedra.Polytope(ellipsoid_points(rng, 100, (1.0, 0.8, 0.6)))
    b = hedra.Polytope(ellipsoid_points(rng, 100, (0.7, 0.5, 0.9)))
    print(f"\ncollide_many, one thread against {args.threads}: median ns per pair, n = 100")
    print("poses | 1 thread | all | speedup | CPU 1 | CPU all")
    print("--- | --- | --- | --- | --- | ---")
    for count in (2000, 20000, 200000):
        poses = np.concatenate([trajectory(rng, 2000) for _ in range(count // 2000)])
        row = {}
        for threads in (1, args.threads):
            wall, cpu = [], []
            for _ in range(args.rounds):
                w, c = time_pass(lambda: hedra.collide_many(a, b, poses, threads=threads), 1)
                wall += w
                cpu += c
            row[threads] = (statistics.median(wall) / count, statistics.median(cpu) / count)
        one, all_ = row[1], row[args.threads]
        print(f"{count} | {one[0]:.1f} | {all_[0]:.1f} | {one[0] / all_[0]:.2f} | {one[1]:.1f} | "
              f"{all_[1]:.1f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="12,100,1000")
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--timing", default=os.path.join("build", "bench", "hedra_pose_timing"))
    parser.add_argument("--csv")
    args = parser.parse_args()
    print(f"hedra {hedra.__version__}, Python {sys.version.split()[0]}, numpy {np.__version__}, "
          f"seed {args.seed}, {args.pairs} poses per size")
    rng = np.random.default_rng(args.seed)
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            results[n] = bench_size(args, n, rng, tmp)
    print_table(results, args.threads)
    if args.csv:
        write_csv(args.csv, results)
    scaling(args, rng)


if __name__ == "__main__":
    main()
