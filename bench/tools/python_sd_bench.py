"""signed_distance_many's cost over the C library: time per pose of
hedra.signed_distance_many(gradient=True) on one thread (and on all cores), and of
hedra.signed_distance(gradient=True) called once per pose from Python, against
hd_signed_distance with HD_QUERY_GRADIENT called from C (bench/pairs/pose_timing.c in its sdgrad
mode, built as hedra_pose_timing) on exactly the same pairs; and the C call without the gradient
(sd mode), for the gradient's own cost.

Workload as bench/tools/python_bench.py: for each vertex count n, A and B the hulls of n points on
ellipsoids, B moved along a path through A and out again (separated and overlapping poses), A at
the identity. Both sides start every pose cold (signed_distance_many has no warm start) and use a
workspace above 64 vertices in the pair. The C program prints the sum of its signed distances; the
script checks that the Python answers sum to the same bits. Rounds alternate C and Python; tables
give medians of ns per pose.

    build-py/venv/bin/python bench/tools/python_sd_bench.py [--sizes 12,100,1000] [--pairs 2000]
        [--rounds 5] [--reps 3] [--timing build/bench/hedra_pose_timing]
"""
import argparse
import gc
import os
import statistics
import sys
import tempfile

import numpy as np

import hedra
from python_bench import run_c, time_pass, write_workload


def sequential_sum(values):
    """The sum in pose order, one addition at a time (as the C program's loop)."""
    total = 0.0
    for v in values.tolist():
        total += v
    return total


def bench_size(args, n, rng, tmp):
    files, a, b, _ = write_workload(rng, n, args.pairs, tmp)
    poses = np.loadtxt(files[2])  # the poses the C program reads, to the bit
    rows = [tuple(p) for p in poses.tolist()]

    def single():
        for p in rows:
            hedra.signed_distance(a, b, pose_b=p, gradient=True)

    variants = {
        "many_1": lambda: hedra.signed_distance_many(a, b, poses, gradient=True, threads=1),
        "many_all": lambda: hedra.signed_distance_many(a, b, poses, gradient=True,
                                                       threads=args.threads),
        "single": single,
    }
    samples = {"c_grad": [], "c_plain": [], **{name: [] for name in variants}}
    c_sum = None
    for _ in range(args.rounds):
        grad = run_c(args.timing, files, args.reps, "sdgrad")
        plain = run_c(args.timing, files, args.reps, "sd")
        samples["c_grad"].append(float(grad["cold"][0]))
        samples["c_plain"].append(float(plain["cold"][0]))
        c_sum = grad["sum"][0]
        gc.disable()
        for name, fn in variants.items():
            wall, _ = time_pass(fn, args.reps)
            samples[name].extend(t / len(poses) for t in wall)
        gc.enable()
    many = hedra.signed_distance_many(a, b, poses, gradient=True, threads=1)
    py_sum = repr(sequential_sum(many.signed_distance))
    if float(py_sum) != float(c_sum):
        sys.exit(f"n={n}: signed distances differ: C sum {c_sum}, Python {py_sum}")
    overlapping = int(np.count_nonzero(many.signed_distance < 0))
    return {name: statistics.median(v) for name, v in samples.items()}, overlapping


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="12,100,1000")
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--timing", default=os.path.join("build", "bench", "hedra_pose_timing"))
    args = parser.parse_args()
    print(f"hedra {hedra.__version__}, Python {sys.version.split()[0]}, numpy {np.__version__}, "
          f"seed {args.seed}, {args.pairs} poses per size, all cores = {args.threads} threads")
    rng = np.random.default_rng(args.seed)
    print("\nmedian ns per pose, gradient=True; C: hd_signed_distance from C (cold)")
    head = ("n", "overlapping", "C no gradient", "C gradient", "gradient cost", "many 1 thread",
            "x C", "many all", "single call", "x C")
    print(" | ".join(head))
    print(" | ".join("---" for _ in head))
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            m, overlapping = bench_size(args, n, rng, tmp)
            row = (n, f"{overlapping}/{args.pairs}", m["c_plain"], m["c_grad"],
                   f"{100 * (m['c_grad'] / m['c_plain'] - 1):+.1f}%", m["many_1"],
                   m["many_1"] / m["c_grad"], m["many_all"], m["single"],
                   m["single"] / m["c_grad"])
            print(" | ".join(f"{x:.2f}" if isinstance(x, float) else str(x) for x in row),
                  flush=True)


if __name__ == "__main__":
    main()
