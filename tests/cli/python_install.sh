#!/usr/bin/env bash
# `pip install --no-build-isolation ./python` from a bare checkout: a copy of the repository's
# files with no build/, a fresh venv on Debian's python3 (system numpy, nothing downloaded).
# setup.py must build libhedra itself; the installed package then answers a query whose answer
# is known in closed form (two unit cubes 0.5 apart along x).
set -euo pipefail
src=$1
python=${HEDRA_PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/checkout"
# the tracked and new (not ignored) files as they are in the work tree, without any build
(cd "$src" && git ls-files -z --cached --others --exclude-standard |
   xargs -0 -I{} sh -c '[ -f "{}" ] && printf "%s\0" "{}"' | tar --null -T - -cf -) |
  tar -C "$tmp/checkout" -xf -
[ ! -e "$tmp/checkout/build" ] || { echo "the copy has a build/"; exit 1; }
"$python" -m venv --system-site-packages "$tmp/venv"
env -u HEDRA_BUILD_DIR "$tmp/venv/bin/pip" install --quiet --no-build-isolation --no-index \
  --disable-pip-version-check "$tmp/checkout/python" >"$tmp/pip.log" 2>&1 ||
  { cat "$tmp/pip.log"; echo "pip install from a bare checkout failed"; exit 1; }
[ -f "$tmp/checkout/build-python-lib/CMakeCache.txt" ] ||
  { echo "setup.py did not build libhedra into build-python-lib/"; exit 1; }
cd "$tmp"
"$tmp/venv/bin/python" - <<'PY'
import inspect
import hedra
import numpy as np

cube = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=float)
a = hedra.Polytope(cube)
b = hedra.Polytope(cube + [1.5, 0.0, 0.0])
r = hedra.collide(a, b)
assert r.verdict == "separated", r.verdict
d = hedra.distance(a, b)
assert abs(d.distance - 0.5) < 1e-12, d.distance
assert hedra.__file__.startswith(__import__("sys").prefix), hedra.__file__
print("python install test: ok", hedra.__version__, hedra.__file__)
PY
