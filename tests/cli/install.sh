#!/usr/bin/env bash
# Installs hedra into a temporary prefix and builds examples/embed against it twice: through
# pkg-config and through find_package(hedra). Both programs must run as built, with no
# LD_LIBRARY_PATH: hedra.pc's Libs carry an rpath, and CMake gives its build tree one.
set -euo pipefail
cli=$1
src=$2
build_dir=$(dirname "$cli")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build_dir" --prefix "$tmp/prefix" >/dev/null
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig:$tmp/prefix/lib/x86_64-linux-gnu/pkgconfig"
flags=$(pkg-config --cflags --libs hedra)
cc -std=c11 -Wall -Wextra -Werror "$src/examples/embed/main.c" $flags -o "$tmp/embed_pc"
unset LD_LIBRARY_PATH
out_pc=$("$tmp/embed_pc")
echo "$out_pc"
cmake -S "$src/examples/embed" -B "$tmp/embed_cmake" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/embed_cmake" >/dev/null
out_cm=$("$tmp/embed_cmake/embed")
[ "$out_pc" = "$out_cm" ] || { echo "pkg-config and CMake builds disagree"; exit 1; }
# two cubes half a unit apart along x: every algorithm must say separated with a valid certificate
n=$(grep -c "separated (certificate ok)" <<<"$out_pc")
[ "$n" -eq 3 ] || { echo "expected 3 certified 'separated' lines, got $n"; exit 1; }
grep -q "^distance 0.5 " <<<"$out_pc" || { echo "expected distance 0.5"; exit 1; }
"$tmp/prefix/bin/hedra" --version | grep -q "^hedra [0-9]" || { echo "installed CLI broken"; exit 1; }
# the viewer's assets go to share/hedra/viewer, the three.js bundle too unless the build was
# configured with -DHEDRA_VIEWER=OFF; the installed CLI, run from another directory with the
# source tree out of reach, writes a page from them
for f in page.html page.css page.js; do
  [ -f "$tmp/prefix/share/hedra/viewer/$f" ] || { echo "viewer asset $f not installed"; exit 1; }
done
# a checkout without the bundle and without npm: configure stops and says how to go on
mkdir "$tmp/bare"
(cd "$src" && git ls-files -z -- CMakeLists.txt cmake src include tools viewer scripts |
   tar --null -T - -cf -) | tar -C "$tmp/bare" -xf -
if cmake -S "$tmp/bare" -B "$tmp/bare-build" -DBUILD_TESTING=OFF -DHEDRA_NPM=HEDRA_NPM-NOTFOUND \
     >"$tmp/bare.log" 2>&1; then
  echo "configure without npm and without the bundle succeeded"; exit 1
fi
for phrase in "npm was not found" "apt-get install npm" "scripts/viewer-deps.sh --bundle-only" \
              "-DHEDRA_VIEWER=OFF"; do
  tr -s ' \n' ' ' <"$tmp/bare.log" | grep -q -- "$phrase" ||
    { cat "$tmp/bare.log"; echo "the configure message lacks '$phrase'"; exit 1; }
done
cmake -S "$tmp/bare" -B "$tmp/bare-off" -DBUILD_TESTING=OFF -DHEDRA_VIEWER=OFF \
  -DHEDRA_NPM=HEDRA_NPM-NOTFOUND >/dev/null || { echo "HEDRA_VIEWER=OFF does not configure"; exit 1; }
if grep -q '^HEDRA_VIEWER:BOOL=OFF' "$build_dir/CMakeCache.txt" 2>/dev/null; then
  echo "install test: ok (built with HEDRA_VIEWER=OFF: hedra view not checked)"
  exit 0
fi
[ -f "$tmp/prefix/share/hedra/viewer/dist/three.bundle.js" ] || { echo "three.js bundle not installed"; exit 1; }
cp "$src/examples/cube.off" "$tmp/cube.off"
(cd "$tmp" && HEDRA_VIEWER_DIR= "$tmp/prefix/bin/hedra" view cube.off cube.off -o x.html) ||
  { echo "installed hedra view failed"; exit 1; }
grep -q 'id="hedra-data"' "$tmp/x.html" || { echo "installed hedra view wrote no data"; exit 1; }
grep -q 'three.js' "$tmp/x.html" || { echo "installed hedra view inlined no three.js"; exit 1; }
echo "install test: ok"
