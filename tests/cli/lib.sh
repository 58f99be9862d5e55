# Sourced by the CLI tests: a scratch folder removed at exit, the pass and fail counters, check,
# code_of, unit_cube and the closing line that ctest's log and CI read.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 passes=0
check() { # description, then a command that must succeed
  local what=$1; shift
  if "$@"; then passes=$((passes + 1)); else echo "FAIL: $what"; fails=$((fails + 1)); fi
}
# The exit code of a command, its output left in $tmp/out and $tmp/err.
code_of() { "$@" >"$tmp/out" 2>"$tmp/err"; echo $?; }
# unit_cube X Y Z: the unit cube moved by (x, y, z), as XYZ (full precision).
unit_cube() {
  for i in 0 1; do for j in 0 1; do for k in 0 1; do
    awk -v i="$i" -v j="$j" -v k="$k" -v x="$1" -v y="$2" -v z="$3" \
      'BEGIN{printf "%.17g %.17g %.17g\n", i + x, j + y, k + z}'
  done; done; done
}
# finish NAME: "NAME: N passed, N failed", and the exit status (0 when nothing failed).
finish() { echo "$1: $passes passed, $fails failed"; [ "$fails" -eq 0 ]; }
