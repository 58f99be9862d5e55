#!/usr/bin/env bash
# Instruction counts per penetration-depth query (callgrind: repeatable on a noisy machine, unlike
# times) of hedra's signed distance and of the peers' depth calls, on the depth experiment's pairs
# (bench/pairs/depth.c: ellipsoids 200:100:100, five penetrations), in the same harness.
#
# usage: bench/tools/profile_depth.sh [N ...]   (default sizes: 12 100 1000 5000; 10 orientations)
# Environment: HEDRA_BENCH_BUILD (build directory, default bench/out/build),
#              HEDRA_PROFILE_OUT (output directory, default bench/out/profile),
#              HEDRA_PROFILE_K (orientations, default 10).
# Needs valgrind. Each method's figure is the inclusive count of its benchmark wrapper divided by
# its number of calls (the wrappers pose the shapes the same way for every library); hedra's
# functions, inclusive, are in $out/cg_depth_N.out (callgrind_annotate --inclusive=yes).
set -euo pipefail

. "$(dirname "$0")/lib.sh"
out=${HEDRA_PROFILE_OUT:-$out/profile}
k=${HEDRA_PROFILE_K:-10}
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(12 100 1000 5000)
mkdir -p "$out"
bench_build -- hedra_bench

wrappers="hd_bench_depth_query hd_bench_depth_gradient hd_ccd_gjk_pen hd_ccd_mpr_pen bullet_pen fcl_signed fcl_contact"
printf '| n | method | instructions / query |\n|---:|---|---:|\n'
for n in "${sizes[@]}"; do
  cg="$out/cg_depth_$n.out"
  valgrind -q --tool=callgrind --callgrind-out-file="$cg" "$build/bench/hedra_bench" \
    --only depth --depth-n "$n" --orientations "$k" --repetitions 1 --block 1 --quiet \
    --out "$out/run_$n" >/dev/null 2>&1
  # the caller tree gives, for each wrapper, its inclusive count and its calls from time_item
  # and (hedra's) from the reference pass
  callgrind_annotate --inclusive=yes --tree=caller --threshold=100 "$cg" 2>/dev/null |
    awk -v n="$n" -v names="$wrappers" '
      BEGIN { split(names, w, " "); for (i in w) want[w[i]] = 1 }
      / < / { line = $0; gsub(",", "", $1); ir = $1 + 0
              if (match(line, /\(([0-9]+)x\)/)) { c = substr(line, RSTART + 1, RLENGTH - 3) + 0 }
              pend_ir += ir; pend_c += c; next }
      / \* / { for (nm in want) if (index($0, ":" nm "(") || index($0, ":" nm " ") ||
                                     index($0, "::" nm "(")) { tot[nm] = pend_ir; cnt[nm] = pend_c }
              pend_ir = 0; pend_c = 0; next }
      /^$/ { pend_ir = 0; pend_c = 0 }
      END { split(names, o, " ")
            for (i = 1; i <= length(o); ++i) if (cnt[o[i]] > 0)
              printf "| %d | %s | %.0f |\n", n, o[i], tot[o[i]] / cnt[o[i]] }'
done
