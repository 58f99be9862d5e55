#!/usr/bin/env bash
# Runs the scene benchmark (docs/BENCHMARKS.md, "Scenes"): hedra's scenes against Bullet's and
# FCL's collision worlds at 1 000, 10 000 and 100 000 bodies, 30 timed frames each after 60
# warm-up frames (about a minute on 2 cores), and writes the report and the CSV; the report starts
# with how two threads scale on the machine itself (bench/scene/cores_probe.c, about 10 s) and ends
# with hedra's summary with each configuration's frames back to back (hedra_bench_scene
# --back-to-back, 20 s).
#
# usage: bench/run_scene.sh [--docs]   (or bash bench/bench.sh scene ...) [hedra_bench_scene options, e.g. --sizes 1000,10000]
#   --docs   also copy the report into docs/bench/scene.md
# Environment: HEDRA_BENCH_BUILD (build directory, default bench/out/build),
#              HEDRA_BENCH_OUT (output directory, default bench/out).
set -euo pipefail

. "$(dirname "$0")/lib.sh"
split_docs_flag "$@"

mkdir -p "$out"
bench_build -- hedra_bench_scene hedra_cores_probe

commit=$(bench_commit)
{
  echo "commit $commit, $(uname -m), $(nproc 2>/dev/null || echo '?') cores, load average" \
    "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?') before the run"
  echo
  echo "The machine's own 2-thread scaling (hedra_cores_probe), before the run:"
  echo
  "$build/bench/hedra_cores_probe" | sed 's/^/    /'
  echo
  "$build/bench/hedra_bench_scene" --csv "$out/scene.csv" ${args[@]+"${args[@]}"}
  echo
  echo "The same scenes, hedra alone, each configuration's frames back to back (as an application"
  echo "steps its scene; interleaved above, the pool's workers have gone to sleep between two"
  echo "frames of one configuration):"
  echo
  "$build/bench/hedra_bench_scene" --no-peers --back-to-back ${args[@]+"${args[@]}"} |
    sed -n '/^Summary/,/^Growth/p' | sed '$d'
} | tee "$out/scene.md"

if [ $docs = 1 ]; then
  mkdir -p "$root/docs/bench"
  cp "$out/scene.md" "$root/docs/bench/scene.md"
  echo "bench scene: copied the report to docs/bench/scene.md"
  /usr/bin/python3 "$tools/headline.py" "$root/docs/BENCHMARKS.md"
fi
