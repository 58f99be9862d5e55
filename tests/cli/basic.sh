#!/usr/bin/env bash
# Behaviour of the hedra CLI: help, exit codes, error messages with file and line, verdicts of
# cube configurations whose answer is known by construction, batch output and --repeat.
set -uo pipefail
cli=$1
. "$(dirname "$0")/lib.sh"

cube() { # cube [x0,x0+1] x [0,1] x [0,1] as XYZ
  local x0=$1 x1; x1=$(awk -v a="$x0" 'BEGIN{print a + 1}')
  for x in "$x0" "$x1"; do for y in 0 1; do for z in 0 1; do echo "$x $y $z"; done; done; done
}
cube 0 >"$tmp/a.xyz"
cube 2 >"$tmp/far.xyz"
cube 1 >"$tmp/touch.xyz"
cube 0.5 >"$tmp/over.xyz"

check "--version" bash -c "\"$cli\" --version | grep -q '^hedra [0-9]'"
for c in info hull collide batch gap contains inside view; do
  check "$c --help exits 0" test "$(code_of "$cli" "$c" --help)" -eq 0
  check "$c --help prints usage" grep -q "usage: hedra $c" "$tmp/out"
done
check "no arguments is a usage error" test "$(code_of "$cli")" -eq 2
check "unknown command is a usage error" test "$(code_of "$cli" frobnicate)" -eq 2
check "unknown option is a usage error" test "$(code_of "$cli" collide --bogus "$tmp/a.xyz" "$tmp/a.xyz")" -eq 2
check "missing file argument" test "$(code_of "$cli" collide "$tmp/a.xyz")" -eq 2
check "unknown algorithm" test "$(code_of "$cli" collide --algo simplex "$tmp/a.xyz" "$tmp/a.xyz")" -eq 2

printf '0 0 0\n1 0 0\n0 1 zero\n' >"$tmp/bad.xyz"
check "malformed file exits 1" test "$(code_of "$cli" info "$tmp/bad.xyz")" -eq 1
check "error names file and line" grep -q "bad.xyz:3" "$tmp/err"
check "missing file exits 1" test "$(code_of "$cli" info "$tmp/nope.xyz")" -eq 1
printf 'OFF\n1000000000000 0 0\n' >"$tmp/huge.off"
check "absurd header exits 1" test "$(code_of "$cli" info "$tmp/huge.off")" -eq 1
printf '0 0 0\nnan 1 1\n' >"$tmp/nan.xyz"
check "NaN coordinate exits 1" test "$(code_of "$cli" info "$tmp/nan.xyz")" -eq 1

check "info on a cube" test "$(code_of "$cli" info "$tmp/a.xyz")" -eq 0
check "cube has 8 vertices" grep -q "^vertices: 8$" "$tmp/out"
check "cube has 12 edges" grep -q "^edges: 12$" "$tmp/out"
check "cube has 6 faces" grep -q "^faces: 6$" "$tmp/out"
check "cube is solid" grep -q "^dimension: 3$" "$tmp/out"
check "hull writes OFF" test "$(code_of "$cli" hull "$tmp/a.xyz" -o "$tmp/a.off")" -eq 0
check "OFF hull reads back with 6 faces" bash -c "\"$cli\" info \"$tmp/a.off\" | grep -q '^faces: 6$'"

for algo in gjk cddual lp all; do
  check "$algo: far cubes separated" bash -c "\"$cli\" collide --json --algo $algo \"$tmp/a.xyz\" \"$tmp/far.xyz\" | grep -v agree | grep -c '\"verdict\":\"separated\"' | grep -qv '^0$'"
  check "$algo: face contact touching" bash -c "\"$cli\" collide --json --algo $algo \"$tmp/a.xyz\" \"$tmp/touch.xyz\" | grep -v agree | grep -vq '\"verdict\":\"touching\"' && exit 1 || exit 0"
  check "$algo: overlap intersecting" bash -c "\"$cli\" collide --json --algo $algo \"$tmp/a.xyz\" \"$tmp/over.xyz\" | grep -v agree | grep -vq '\"verdict\":\"intersecting\"' && exit 1 || exit 0"
done
check "cddual --path prints the search path" bash -c "\"$cli\" collide --algo cddual --path --json \"$tmp/a.xyz\" \"$tmp/over.xyz\" | grep -q '\"path\":\\[\\[0,\"fv\"'"
# two coaxial prisms with 200-gon caps stacked cap to cap: CD-Dual examines about 1800 candidates,
# more than the library's 1024-entry stack scratch; the CLI sizes its workspace for the pair
# (hd_workspace_create_for), so CD-Dual answers itself (stop converged or refined, not fallback)
prism() { # prism z0: 200-gon of radius 1 from z0 to z0 + 1
  awk -v z="$1" 'BEGIN{for(j=0;j<200;j++){t=6.283185307179586*j/200; printf "%.17g %.17g %s\n%.17g %.17g %s\n", cos(t), sin(t), z, cos(t), sin(t), z+1}}'
}
prism 0 >"$tmp/prism0.xyz"
prism 1 >"$tmp/prism1.xyz"
check "cddual on stacked 200-gon prisms answers itself" bash -c "\"$cli\" collide --algo cddual --json \"$tmp/prism0.xyz\" \"$tmp/prism1.xyz\" | grep '\"verdict\":\"touching\"' | grep -vq '\"stop\":\"fallback\"'"
# --json --algo all: one object per algorithm in the order gjk, cddual, lp, then the documented
# summary line {"agree": ...} (docs/FORMATS.md)
"$cli" collide --json --algo all "$tmp/a.xyz" "$tmp/over.xyz" >"$tmp/all.json"
check "collide --json --algo all: per-algorithm lines, then {agree: true}" /usr/bin/python3 -c "
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert [r.get('algo') for r in rows[:-1]] == ['gjk', 'cddual', 'lp'], rows
assert all(r['verdict'] == 'intersecting' and r['certificate_ok'] for r in rows[:-1]), rows
assert rows[-1] == {'agree': True}, rows[-1]
" "$tmp/all.json"
"$cli" collide --json --algo gjk "$tmp/a.xyz" "$tmp/over.xyz" >"$tmp/one.json"
check "collide --json with one algorithm: no summary line" test "$(wc -l <"$tmp/one.json")" -eq 1
check "all algorithms agree and certificates check" test "$(code_of "$cli" collide --algo all "$tmp/a.xyz" "$tmp/over.xyz")" -eq 0
check "distance of cubes 1 apart" bash -c "\"$cli\" collide --distance --json \"$tmp/a.xyz\" \"$tmp/far.xyz\" | grep -q '\"distance\":1[,.]'"
check "translate-b moves B" bash -c "\"$cli\" collide --json --translate-b 5,0,0 \"$tmp/a.xyz\" \"$tmp/over.xyz\" | grep -q '\"verdict\":\"separated\"'"
check "bad translation is a usage error" test "$(code_of "$cli" collide --translate-b 1,2 "$tmp/a.xyz" "$tmp/a.xyz")" -eq 2

{
  echo "# three pairs"
  for p in far:2 touch:1 over:0.5; do
    echo "pair ${p%%:*}"; echo "A 8"; cube 0; echo "B 8"; cube "${p##*:}"
  done
  echo "pair empty"; echo "A 0"; echo "B 8"; cube 0
} >"$tmp/p.pair"
check "batch runs" test "$(code_of "$cli" batch --algo all --repeat 3 "$tmp/p.pair")" -eq 0
check "batch prints a line per pair and algorithm" test "$(grep -c '"name"' "$tmp/out")" -eq 12
check "batch far separated" test "$(grep '"name":"far"' "$tmp/out" | grep -c '"verdict":"separated"')" -eq 3
check "batch touch touching" test "$(grep '"name":"touch"' "$tmp/out" | grep -c '"verdict":"touching"')" -eq 3
check "batch over intersecting" test "$(grep '"name":"over"' "$tmp/out" | grep -c '"verdict":"intersecting"')" -eq 3
check "batch empty set separated" test "$(grep '"name":"empty"' "$tmp/out" | grep -c '"empty":true')" -eq 3
# standard input: the format is told from the content (OFF header, OBJ keyword, else XYZ)
printf 'OFF\n4 1 0\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 1 2\n' >"$tmp/tet.off"
printf '# tetrahedron\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\n' >"$tmp/tet.obj"
printf '0 0 0\n1 0 0\n0 1 0\n0 0 1\n' >"$tmp/tet.xyz"
for f in tet.off tet.obj tet.xyz; do
  check "info - reads $f from stdin" bash -c "\"$cli\" info - <\"$tmp/$f\" | grep -q '^vertices: 4$'"
done
check "collide - reads A from stdin" bash -c "\"$cli\" collide - \"$tmp/far.xyz\" <\"$tmp/a.xyz\" | grep -q 'verdict: separated'"
check "collide - reads B from stdin" bash -c "\"$cli\" collide \"$tmp/a.xyz\" - <\"$tmp/over.xyz\" | grep -q 'verdict: intersecting'"
printf '0 0 0\n1 0 0\n0 1 zero\n' >"$tmp/bad-stdin.xyz"
check "malformed stdin exits 1" test "$(code_of "$cli" info - <"$tmp/bad-stdin.xyz")" -eq 1
check "stdin error names <stdin> and line" grep -q "<stdin>:3:" "$tmp/err"
check "empty stdin exits 1" test "$(code_of "$cli" info - </dev/null)" -eq 1
check "empty stdin says so" grep -q "<stdin>: empty input" "$tmp/err"
printf 'OFF\n4 1 0\n0 0 0\n' >"$tmp/trunc.off"
check "truncated OFF on stdin exits 1" test "$(code_of "$cli" info - <"$tmp/trunc.off")" -eq 1
check "truncated OFF on stdin names the line" grep -q "<stdin>:4:" "$tmp/err"
check "batch reads stdin" bash -c "\"$cli\" batch - <\"$tmp/p.pair\" | grep -c '\"name\"' | grep -q '^4$'"
head -n 5 "$tmp/p.pair" >"$tmp/trunc.pair"
check "truncated pair file exits 1" test "$(code_of "$cli" batch "$tmp/trunc.pair")" -eq 1
check "truncated pair file names the file" grep -q "trunc.pair:" "$tmp/err"

check "contains: cube contains itself" bash -c "\"$cli\" contains \"$tmp/a.xyz\" \"$tmp/a.xyz\" | grep -q 'contains: yes'"
check "contains: shifted cube is not inside" bash -c "\"$cli\" contains \"$tmp/a.xyz\" \"$tmp/over.xyz\" | grep -q 'contains: no'"
check "inside: centre" bash -c "\"$cli\" inside \"$tmp/a.xyz\" 0.5,0.5,0.5 | grep -qx 'verdict: intersecting'"
check "inside: corner is boundary" bash -c "\"$cli\" inside \"$tmp/a.xyz\" 1,1,1 | grep -qx 'verdict: touching'"
check "inside: outside" bash -c "\"$cli\" inside \"$tmp/a.xyz\" 2,0.5,0.5 | grep -qx 'verdict: separated'"
check "inside: negative coordinates parse" bash -c "\"$cli\" inside \"$tmp/a.xyz\" -0.5,0.5,0.5 | grep -qx 'verdict: separated'"
# one vocabulary for point-inside: the verdict words of collide (and of Python's point_inside)
check "inside --json: the verdict key and words" bash -c "for p in 0.5,0.5,0.5 1,0.5,0.5 3,0,0; do \"$cli\" inside --json \"$tmp/a.xyz\" \$p; done | tr -d '\n' | grep -qx '{\"verdict\":\"intersecting\"}{\"verdict\":\"touching\"}{\"verdict\":\"separated\"}'"
check "gap: far cubes travel 1 along -x to touch" bash -c "\"$cli\" gap --json --dir 1,0,0 \"$tmp/a.xyz\" \"$tmp/far.xyz\" | grep -q '\"distance\":1[,.]'"
# gap's JSON names the sense of travel s_sign, as the C field and Python's GapResult do
"$cli" gap --json --dir 1,0,0 "$tmp/a.xyz" "$tmp/far.xyz" >"$tmp/gap.json"
check "gap --json: s_sign -1 (B travels along -x), no other sign key" /usr/bin/python3 -c "
import json, sys
g = json.load(open(sys.argv[1]))
assert g['s_sign'] == -1 and 'sign' not in g and g['contact'] is True, g
" "$tmp/gap.json"
check "gap: zero direction is a usage error" test "$(code_of "$cli" gap --dir 0,0,0 "$tmp/a.xyz" "$tmp/far.xyz")" -eq 2

finish cli/basic
