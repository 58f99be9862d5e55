# Sourced by the CLI tests: a scratch folder removed at exit, the pass and fail counters, check,
# code_of and the closing line that ctest's log and CI read.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 passes=0
check() { # description, then a command that must succeed
  local what=$1; shift
  if "$@"; then passes=$((passes + 1)); else echo "FAIL: $what"; fails=$((fails + 1)); fi
}
# The exit code of a command, its output left in $tmp/out and $tmp/err.
code_of() { "$@" >"$tmp/out" 2>"$tmp/err"; echo $?; }
# finish NAME: "NAME: N passed, N failed", and the exit status (0 when nothing failed).
finish() { echo "$1: $passes passed, $fails failed"; [ "$fails" -eq 0 ]; }
