#!/usr/bin/env bash
# `hedra view` without a browser: usage errors, missing assets, unwritable outputs, and the page's
# data checked against independent answers. The assets are a stub directory whose page.html is
# only the data marker, so that the page written is the data JSON itself (node reads it).
#   - the verdict of every algorithm is `hedra collide`'s;
#   - the hull of A - B for two unit cubes is the box [-1, 1] x [-1.5, 0.5] x [-1, 1]
#     (B moved by (0, 0.5, 0)), known in closed form;
#   - B moved along x by tau: separated with distance |tau| - 1 beyond 1, intersecting within;
#   - every point of CD-Dual's path lies on the boundary of the hull of A - B (its face planes);
#   - the signed distance of the motion samples against its closed form, the contact of two
#     overlapping cubes (--manifold) against its closed form and `hedra collide --depth`;
#   - scene pages (--scene): every frame's pairs are those `hedra scene` prints, the bodies and
#     their translations those of the scene file (read by node); bad scene files and options;
#   - rounded shapes, compound bodies, the time of impact and rays (check_shapes_data.mjs) against
#     closed forms and `hedra collide`, `hedra cast`, `hedra ray`, `hedra batch`;
#   - the title and file names are escaped (no markup from a file name reaches the page).
# usage: tests/cli/view.sh path-to-hedra-cli repo-root
set -uo pipefail
cli=$1
root=${2:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 passes=0
check() {
  local what=$1; shift
  if "$@" >"$tmp/out" 2>"$tmp/err"; then
    passes=$((passes + 1))
  else
    echo "FAIL: $what ($(head -c 400 "$tmp/err" | tr '\n' ' '))"
    fails=$((fails + 1))
  fi
}
code_of() { "$@" >/dev/null 2>&1; echo $?; }
if ! command -v node >/dev/null; then
  echo "FAIL: node is missing (bash scripts/deps.sh installs it)"
  exit 1
fi

stub=$tmp/assets
mkdir -p "$stub/dist"
printf '@HEDRA_DATA@' >"$stub/page.html"
: >"$stub/page.css"
: >"$stub/page.js"
: >"$stub/dist/three.bundle.js"
export HEDRA_VIEWER_DIR=$stub
cube=$root/examples/cube.off
tet=$root/examples/tetrahedron.off
ell=$root/examples/ellipsoid.xyz
small=$root/tests/data/viewer-small.scene
crowd=$root/examples/scene/crowd.scene

# usage errors (exit 2)
for args in "view $cube $tet" "view $cube $tet -o" "view $cube -o $tmp/x.html" \
            "view --algo all $cube $tet -o $tmp/x.html" "view --json $cube $tet -o $tmp/x.html" \
            "view --slide-steps 2 $cube $tet -o $tmp/x.html" \
            "view --slide-steps 1002 $cube $tet -o $tmp/x.html" \
            "view --slide-dir 0,0,0 $cube $tet -o $tmp/x.html" \
            "view --bogus $cube $tet -o $tmp/x.html" \
            "view --scene $small $cube $tet -o $tmp/x.html" \
            "view --scene $small --translate-b 1,0,0 -o $tmp/x.html" \
            "view --scene $small --slide-steps 5 -o $tmp/x.html" \
            "view --scene $small --algo all -o $tmp/x.html" \
            "view --scene $small" "view --scene" "view --scene $small --frame -1 -o $tmp/x.html" \
            "view --scene $small --frame 3 -o $tmp/x.html" \
            "view --frame 1 $cube $tet -o $tmp/x.html"; do
  # shellcheck disable=SC2086
  check "usage error: $args" test "$(code_of "$cli" $args)" -eq 2
done
check "usage error writes nothing" test ! -e "$tmp/x.html"
check "view --help" "$cli" view --help

# missing assets: exit 1, a message naming the bundle and how to build it, no file
check "missing assets" bash -c "HEDRA_VIEWER_DIR=$tmp/none \"$cli\" view $cube $tet -o $tmp/y.html; test \$? -eq 1"
check "missing assets: message" bash -c "HEDRA_VIEWER_DIR=$tmp/none \"$cli\" view $cube $tet -o $tmp/y.html 2>&1 | grep -q 'three.bundle.js' && HEDRA_VIEWER_DIR=$tmp/none \"$cli\" view $cube $tet -o $tmp/y.html 2>&1 | grep -q 'scripts/viewer-deps.sh'"
check "missing assets: no file" test ! -e "$tmp/y.html"
printf 'x</script>y' >"$tmp/bad.js"
check "an asset that would close its element is refused" bash -c "mkdir -p $tmp/bad/dist && cp $stub/page.html $stub/page.css $stub/dist/three.bundle.js $tmp/bad/ && cp $stub/dist/three.bundle.js $tmp/bad/dist/ && cp $tmp/bad.js $tmp/bad/page.js && HEDRA_VIEWER_DIR=$tmp/bad \"$cli\" view $cube $tet -o $tmp/z.html; test \$? -eq 1 && test ! -e $tmp/z.html"
# bad input and unwritable outputs: exit 1 naming the file
check "missing input file" bash -c "\"$cli\" view $tmp/missing.off $tet -o $tmp/w.html 2>&1 | grep -q missing.off; test ! -e $tmp/w.html"
check "output into a missing directory" bash -c "\"$cli\" view $cube $tet -o $tmp/no/dir/p.html 2>&1 | grep -q 'no/dir/p.html'"
if [ -w /dev/full ]; then
  check "output to a full device" bash -c "\"$cli\" view $cube $tet -o /dev/full; test \$? -eq 1"
fi

# the data, checked by node against closed forms and hedra collide
for algo in gjk cddual lp; do
  "$cli" view --algo $algo "$cube" "$cube" --translate-b 0,0.5,0 --slide-dir 1,0,0 -o "$tmp/cubes-$algo.json"
  "$cli" collide --json --algo $algo "$cube" "$cube" --translate-b 0,0.5,0 >"$tmp/cubes-$algo.collide"
  "$cli" view --algo $algo "$ell" "$cube" --translate-b 0.9,0.3,0.2 --rotate-b 0.9,0.3,0.2,0.1 -o "$tmp/ell-$algo.json"
  "$cli" collide --json --algo $algo "$ell" "$cube" --translate-b 0.9,0.3,0.2 --rotate-b 0.9,0.3,0.2,0.1 >"$tmp/ell-$algo.collide"
done
"$cli" view --manifold "$cube" "$cube" --translate-b 0.5,0.5,0 -o "$tmp/contact.json"
"$cli" collide --json --manifold "$cube" "$cube" --translate-b 0.5,0.5,0 >"$tmp/contact.collide"
for s in crowd small; do
  file=$crowd
  [ $s = small ] && file=$small
  cp "$file" "$tmp/$s.scene"
  "$cli" view --scene "$file" --manifold -o "$tmp/$s.json"
  "$cli" scene --quiet "$file" >"$tmp/$s.scene-out"
done
# a bad scene file: exit 1, file and line as `hedra scene` gives them, no page
printf 'shape s\nP 4\n0 0 0\n1 0 0\n0 1 0\n0 0 1\nbody a s 1 0 0 0 0 0 0\nmove b 1 0 0 0 0 0 0\n' >"$tmp/bad.scene"
check "bad scene file: exit 1" bash -c "\"$cli\" view --scene $tmp/bad.scene -o $tmp/bad.html; test \$? -eq 1"
check "bad scene file: file and line" bash -c "\"$cli\" view --scene $tmp/bad.scene -o $tmp/bad.html 2>&1 | grep -q 'bad.scene:8: unknown body'"
check "bad scene file: no page" test ! -e "$tmp/bad.html"
check "missing scene file" bash -c "\"$cli\" view --scene $tmp/none.scene -o $tmp/bad.html 2>&1 | grep -q none.scene"
check "--frame beyond the file: the frames it has" bash -c "\"$cli\" view --scene $small --frame 3 -o $tmp/bad.html 2>&1 | grep -q 'has 3 frames'"
check "view data against independent answers" node "$root/tests/viewer/check_data.mjs" "$tmp"
# rounded shapes, compound bodies, the time of impact and rays (checked by check_shapes_data.mjs)
for args in "view --ray 0,0,0 $cube $tet -o $tmp/x.html" "view --dir 1,0,0 $cube $tet -o $tmp/x.html" \
            "view --ray 0,0,0 --dir 0,0,0 $cube $tet -o $tmp/x.html" \
            "view --radius-a -1 $cube $tet -o $tmp/x.html" "view --radius-b nan $cube $tet -o $tmp/x.html" \
            "view --compound --radius-a 1 $cube $tet -o $tmp/x.html" \
            "view --compound --velocity-b 1,0,0 $cube $tet -o $tmp/x.html" \
            "view --compound --slide-dir 1,0,0 $cube $tet -o $tmp/x.html" \
            "view --compound --ray 0,0,0 --dir 1,0,0 $cube $tet -o $tmp/x.html" \
            "view --velocity-b 1,0 $cube $tet -o $tmp/x.html" \
            "view --pair $root/examples/pairs.pair $cube -o $tmp/x.html" \
            "view --scene $small --radius-a 1 -o $tmp/x.html" \
            "view --scene $small --velocity-b 1,0,0 -o $tmp/x.html"; do
  # shellcheck disable=SC2086
  check "usage error: $args" test "$(code_of "$cli" $args)" -eq 2
done
check "usage error writes nothing" test ! -e "$tmp/x.html"
printf '0 0 0\n' >"$tmp/point.xyz"
printf 'o left\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\no right\nv 2 0 0\nv 3 0 0\nv 2 1 0\nv 2 0 1\nf 5 7 6\nf 5 6 8\nf 5 8 7\nf 6 7 8\n' >"$tmp/two.obj"
printf 'pair spun\nA 4 radius 0.1\n0 0 0\n1 0 0\n0 1 0\n0 0 1\nB 1 radius 0.3\n2.2 0.2 0.2\nmotion -2 0 0 0 0 1 2.2 0.2 0.2\n' >"$tmp/spun.pair"
printf 'pair pieces\nA pieces 2\nP 4\n0 0 0\n1 0 0\n0 1 0\n0 0 1\nP 4\n2 0 0\n3 0 0\n2 1 0\n2 0 1\nB 8\n' >"$tmp/pieces.pair"
awk 'BEGIN { for (i = 0; i < 8; ++i) printf "%.17g %.17g %.17g\n", 2.1 + i % 2, 0.1 + int(i / 2) % 2, 0.1 + int(i / 4) }' >>"$tmp/pieces.pair"
"$cli" view --radius-a 0.25 --radius-b 0.25 "$cube" "$cube" --translate-b 1.7,0,0 --slide-dir 1,0,0 -o "$tmp/rounded.json"
"$cli" collide --json --distance --radius-a 0.25 --radius-b 0.25 "$cube" "$cube" --translate-b 1.7,0,0 >"$tmp/rounded.collide"
"$cli" view "$cube" "$tmp/point.xyz" --radius-b 0.5 --translate-b 2,0.5,0.5 --velocity-b -3,0,0 \
  --ray 0.5,0.5,3 --dir 0,0,-1 -o "$tmp/sweep.json"
"$cli" cast --json "$cube" "$tmp/point.xyz" --translate-b 2,0.5,0.5 --velocity-b -3,0,0 >"$tmp/sweep-core.cast"
"$cli" view "$cube" "$cube" --translate-b 3,0,0 --velocity-b 0,0,0.5 --spin-b 0,0,1.2 --centre-b 3,0,0 \
  --velocity-a 1,0,0 --ray -1,0.5,0.5 --dir 1,0,0 -o "$tmp/spin.json"
"$cli" cast --json "$cube" "$cube" --translate-b 3,0,0 --velocity-b 0,0,0.5 --spin-b 0,0,1.2 --centre-b 3,0,0 \
  --velocity-a 1,0,0 >"$tmp/spin.cast"
"$cli" ray --json "$cube" --origin -1,0.5,0.5 --dir 1,0,0 >"$tmp/spin-a.ray"
"$cli" ray --json "$cube" --translate-a 3,0,0 --origin -1,0.5,0.5 --dir 1,0,0 >"$tmp/spin-b.ray"
for y in 0.5 1.1 1.5; do
  "$cli" view --radius-a 0.25 "$cube" "$cube" --translate-b 3,0,0 --ray -1,$y,0.5 --dir 1,0,0 -o "$tmp/rray-$y.json"
done
"$cli" view --pair "$tmp/spun.pair" -o "$tmp/spun.json"
"$cli" batch --toi --json "$tmp/spun.pair" >"$tmp/spun.batch" 2>/dev/null
"$cli" view --compound "$tmp/two.obj" "$cube" --translate-b 2.1,0.1,0.1 -o "$tmp/compound.json"
"$cli" collide --compound --json --distance "$tmp/two.obj" "$cube" --translate-b 2.1,0.1,0.1 >"$tmp/compound.collide"
"$cli" view --pair "$tmp/pieces.pair" -o "$tmp/pieces.json"
"$cli" batch --json --distance "$tmp/pieces.pair" >"$tmp/pieces.batch" 2>/dev/null
printf 'shape ball radius 0.5\nP 1\n0 0 0\nbody a ball 1 0 0 0 0 0 0\nbody b ball 1 0 0 0 0.8 0 0\nbody c ball 1 0 0 0 5 0 0\nframe\nmove c 1 0 0 0 1.6 0.3 0\n' >"$tmp/balls.scene"
"$cli" view --scene "$tmp/balls.scene" --depth -o "$tmp/balls.json"
# bad pair files: exit 1, the file (and line) named, no page
: >"$tmp/empty.pair"
printf 'pair x\nA 0\nB 1\n0 0 0\n' >"$tmp/hollow.pair"
printf 'pair x\nA 2\n0 0 0\nB 1\n0 0 0\n' >"$tmp/short.pair"
for bad in "missing.pair:cannot open" "empty.pair:holds no pair" "hollow.pair:x:A is an empty set" \
           "short.pair:short.pair:4: pair 'x': point 2 of 2"; do
  f=${bad%%:*} phrase=${bad#*:}
  check "bad pair file $f: exit 1" test "$(code_of "$cli" view --pair "$tmp/$f" -o "$tmp/bad.html")" -eq 1
  check "bad pair file $f: message" bash -c "\"$cli\" view --pair $tmp/$f -o $tmp/bad.html 2>&1 | grep -qF \"$phrase\""
  check "bad pair file $f: no page" test ! -e "$tmp/bad.html"
done
check "rounded, compound, motion and ray data against independent answers" \
  node "$root/tests/viewer/check_shapes_data.mjs" "$tmp"
ln -s "$cube" "$tmp/a<b>&c.off"
check "file names are escaped" bash -c "cd $tmp && cp $root/viewer/page.html assets/page.html && \"$cli\" view 'a<b>&c.off' $tet -o t.html && grep -q 'a&lt;b&gt;&amp;c.off' t.html && ! grep -q 'a<b>' t.html"

echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
