#!/usr/bin/env bash
# The test suite in two tiers (docs/TESTING.md). Both install what is missing first.
#   bash scripts/test.sh         the quick tier, for every change (a few minutes on 2 cores):
#                                format, build with warnings as errors, every ctest suite (unit,
#                                api, cross at default counts, cli, viewer, benchmark smoke), then
#                                the Python package's pytest suite;
#   bash scripts/test.sh --full  what CI runs: the same with the cross-check at seven times its
#                                default counts, then AddressSanitizer + UndefinedBehaviorSanitizer,
#                                ThreadSanitizer on the threaded suites, valgrind memcheck of the
#                                CLI and bounded fuzzing.
set -euo pipefail
cd "$(dirname "$0")/.."
full=0
case "${1:-}" in
  "") ;;
  --full) full=1 ;;
  *) echo "usage: bash scripts/test.sh [--full]" >&2; exit 2 ;;
esac
bash scripts/deps.sh
jobs=$(nproc)
started=$(date +%s)
steps=2
[ "$full" = 1 ] && steps=6
step() { echo; echo "== $* ($(($(date +%s) - started)) s)"; }

step "1/$steps format, build and test (RelWithDebInfo, -Werror)"
# the sources follow .clang-format (clang-format 14, Debian's)
git ls-files -- 'src/*.[ch]' 'include/*.h' 'tools/*.[ch]' 'python/src/*.[ch]' |
  xargs clang-format --dry-run --Werror
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHEDRA_WERROR=ON >/dev/null
cmake --build build-test -j"$jobs"
# the full tier runs the cross-check at seven times its default counts: 1 000 to 2 800 pairs per
# family; the quick tier at the default counts
scale=${HEDRA_CROSSCHECK_SCALE:-}
[ "$full" = 1 ] && scale=${scale:-7}
env ${scale:+HEDRA_CROSSCHECK_SCALE=$scale} ctest --test-dir build-test --output-on-failure -j"$jobs"

step "2/$steps the Python package on this build: install in build-py/venv, pytest"
HEDRA_BUILD_DIR=build-test bash scripts/test_python.sh
if [ "$full" = 0 ]; then
  step "quick tier passed (bash scripts/test.sh --full adds sanitizers, valgrind, fuzzing)"
  exit 0
fi

step "3/6 AddressSanitizer + UndefinedBehaviorSanitizer"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DHEDRA_SANITIZE=address,undefined \
  -DHEDRA_BUILD_BENCH=OFF >/dev/null
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  HEDRA_CROSSCHECK_SCALE=1 ctest --test-dir build-asan --output-on-failure -j"$jobs" -E '^cli/install$'

step "4/6 ThreadSanitizer: many threads on shared polytopes, the scene and its thread pool"
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHEDRA_SANITIZE=thread \
  -DHEDRA_BUILD_BENCH=OFF >/dev/null
cmake --build build-tsan -j"$jobs" --target api_threads api_tasks api_scene unit_scene_pool
TSAN_OPTIONS=halt_on_error=1 ctest --test-dir build-tsan --output-on-failure \
  -R '^(api/threads|api/tasks|api/scene|unit/scene/pool)$'

step "5/6 valgrind memcheck of the CLI on the examples"
# Every command on the examples, plus files made here: the hull written by 'hull' read back,
# and malformed input (the error paths must free what they allocated too). A memcheck error
# exits 99; a malformed file must exit 1.
vg() { valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite "$@" >/dev/null; }
vgdir=$(mktemp -d)
trap 'rm -rf "$vgdir"' EXIT
printf 'OFF\n4 1 0\n0 0 0\n1 0 0\n' >"$vgdir/truncated.off"
printf 'pair a\nA 1\n0 0 0\nB 1\n1 1 1\npair b\nA 2\n0 0 0\n' >"$vgdir/truncated.pair"
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n' >"$vgdir/bad-index.obj"
vg build-test/hedra info examples/cube.off
vg build-test/hedra info examples/square.obj
vg build-test/hedra hull examples/ellipsoid.xyz -o "$vgdir/ellipsoid.off"
vg build-test/hedra info "$vgdir/ellipsoid.off"
vg build-test/hedra collide --algo all --distance examples/cube.off examples/tetrahedron.off
vg build-test/hedra collide --algo all --distance --rotate-b 1,2,3,4 --translate-b 0.5,0,0 \
  examples/cube.off "$vgdir/ellipsoid.off"
vg build-test/hedra batch --algo all --distance examples/pairs.pair
vg build-test/hedra collide --manifold --translate-b 0.5,0.2,0.1 examples/cube.off examples/tetrahedron.off
vg build-test/hedra batch --algo all --manifold examples/pairs.pair
vg build-test/hedra gap --dir 1,0,0 examples/cube.off examples/tetrahedron.off
vg build-test/hedra contains examples/cube.off examples/tetrahedron.off
vg build-test/hedra inside examples/ellipsoid.xyz 0.1,0.2,0.3
vg build-test/hedra collide --path examples/ellipsoid.xyz examples/cube.off --translate-b 0.9,0.3,0.2
for algo in gjk cddual lp; do
  vg build-test/hedra view --algo $algo examples/ellipsoid.xyz examples/cube.off \
    --translate-b 0.9,0.3,0.2 --rotate-b 0.9,0.3,0.2,0.1 --slide-steps 11 -o "$vgdir/view-$algo.html"
done
vg build-test/hedra view --manifold examples/cube.off examples/tetrahedron.off \
  --translate-b 0.5,0.2,0.1 --slide-steps 11 -o "$vgdir/view-contact.html"
vg build-test/hedra view --scene examples/scene/crowd.scene --manifold -o "$vgdir/view-scene.html"
HEDRA_VIEWER_DIR="$vgdir/none" vg build-test/hedra view examples/cube.off examples/cube.off \
  -o "$vgdir/none.html" || [ $? -eq 1 ]
vg build-test/hedra scene --threads 2 examples/scene/crowd.scene
vg build-test/hedra scene --threads 2 --manifold examples/scene/crowd.scene
printf 'shape s\nP 4\n0 0 0\n1 0 0\n0 1 0\n0 0 1\nbody a s 1 0 0 0 0 0 0\nmove b 1 0 0 0 0 0 0\n' \
  >"$vgdir/unknown-body.scene"
vg build-test/hedra scene "$vgdir/unknown-body.scene" || [ $? -eq 1 ]
vg build-test/hedra view --scene "$vgdir/unknown-body.scene" -o "$vgdir/bad.html" || [ $? -eq 1 ]
for bad in truncated.off bad-index.obj; do
  vg build-test/hedra info "$vgdir/$bad" || [ $? -eq 1 ]
done
vg build-test/hedra batch "$vgdir/truncated.pair" || [ $? -eq 1 ]
echo "valgrind: clean"

step "6/6 bounded fuzzing"
# Every target with a fixed seed, one job, a fixed number of inputs (the time limit is only a
# safety net) and, for fuzz_query and fuzz_scene, a fresh working corpus: the run is
# reproducible. fuzz_query's seed corpus includes every input that once failed it (regress-*), so
# those are replayed first.
if [ -f fuzz/run.sh ]; then
  export HEDRA_FUZZ_SEED=${HEDRA_FUZZ_SEED:-20261122}
  HEDRA_FUZZ_RUNS=${HEDRA_FUZZ_RUNS:-100000} bash fuzz/run.sh 300 fuzz_read_points fuzz_pair_reader \
    fuzz_scene_reader
  HEDRA_FUZZ_FRESH=1 HEDRA_FUZZ_RUNS=${HEDRA_FUZZ_QUERY_RUNS:-20000} bash fuzz/run.sh 300 fuzz_query
  HEDRA_FUZZ_FRESH=1 HEDRA_FUZZ_RUNS=${HEDRA_FUZZ_SCENE_RUNS:-5000} bash fuzz/run.sh 300 fuzz_scene
fi
step "all checks passed"
