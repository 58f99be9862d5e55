#!/usr/bin/env bash
# `hedra view` without a browser: usage errors, missing assets, unwritable outputs, and the page's
# data checked against independent answers. The assets are a stub directory whose page.html is
# only the data marker, so that the page written is the data JSON itself (node reads it).
#   - the verdict of every algorithm is `hedra collide`'s;
#   - the hull of A - B for two unit cubes is the box [-1, 1] x [-1.5, 0.5] x [-1, 1]
#     (B moved by (0, 0.5, 0)), known in closed form;
#   - B moved along x by tau: separated with distance |tau| - 1 beyond 1, intersecting within;
#   - every point of CD-Dual's path lies on the boundary of the hull of A - B (its face planes);
#   - the title and file names are escaped (no markup from a file name reaches the page).
# usage: cli_view.sh path-to-hedra-cli repo-root
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

# usage errors (exit 2)
for args in "view $cube $tet" "view $cube $tet -o" "view $cube -o $tmp/x.html" \
            "view --algo all $cube $tet -o $tmp/x.html" "view --json $cube $tet -o $tmp/x.html" \
            "view --slide-steps 2 $cube $tet -o $tmp/x.html" \
            "view --slide-steps 1002 $cube $tet -o $tmp/x.html" \
            "view --slide-dir 0,0,0 $cube $tet -o $tmp/x.html" \
            "view --bogus $cube $tet -o $tmp/x.html"; do
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
check "view data against independent answers" node "$root/tests/viewer/check_data.mjs" "$tmp"
ln -s "$cube" "$tmp/a<b>&c.off"
check "file names are escaped" bash -c "cd $tmp && cp $root/viewer/page.html assets/page.html && \"$cli\" view 'a<b>&c.off' $tet -o t.html && grep -q 'a&lt;b&gt;&amp;c.off' t.html && ! grep -q 'a<b>' t.html"

echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
