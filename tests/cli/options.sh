#!/usr/bin/env bash
# The options every shape-reading command shares and the messages a new user meets: --format for
# files whose extension says nothing, the pose options of gap, contains and inside (answers of
# unit cubes moved by known amounts), gap's messages for flat pairs, and batch going on past a
# bad pair (reported with file:line, exit 1 at the end).
set -uo pipefail
cli=$1
src=$2
. "$(dirname "$0")/lib.sh"
cube=$src/examples/cube.off # [0,1]^3
square=$src/examples/square.obj # [0,1]^2 at z = 0.5

# --format: a cube under a name without an extension
cp "$cube" "$tmp/cube.dat"
check "info without --format fails" test "$(code_of "$cli" info "$tmp/cube.dat")" -eq 1
check "the message names --format" grep -q -- "--format off, obj or xyz" "$tmp/err"
check "info --format off" test "$(code_of "$cli" info --format off "$tmp/cube.dat")" -eq 0
check "info --format off reads 8 vertices" grep -q "^vertices: 8$" "$tmp/out"
check "--format bad is a usage error" test "$(code_of "$cli" info --format ply "$tmp/cube.dat")" -eq 2
check "--format xyz on an OFF file fails at a line" \
  test "$(code_of "$cli" info --format xyz "$tmp/cube.dat")" -eq 1
check "hull --format" test "$(code_of "$cli" hull --format off "$tmp/cube.dat" -o "$tmp/h.off")" -eq 0
for c in collide gap contains view; do
  args=("$tmp/cube.dat" "$tmp/cube.dat")
  [ "$c" = gap ] && args=(--dir 1,0,0 "${args[@]}")
  [ "$c" = view ] && args=("${args[@]}" -o "$tmp/v.html")
  [ "$c" = view ] && [ ! -f "$src/viewer/dist/three.bundle.js" ] && continue
  check "$c --format off" test "$(code_of "$cli" "$c" --format off "${args[@]}")" -eq 0
done
check "inside --format off" test "$(code_of "$cli" inside --format off "$tmp/cube.dat" 0.5,0.5,0.5)" -eq 0
check "inside --format off: inside" grep -q "^verdict: intersecting$" "$tmp/out"
check "batch refuses --format" test "$(code_of "$cli" batch --format off "$src/examples/pairs.pair")" -eq 2

# pose options: B moved 3 along x is 2 away; A moved there instead gives the mirror answer
check "gap --translate-b" test "$(code_of "$cli" gap --dir 1,0,0 --translate-b 3,0,0 "$cube" "$cube")" -eq 0
check "gap --translate-b: travel 2 along -x" grep -q "^travel to touch: 2 along -(1, 0, 0)$" "$tmp/out"
check "gap --translate-a" test "$(code_of "$cli" gap --dir 1,0,0 --translate-a 3,0,0 "$cube" "$cube")" -eq 0
check "gap --translate-a: travel 2 along +x" grep -q "^travel to touch: 2 along +(1, 0, 0)$" "$tmp/out"
# a half turn about z maps [0,1]^3 to [-1,0]x[-1,0]x[0,1]: B then only touches A along z's edge
check "gap --rotate-b" test "$(code_of "$cli" gap --json --dir 1,0,0 --rotate-b 0,0,0,1 --translate-b -1,0,0 "$cube" "$cube")" -eq 0
check "gap --rotate-b: travel 1 to touch" grep -q '"distance":1,' "$tmp/out"
check "contains: B moved away" test "$(code_of "$cli" contains --translate-b 5,0,0 "$cube" "$cube")" -eq 0
check "contains: no" grep -q "^contains: no$" "$tmp/out"
check "contains: both moved alike" test "$(code_of "$cli" contains --translate-a 5,0,0 --translate-b 5,0,0 "$cube" "$cube")" -eq 0
check "contains: yes" grep -q "^contains: yes$" "$tmp/out"
check "contains --rotate-a (not normalised)" test "$(code_of "$cli" contains --rotate-a 0,0,0,2 "$cube" "$cube")" -eq 0
check "contains: half-turned A does not hold B" grep -q "^contains: no$" "$tmp/out"
check "inside --translate-a" test "$(code_of "$cli" inside --translate-a 5,0,0 "$cube" 5.5,0.5,0.5)" -eq 0
check "inside: the moved centre is inside" grep -q "^verdict: intersecting$" "$tmp/out"
check "inside --translate-a: the old centre is outside" \
  test "$(code_of "$cli" inside --translate-a 5,0,0 "$cube" 0.5,0.5,0.5)" -eq 0
check "inside: outside" grep -q "^verdict: separated$" "$tmp/out"
check "inside refuses B's options" test "$(code_of "$cli" inside --translate-b 1,0,0 "$cube" 0,0,0)" -eq 2
check "a zero quaternion is a usage error" test "$(code_of "$cli" gap --dir 1,0,0 --rotate-a 0,0,0,0 "$cube" "$cube")" -eq 2
check "the message names the option" grep -q -- "--rotate-a expects a non-zero finite quaternion" "$tmp/err"
check "collide --translate-a" test "$(code_of "$cli" collide --distance --json --translate-a -2,0,0 "$cube" "$cube")" -eq 0
check "collide --translate-a: distance 1" grep -q '"distance":1,' "$tmp/out"
check "view refuses A's pose" test "$(code_of "$cli" view --translate-a 1,0,0 "$cube" "$cube" -o "$tmp/v.html")" -eq 2

# gap on two parallel flat squares: what is wrong and what works
check "gap on flat squares fails" test "$(code_of "$cli" gap --dir 0,0,1 "$square" "$square")" -eq 3
check "gap says the pair spans no volume" grep -q "A - B spans no volume" "$tmp/err"
check "gap names what works" grep -q "hedra collide --depth" "$tmp/err"
check "gap on a square and a cube works" test "$(code_of "$cli" gap --dir 0,0,1 "$square" "$cube")" -eq 0
check "gap zero direction" test "$(code_of "$cli" gap --dir 0,0,0 "$cube" "$cube")" -eq 2
check "gap zero direction: example given" grep -q "zero vector (e.g. 0,0,1)" "$tmp/err"

# batch: a bad pair between good ones is reported and skipped
cat >"$tmp/bad.pair" <<'PAIRS'
pair first
A 1
0 0 0
B 1
2 0 0
pair short_b
A 1
0 0 0
B 2
5 5 5
pair second
A 1
0 0 0
B 1
0 0 0
pair badnum
A 1
0 x 0
B 1
0 0 0
pair third
A 1
1 1 1
B 1
1 1 3
PAIRS
check "batch with bad pairs exits 1" test "$(code_of "$cli" batch "$tmp/bad.pair")" -eq 1
check "batch answers the three good pairs" test "$(grep -c '"verdict"' "$tmp/out")" -eq 3
check "batch answers first, second, third" \
  bash -c "grep -o '\"name\":\"[a-z_]*\"' '$tmp/out' | tr '\n' ' ' | grep -q 'first.*second.*third'"
check "batch reports short_b at line 11" grep -q "bad.pair:11: pair 'short_b'" "$tmp/err"
check "batch reports badnum at line 18" grep -q "bad.pair:18: pair 'badnum'.*'x'" "$tmp/err"
check "batch counts 2 unreadable pairs" grep -q "2 unreadable pairs" "$tmp/err"
check "good batch still exits 0" test "$(code_of "$cli" batch "$src/examples/pairs.pair")" -eq 0

finish cli/options
