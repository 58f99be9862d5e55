#!/usr/bin/env bash
# hedra scene: the JSON lines of a hand-made scene whose contacts are known by construction
# (cubes touching face to face, overlapping, apart; a body moved, removed and re-added); the
# bundled example's output (well-formed JSON, a defined before b, frames from 0, a summary per
# frame) identical for every thread count, broad phase and algorithm; every scene-file error
# with its file and line (unknown shape or body, duplicate names, a quaternion that is not
# unit, a shape that cannot be built, a pose out of range, truncation); spheres (shapes with a
# radius) meeting by their centres' distance; rounded and compound shapes and a swept body
# against closed forms; usage errors.
# usage: tests/cli/scene.sh path-to-hedra-cli repo-root
set -uo pipefail
cli=$1
root=${2:-.}
export LC_ALL=C
. "$(dirname "$0")/lib.sh"
# no standard input, 60 s at most: a scene command that waits or loops fails instead of hanging
code_of() { timeout 60 "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; echo $?; }

cube='shape cube
P 8
0 0 0
1 0 0
0 1 0
1 1 0
0 0 1
1 0 1
0 1 1
1 1 1'

# --- a scene whose answer is known: unit cubes at x = 0, 1 (touching), 0.5 (overlapping both),
# 5 (apart); frame 1 moves the far one onto the first (overlapping it and c, touching b);
# frame 2 removes c and adds a new c turned by 180 degrees about z at (1, 0, 0.5), which touches
# a along a face and b along an edge and is apart from d; frame 3 changes nothing.
cat >"$tmp/known.scene" <<EOF
$cube
body a cube 1 0 0 0 0 0 0
body b cube 1 0 0 0 1 0 0
body c cube 1 0 0 0 0.5 0 0
body d cube 1 0 0 0 5 0 0
frame
move d 1 0 0 0 0 0.25 0.25
frame
remove c
body c cube 0 0 0 1 1 0 0.5
frame
EOF
cat >"$tmp/known.expected" <<'EOF'
{"frame":0,"a":"a","b":"b","verdict":"touching"}
{"frame":0,"a":"a","b":"c","verdict":"intersecting"}
{"frame":0,"a":"b","b":"c","verdict":"intersecting"}
{"frame":1,"a":"a","b":"b","verdict":"touching"}
{"frame":1,"a":"a","b":"c","verdict":"intersecting"}
{"frame":1,"a":"a","b":"d","verdict":"intersecting"}
{"frame":1,"a":"b","b":"c","verdict":"intersecting"}
{"frame":1,"a":"b","b":"d","verdict":"touching"}
{"frame":1,"a":"c","b":"d","verdict":"intersecting"}
{"frame":2,"a":"a","b":"b","verdict":"touching"}
{"frame":2,"a":"a","b":"d","verdict":"intersecting"}
{"frame":2,"a":"a","b":"c","verdict":"touching"}
{"frame":2,"a":"b","b":"d","verdict":"touching"}
{"frame":2,"a":"b","b":"c","verdict":"touching"}
{"frame":3,"a":"a","b":"b","verdict":"touching"}
{"frame":3,"a":"a","b":"d","verdict":"intersecting"}
{"frame":3,"a":"a","b":"c","verdict":"touching"}
{"frame":3,"a":"b","b":"d","verdict":"touching"}
{"frame":3,"a":"b","b":"c","verdict":"touching"}
EOF
for opts in "" "--threads 1" "--threads 3" "--broadphase sap" "--algo cddual" "--algo lp" \
            "--margin 0"; do
  # shellcheck disable=SC2086
  check "known scene ($opts) exits 0" test "$(code_of "$cli" scene $opts "$tmp/known.scene")" -eq 0
  check "known scene ($opts): the expected pairs" diff "$tmp/known.expected" "$tmp/out"
done
check "a summary line per frame" test "$(grep -c '^hedra scene: frame [0-3]:' "$tmp/err")" -eq 4
code_of "$cli" scene --quiet "$tmp/known.scene" >/dev/null
check "--quiet: no summary" test ! -s "$tmp/err"
check "standard input" bash -c "\"$cli\" scene - <\"$tmp/known.scene\" 2>/dev/null | diff -q \"$tmp/known.expected\" - >/dev/null"

# --- the bundled example: well-formed lines, the same for every configuration
example="$root/examples/scene/crowd.scene"
check "example exits 0" test "$(code_of "$cli" scene --threads 1 "$example")" -eq 0
cp "$tmp/out" "$tmp/example.1"
check "example: some contacts in every frame" test "$(cut -d, -f1 "$tmp/example.1" | sort -u | wc -l)" -eq 4
check "example: JSON lines, frames from 0, a defined before b, sorted" /usr/bin/python3 - "$tmp/example.1" "$example" <<'EOF'
import json, sys
order = {}
for line in open(sys.argv[2]):
    w = line.split()
    if w and w[0] == "body":
        order[w[1]] = len(order)       # the example never re-adds a name
prev = None
for line in open(sys.argv[1]):
    o = json.loads(line)
    assert set(o) == {"frame", "a", "b", "verdict"}, o
    assert o["verdict"] in ("touching", "intersecting"), o
    assert 0 <= o["frame"] < 4
    key = (o["frame"], order[o["a"]], order[o["b"]])
    assert key[1] < key[2], o
    assert prev is None or prev < key, (prev, key)
    prev = key
EOF
for opts in "--threads 2" "--threads 3" "--threads 8" "--threads 0" "--broadphase sap" \
            "--broadphase sap --threads 3" "--margin 0" "--margin 4" "--algo cddual"; do
  # shellcheck disable=SC2086
  code_of "$cli" scene $opts "$example" >/dev/null
  check "example ($opts): the same output as one thread" cmp -s "$tmp/example.1" "$tmp/out"
done

# --- contact details (--depth, --manifold): the keys of 'hedra batch --depth --manifold', body a
# as A. Known by construction: a-c overlap by 0.5 along +x, b-c by 0.5 along -x (b is A); in
# swap.scene, z (defined after b, but given the id a freed) overlaps b by 0.25 along +x from b:
# the scene holds the pair as (z, b) and must print it turned round.
check "known scene --depth --manifold exits 0" \
  test "$(code_of "$cli" scene --depth --manifold "$tmp/known.scene")" -eq 0
cp "$tmp/out" "$tmp/known.depth"
cat >"$tmp/swap.scene" <<EOF
$cube
body a cube 1 0 0 0 5 5 5
body b cube 1 0 0 0 0 0 0
frame
remove a
frame
body z cube 1 0 0 0 0.75 0.1 0.2
EOF
check "swap scene --manifold exits 0" test "$(code_of "$cli" scene --manifold "$tmp/swap.scene")" -eq 0
cp "$tmp/out" "$tmp/swap.depth"
check "--depth --manifold: keys, values known by construction" /usr/bin/python3 - \
  "$tmp/known.depth" "$tmp/known.expected" "$tmp/swap.depth" <<'EOF'
import json, sys
keys = {"signed_distance", "normal", "witness_a", "witness_b", "bounds", "feature_a",
        "feature_b", "depth_method", "manifold"}
base = {"frame", "a", "b", "verdict"}
rows = [json.loads(l) for l in open(sys.argv[1])]
expected = [json.loads(l) for l in open(sys.argv[2])]
assert [{k: r[k] for k in base} for r in rows] == expected
def close(u, v, tol=1e-12):
    return all(abs(x - y) <= tol for x, y in zip(u, v))
def check(r, depth, normal, lo, hi):
    assert set(r) == base | keys, r
    assert abs(r["signed_distance"] + depth) <= 1e-12, r
    assert close(r["normal"], normal), r
    d = [b - a - r["signed_distance"] * n
         for a, b, n in zip(r["witness_a"], r["witness_b"], r["normal"])]
    assert close(d, [0, 0, 0]), r
    assert r["bounds"][0] <= -depth <= r["bounds"][1], r
    assert len(r["manifold"]) == 4, r
    for p in r["manifold"]:
        assert lo - 1e-12 <= p["point"][0] <= hi + 1e-12, r     # in the overlap slab
        assert abs(p["separation"] + depth) <= 1e-12, r
for r in rows:
    assert set(r) == base | keys, r
    assert r["verdict"] != "intersecting" or r["signed_distance"] < 0, r
    assert r["verdict"] != "touching" or abs(r["signed_distance"]) <= 1e-9, r
    if r["frame"] == 0 and (r["a"], r["b"]) == ("a", "c"):
        check(r, 0.5, [1, 0, 0], 0.5, 1.0)
    if r["frame"] == 0 and (r["a"], r["b"]) == ("b", "c"):
        check(r, 0.5, [-1, 0, 0], 1.0, 1.5)
swap = [json.loads(l) for l in open(sys.argv[3])]
assert [(r["frame"], r["a"], r["b"]) for r in swap] == [(2, "b", "z")], swap
check(swap[0], 0.25, [1, 0, 0], 0.75, 1.0)
EOF
code_of "$cli" scene --threads 1 --depth --manifold "$example" >/dev/null
cp "$tmp/out" "$tmp/example.depth"
check "example --depth --manifold: the pairs of the plain run" \
  diff -q <(cut -d, -f1-4 "$tmp/example.1" | tr -d '}') <(cut -d, -f1-4 "$tmp/example.depth" | tr -d '}')
for opts in "--threads 2" "--threads 3" "--threads 8" "--threads 0" "--broadphase sap" \
            "--broadphase sap --threads 3" "--margin 0"; do
  # shellcheck disable=SC2086
  code_of "$cli" scene --depth --manifold $opts "$example" >/dev/null
  check "example --depth --manifold ($opts): the same output as one thread" \
    cmp -s "$tmp/example.depth" "$tmp/out"
done

# --- errors: exit 1, "file:line:" and the reason
# bad NAME LINE PHRASE: the scene on standard input, written to $tmp/NAME, must fail there.
bad() {
  local name=$1 line=$2 phrase=$3
  cat >"$tmp/$name"
  local code
  code=$(code_of "$cli" scene "$tmp/$name")
  check "$name: exit 1 (got $code)" test "$code" -eq 1
  check "$name: names $name:$line" grep -qF "$name:$line:" "$tmp/err"
  check "$name: says '$phrase'" grep -qF "$phrase" "$tmp/err"
}
printf '%s\nbody a box 1 0 0 0 0 0 0\n' "$cube" | bad unknown-shape.scene 11 "unknown shape 'box'"
printf '%s\nbody a cube 1 0 0 0 0 0 0\nframe\nmove z 1 0 0 0 0 0 0\n' "$cube" |
  bad unknown-body.scene 13 "unknown body 'z'"
printf '%s\nbody a cube 1 0 0 0 0 0 0\nremove a\nremove a\n' "$cube" |
  bad removed-body.scene 13 "unknown body 'a' (it was removed)"
printf '%s\n%s\n' "$cube" "$cube" | bad duplicate-shape.scene 11 "duplicate shape name 'cube'"
printf '%s\nbody a cube 1 0 0 0 0 0 0\nbody a cube 1 0 0 0 2 0 0\n' "$cube" |
  bad duplicate-body.scene 12 "duplicate body name 'a' (defined at line 11)"
printf '%s\nbody a cube 1 0 0 0 0 0 0\nframe\nmove a 0 0 0 0 1 1 1\n' "$cube" |
  bad zero-quaternion.scene 13 "gives no rotation"
printf '# comment\nshape big\nP 2\n0 0 0\n1e31 0 0\n' | bad unbuildable.scene 2 "cannot build shape 'big'"
printf '%s\nbody a cube 1 0 0 0 1e31 0 0\n' "$cube" | bad out-of-range.scene 11 "body 'a'"
printf 'shape s\nP 3\n0 0 0\n1 0 0\n' | bad truncated.scene 5 "expected point 3 of 3"
printf 'shape s\n' | bad truncated-header.scene 2 "expected 'P <count>'"
printf '%s\nbody a cube 1 0 0 0 0 0\n' "$cube" | bad short-pose.scene 11 "qw qx qy qz tx ty tz"
printf '%s\nframe 1\n' "$cube" | bad frame-extra.scene 11 "after 'frame'"
printf '%s\nmove\n' "$cube" | bad move-no-name.scene 11 "expected a body name after 'move'"
printf 'bodies a\n' | bad keyword.scene 1 "expected 'shape', 'body', 'frame', 'move', 'remove', 'filter', 'velocity' or 'margin'"
check "missing file exits 1" test "$(code_of "$cli" scene "$tmp/nope.scene")" -eq 1
check "missing file is named" grep -qF "nope.scene" "$tmp/err"

# --- filters and the proximity margin, known by construction: unit cubes a at x = 0, b at
# x = 1.3 (0.3 apart), c at x = 0.5 (overlapping a by 0.5, b by 0.2); with 'margin 0.5' the pair
# (a, b) is reported separated at its distance 0.3; a and c share group 7 in frame 0 and are not
# reported; frame 1 takes c out of the group; --proximity 0.2 hides (a, b) again.
cat >"$tmp/near.scene" <<EOF
margin 0.5
$cube
body a cube 1 0 0 0 0 0 0
body b cube 1 0 0 0 1.3 0 0
body c cube 1 0 0 0 0.5 0 0
filter c 1 4294967295 7
filter a 1 4294967295 7
frame
filter c 1 4294967295 0
EOF
"$cli" scene --quiet "$tmp/near.scene" >"$tmp/near.out" 2>"$tmp/err"
check "proximity: exit 0" test $? -eq 0
pairs_of() { sed -E 's/^[{]"frame":([0-9]+),"a":"([a-z])","b":"([a-z])","verdict":"([a-z]+)".*/\1 \2 \3 \4/' "$1"; }
cat >"$tmp/near.expected" <<'EOF'
0 a b separated
0 b c intersecting
1 a b separated
1 a c intersecting
1 b c intersecting
EOF
check "proximity and filters: the pairs known by construction" diff <(pairs_of "$tmp/near.out") "$tmp/near.expected"
check "proximity: the near pair's distance 0.3" grep -qE '"a":"a","b":"b","verdict":"separated","signed_distance":0[.](3|29999)' "$tmp/near.out"
"$cli" scene --quiet --proximity 0.2 "$tmp/near.scene" >"$tmp/near2.out" 2>"$tmp/err"
check "--proximity 0.2 overrides the file's margin" test "$(grep -c separated "$tmp/near2.out")" -eq 0
printf '%s\nfilter z 1 1\n' "$cube" | bad filter-unknown.scene 11 "unknown body 'z'"
printf 'margin -1\n' | bad margin-negative.scene 1 "margin: -1 is negative"
check "bad proximity" test "$(code_of "$cli" scene --proximity -1 "$example")" -eq 2

# --- rounded shapes: spheres of radius 0.5 (one point each) meet when their centres are within 1
printf 'shape ball radius 0.5\nP 1\n0 0 0\nbody a ball 1 0 0 0 0 0 0\nbody b ball 1 0 0 0 0.9 0 0\nbody c ball 1 0 0 0 2.05 0 0\nframe\nmove c 1 0 0 0 1.9 0 0\n' >"$tmp/balls.scene"
check "rounded shapes run" test "$(code_of "$cli" scene --quiet --depth "$tmp/balls.scene")" -eq 0
check "rounded shapes: a-b intersecting in frame 0 (centres 0.9 apart)" \
  test "$(grep -c '"frame":0,"a":"a","b":"b","verdict":"intersecting"' "$tmp/out")" -eq 1
check "rounded shapes: b-c from frame 1 (1.15, then 1.0 apart: touching)" \
  bash -c "grep -q '\"frame\":1,\"a\":\"b\",\"b\":\"c\",\"verdict\":\"touching\"' $tmp/out && ! grep -q '\"frame\":0,\"a\":\"b\",\"b\":\"c\"' $tmp/out"
check "rounded shapes: a negative radius is an error at its line" \
  bash -c "printf 'shape s radius -1\nP 1\n0 0 0\n' >$tmp/neg.scene; \"$cli\" scene $tmp/neg.scene 2>&1 | grep -q 'neg.scene:1: .*radius -1 is negative'"

# --- rounded and compound shapes, a velocity: known by construction. The ball (a point rounded
# by 1.25) at (2, 0.5, 0.5) is 1 from the unit cube a: they overlap by 0.25. The compound's pieces
# are unit cubes at x = 10 and 13; the cube k at x = 12.5 overlaps piece 1 by 0.5 and is 1.5
# from piece 0. The bullet (radius 0.05) at z = 10 above a falls by 20 per frame: it meets a's
# top face at t = (10 - 0.05 - 1) / 20 = 0.4475, apart from it at both ends of the frame.
cat >"$tmp/bodies.scene" <<EOF
$cube
shape ball radius 1.25
P 1
0 0 0
shape bullet radius 0.05
P 1
0 0 0
shape pair pieces 2
P 8
10 0 0
11 0 0
10 1 0
11 1 0
10 0 1
11 0 1
10 1 1
11 1 1
P 8
13 0 0
14 0 0
13 1 0
14 1 0
13 0 1
14 0 1
13 1 1
14 1 1
body a cube 1 0 0 0 0 0 0
body o ball 1 0 0 0 2 0.5 0.5
body p pair 1 0 0 0 0 0 0
body k cube 1 0 0 0 12.5 0 0
body s bullet 1 0 0 0 0.5 0.5 10
velocity s 0 0 -20 0 0 0
EOF
for opts in "--depth" "--manifold --threads 1" "--manifold --broadphase sap"; do
  # shellcheck disable=SC2086
  check "bodies scene ($opts) exits 0" test "$(code_of "$cli" scene $opts "$tmp/bodies.scene")" -eq 0
  check "bodies scene ($opts): rounded, compound and swept pairs" /usr/bin/python3 - "$tmp/out" <<'EOF'
import json, sys
got = {(o["a"], o["b"]): o for o in map(json.loads, open(sys.argv[1]))}
assert set(got) == {("a", "o"), ("p", "k"), ("a", "s")}, got
ao, pk, a_s = got[("a", "o")], got[("p", "k")], got[("a", "s")]
assert ao["verdict"] == "intersecting" and abs(ao["signed_distance"] + 0.25) < 1e-9, ao
assert "piece_a" not in ao and "toi" not in ao, ao
assert pk["verdict"] == "intersecting" and pk["piece_a"] == 1 and "piece_b" not in pk, pk
assert abs(pk["signed_distance"] + 0.5) < 1e-9, pk
assert "manifold" not in pk or all(q == [1, -1] for q in pk["point_pieces"]), pk
assert a_s["verdict"] == "touching" and abs(a_s["toi"] - 0.4475) < 1e-8, a_s
EOF
done
code_of "$cli" scene --sweep-threshold 1e9 "$tmp/bodies.scene" >/dev/null
check "a threshold above the bullet's travel: no swept pair" bash -c "! grep -q toi \"$tmp/out\""
printf 'shape s radius -1\nP 1\n0 0 0\n' | bad radius.scene 1 "shape 's': radius -1 is negative"
printf 'shape s pieces 2\nP 1\n0 0 0\n' | bad pieces.scene 4 "expected 'P <count>'"
printf '%s\nbody a cube 1 0 0 0 0 0 0\nvelocity a 1 0 0\n' "$cube" |
  bad velocity.scene 12 "velocity: expected 'vx vy vz wx wy wz', found 3 fields"
check "bad sweep threshold" test "$(code_of "$cli" scene --sweep-threshold -1 "$example")" -eq 2

# --- usage
check "scene --help exits 0" test "$(code_of "$cli" scene --help)" -eq 0
check "scene --help prints usage" grep -q "usage: hedra scene" "$tmp/out"
check "no file: usage error" test "$(code_of "$cli" scene)" -eq 2
check "two files: usage error" test "$(code_of "$cli" scene "$example" "$example")" -eq 2
check "unknown option" test "$(code_of "$cli" scene --bogus "$example")" -eq 2
check "bad thread count" test "$(code_of "$cli" scene --threads -1 "$example")" -eq 2
check "bad thread count (too many)" test "$(code_of "$cli" scene --threads 100000 "$example")" -eq 2
check "bad broad phase" test "$(code_of "$cli" scene --broadphase grid "$example")" -eq 2
check "bad algorithm" test "$(code_of "$cli" scene --algo simplex "$example")" -eq 2
check "bad margin" test "$(code_of "$cli" scene --margin 17 "$example")" -eq 2
check "missing option value" test "$(code_of "$cli" scene "$example" --threads)" -eq 2
check "the command is listed in hedra --help" bash -c "\"$cli\" --help | grep -q '^  scene '"

finish cli/scene
