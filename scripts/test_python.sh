#!/usr/bin/env bash
# The Python package: builds libhedra if needed, installs the package into a virtual environment
# (build-py/venv, with Debian's numpy, scipy, pytest, hypothesis and dask visible) and runs its
# pytest suite. Nothing is downloaded: pip builds with --no-build-isolation --no-index.
#   HEDRA_BUILD_DIR   CMake build directory holding libhedra.a (default: build, Release)
#   --install-only    build and install, run no test
# Exits non-zero on any failure, including a pytest run that collected no test (exit 5).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
build_dir=${HEDRA_BUILD_DIR:-build}
case "$build_dir" in /*) ;; *) build_dir="$root/$build_dir" ;; esac
venv=build-py/venv

if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build_dir" -j"$(nproc)" --target hedra_static

if [ ! -x "$venv/bin/python" ]; then
  /usr/bin/python3 -m venv --system-site-packages "$venv"
fi
HEDRA_BUILD_DIR="$build_dir" "$venv/bin/pip" install --quiet --no-build-isolation --no-index \
  --disable-pip-version-check ./python
"$venv/bin/python" -c 'import hedra; print("hedra", hedra.__version__, "installed in '"$venv"'")'
[ "${1:-}" = --install-only ] && exit 0

# from outside python/, so that `import hedra` is the installed package, not the source folder
cd build-py
set +e
HEDRA_BUILD_DIR="$build_dir" "$root/$venv/bin/python" -m pytest "$root/python/tests" -q -p no:cacheprovider \
  --hypothesis-show-statistics -rs
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
  echo "test_python.sh: pytest collected no test" >&2
  exit 1
fi
exit "$rc"
