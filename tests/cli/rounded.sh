#!/usr/bin/env bash
# Rounded sets in the CLI: pair files' "A <n> radius <r>" and collide's --radius-a / --radius-b,
# on pairs whose answers are closed forms: spheres (one point and a radius) whose centres are 3
# apart, radii 1 and 1.5 (signed distance 0.5) or 1 and 2.5 (depth 0.5); a capsule (two points)
# of radius 0.5 beside a unit-wide box face at x = 1 (distance 0.5, normal +x, witnesses on the
# rounded surfaces); and malformed radius lines, each a file:line message.
set -uo pipefail
cli=$1
py=/usr/bin/python3
. "$(dirname "$0")/lib.sh"
echo "0 0 0" >"$tmp/p.xyz"
echo "3 0 0" >"$tmp/q.xyz"

"$cli" collide --json --depth --radius-a 1 --radius-b 1.5 "$tmp/p.xyz" "$tmp/q.xyz" >"$tmp/apart.json"
check "collide --radius-a --radius-b exits 0" test $? -eq 0
"$cli" collide --json --depth --manifold --algo all --radius-a 1 --radius-b 2.5 \
  "$tmp/p.xyz" "$tmp/q.xyz" >"$tmp/over.json"
check "collide --algo all on overlapping spheres exits 0" test $? -eq 0
check "the algorithms agree" grep -q '^{"agree":true}$' "$tmp/over.json"
check "a negative radius is a usage error" test "$(code_of "$cli" collide --radius-a -1 "$tmp/p.xyz" "$tmp/q.xyz")" -eq 2
check "it says which option" grep -q "radius-a expects a finite number >= 0" "$tmp/err"
check "a NaN radius is a usage error" test "$(code_of "$cli" collide --radius-b nan "$tmp/p.xyz" "$tmp/q.xyz")" -eq 2
check "a missing radius is a usage error" test "$(code_of "$cli" collide "$tmp/p.xyz" "$tmp/q.xyz" --radius-b)" -eq 2

{
  echo "pair spheres"; echo "A 1 radius 1"; echo "0 0 0"; echo "B 1 radius 1.5"; echo "3 0 0"
  echo "pair capsule_box"; echo "A 2 radius 0.5"; echo "0 0 -1"; echo "0 0 1"; echo "B 8"
  for x in 1 3; do for y in -1 1; do for z in -1 1; do echo "$x $y $z"; done; done; done
} >"$tmp/pairs.pair"
"$cli" batch --depth --distance --manifold "$tmp/pairs.pair" >"$tmp/batch.jsonl" 2>"$tmp/err"
check "batch of rounded pairs exits 0" test $? -eq 0

cat >"$tmp/check.py" <<'PY'
import json, sys
def close(x, y, tol=1e-12):
    return abs(x - y) <= tol
def vclose(u, v, tol=1e-12):
    return all(close(a, b, tol) for a, b in zip(u, v))
apart = json.loads(open(sys.argv[1]).readline())
over = [json.loads(l) for l in open(sys.argv[2]) if '"algo"' in l]
rows = {r["name"]: r for r in map(json.loads, open(sys.argv[3]))}
ok = [apart["verdict"] == "separated", close(apart["signed_distance"], 0.5),
      vclose(apart["witness_a"], [1, 0, 0]), vclose(apart["witness_b"], [1.5, 0, 0]),
      close(apart["certificate"]["gap"], 0.5), apart["certificate_ok"]]
for r in over:
    ok += [r["verdict"] == "intersecting", close(r["signed_distance"], -0.5), r["certificate_ok"],
           len(r["manifold"]) == 1, close(r["manifold"][0]["separation"], -0.5)]
s, c = rows["spheres"], rows["capsule_box"]
ok += [close(s["signed_distance"], 0.5), close(s["distance"], 0.5),
       close(c["signed_distance"], 0.5), vclose(c["normal"], [1, 0, 0]),
       close(c["witness_a"][0], 0.5), close(c["witness_b"][0], 1.0), c["manifold"] == []]
print(ok)
sys.exit(0 if all(ok) else 1)
PY
check "JSON answers match the closed forms" "$py" "$tmp/check.py" "$tmp/apart.json" "$tmp/over.json" "$tmp/batch.jsonl"

{
  echo "pair neg"; echo "A 1 radius -2"; echo "0 0 0"; echo "B 1"; echo "1 1 1"
  echo "pair extra"; echo "A 1 radius 1 more"; echo "0 0 0"; echo "B 1"; echo "1 1 1"
  echo "pair missing"; echo "A 1"; echo "0 0 0"; echo "B 1 radius"; echo "1 1 1"
  echo "pair inf"; echo "A 1 radius inf"; echo "0 0 0"; echo "B 1"; echo "1 1 1"
  echo "pair word"; echo "A 1 size 2"; echo "0 0 0"; echo "B 1"; echo "1 1 1"
  echo "pair good"; echo "A 1 radius 0"; echo "0 0 0"; echo "B 1 radius 0.25"; echo "1 0 0"
} >"$tmp/bad.pair"
check "malformed radius lines exit 1" test "$(code_of "$cli" batch "$tmp/bad.pair")" -eq 1
check "negative radius: file:line" grep -q "bad.pair:2: pair 'neg': radius of A: -2 is negative" "$tmp/err"
check "extra token: file:line" grep -q "bad.pair:7: pair 'extra': expected 'A <count>' or 'A <count> radius <r>', found 'more'" "$tmp/err"
check "missing value: file:line" grep -q "bad.pair:14: pair 'missing': radius of B: expected a value" "$tmp/err"
check "infinite radius: file:line" grep -q "bad.pair:17: pair 'inf': radius of A: 'inf' is not a finite number" "$tmp/err"
check "unknown word: file:line" grep -q "bad.pair:22: pair 'word': expected 'A <count>' or 'A <count> radius <r>', found 'size'" "$tmp/err"
check "the good pair after them is answered" grep -q '"name":"good".*"verdict":"separated"' "$tmp/out"
finish cli/rounded
