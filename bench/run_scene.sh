#!/usr/bin/env bash
# The scene benchmark: `bash bench/bench.sh scene` (bench/tools/scene.sh has the options).
exec bash "$(dirname "$0")/bench.sh" scene "$@"
