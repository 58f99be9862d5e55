#!/usr/bin/env bash
# Builds every libFuzzer target (fuzz/fuzz_*.c) with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer, then runs each for a fixed time on a working copy of its seed
# corpus (fuzz/corpus/<target>/), with fuzz/<target>.dict when present.
#
# usage: fuzz/run.sh [SECONDS_PER_TARGET (default 30)] [TARGET ...]
# environment: HEDRA_FUZZ_BUILD  build directory (default: <repo>/build-fuzz)
#              HEDRA_FUZZ_JOBS   parallel fuzzing jobs per target (default 1)
#              HEDRA_FUZZ_SEED   libFuzzer's random seed (default: random)
#              HEDRA_FUZZ_RUNS   stop after this many inputs instead of after SECONDS; with a fixed
#                                seed, one job and a fresh working corpus the run is then
#                                reproducible (CI uses this)
#              HEDRA_FUZZ_FRESH  1: start from the seed corpus alone (the working copy of earlier
#                                runs is emptied first), so that a seeded run does not depend on
#                                what earlier runs added
# Crashing inputs are written to $HEDRA_FUZZ_BUILD/artifacts/<target>/; the script exits
# non-zero if any target found one. Keep a crash as a regression file (tests/data/io/ for the
# parsers) once fixed.
set -euo pipefail

secs=${1:-30}
shift || true
root=$(cd "$(dirname "$0")/.." && pwd)
build=${HEDRA_FUZZ_BUILD:-$root/build-fuzz}
jobs=${HEDRA_FUZZ_JOBS:-1}

if ! command -v clang >/dev/null; then
    echo "fuzz/run.sh: clang is required (apt-get install clang)" >&2
    exit 2
fi

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for src in "$root"/fuzz/fuzz_*.c; do
        targets+=("$(basename "$src" .c)")
    done
fi

CC=clang cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DHEDRA_BUILD_FUZZ=ON -DHEDRA_SANITIZE=address,undefined \
    -DBUILD_TESTING=OFF -DHEDRA_BUILD_BENCH=OFF -DHEDRA_WERROR=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}"

failed=0
for t in "${targets[@]}"; do
    work="$build/corpus/$t"
    artifacts="$build/artifacts/$t"
    if [ "${HEDRA_FUZZ_FRESH:-0}" = 1 ]; then
        rm -rf "$work"
    fi
    mkdir -p "$work" "$artifacts"
    args=(-max_total_time="$secs" -print_final_stats=1 -artifact_prefix="$artifacts/"
          -rss_limit_mb=2048 -timeout=10)
    if [ -f "$root/fuzz/$t.dict" ]; then
        args+=(-dict="$root/fuzz/$t.dict")
    fi
    if [ -n "${HEDRA_FUZZ_SEED:-}" ]; then
        args+=(-seed="$HEDRA_FUZZ_SEED")
    fi
    if [ -n "${HEDRA_FUZZ_RUNS:-}" ]; then
        args+=(-runs="$HEDRA_FUZZ_RUNS")
    fi
    if [ "$jobs" -gt 1 ]; then
        args+=(-jobs="$jobs" -workers="$jobs")
    fi
    seeds=()
    if [ -d "$root/fuzz/corpus/$t" ]; then
        seeds=("$root/fuzz/corpus/$t")
    fi
    echo "== $t: ${secs}s"
    if ! (cd "$artifacts" && "$build/fuzz/$t" "${args[@]}" "$work" "${seeds[@]}"); then
        echo "== $t: FOUND A CRASH, see $artifacts" >&2
        failed=1
    fi
done
exit $failed
