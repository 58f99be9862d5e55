#!/usr/bin/env bash
# The CLI's contact output (--depth, --manifold): the human-readable block of collide and the JSON
# keys of batch (docs/FORMATS.md), on unit_cube pairs whose answers are known by construction: unit
# cubes overlapping by 0.25 along x (depth 0.25, normal +x, four contact points at separation
# -0.25 in the overlap slab 0.75 <= x <= 1), touching, and separated by 1.
set -uo pipefail
cli=$1
py=/usr/bin/python3
. "$(dirname "$0")/lib.sh"
unit_cube 0 0 0 >"$tmp/a.xyz"
unit_cube 0.75 0.1 0.2 >"$tmp/over.xyz"
{
  echo "pair overlap"; echo "A 8"; unit_cube 0 0 0; echo "B 8"; unit_cube 0.75 0.1 0.2
  echo "pair touch"; echo "A 8"; unit_cube 0 0 0; echo "B 8"; unit_cube 1 0.5 0.5
  echo "pair apart"; echo "A 8"; unit_cube 0 0 0; echo "B 8"; unit_cube 2 0 0
} >"$tmp/pairs.pair"

"$cli" collide --depth --manifold "$tmp/a.xyz" "$tmp/over.xyz" >"$tmp/text" 2>&1
check "collide --depth exits 0" test $? -eq 0
check "collide prints the depth" grep -q "^penetration depth: 0.25 (" "$tmp/text"
check "collide prints the signed distance's proven bounds" grep -q "^proven: -0.25[0-9]* <= signed distance <= -0.2[45][0-9]*$" "$tmp/text"
check "collide prints the normal" grep -q "^normal (A towards B): 1 0 0" "$tmp/text"
check "collide prints four contact points" grep -q "^contact manifold: 4 points" "$tmp/text"

"$cli" batch --manifold "$tmp/pairs.pair" >"$tmp/out.jsonl" 2>"$tmp/err"
check "batch --manifold exits 0" test $? -eq 0
cat >"$tmp/check.py" <<'PY'
import json, sys
rows = {r["name"]: r for r in map(json.loads, open(sys.argv[1]))}
def close(x, y, tol=1e-12):
    return abs(x - y) <= tol
o, t, s = rows["overlap"], rows["touch"], rows["apart"]
ok = []
ok.append(close(o["signed_distance"], -0.25))
ok.append(all(close(a, b) for a, b in zip(o["normal"], [1, 0, 0])))
lo, hi = -o["bounds"][1], -o["bounds"][0]  # the signed distance's bounds, as depth bounds
ok.append(lo <= 0.25 <= hi and hi - lo < 1e-12)
d = [wb - wa - o["signed_distance"] * n for wa, wb, n in zip(o["witness_a"], o["witness_b"], o["normal"])]
ok.append(max(abs(x) for x in d) < 1e-12)
ok.append(o["feature_a"]["type"] == "face" and o["feature_b"]["type"] == "face")
m = o["manifold"]
ok.append(len(m) == 4)
ok.append(all(close(p["separation"], -0.25) and 0.75 - 1e-12 <= p["point"][0] <= 1 + 1e-12 for p in m))
ok.append(all({"point", "separation", "feature_a", "feature_b"} <= set(p) for p in m))
ok.append(t["verdict"] == "touching" and abs(t["signed_distance"]) < 1e-12 and "bounds" in t)
ok.append(close(s["signed_distance"], 1) and s["bounds"][0] <= 1 <= s["bounds"][1] and s["manifold"] == [])
print(ok)
sys.exit(0 if all(ok) else 1)
PY
check "batch JSON keys and values" "$py" "$tmp/check.py" "$tmp/out.jsonl"

# --distance with --depth: every key once (witness_a / witness_b are the contact's), and for a
# separated pair the distance is the signed distance.
cat >"$tmp/unique.py" <<'PY'
import json, sys
def unique(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        sys.exit("duplicate keys: %s" % keys)
    return dict(pairs)
o = json.loads(open(sys.argv[1]).read(), object_pairs_hook=unique)
ok = abs(o["distance"] - o["signed_distance"]) < 1e-12 and "witness_a" in o
sys.exit(0 if ok else 1)
PY
"$cli" collide --json --distance --depth "$tmp/a.xyz" "$tmp/over.xyz" --translate-b 1.5,0,0 \
  >"$tmp/both.json"
check "collide --json --distance --depth: no duplicate keys" "$py" "$tmp/unique.py" "$tmp/both.json"

# --gradient: a tetrahedron's lowest vertex (0.5, 0.5, 1.5) 0.5 above the cube's top face (a
# vertex-face pair: unique, the normal +z, B's rotation part w_b x n, A's -(w_a x n)); the cubes
# apart face to face (a subgradient: translation parts still +-normal).
{
  echo "pair vertex"; echo "A 8"; unit_cube 0 0 0; echo "B 4"
  echo "0.5 0.5 1.5"; echo "0 0 2.5"; echo "1 0 2.5"; echo "0.5 1 2.5"
  echo "pair apart"; echo "A 8"; unit_cube 0 0 0; echo "B 8"; unit_cube 2 0 0
} >"$tmp/grad.pair"
"$cli" batch --gradient "$tmp/grad.pair" >"$tmp/grad.jsonl" 2>"$tmp/err"
check "batch --gradient exits 0" test $? -eq 0
cat >"$tmp/grad.py" <<'PY'
import json, sys
rows = {r["name"]: r for r in map(json.loads, open(sys.argv[1]))}
def near(u, v):
    return len(u) == len(v) and all(abs(x - y) <= 1e-12 for x, y in zip(u, v))
v, s = rows["vertex"], rows["apart"]
ok = [abs(v["signed_distance"] - 0.5) <= 1e-12, v["gradient_unique"] is True,
      near(v["gradient_b"], [0, 0, 1, 0.5, -0.5, 0]), near(v["gradient_a"], [0, 0, -1, -0.5, 0.5, 0]),
      s["gradient_unique"] is False, near(s["gradient_b"][:3], [1, 0, 0]),
      near(s["gradient_a"][:3], [-1, 0, 0])]
print(ok)
sys.exit(0 if all(ok) else 1)
PY
check "batch --gradient keys and values" "$py" "$tmp/grad.py" "$tmp/grad.jsonl"

finish cli/contact
