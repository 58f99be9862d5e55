#!/usr/bin/env bash
# Quick start: installs what is missing, builds hedra, and runs it on the bundled examples.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
hedra=build/hedra
set -x
$hedra --version
$hedra info examples/cube.off
$hedra collide --algo all examples/cube.off examples/tetrahedron.off
$hedra collide --distance --translate-b 3,0.5,0.25 examples/cube.off examples/ellipsoid.xyz
$hedra batch --algo all examples/pairs.pair
$hedra scene examples/scene/crowd.scene
