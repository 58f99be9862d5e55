#!/usr/bin/env bash
# The lean build: with BUILD_TESTING=OFF the library and the CLI configure and build with no test
# or bench tool (cmocka, GLPK, pkg-config's peers are made unfindable here), and the CLI answers.
# Usage: tests/cli/lean_build.sh HEDRA_CLI SOURCE_DIR (the CLI argument is unused: a fresh one is built).
set -euo pipefail
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cmake --no-warn-unused-cli -S "$src" -B "$dir" -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_DISABLE_FIND_PACKAGE_cmocka=ON -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON \
  -DGLPK_LIB=GLPK_LIB-NOTFOUND -DGLPK_INCLUDE=GLPK_INCLUDE-NOTFOUND >"$dir/configure.log"
cmake --build "$dir" -j2 >"$dir/build.log"
if [ -e "$dir/tests" ] || [ -e "$dir/bench/hedra_bench" ]; then
  echo "lean build: tests or benchmark were configured"; exit 1
fi
out=$("$dir/hedra" collide "$src/examples/cube.off" "$src/examples/tetrahedron.off")
echo "$out" | grep -q '^verdict: intersecting' || { echo "lean build: unexpected CLI output: $out"; exit 1; }
echo "lean build: library and CLI built without test tools; CLI answered"
