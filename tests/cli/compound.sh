#!/usr/bin/env bash
# Compound bodies on the command line (docs/FORMATS.md): `collide --compound` on OBJ groups,
# compound pairs in `batch`, `hedra enclosure`, and their bad input, on unit cubes whose answers
# are known by construction: a body of two unit cubes (x in [0, 1] and [2, 3]) against itself
# moved by (0.5, 0.2, 0.9) overlaps 0.1 along z in two pairs of pieces; moved by 1.5 along z it is
# 0.5 away; the gap between its cubes lies 0.5 outside both.
set -uo pipefail
cli=$1
py=/usr/bin/python3
. "$(dirname "$0")/lib.sh"
cube_obj() { # name, x offset, index of its first vertex: an 'o' group of a unit cube
  echo "o $1"
  for k in 0 1; do for j in 0 1; do for i in 0 1; do echo "v $((i + $2)) $j $k"; done; done; done
  local b=$3
  echo "f $b $((b + 2)) $((b + 3)) $((b + 1))"; echo "f $((b + 4)) $((b + 5)) $((b + 7)) $((b + 6))"
  echo "f $b $((b + 1)) $((b + 5)) $((b + 4))"; echo "f $((b + 1)) $((b + 3)) $((b + 7)) $((b + 5))"
  echo "f $((b + 3)) $((b + 2)) $((b + 6)) $((b + 7))"; echo "f $((b + 2)) $b $((b + 4)) $((b + 6))"
}
{ cube_obj left 0 1; cube_obj right 2 9; } >"$tmp/two.obj"

"$cli" collide --compound --json --distance --manifold "$tmp/two.obj" "$tmp/two.obj" \
  --translate-b 0.5,0.2,0.9 >"$tmp/over.json"
check "collide --compound exits 0 on an overlap" test $? -eq 0
"$cli" collide --compound --json --distance --depth "$tmp/two.obj" "$tmp/two.obj" \
  --translate-b 0,0,1.5 >"$tmp/apart.json"
check "collide --compound exits 0 apart" test $? -eq 0
cat >"$tmp/check.py" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
s = json.load(open(sys.argv[2]))
ok = [o["verdict"] == "intersecting", o["certificate_ok"] is True,
      o["pieces"][0] == o["pieces"][1] and o["pieces"][0] in (0, 1),
      abs(o["signed_distance"] + 0.1) < 1e-12, o["distance"] == 0,
      [abs(x) for x in o["normal"]] == [0, 0, 1], o["contact_pairs"] == 2,
      1 <= len(o["manifold"]) <= 4, len(o["manifold_pieces"]) == len(o["manifold"]),
      all(abs(p["separation"] + 0.1) < 1e-12 for p in o["manifold"]),
      {tuple(p) for p in o["manifold_pieces"]} == {(0, 0), (1, 1)},
      s["verdict"] == "separated", abs(s["distance"] - 0.5) < 1e-12,
      abs(s["signed_distance"] - 0.5) < 1e-12, s["pieces"] == [-1, -1],
      s["distance_pieces"][0] == s["distance_pieces"][1]]
print(ok)
sys.exit(0 if all(ok) else 1)
PY
check "collide --compound JSON: closed forms and pieces" "$py" "$tmp/check.py" "$tmp/over.json" "$tmp/apart.json"
"$cli" collide --compound "$tmp/two.obj" "$tmp/two.obj" --translate-b 0.5,0.2,0.9 >"$tmp/text"
check "collide --compound text names the pieces" grep -q "^pieces: [01] of A, [01] of B (certificate checked)" "$tmp/text"

# batch: a compound of the two cubes against a small cube inside the right one, and 0.5 beyond it
small() { for i in 0 1; do for j in 0 1; do for k in 0 1; do echo "$(awk -v i=$i -v x=$1 'BEGIN{print x + 0.1 * i}') 0.$((4 + j)) 0.$((4 + k))"; done; done; done; }
pieces() {
  echo "A pieces 2"; echo "P 8"
  for i in 0 1; do for j in 0 1; do for k in 0 1; do echo "$i $j $k"; done; done; done
  echo "P 8"
  for i in 2 3; do for j in 0 1; do for k in 0 1; do echo "$i $j $k"; done; done; done
}
{
  echo "pair inside"; pieces; echo "B 8"; small 2.5
  echo "pair beyond"; pieces; echo "B 8"; small 3.5
  echo "pair plain"; echo "A 1"; echo "0 0 0"; echo "B pieces 1"; echo "P 1"; echo "0 0 2"
} >"$tmp/pairs.pair"
"$cli" batch --algo all --distance "$tmp/pairs.pair" >"$tmp/batch.jsonl" 2>"$tmp/err"
check "batch on compound pairs exits 0" test $? -eq 0
cat >"$tmp/batch.py" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
by = {}
for r in rows:
    by.setdefault(r["name"], []).append(r)
ok = [len(rows) == 9]
ok += [r["verdict"] == "intersecting" and r["pieces"] == [1, 0] and r["certificate_ok"] for r in by["inside"]]
ok += [r["verdict"] == "separated" and abs(r["distance"] - 0.5) < 1e-12 and r["distance_pieces"] == [1, 0] for r in by["beyond"]]
ok += [abs(r["distance"] - 2) < 1e-12 for r in by["plain"]]
print(ok)
sys.exit(0 if all(ok) else 1)
PY
check "batch compound keys and values" "$py" "$tmp/batch.py" "$tmp/batch.jsonl"

# enclosure: the corners of the box [0, 3] x [0, 1]^2 lie in the pieces; its centre (1.5, 0.5, 0.5)
# lies 0.5 outside both
for p in "0 0 0" "3 0 0" "0 1 1" "3 1 1" "1.5 0.5 0.5" "2.5 0.5 0.5"; do echo "$p"; done >"$tmp/mesh.xyz"
"$cli" enclosure --json "$tmp/mesh.xyz" "$tmp/two.obj" >"$tmp/enc.json"
check "enclosure exits 0" test $? -eq 0
cat >"$tmp/enc.py" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))
ok = abs(e["enclosure"] - 0.5) < 1e-15 and e["vertex"] == 4 and e["inside"] == 5 and \
     e["vertices"] == 6 and e["pieces"] == 2 and e["point"] == [1.5, 0.5, 0.5] and \
     abs(abs(e["witness"][0] - 1.5) - 0.5) < 1e-15
sys.exit(0 if ok else 1)
PY
check "enclosure JSON: the gap's centre at 0.5" "$py" "$tmp/enc.py" "$tmp/enc.json"
head -4 "$tmp/mesh.xyz" >"$tmp/corners.xyz"
"$cli" enclosure "$tmp/corners.xyz" "$tmp/two.obj" >"$tmp/text"
check "enclosure of enclosed vertices says 0" grep -q "^enclosure: 0 (every vertex lies in a piece" "$tmp/text"

# bad input: a piece that is not convex (its top face's centre pulled down: the four faces
# around it have corners on both sides), with its line; a compound of no piece in a pair file
{
  echo "o pit"
  for p in "0 0 0" "1 0 0" "1 1 0" "0 1 0" "0 0 1" "1 0 1" "1 1 1" "0 1 1" "0.5 0.5 0.2"; do echo "v $p"; done
  echo "f 1 4 3 2"; echo "f 1 2 6 5"; echo "f 2 3 7 6"; echo "f 3 4 8 7"; echo "f 4 1 5 8"
  echo "f 5 6 9"; echo "f 6 7 9"; echo "f 7 8 9"; echo "f 8 5 9"
} >"$tmp/pit.obj"
check "a piece that is not convex: exit 1" test "$(code_of "$cli" enclosure "$tmp/mesh.xyz" "$tmp/pit.obj")" -eq 1
check "... with file:line" grep -q "pit.obj:16: piece 0 is not convex" "$tmp/err"
check "collide --compound on it: exit 1" test "$(code_of "$cli" collide --compound "$tmp/pit.obj" "$tmp/two.obj")" -eq 1
check "... with file:line" grep -q "pit.obj:16:" "$tmp/err"
printf 'pair none\nA pieces 0\nB 1\n0 0 0\npair ok\nA 1\n0 0 0\nB 1\n1 0 0\n' >"$tmp/none.pair"
check "a compound of no piece: exit 1" test "$(code_of "$cli" batch "$tmp/none.pair")" -eq 1
check "... with file:line, the next pair answered" grep -q "none.pair:2: pair 'none': the piece count of A must be at least 1" "$tmp/err"
check "... the next pair answered" grep -q '"name":"ok"' "$tmp/out"
check "enclosure of a missing file: exit 1" test "$(code_of "$cli" enclosure "$tmp/nothing.xyz" "$tmp/two.obj")" -eq 1
check "enclosure with one file: exit 2" test "$(code_of "$cli" enclosure "$tmp/mesh.xyz")" -eq 2
check "enclosure --help: exit 0" test "$(code_of "$cli" enclosure --help)" -eq 0
finish cli/compound
