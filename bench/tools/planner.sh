#!/usr/bin/env bash
# The path-planning example's benchmark (bench/tools/planner_bench.py): builds hedra in Release
# (the benchmark's own build directory, as bench/run.sh), installs the package against it into
# build-py/venv, and times SLSQP with hedra's clearance Jacobians against finite differences.
# Arguments go to planner_bench.py (e.g. --waypoints 8,24 --reps 3 --csv out.csv).
# Environment: HEDRA_BENCH_BUILD (build directory, default bench/out/build).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bench_build -- hedra_static
HEDRA_BUILD_DIR="$build" bash "$root/scripts/test_python.sh" --install-only
echo "commit $(bench_commit)"
"$root/build-py/venv/bin/python" "$tools/planner_bench.py" "$@"
