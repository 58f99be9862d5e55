#!/usr/bin/env bash
# The feature benchmarks against Bullet and FCL (docs/BENCHMARKS.md, "Rounded shapes, compounds,
# motion and rays"; sources in bench/features/): one program per feature, run twice, first under
# callgrind (instructions per query, repeatable on a loaded machine: each method's queries are
# collected and dumped on their own, bench/features/common.hpp), then timed, the instruction
# counts printed beside the medians. Each takes well under a minute on 2 cores (the callgrind run
# included).
#
# usage: bench/tools/features.sh FEATURE [--docs] [program options]
#   FEATURE  prims | compound | toi | rays (hedra_bench_FEATURE; its options in its source's head)
#   --docs   also copy the report into docs/bench/FEATURE.md
# Environment: HEDRA_BENCH_BUILD (build directory, default bench/out/build),
#              HEDRA_BENCH_OUT (output directory, default bench/out).
set -euo pipefail

. "$(dirname "$0")/lib.sh"
feature=${1:?usage: features.sh prims|compound|toi|rays [--docs] [options]}
shift
case "$feature" in
  prims | compound | toi | rays) ;;
  *) echo "features.sh: unknown feature '$feature'" >&2; exit 2 ;;
esac
split_docs_flag "$@"
program=$build/bench/hedra_bench_$feature

mkdir -p "$out/features"
bench_build -- "hedra_bench_$feature"
[ -x "$program" ] || { echo "features.sh: $program not built (Bullet and FCL are needed)" >&2; exit 1; }
export HEDRA_BENCH_COMMIT
HEDRA_BENCH_COMMIT=$(bench_commit)

# The configurations run: toi also with turns below 45 degrees, where Bullet's motion is the
# others' (bench/features/toi.cpp).
variants=("")
[ "$feature" = toi ] && variants=("" "--turn 40")

# instructions: one dump per method, its description "Client Request: LABEL COUNT"
profile_run() {
  local ins=$1 dump
  shift
  if ! command -v valgrind >/dev/null; then
    echo "features.sh: valgrind not found: no instruction counts" >&2
    : >"$ins"
    return
  fi
  rm -f "$out/features/cg_$feature".*
  valgrind -q --tool=callgrind --collect-atstart=no \
    --callgrind-out-file="$out/features/cg_$feature.%p" "$program" --profile "$@" >/dev/null
  for dump in "$out/features/cg_$feature".*.*; do
    awk '/^desc: Trigger: Client Request: / { sub(/^desc: Trigger: Client Request: /, "");
                                              n = $NF; sub(/ [0-9]+$/, ""); label = $0 }
         /^summary: / { if (n > 0) printf "%s\t%.0f\n", label, $2 / n }' "$dump"
  done >"$ins"
}

report=$out/features/$feature.md
ins=$out/features/$feature.instructions
for variant in "${variants[@]}"; do
  read -r -a extra <<<"$variant"
  profile_run "$ins" ${extra[@]+"${extra[@]}"} ${args[@]+"${args[@]}"}
  "$program" --instructions "$ins" ${extra[@]+"${extra[@]}"} ${args[@]+"${args[@]}"}
  echo
done | tee "$report"

if [ $docs = 1 ]; then
  mkdir -p "$root/docs/bench"
  cp "$report" "$root/docs/bench/$feature.md"
  echo "bench $feature: copied the report to docs/bench/$feature.md"
fi
