#!/usr/bin/env bash
# The default benchmark: `bash bench/bench.sh pairs` (bench/tools/pairs.sh has the options).
exec bash "$(dirname "$0")/bench.sh" pairs "$@"
