#!/usr/bin/env bash
# The house rule of src/: a file includes only its own module and the modules before it in
# HEDRA_MODULE_ORDER (src/CMakeLists.txt). Fails, naming file and line, on any include of a
# later module or of a folder that is not a module; and on a source file missing from CMake.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cmake_list="$root/src/CMakeLists.txt"
order=$(sed -n 's/^set(HEDRA_MODULE_ORDER \(.*\))$/\1/p' "$cmake_list")
[ -n "$order" ] || { echo "check_layout: no HEDRA_MODULE_ORDER in $cmake_list"; exit 1; }
declare -A rank
i=0
for m in $order; do rank[$m]=$i; i=$((i + 1)); done
bad=0
while IFS= read -r file; do
  rel=${file#"$root/src/"}
  module=${rel%%/*}
  if [ -z "${rank[$module]+x}" ]; then
    echo "$rel: not in a module folder listed in HEDRA_MODULE_ORDER"; bad=1; continue
  fi
  while IFS=: read -r line target; do
    dep=${target%%/*}
    if [ "$dep" = "$target" ]; then
      echo "$rel:$line: include \"$target\" is not written relative to src/ (module/file.h)"; bad=1
    elif [ -z "${rank[$dep]+x}" ]; then
      echo "$rel:$line: include \"$target\": '$dep' is not a module"; bad=1
    elif [ "${rank[$dep]}" -gt "${rank[$module]}" ]; then
      echo "$rel:$line: $module includes $dep, which comes later in the order ($order)"; bad=1
    fi
  done < <(grep -n '^#include "' "$file" | sed 's/^\([0-9]*\):#include "\([^"]*\)".*/\1:\2/' | grep -v ':hedra/')
  if [[ "$rel" == *.c ]] && ! grep -q "[ (]$rel[ )]\|[ (]$rel\$\|^  $rel" "$cmake_list"; then
    echo "$rel: not listed in src/CMakeLists.txt"; bad=1
  fi
done < <(find "$root/src" -name '*.[ch]' | sort)
if [ "$bad" -ne 0 ]; then
  echo "check_layout: FAILED"; exit 1
fi
echo "check_layout: $(find "$root/src" -name '*.[ch]' | wc -l) files follow the order: $order"
