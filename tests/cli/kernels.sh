#!/usr/bin/env bash
# The support scan kernels give the same answers to the bit: hedra batch with every algorithm,
# the distance, the depth, the manifold and the gradient, on random pairs of 1 to 40 points
# (boxes among them, some touching, some overlapping), once per kernel named by HEDRA_SCAN_KERNEL
# (one the CPU lacks falls back to the default), each output compared byte for byte with the plain
# scan's after the timings are removed.
set -uo pipefail
cli=$1
. "$(dirname "$0")/lib.sh"
seed=${HEDRA_SEED:-4401}
echo "cli/kernels: seed $seed"

# pairs: A a cloud (or a box at n = 8) at the origin, B the same kind moved by up to 2 along x
awk -v seed="$seed" 'BEGIN {
  srand(seed)
  for (p = 0; p < 60; ++p) {
    printf "pair k%d\n", p
    for (s = 0; s < 2; ++s) {
      n = 1 + int(rand() * 40); if (p % 7 == 0) n = 8
      shift = s == 1 ? 2 * rand() : 0
      printf "%s %d\n", s == 0 ? "A" : "B", n
      for (i = 0; i < n; ++i) {
        if (n == 8 && p % 7 == 0) { x = (i % 2) - 0.5; y = (int(i / 2) % 2) - 0.5; z = int(i / 4) - 0.5 }
        else { x = rand() - 0.5; y = rand() - 0.5; z = rand() - 0.5 }
        printf "%.17g %.17g %.17g\n", x + shift, y, z
      }
    }
  }
}' >"$tmp/pairs.txt"

run() { # KERNEL -> $tmp/KERNEL.json without the timings
  HEDRA_SCAN_KERNEL=$1 "$cli" batch --algo all --distance --depth --manifold --gradient \
    "$tmp/pairs.txt" 2>/dev/null | sed -E 's/"[a-z_]*ns":[0-9]+,//g' >"$tmp/$1.json"
}
run plain
check "the plain scan answers every pair" test "$(grep -c '"algo"' "$tmp/plain.json")" -ge 180
for k in sse2 avx2 avx512; do
  run "$k"
  check "kernel $k: the plain scan's answers to the bit" cmp -s "$tmp/plain.json" "$tmp/$k.json"
done
finish cli/kernels
