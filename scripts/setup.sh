#!/usr/bin/env bash
# Quick start: installs what is missing, builds hedra, runs it on the bundled examples, and
# installs the Python package into build-py/venv.
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
$hedra view --algo cddual --translate-b 0.9,0.3,0.2 --rotate-b 0.9,0.3,0.2,0.1 \
  examples/ellipsoid.xyz examples/cube.off -o build/view.html # open build/view.html in a browser
$hedra scene examples/scene/crowd.scene
# the Python package, installed into build-py/venv against this build (docs/PYTHON.md)
bash scripts/test_python.sh --install-only
build-py/venv/bin/python -c 'import hedra; c = hedra.Polytope.read("examples/cube.off");
print(hedra.collide(c, c, pose_b=(1, 0, 0, 0, 0.5, 0, 0)).verdict)'
