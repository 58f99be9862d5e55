#!/usr/bin/env bash
# The house rules of src/ and tests/ (docs/ARCHITECTURE.md, docs/TESTING.md). Fails, naming file
# and line, when
#   - a file of src/ includes a later module in HEDRA_MODULE_ORDER (src/CMakeLists.txt) or a folder
#     that is not a module, or is missing from src/CMakeLists.txt;
#   - a test of tests/unit/<module>/ includes a module after its own, a test of tests/api/
#     includes anything of src/ (only include/hedra/ and tests/support/), a suite is not in a
#     folder or not listed in tests/CMakeLists.txt;
#   - anything in tests/ includes bench/ (bench/ may use tests/support/, never the other way).
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cmake_list="$root/src/CMakeLists.txt"
tests_list="$root/tests/CMakeLists.txt"
order=$(sed -n 's/^set(HEDRA_MODULE_ORDER \(.*\))$/\1/p' "$cmake_list")
[ -n "$order" ] || { echo "check_layout: no HEDRA_MODULE_ORDER in $cmake_list"; exit 1; }
declare -A rank
i=0
for m in $order; do rank[$m]=$i; i=$((i + 1)); done
bad=0

# "line:target" for each #include "target" of a file.
includes() {
  grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$1" |
    sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1:\2/' || true
}

# A src/ file: includes of its own module or earlier ones, written module/file.h.
check_src_file() {
  local file=$1 rel=${1#"$root/"} module dep line target
  module=${rel#src/}
  module=${module%%/*}
  if [ -z "${rank[$module]+x}" ]; then
    echo "$rel: not in a module folder listed in HEDRA_MODULE_ORDER"; bad=1; return
  fi
  while IFS=: read -r line target; do
    [[ "$target" == hedra/* ]] && continue
    dep=${target%%/*}
    if [ "$dep" = "$target" ]; then
      echo "$rel:$line: include \"$target\" is not written relative to src/ (module/file.h)"; bad=1
    elif [ -z "${rank[$dep]+x}" ]; then
      echo "$rel:$line: include \"$target\": '$dep' is not a module"; bad=1
    elif [ "${rank[$dep]}" -gt "${rank[$module]}" ]; then
      echo "$rel:$line: $module includes $dep, which comes later in the order ($order)"; bad=1
    fi
  done < <(includes "$file")
  local in_src=${rel#src/}
  if [[ "$in_src" == *.c ]] && ! grep -q "[ (]$in_src[ )]\|[ (]$in_src\$\|^  $in_src" "$cmake_list"; then
    echo "$rel: not listed in src/CMakeLists.txt"; bad=1
  fi
}

# Any file of tests/: no include reaches into bench/, by path or by a header only bench/ has.
check_no_bench() {
  local file=$1 rel=${1#"$root/"} dir line target
  dir=$(dirname "$file")
  while IFS=: read -r line target; do
    if [[ "$target" == *bench/* ]]; then
      echo "$rel:$line: include \"$target\" reaches into bench/"; bad=1
    elif [[ "$target" != */* ]] && [ -e "$root/bench/$target" ] &&
      [ ! -e "$dir/$target" ] && [ ! -e "$root/tests/support/$target" ]; then
      echo "$rel:$line: include \"$target\" is a bench/ header (move it to tests/support/)"; bad=1
    fi
  done < <(includes "$file")
}

# An include of a test in unit/<module>/ or api/ ("" : api/, nothing of src/).
check_test_include() {
  local rel=$1 line=$2 target=$3 module=$4 dep
  [[ "$target" == hedra/* || "$target" != */* ]] && return
  dep=${target%%/*}
  if [ -z "$module" ]; then
    [ -n "${rank[$dep]+x}" ] && { echo "$rel:$line: an api/ test includes \"$target\" of src/ (only include/hedra/ and tests/support/)"; bad=1; }
  elif [ -n "${rank[$dep]+x}" ] && [ "${rank[$dep]}" -gt "${rank[$module]}" ]; then
    echo "$rel:$line: a unit test of $module includes $dep, which comes later in the order ($order)"; bad=1
  fi
  return 0
}

# A suite of tests/: in a folder, listed in tests/CMakeLists.txt, including only what its folder
# allows.
check_test_file() {
  local file=$1 rel=${1#"$root/"} in_tests module="" line target
  in_tests=${rel#tests/}
  case "$in_tests" in
    support/* | viewer/* | data/*) return ;;
    unit/*/*.c)
      module=${in_tests#unit/}
      module=${module%%/*}
      if [ -z "${rank[$module]+x}" ]; then
        echo "$rel: tests/unit/$module is not a module of HEDRA_MODULE_ORDER"; bad=1; return
      fi ;;
    api/*.c | cross/*.c) ;;
    *.c) echo "$rel: a suite outside the folders (unit/<module>/, api/, cross/)"; bad=1; return ;;
    *) return ;;
  esac
  if ! grep -q "[ (]${in_tests%.c}[ )]\|[ (]${in_tests%.c}\$\|[ (]$in_tests[ )]" "$tests_list"; then
    echo "$rel: not listed in tests/CMakeLists.txt"; bad=1
  fi
  [[ "$in_tests" == cross/* ]] && return
  while IFS=: read -r line target; do
    check_test_include "$rel" "$line" "$target" "$module"
  done < <(includes "$file")
}

while IFS= read -r file; do check_src_file "$file"; done < <(find "$root/src" -name '*.[ch]' | sort)
while IFS= read -r file; do
  check_no_bench "$file"
  check_test_file "$file"
done < <(find "$root/tests" -name '*.[ch]' | sort)
# the build of the tests must not put bench/ on an include path either
while IFS=: read -r line text; do
  echo "tests/CMakeLists.txt:$line: names bench/ ($text)"; bad=1
done < <(grep -n 'SOURCE_DIR}/bench\|\.\./bench' "$tests_list" || true)

if [ "$bad" -ne 0 ]; then
  echo "check_layout: FAILED"; exit 1
fi
echo "check_layout: $(find "$root/src" -name '*.[ch]' | wc -l) files of src/ follow the order: $order;" \
  "$(find "$root/tests" -name '*.[ch]' | wc -l) files of tests/ include only what their folder allows"
