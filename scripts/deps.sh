#!/usr/bin/env bash
# Installs the Debian 12 packages hedra needs (only those missing). Run as root.
#   build:  a C compiler, CMake, pkg-config, Qhull
#   tests:  cmocka (test framework), GLPK (exact oracle), clang (fuzzing), clang-format, valgrind,
#           libcgal-demo (CGAL's demo meshes: hulls of real meshes in cross/meshes)
#   bench:  libccd, Bullet, FCL (peers), gnuplot (plots), a C++ compiler for the peer adapters
#   python: the package's build (headers, numpy, setuptools, wheel, venv, pip) and its tests
#           (pytest, hypothesis, scipy's HiGHS as oracle, dask + distributed)
#   viewer: chromium (the browser test), Node.js and npm (three.js and playwright-core from npm,
#           installed by scripts/viewer-deps.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(build-essential cmake pkg-config libqhull-dev libcmocka-dev libglpk-dev
          clang clang-format libclang-rt-14-dev valgrind gnuplot-nox libccd-dev libbullet-dev libfcl-dev git
          python3-dev python3-numpy python3-setuptools python3-wheel python3-venv python3-pip
          python3-pytest python3-hypothesis python3-scipy python3-dask python3-distributed
          chromium libcgal-demo)
# Node.js and npm: Debian's packages unless a Node.js with its own npm is already installed
command -v npm >/dev/null || packages+=(nodejs npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
bash scripts/viewer-deps.sh
