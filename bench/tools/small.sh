#!/usr/bin/env bash
# Small hulls against libccd (docs/BENCHMARKS.md, "Small hulls"): the 'small' experiment of
# hedra_bench (n = 8 boxes, 12, 16, 32, 64, 100, 1000; the shuffled cold protocol) once per scan
# kernel named (every kernel gives the same answers, HEDRA_SCAN_KERNEL picks it at polytope
# build), callgrind instructions per query of each method on the same pairs (hedra_small_n), and
# the warm protocol (hedra_warm_small: the previous frame's hd_cache, B moved by at most 0.5 % of
# the size per frame, and 1 % at speed 2) with its iterations; then the tables
# (bench/tools/small_table.py). libccd's instructions are counted once per n (no kernel of hedra's
# changes them).
#
# usage: bench/tools/small.sh [KERNEL ...]     (default: plain avx2)
# Environment: HEDRA_BENCH_BUILD, HEDRA_SMALL_OUT (default bench/out/small).
# Needs valgrind, libccd (libccd-dev) and /usr/bin/python3.
set -euo pipefail

. "$(dirname "$0")/lib.sh"
out=${HEDRA_SMALL_OUT:-$out/small}
kernels=("$@")
[ ${#kernels[@]} -gt 0 ] || kernels=(plain avx2)
sizes="8 12 16 32 64 100 1000"
mkdir -p "$out"
bench_build -DCMAKE_C_FLAGS=-g -- hedra_bench hedra_small_n hedra_warm_small
commit=$(bench_commit)

for k in "${kernels[@]}"; do
  HEDRA_SCAN_KERNEL=$k "$build/bench/hedra_bench" --only small --out "$out/small_$k" \
    --commit "$commit" --quiet >/dev/null
done

# instructions per query: one callgrind pass of each method over 10 orientations x every gap
: >"$out/instr.tsv"
per_query() { # KERNEL METHOD PAIRS COUNT
  HEDRA_SCAN_KERNEL=$1 valgrind -q --tool=callgrind --toggle-collect=hd_small_query \
    --callgrind-out-file="$out/cg.out" "$build/bench/hedra_small_n" "$3" count "$2" >/dev/null
  callgrind_annotate "$out/cg.out" 2>/dev/null |
    awk -v c="$4" '/PROGRAM TOTALS/ { gsub(",", "", $1); printf "%.0f\n", $1 / c }'
}
for n in $sizes; do
  pairs="$out/pairs_$n.txt"
  "$build/bench/hedra_bench" --write-pairs "$pairs" --n "$n" --orientations 10 --quiet >/dev/null
  count=$(grep -c '^pair ' "$pairs")
  for k in "${kernels[@]}"; do
    for m in gjk dist; do
      echo "$k $m $n $(per_query "$k" "$m" "$pairs" "$count")" >>"$out/instr.tsv"
    done
  done
  for m in ccd_mpr ccd_gjk; do
    ir=$(per_query "${kernels[0]}" "$m" "$pairs" "$count")
    for k in "${kernels[@]}"; do echo "$k $m $n $ir" >>"$out/instr.tsv"; done
  done
done

# warm protocol: medians of 21 passes over 1 000 frames, iterations and instructions per query
: >"$out/warm.tsv"
warm_instr() { # KERNEL N QUERY MODE SPEED
  HEDRA_SCAN_KERNEL=$1 valgrind -q --tool=callgrind --toggle-collect=hd_warm_query \
    --callgrind-out-file="$out/cgw.out" "$build/bench/hedra_warm_small" "$2" 1000 "$3" "$4" \
    count 1 "$5" >/dev/null
  callgrind_annotate "$out/cgw.out" 2>/dev/null |
    awk '/PROGRAM TOTALS/ { gsub(",", "", $1); printf "%.0f\n", $1 / 1000 }'
}
for speed in 1 2; do
  for n in $sizes; do
    for k in "${kernels[@]}"; do
      for q in gjk dist; do
        row="$n $k $q $speed"
        for mode in cold warm; do
          line=$(HEDRA_SCAN_KERNEL=$k "$build/bench/hedra_warm_small" "$n" 1000 "$q" "$mode" \
            time 21 "$speed")
          row="$row $(echo "$line" | awk '{ print $5, $(NF - 1) }')"
        done
        row="$row $(warm_instr "$k" "$n" "$q" cold "$speed") $(warm_instr "$k" "$n" "$q" warm "$speed")"
        echo "$row" >>"$out/warm.tsv"
      done
    done
  done
done

echo "small hulls at $commit ($(date -u +%Y-%m-%dT%H:%MZ))"
/usr/bin/python3 "$tools/small_table.py" "$out" "${kernels[@]}"
