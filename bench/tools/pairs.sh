#!/usr/bin/env bash
# Runs the default benchmark (a few minutes on 2 cores) and regenerates the plots.
#
# usage: bench/run.sh [--docs]   (or bash bench/bench.sh pairs ...) [hedra_bench options]
#   --docs          also copy the plots and tables into docs/bench/ (for docs/BENCHMARKS.md)
#   --full          the paper's sizes (500 orientations x 300 repetitions): hours
#   --quick         a few seconds, for trying things out
#   --only fig8,... a subset of fig8, fig9, meshes, lp, distance, scaling, coherence, depth
# Environment: HEDRA_BENCH_BUILD (build directory, default bench/out/build),
#              HEDRA_BENCH_OUT (output directory, default bench/out).
# The benchmark is built in Release mode (warnings not fatal: a new compiler warning must not stop a
# measurement) in its own build directory; the CSV files, tables.md and
# the PNG plots are written to the output directory (git-ignored).
set -euo pipefail

. "$(dirname "$0")/lib.sh"
split_docs_flag "$@"

mkdir -p "$out"
bench_build -- hedra_bench

commit=$(bench_commit)

# the meshes experiment reads CGAL's demo meshes from Debian's libcgal-demo (a tarball)
cgal=/usr/share/doc/libcgal-dev/data.tar.gz
meshes=()
if [ -f "$cgal" ]; then
  mkdir -p "$out/meshes"
  tar xzf "$cgal" -C "$out/meshes" --wildcards 'data/meshes/*.off'
  meshes=(--meshes "$out/meshes/data/meshes")
fi

"$build/bench/hedra_bench" --out "$out" --commit "$commit" ${meshes[@]+"${meshes[@]}"} \
  ${args[@]+"${args[@]}"}
"$tools/plot.sh" "$out"

if [ $docs = 1 ]; then
  mkdir -p "$root/docs/bench"
  cp "$out"/*.png "$out/tables.md" "$root/docs/bench/"
  [ -f "$out/depth.md" ] && cp "$out/depth.md" "$root/docs/bench/"
  echo "bench pairs: copied plots and tables.md to docs/bench/"
  /usr/bin/python3 "$tools/headline.py" "$root/docs/BENCHMARKS.md"
fi
