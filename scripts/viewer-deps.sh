#!/usr/bin/env bash
# The npm side of `hedra view` (docs/VIEWER.md), idempotent:
#   viewer/        three.js and esbuild (npm ci), then three.js bundled into one classic script,
#                  viewer/dist/three.bundle.js, which the CLI inlines into every page;
#   tests/viewer/  playwright-core, which drives Debian's chromium in the browser test.
# A folder is installed again only when its package-lock.json changed since its last install,
# and the bundle is rebuilt only when it is older than its entry file or the install.
# --bundle-only does the viewer/ part alone (what the CMake build and `hedra view` need).
set -euo pipefail
bundle_only=0
[ "${1:-}" = "--bundle-only" ] && bundle_only=1
cd "$(dirname "$0")/.."
if ! command -v npm >/dev/null; then
  echo "viewer-deps: npm is missing (bash scripts/deps.sh installs it)" >&2
  exit 1
fi
npm_install() {
  local dir=$1
  local stamp=$dir/node_modules/.hedra-package-lock.json
  if [ -f "$stamp" ] && cmp -s "$dir/package-lock.json" "$stamp"; then
    return
  fi
  echo "viewer-deps: npm ci in $dir"
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$dir/package-lock.json" "$stamp"
}
npm_install viewer
bundle=viewer/dist/three.bundle.js
if [ ! -f "$bundle" ] || [ viewer/three-entry.js -nt "$bundle" ] ||
   [ viewer/node_modules/.hedra-package-lock.json -nt "$bundle" ]; then
  echo "viewer-deps: bundling three.js into $bundle"
  (cd viewer && npm run --silent build >/dev/null)
fi
[ "$bundle_only" = 1 ] || npm_install tests/viewer
