"""The path-planning example (examples/python/path_planner.py) with hedra's exact clearance
Jacobians against scipy's forward differences: median wall time of the whole SLSQP solve,
iterations, signed-distance queries and the reached path length, for a few waypoint counts.

Every repetition solves the same fixed scene from the straight line, so iterations and queries
are the same in every repetition; only the time varies. Repetitions alternate the two Jacobians,
so that both see the same machine load.

    build-py/venv/bin/python bench/tools/planner_bench.py [--waypoints 8,24,40] [--reps 5]
        [--csv out.csv]
"""
import argparse
import csv
import importlib.util
import pathlib
import statistics

ROOT = pathlib.Path(__file__).resolve().parents[2]
JACOBIANS = ("analytic", "2-point")


def load_example():
    spec = importlib.util.spec_from_file_location(
        "path_planner", ROOT / "examples" / "python" / "path_planner.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def measure(planner, waypoints, reps):
    """One row per Jacobian: the median time over reps and the (repeatable) solver figures."""
    scene = planner.make_scene(waypoints)
    times = {name: [] for name in JACOBIANS}
    last = {}
    for _ in range(reps):
        for name in JACOBIANS:
            last[name] = planner.plan(scene, name)
            times[name].append(last[name]["seconds"])
    return [{"waypoints": waypoints, "jacobian": name, "median_s": statistics.median(times[name]),
             "iterations": last[name]["iterations"], "queries": last[name]["queries"],
             "length": last[name]["length"], "min_clearance": last[name]["min_clearance"],
             "success": last[name]["success"]} for name in JACOBIANS]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--waypoints", default="8,24,40", help="K values, comma separated")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--csv", help="also write the rows to this file")
    args = parser.parse_args(argv)
    planner = load_example()
    rows = []
    print("| K | jacobian | median time (s) | iterations | queries | length | min clearance "
          "| success | time ÷ analytic |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for k in (int(v) for v in args.waypoints.split(",")):
        group = measure(planner, k, args.reps)
        for row in group:
            ratio = row["median_s"] / group[0]["median_s"]
            print(f"| {k} | {row['jacobian']} | {row['median_s']:.3f} | {row['iterations']} | "
                  f"{row['queries']} | {row['length']:.6f} | {row['min_clearance']:.6f} | "
                  f"{row['success']} | {ratio:.1f} |", flush=True)
        rows += group
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
