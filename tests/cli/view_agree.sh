#!/usr/bin/env bash
# `hedra view` shows the numbers of `hedra collide --json --distance` for the same arguments,
# although its path comes from a recorded run (recording makes GJK skip its portal start): for
# the bundled examples, every algorithm and a few poses of B, the page's "query" object equals
# collide's line key by key, timings aside.
set -uo pipefail
cli=$1
src=$2
python=${HEDRA_PYTHON:-/usr/bin/python3}
if [ ! -f "$src/viewer/dist/three.bundle.js" ] && [ -z "${HEDRA_VIEWER_DIR:-}" ]; then
  echo "cli/view_agree: no three.js bundle (configured with HEDRA_VIEWER=OFF?)"
  exit 1
fi
. "$(dirname "$0")/lib.sh"
ex=$src/examples
compare() { # A B algo [pose options...]
  local a=$1 b=$2 algo=$3; shift 3
  "$cli" collide --json --distance --algo "$algo" "$@" "$a" "$b" >"$tmp/collide.json" 2>/dev/null
  "$cli" view --algo "$algo" "$@" "$a" "$b" -o "$tmp/page.html" 2>/dev/null
  if "$python" - "$tmp/page.html" "$tmp/collide.json" <<'PY'; then
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
data = json.loads(re.search(r'id="hedra-data">(.*?)</script>', page, re.S).group(1))
shown = data["query"]
collide = json.loads(open(sys.argv[2], encoding="utf-8").read().splitlines()[0])
timing = {"ns", "distance_ns"}
shown = {k: v for k, v in shown.items() if k not in timing}
collide = {k: v for k, v in collide.items() if k not in timing}
if shown != collide:
    for k in sorted(set(shown) | set(collide)):
        if shown.get(k) != collide.get(k):
            print(f"  {k}: view {shown.get(k)!r} collide {collide.get(k)!r}")
    sys.exit(1)
PY
    passes=$((passes + 1))
  else
    echo "FAIL: view and collide differ: $a $b --algo $algo $*"
    fails=$((fails + 1))
  fi
}
pairs=("$ex/cube.off $ex/tetrahedron.off" "$ex/ellipsoid.xyz $ex/cube.off"
       "$ex/square.obj $ex/cube.off" "$ex/cube.off $ex/cube.off")
for pair in "${pairs[@]}"; do
  read -r a b <<<"$pair"
  for algo in gjk cddual lp; do
    compare "$a" "$b" "$algo"
    compare "$a" "$b" "$algo" --translate-b 0.5,0.2,0.1
    compare "$a" "$b" "$algo" --translate-b 3,0,0
    compare "$a" "$b" "$algo" --rotate-b 0.9,0.1,0.3,0.2 --translate-b 0.8,0.4,0
  done
done
finish cli/view_agree
