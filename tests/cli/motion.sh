#!/usr/bin/env bash
# The motion commands (docs/FORMATS.md): `hedra batch --toi` on pair files with motion lines,
# `hedra cast` and `hedra ray`, on unit cubes whose answers are known by construction: B 2 away
# along x coming at speed 4 (first contact at t = 1/2, also while it spins about the line of
# approach, which keeps the faces parallel), pairs at rest apart or touching (no TOI, TOI 0), a
# body turning three times far away (no TOI), rays through a face, too short, from inside; and the
# errors: bad motion lines with their line, bad options, shapes a ray cannot enter; a scene file's
# velocity lines (hedra scene's continuous check).
set -uo pipefail
cli=$1
py=/usr/bin/python3
. "$(dirname "$0")/lib.sh"
unit_cube 0 0 0 >"$tmp/a.xyz"
unit_cube 3 0 0 >"$tmp/b.xyz"
printf '0 0 0\n1 0 0\n' >"$tmp/seg.xyz"
{
  echo "pair head_on"; echo "A 8"; unit_cube 0 0 0; echo "B 8"; unit_cube 3 0 0
  echo "motion -4 0 0 0 0 0 3.5 0.5 0.5"
  echo "pair spinning"; echo "A 8"; unit_cube 0 0 0; echo "B 8"; unit_cube 3 0 0
  echo "# three and a half turns about the line of approach"
  echo "motion -4 0 0 21.991148575128552 0 0 3.5 0.5 0.5"
  echo "pair apart"; echo "A 8"; unit_cube 0 0 0; echo "B 8"; unit_cube 2 0 0
  echo "pair touching"; echo "A 8"; unit_cube 0 0 0; echo "B 8"; unit_cube 1 0.5 0.5
  echo "motion 5 0 0 0 0 0 0 0 0"
  echo "pair far_turns"; echo "A 8"; unit_cube 0 0 0; echo "B 8"; unit_cube 10 0 0
  echo "motion 0 0 0 0 0 18.84955592153876 10.5 0.5 0.5"
} >"$tmp/moves.pair"

"$cli" batch --toi "$tmp/moves.pair" >"$tmp/out.jsonl" 2>"$tmp/err"
check "batch --toi exits 0" test $? -eq 0
cat >"$tmp/check.py" <<'PY'
import json, sys
rows = {r["name"]: r for r in map(json.loads, open(sys.argv[1]))}
ok = []
for name in ("head_on", "spinning"):
    r = rows[name]
    lo, hi = r["toi_bounds"]
    ok.append(r["motion"] is True and lo <= 0.5 <= hi + 1e-9 and hi - lo <= 1e-9)
    ok.append(abs(r["toi"] - 0.5) <= 1e-9 and r["toi"] == hi)
    ok.append(r["normal"][0] >= 1 - 1e-6 and abs(r["witness_a"][0] - 1) <= 1e-9)
    ok.append(abs(r["witness_b"][0] - 1) <= 1e-9 and r["iterations"] >= 1)
for name in ("apart", "far_turns"):
    r = rows[name]
    ok.append(r["toi"] is None and r["toi_bounds"] is None)
t = rows["touching"]
ok.append(t["toi"] == 0 and t["toi_bounds"] == [0, 0] and t["motion"] is True)
print(ok)
sys.exit(0 if all(ok) else 1)
PY
check "batch --toi: the TOIs known by construction" $py "$tmp/check.py" "$tmp/out.jsonl"

# compound pairs: A two unit cubes side by side (pieces at x in [0, 1] and [1.5, 2.5]), B one
# cube at x = 4 coming at speed 3 (piece 1 first, gap 1.5: t = 1/2), and a spinning B turning a
# full turn about its centre 8 away (no contact)
{
  echo "pair compound_hit"; echo "A pieces 2"; echo "P 8"; unit_cube 0 0 0; echo "P 8"
  unit_cube 1.5 0 0; echo "B pieces 1"; echo "P 8"; unit_cube 4 0 0
  echo "motion -3 0 0 0 0 0 4.5 0.5 0.5"
  echo "pair compound_miss"; echo "A pieces 2"; echo "P 8"; unit_cube 0 0 0; echo "P 8"
  unit_cube 1.5 0 0; echo "B 8"; unit_cube 8 0 0
  echo "motion 0 0 0 0 0 6.283185307179586 8.5 0.5 0.5"
} >"$tmp/compound.pair"
"$cli" batch --toi "$tmp/compound.pair" >"$tmp/cout.jsonl" 2>"$tmp/err"
check "batch --toi on compound pairs exits 0" test $? -eq 0
cat >"$tmp/ccheck.py" <<'PY'
import json, sys
rows = {r["name"]: r for r in map(json.loads, open(sys.argv[1]))}
h, m = rows["compound_hit"], rows["compound_miss"]
lo, hi = h["toi_bounds"]
ok = [lo <= 0.5 <= hi + 1e-9, abs(h["toi"] - 0.5) <= 1e-9, h["piece_a"] == 1, h["piece_b"] == 0,
      h["piece_pairs"] >= 1, abs(h["witness_a"][0] - 2.5) <= 1e-9,
      m["toi"] is None and m["toi_bounds"] is None and m["piece_a"] == -1]
print(ok)
sys.exit(0 if all(ok) else 1)
PY
check "batch --toi: compound pairs, pieces and times known by construction" \
  $py "$tmp/ccheck.py" "$tmp/cout.jsonl"

printf 'pair bad\nA 1\n0 0 0\nB 1\n1 0 0\nmotion 1 2 3\npair next\nA 1\n0 0 0\nB 1\n3 0 0\n' \
  >"$tmp/bad.pair"
check "a short motion line: exit 1" test "$(code_of "$cli" batch --toi "$tmp/bad.pair")" -eq 1
check "... with its file and line" grep -q "bad.pair:6: .*motion vx vy vz wx wy wz cx cy cz" "$tmp/err"
check "... and the next pair still answered" grep -q '"name":"next".*"toi":null' "$tmp/out"
check "--toi with --depth: usage error" \
  test "$(code_of "$cli" batch --toi --depth "$tmp/moves.pair")" -eq 2

"$cli" cast "$tmp/a.xyz" "$tmp/b.xyz" --velocity-b -4,0,0 --spin-b 3,0,0 --centre-b 3.5,0.5,0.5 \
  >"$tmp/text" 2>&1
check "cast exits 0" test $? -eq 0
check "cast prints the time of impact" grep -q "^time of impact: 0.4999999999" "$tmp/text"
check "cast prints the normal" grep -q "^normal: (1, 0, 0)" "$tmp/text"
"$cli" cast --json "$tmp/a.xyz" "$tmp/b.xyz" --velocity-b 0,4,0 >"$tmp/cast.json"
check "cast --json: a miss" $py -c '
import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(0 if r["hit"] is False and r["toi"] is None else 1)' "$tmp/cast.json"
check "cast --max-iterations 1 on a spinning approach: exit 3" \
  test "$(code_of "$cli" cast --max-iterations 1 "$tmp/a.xyz" "$tmp/b.xyz" --velocity-b -2.5,0,0 --spin-b 0,0,30)" -eq 3
check "... with the bound reached" grep -q "^no answer within 1 queries: apart (proven) for t < 0\.[0-9]" "$tmp/out"
check "cast --spin-b 1,2: usage error" \
  test "$(code_of "$cli" cast "$tmp/a.xyz" "$tmp/b.xyz" --spin-b 1,2)" -eq 2
check "cast with one file: usage error" test "$(code_of "$cli" cast "$tmp/a.xyz")" -eq 2

"$cli" ray "$tmp/a.xyz" --origin 5,0.25,0.5 --dir -2,0,0 --json >"$tmp/ray.json"
check "ray through a face" $py -c '
import json, sys
r = json.load(open(sys.argv[1]))
ok = r["hit"] and not r["inside"] and r["t"] == 2 and r["point"] == [1, 0.25, 0.5]
ok = ok and r["normal"] == [1, 0, 0] and r["feature"]["type"] == "face"
sys.exit(0 if ok else 1)' "$tmp/ray.json"
check "ray too short" test "$("$cli" ray "$tmp/a.xyz" --origin 5,0.25,0.5 --dir -2,0,0 --length 1.5)" = "hit: no"
check "ray from inside" grep -q "origin is inside" <("$cli" ray "$tmp/a.xyz" --origin 0.5,0.5,0.5 --dir 1,0,0)
check "ray on a posed shape" grep -q "^t: 1$" <("$cli" ray "$tmp/a.xyz" --translate-a 0,0,2 --origin 0.5,0.5,5 --dir 0,0,-2)
check "ray at a segment: exit 1" test "$(code_of "$cli" ray "$tmp/seg.xyz" --origin 0,1,0 --dir 0,-1,0)" -eq 1
check "... saying why" grep -q "point or a segment" "$tmp/err"
check "ray without --dir: usage error" test "$(code_of "$cli" ray "$tmp/a.xyz" --origin 0,0,0)" -eq 2
check "ray --dir 0,0,0: usage error" test "$(code_of "$cli" ray "$tmp/a.xyz" --origin 0,0,0 --dir 0,0,0)" -eq 2
check "ray --length -1: usage error" test "$(code_of "$cli" ray "$tmp/a.xyz" --origin 0,0,0 --dir 1,0,0 --length -1)" -eq 2
# A scene with velocity lines: a cube fired at a wall 4 away at speed 8 (first contact at 1/2),
# another spinning far away (nothing), and a frame without velocities.
{
  echo "shape cube"; echo "P 8"; unit_cube -0.5 -0.5 -0.5
  echo "body wall cube 1 0 0 0 0 0 0"; echo "body far cube 1 0 0 0 0 40 0"
  echo "body bullet cube 1 0 0 0 5 0 0"
  echo "velocity bullet -8 0 0 0 0 0"; echo "velocity far 0 0 0 0 0 30"
  echo "frame"; echo "move bullet 1 0 0 0 -5 0 0"
} >"$tmp/shots.scene"
"$cli" scene --quiet --depth "$tmp/shots.scene" >"$tmp/scene.jsonl" 2>"$tmp/err"
check "scene with velocities exits 0" test $? -eq 0
check "scene: the bullet's TOI, body a first defined" $py -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
toi = [r for r in rows if "toi" in r]
ok = len(toi) == 1 and toi[0]["frame"] == 0 and toi[0]["a"] == "wall" and toi[0]["b"] == "bullet"
ok = ok and abs(toi[0]["toi"] - 0.5) <= 1e-9 and toi[0]["normal"][0] >= 1 - 1e-6
ok = ok and toi[0]["verdict"] == "touching"
ok = ok and abs(toi[0]["witness_a"][0] - 0.5) <= 1e-9
sys.exit(0 if ok else 1)' "$tmp/scene.jsonl"
check "scene --sweep-threshold above the speed: no TOI line" \
  test "$("$cli" scene --quiet --sweep-threshold 100 "$tmp/shots.scene" | grep -c toi)" -eq 0
printf 'shape s\nP 1\n0 0 0\nbody a s 1 0 0 0 0 0 0\nvelocity a 1 2 3\n' >"$tmp/badv.scene"
check "a short velocity line: exit 1" test "$(code_of "$cli" scene "$tmp/badv.scene")" -eq 1
check "... at its line" grep -q "badv.scene:5: velocity: expected 'vx vy vz wx wy wz'" "$tmp/err"
finish cli/motion
