#!/usr/bin/env bash
# The Python package's benchmark (bench/python_bench.py): builds hedra in Release (the
# benchmark's own build directory, as bench/run.sh), installs the package against it into
# build-py/venv, and times single calls and collide_many against hd_collide from C on the same
# pairs. Arguments go to python_bench.py (e.g. --sizes 12,100 --rounds 3 --csv out.csv).
# Environment: HEDRA_BENCH_BUILD (build directory, default bench/out/build).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
build=${HEDRA_BENCH_BUILD:-$here/out/build}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DHEDRA_WERROR=OFF \
  -DHEDRA_BUILD_BENCH=ON >/dev/null
cmake --build "$build" -j"$(nproc 2>/dev/null || echo 2)" --target hedra_static hedra_pose_timing \
  >/dev/null
HEDRA_BUILD_DIR="$build" bash "$root/scripts/test_python.sh" --install-only
"$root/build-py/venv/bin/python" "$here/python_bench.py" \
  --timing "$build/bench/hedra_pose_timing" "$@"
