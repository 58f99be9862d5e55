#!/usr/bin/env bash
# Instruction counts per query (callgrind: repeatable on a noisy machine, unlike times) of hedra's
# GJK and CD-Dual on the benchmark's pairs, per size and gap class, with the work counters and
# the functions where CD-Dual's instructions go.
#
# usage: bench/tools/profile.sh [N ...]     (default sizes: 12 1000; 10 orientations per size)
# Environment: HEDRA_BENCH_BUILD (build directory, default bench/out/build),
#              HEDRA_PROFILE_OUT (output directory, default bench/out/profile).
# Needs valgrind. Only hd_collide is counted (--toggle-collect), so reading the pair file and
# building the hulls do not enter the figures.
set -euo pipefail

. "$(dirname "$0")/lib.sh"
out=${HEDRA_PROFILE_OUT:-$out/profile}
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(12 1000)
mkdir -p "$out"
bench_build -- hedra_bench hedra_cli
cli="$build/hedra"

# keeps the pairs of a pair file whose gap l (from the name "_l<gap>_") lies in [lo, hi]
select_gaps() {
  awk -v lo="$2" -v hi="$3" '
    /^pair / { match($2, /_l[-0-9.e+]+_/); l = substr($2, RSTART + 2, RLENGTH - 3) + 0;
               keep = (l >= lo && l <= hi); if (keep) n++ }
    keep { print }
    END { print "# " n " pairs" > "/dev/stderr" }' "$1"
}

printf '| n | gaps | algo | instructions / query | iterations | support calls | visits fv / vf / ee |\n'
printf '|---:|---|---|---:|---:|---:|---|\n'
for n in "${sizes[@]}"; do
  "$build/bench/hedra_bench" --write-pairs "$out/pairs_$n.txt" --n "$n" --orientations 10 \
    --quiet >/dev/null
  for cls in "penetrating:-1e9:-1" "near:-1e-4:1e-4" "separated:1:1e9"; do
    IFS=: read -r name lo hi <<<"$cls"
    select_gaps "$out/pairs_$n.txt" "$lo" "$hi" >"$out/sel.txt" 2>/dev/null
    count=$(grep -c '^pair ' "$out/sel.txt")
    for algo in gjk cddual; do
      cg="$out/cg_${n}_${name}_${algo}.out"
      valgrind -q --tool=callgrind --toggle-collect=hd_collide --callgrind-out-file="$cg" \
        "$cli" batch --algo "$algo" --no-check "$out/sel.txt" >"$out/batch.json"
      ir=$(callgrind_annotate "$cg" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
      awk -v n="$n" -v g="$name" -v a="$algo" -v ir="$ir" -v c="$count" '
        { match($0, /"iterations":[0-9]+/); it += substr($0, RSTART + 13, RLENGTH - 13)
          match($0, /"support_calls":[0-9]+/); sc += substr($0, RSTART + 16, RLENGTH - 16)
          if (match($0, /"fv":[0-9]+,"vf":[0-9]+,"ee":[0-9]+/)) {
            split(substr($0, RSTART, RLENGTH), v, /[:,]/); fv += v[2]; vf += v[4]; ee += v[6] } }
        END { printf "| %d | %s | %s | %.0f | %.1f | %.1f | %s |\n", n, g, a, ir / c, it / c,
              sc / c, a == "cddual" ? sprintf("%.1f / %.1f / %.1f", fv / c, vf / c, ee / c) : "" }
      ' "$out/batch.json"
    done
  done
done
echo
echo "CD-Dual's instructions by function (inclusive, last size, near contact): $out/cg_*_cddual.out"
callgrind_annotate --inclusive=yes "$out/cg_${sizes[-1]}_near_cddual.out" 2>/dev/null |
  grep -E 'hd_|search|visit|climb|expand|loop_min|pairs_at|faces_of|arc|support' | head -25
