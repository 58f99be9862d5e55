#!/usr/bin/env bash
# Installs hedra into a temporary prefix and builds examples/embed against it twice: through
# pkg-config and through find_package(hedra). Both programs must run and agree.
set -euo pipefail
cli=$1
src=$2
build_dir=$(dirname "$cli")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build_dir" --prefix "$tmp/prefix" >/dev/null
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig:$tmp/prefix/lib/x86_64-linux-gnu/pkgconfig"
flags=$(pkg-config --cflags --libs hedra)
libdir=$(pkg-config --variable=libdir hedra)
cc -std=c11 -Wall -Wextra -Werror "$src/examples/embed/main.c" $flags -o "$tmp/embed_pc"
out_pc=$(LD_LIBRARY_PATH="$libdir" "$tmp/embed_pc")
echo "$out_pc"
cmake -S "$src/examples/embed" -B "$tmp/embed_cmake" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/embed_cmake" >/dev/null
out_cm=$(LD_LIBRARY_PATH="$libdir" "$tmp/embed_cmake/embed")
[ "$out_pc" = "$out_cm" ] || { echo "pkg-config and CMake builds disagree"; exit 1; }
# two cubes half a unit apart along x: every algorithm must say separated with a valid certificate
n=$(grep -c "separated (certificate ok)" <<<"$out_pc")
[ "$n" -eq 3 ] || { echo "expected 3 certified 'separated' lines, got $n"; exit 1; }
grep -q "^distance 0.5 " <<<"$out_pc" || { echo "expected distance 0.5"; exit 1; }
"$tmp/prefix/bin/hedra" --version | grep -q "^hedra [0-9]" || { echo "installed CLI broken"; exit 1; }
# the viewer's assets go to share/hedra/viewer; with the three.js bundle built (scripts/viewer-deps.sh)
# the installed CLI writes a page from them
for f in page.html page.css page.js; do
  [ -f "$tmp/prefix/share/hedra/viewer/$f" ] || { echo "viewer asset $f not installed"; exit 1; }
done
if [ -f "$src/viewer/dist/three.bundle.js" ]; then
  [ -f "$tmp/prefix/share/hedra/viewer/dist/three.bundle.js" ] || { echo "three.js bundle not installed"; exit 1; }
  "$tmp/prefix/bin/hedra" view "$src/examples/cube.off" "$src/examples/tetrahedron.off" \
    -o "$tmp/page.html" || { echo "installed hedra view failed"; exit 1; }
  grep -q 'id="hedra-data"' "$tmp/page.html" || { echo "installed hedra view wrote no data"; exit 1; }
fi
echo "install test: ok"
