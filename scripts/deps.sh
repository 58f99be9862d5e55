#!/usr/bin/env bash
# Installs the Debian 12 packages hedra needs (only those missing). Run as root.
#   build:  a C compiler, CMake, pkg-config, Qhull
#   tests:  cmocka (test framework), GLPK (exact oracle), clang (fuzzing), clang-format, valgrind
#   bench:  libccd, Bullet, FCL (peers), gnuplot (plots), a C++ compiler for the peer adapters
set -euo pipefail
packages=(build-essential cmake pkg-config libqhull-dev libcmocka-dev libglpk-dev
          clang clang-format libclang-rt-14-dev valgrind gnuplot-nox libccd-dev libbullet-dev libfcl-dev git)
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
