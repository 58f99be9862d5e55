#!/usr/bin/env bash
# ctest entry of the browser test: installs the npm packages it needs (idempotent), requires
# Debian's chromium (installed by scripts/deps.sh; its absence is a failure, never a skip) and
# runs view.test.mjs with node's test runner.
set -euo pipefail
cli=$1
src=$2
bash "$src/scripts/viewer-deps.sh"
if [ ! -x /usr/bin/chromium ]; then
  echo "FAIL: /usr/bin/chromium is missing; install it with: bash scripts/deps.sh" >&2
  exit 1
fi
HEDRA_CLI=$cli HEDRA_SOURCE=$src node --test --test-concurrency=1 "$src/tests/viewer/view.test.mjs"
