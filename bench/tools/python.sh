#!/usr/bin/env bash
# The Python package's benchmark (bench/tools/python_bench.py): builds hedra in Release (the
# benchmark's own build directory, as bench/run.sh), installs the package against it into
# build-py/venv, and times single calls and collide_many against hd_collide from C on the same
# pairs. Arguments go to python_bench.py (e.g. --sizes 12,100 --rounds 3 --csv out.csv). With
# --signed first, python_sd_bench.py runs instead: signed_distance_many(gradient=True) against
# hd_signed_distance with the gradient from C.
# Environment: HEDRA_BENCH_BUILD (build directory, default bench/out/build).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bench_build -- hedra_static hedra_pose_timing
HEDRA_BUILD_DIR="$build" bash "$root/scripts/test_python.sh" --install-only
script=python_bench.py
if [ "${1:-}" = --signed ]; then
  script=python_sd_bench.py
  shift
fi
"$root/build-py/venv/bin/python" "$tools/$script" \
  --timing "$build/bench/hedra_pose_timing" "$@"
