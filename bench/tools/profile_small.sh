#!/usr/bin/env bash
# Small-n profile against libccd (docs/BENCHMARKS.md, "Small n"): instructions per query under
# callgrind (repeatable on a noisy machine) of hedra's hd_collide (GJK) and hd_distance and of
# libccd's ccdGJKIntersect and ccdMPRIntersect on the same posed pairs (Fig. 8 ellipsoids), with
# hedra's instructions by part, the code each method executes (instruction-cache lines), then
# same-run medians (hot, and with the data caches evicted), and the hot medians per gap with their
# ratios to the MPR.
#
# usage: bench/tools/profile_small.sh [N] [ROUNDS]     (defaults: N = 12, 10 orientations; 31 rounds)
# Environment: HEDRA_BENCH_BUILD (build directory, default bench/out/build),
#              HEDRA_PROFILE_OUT (output directory, default bench/out/profile).
# Needs valgrind, libccd (libccd-dev) and /usr/bin/python3 (bench/tools/code_lines.py).
set -euo pipefail

. "$(dirname "$0")/lib.sh"
out=${HEDRA_PROFILE_OUT:-$out/profile}
n=${1:-12}
rounds=${2:-31}
mkdir -p "$out"
bench_build -DCMAKE_C_FLAGS=-g -- hedra_bench hedra_small_n
pairs="$out/small_pairs_$n.txt"
"$build/bench/hedra_bench" --write-pairs "$pairs" --n "$n" --orientations 10 --quiet >/dev/null
count=$(grep -c '^pair ' "$pairs")

# inclusive instructions of the first (largest) entry matching a function name
incl() { awk -v f="$2" 'index($0, f) { gsub(",", "", $1); print $1; exit }' "$1"; }

printf '| n | method | instructions / query |\n|---:|---|---:|\n'
for m in gjk dist ccd_gjk ccd_mpr; do
  cg="$out/cg_small_${n}_$m.out"
  valgrind -q --tool=callgrind --toggle-collect=hd_small_query --callgrind-out-file="$cg" \
    "$build/bench/hedra_small_n" "$pairs" count "$m" >/dev/null
  ir=$(callgrind_annotate "$cg" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
  printf '| %d | %s | %.0f |\n' "$n" "$m" "$(echo "$ir / $count" | bc -l)"
done

echo
printf '| query | support scans | rest of the GJK loop | simplex solver | depth bound | classifier | common point | pair preparation | other |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|\n'
for m in gjk dist; do
  cg="$out/cg_small_${n}_$m.out"
  callgrind_annotate --inclusive=yes "$cg" >"$out/incl.txt" 2>/dev/null
  callgrind_annotate "$cg" >"$out/self.txt" 2>/dev/null
  total=$(awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }' "$out/incl.txt")
  iter=$(incl "$out/incl.txt" "gjk_core.c:hdi_gjk_iterate")
  solve=$(incl "$out/incl.txt" "simplex.c:hdi_simplex_solve")
  commit=$(incl "$out/incl.txt" "simplex.c:hdi_simplex_commit")
  prep=$(incl "$out/incl.txt" "query.c:hdi_query_prepare")
  depth=$(incl "$out/incl.txt" "simplex.c:hdi_simplex_inner_depth")
  refine=$(incl "$out/incl.txt" "classify.c:hdi_contact_refine")
  point=$(incl "$out/incl.txt" "gjk_core.c:hdi_gjk_point")
  # the support scans are inlined into the loop: the lines of support.h and math.h in it
  scans=$(awk '/(support\.h|math\.h):hdi_gjk_iterate( |$)/ { gsub(",", "", $1); s += $1 } END { print s + 0 }' "$out/self.txt")
  awk -v q="$m" -v c="$count" -v t="$total" -v it="${iter:-0}" -v so="${solve:-0}" \
    -v cm="${commit:-0}" -v sc="$scans" -v pr="${prep:-0}" -v de="${depth:-0}" \
    -v re="${refine:-0}" -v po="${point:-0}" 'BEGIN {
      printf "| %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f |\n", q, sc / c,
        (it - so - cm - sc) / c, (so + cm) / c, de / c, re / c, po / c, pr / c,
        (t - it - de - re - po - pr) / c }'
done

# Code executed per query, in 64-byte instruction-cache lines (bench/tools/code_lines.py): what a query
# fetches when it starts with a cold instruction cache, as in the shuffled benchmark.
echo
printf '| method | code lines, all pairs | one penetrating pair (l = -1) | one separated pair (l = 1) |\n'
printf '|---|---:|---:|---:|\n'
one_pair() { awk -v pat="$2" '/^pair / { keep = index($0, pat) > 0 } keep' "$pairs" >"$1"; }
one_pair "$out/pair_in.txt" "_k0_l-1_"
one_pair "$out/pair_out.txt" "_k0_l1_"
for m in gjk dist ccd_gjk ccd_mpr; do
  row="| $m"
  for p in "$pairs" "$out/pair_in.txt" "$out/pair_out.txt"; do
    valgrind -q --tool=callgrind --dump-instr=yes --toggle-collect=hd_small_query \
      --callgrind-out-file="$out/cg_lines.out" "$build/bench/hedra_small_n" "$p" count "$m" >/dev/null
    row="$row | $(/usr/bin/python3 "$tools/code_lines.py" "$out/cg_lines.out")"
  done
  echo "$row |"
done

echo
"$build/bench/hedra_small_n" "$pairs" time "$rounds"

echo
echo "Per gap (hot, each method over the pairs of one gap in turn):"
"$build/bench/hedra_small_n" "$pairs" gaps "$rounds"
