#!/usr/bin/env bash
# The public/private line: the shared library exports exactly the functions that include/hedra/
# declares with HD_API. Fails naming every extra export (an internal function that leaked: it
# must be static or named hdi_*) and every declared function the library does not export.
set -euo pipefail
lib=$1
root=$2
declared=$(mktemp)
exported=$(mktemp)
trap 'rm -f "$declared" "$exported"' EXIT
# a declaration starts "HD_API <type> hd_name(" at the start of a line (clang-format keeps it so)
grep -h '^HD_API ' "$root"/include/hedra/*.h | grep -oE '\bhd_[a-z0-9_]+\(' | tr -d '(' |
  sort -u >"$declared"
nm -D --defined-only "$lib" | awk '$2 ~ /^[TtWDdBbRr]$/ {print $3}' | grep -v '^_' |
  sed 's/@.*//' | sort -u >"$exported"
bad=0
while read -r sym; do
  echo "exported but not declared in include/hedra/: $sym"; bad=1
done < <(comm -13 "$declared" "$exported")
while read -r sym; do
  echo "declared with HD_API but not exported: $sym"; bad=1
done < <(comm -23 "$declared" "$exported")
[ "$bad" -eq 0 ] || { echo "check_exports: FAILED"; exit 1; }
echo "check_exports: $(wc -l <"$declared") functions, exactly the public API"
