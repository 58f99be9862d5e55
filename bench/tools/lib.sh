# Sourced by every benchmark command (bench/bench.sh lists them): where things are, and the
# Release build they measure with (warnings not fatal: a new compiler warning must not stop a
# measurement), in the benchmark's own build directory.
# Environment: HEDRA_BENCH_OUT (output directory, default bench/out),
#              HEDRA_BENCH_BUILD (build directory, default OUT/build).
tools=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bench=$(dirname "$tools")
root=$(dirname "$bench")
out=${HEDRA_BENCH_OUT:-$bench/out}
build=${HEDRA_BENCH_BUILD:-$out/build}

# bench_build [-DNAME=VALUE ...] -- TARGET ...: configures and builds the targets; the peers found
# are reported on standard error.
bench_build() {
  local defs=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do defs+=("$1"); shift; done
  shift
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DHEDRA_WERROR=OFF \
    -DHEDRA_BUILD_BENCH=ON ${defs[@]+"${defs[@]}"} | grep -E "hedra bench" >&2 || true
  cmake --build "$build" -j"$(nproc 2>/dev/null || echo 2)" --target "$@" >/dev/null
}

# The commit measured, with "+modified" when src/ or include/ differ from it.
bench_commit() {
  local commit
  commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo none)
  if [ "$commit" != none ] && [ -n "$(git -C "$root" status --porcelain -- src include 2>/dev/null)" ]; then
    commit="$commit+modified"
  fi
  echo "$commit"
}

# split_docs_flag ARGS...: docs=1 when --docs is among them, and the other arguments in args.
split_docs_flag() {
  docs=0
  args=()
  local a
  for a in "$@"; do
    if [ "$a" = --docs ]; then docs=1; else args+=("$a"); fi
  done
}
