#!/usr/bin/env bash
# Bad input to the hedra CLI: malformed, truncated, empty, binary, non-finite and absurd files in
# every format (OFF, OBJ, XYZ, pair file), missing files, directories given as files, unwritable
# outputs and bad option values. The exit codes are those of 'hedra --help': 1 bad input,
# 2 usage error; never a crash (signal), a hang (20 s per command) or exit 0. Parse errors must
# name the file and the line ("file:line: message").
# usage: tests/cli/badinput.sh path-to-hedra-cli repo-root
set -uo pipefail
cli=$1
root=${2:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
shopt -s lastpipe # 'printf ... | parse_error ...' runs the function in this shell (counters)
fails=0 passes=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect CODE DESCRIPTION [--line FILE:LINE | --names FILE] -- COMMAND...
# runs COMMAND (with a time limit), checks its exit code and, when asked, that standard error
# names the file (and line).
expect() {
  local code=$1 what=$2 pattern=""; shift 2
  case ${1:-} in
    --line) pattern="$2:$3:"; shift 3 ;;
    --names) pattern="$2"; shift 2 ;;
  esac
  [ "${1:-}" = "--" ] && shift
  timeout 20 "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  local got=$?
  if [ "$got" -ne "$code" ]; then
    fail "$what: exit $got, expected $code ($(head -c 300 "$tmp/err" | tr '\n' ' '))"
    return
  fi
  if [ -n "$pattern" ] && ! grep -qF -- "$pattern" "$tmp/err"; then
    fail "$what: message does not name '$pattern': $(head -c 300 "$tmp/err" | tr '\n' ' ')"
    return
  fi
  if [ "$code" -ne 0 ] && [ ! -s "$tmp/err" ]; then
    fail "$what: no message on standard error"
    return
  fi
  passes=$((passes + 1))
}

# file NAME: writes standard input to $tmp/NAME and prints the path.
file() { cat >"$tmp/$1"; echo "$tmp/$1"; }

# parse_error NAME LINE DESCRIPTION: NAME (content on stdin) must be rejected with exit 1 and a
# message "NAME:LINE:" by every command that reads a polytope file, in either position.
parse_error() {
  local name=$1 line=$2 what=$3 f
  f=$(file "$name")
  expect 1 "info: $what" --line "$f" "$line" -- "$cli" info "$f"
  expect 1 "collide (as B): $what" --line "$f" "$line" -- "$cli" collide "$good" "$f"
  expect 1 "contains (as A): $what" --line "$f" "$line" -- "$cli" contains "$f" "$good"
}

# input_error NAME DESCRIPTION: exit 1 naming the file (no line: not a parse error).
input_error() {
  local name=$1 what=$2 f
  f=$(file "$name")
  expect 1 "info: $what" --names "$f" -- "$cli" info "$f"
  expect 1 "hull: $what" --names "$f" -- "$cli" hull "$f" -o "$tmp/hull-out.off"
}

# pair_error NAME LINE DESCRIPTION: batch rejects the pair file with exit 1 and "NAME:LINE:".
pair_error() {
  local name=$1 line=$2 what=$3 f
  f=$(file "$name")
  if [ "$line" = "-" ]; then
    expect 1 "batch: $what" --names "$f" -- "$cli" batch "$f"
  else
    expect 1 "batch: $what" --line "$f" "$line" -- "$cli" batch "$f"
  fi
}

garbage() { # deterministic binary bytes, NUL and high bytes included
  awk -v n="$1" -v s="$2" 'BEGIN { srand(s); for (i = 0; i < n; i++) printf "%c", int(rand() * 256) }'
}

good=$(printf '0 0 0\n1 0 0\n0 1 0\n0 0 1\n' | file good.xyz)
goodpair=$(printf 'pair p\nA 1\n0 0 0\nB 1\n1 1 1\n' | file good.pair)
expect 0 "the good files are good" -- "$cli" collide "$good" "$good"
expect 0 "the good pair file is good" -- "$cli" batch "$goodpair"

# ---------------------------------------------------------------------------------------------
# OFF (an unexpected end of file is reported on the line after the last one)
printf 'OFF\n' | parse_error off-header-only.off 2 "OFF: header only"
printf 'OFF\n4 1 0\n0 0 0\n1 0 0\n' | parse_error off-truncated-vertices.off 5 "OFF: truncated vertex list"
printf 'OFF\n4 1 0\n0 0 0\n1 0 0\n0 1' | parse_error off-truncated-mid-line.off 5 "OFF: truncated mid line"
printf 'OFF\n4 1 0\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 1\n' | parse_error off-truncated-face.off 7 "OFF: truncated face"
printf 'OFF\n4 0 0\n0 0 0\n1 0 0\nnan 1 0\n0 0 1\n' | parse_error off-nan.off 5 "OFF: NaN coordinate"
printf 'OFF\n4 0 0\n0 0 0\n1 0 0\n0 1 0\n0 -inf 1\n' | parse_error off-inf.off 6 "OFF: infinite coordinate"
printf 'OFF\n4 0 0\n0 0 0\n1e999 0 0\n0 1 0\n0 0 1\n' | parse_error off-overflow.off 4 "OFF: 1e999 overflows"
printf 'OFF\n1000000000000 0 0\n0 0 0\n' | parse_error off-absurd-count.off 2 "OFF: 10^12 vertices claimed"
printf 'OFF\n2147483648 0 0\n0 0 0\n' | parse_error off-int-overflow-count.off 2 "OFF: count 2^31"
printf 'OFF\n-4 0 0\n0 0 0\n' | parse_error off-negative-count.off 2 "OFF: negative count"
printf 'OFF\nfour 0 0\n0 0 0\n' | parse_error off-word-count.off 2 "OFF: count is a word"
printf 'OFF\n3 999999999999 0\n0 0 0\n1 0 0\n0 1 0\n' | parse_error off-absurd-faces.off 2 "OFF: 10^12 faces claimed"
printf 'OFF\n4 1 0\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 1 4\n' | parse_error off-face-index.off 7 "OFF: face index out of range"
printf 'OFF\n4 1 0\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 1 -1\n' | parse_error off-face-negative-index.off 7 "OFF: negative face index"
printf 'OFF\n4 1 0\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n2147483647 0 1 2\n' | parse_error off-face-huge-size.off 7 "OFF: face of 2^31-1 vertices"
printf 'OFF\n4 0 0\n0 0 0\n1 0 0 junk\n0 1 0\n0 0 1\n' | parse_error off-junk.off 4 "OFF: trailing junk"
printf 'OFF\n4 0 0\n0 0 0\n1 0\x00 0\n0 1 0\n0 0 1\n' | parse_error off-nul.off 4 "OFF: NUL byte"
printf 'OFF BINARY\n\x00\x00\x00\x04' | parse_error off-binary-header.off 1 "OFF: binary OFF"
{ printf 'OFF\n'; garbage 3000 11; } | input_error off-garbage.off "OFF: header then binary garbage"
garbage 4096 12 | input_error off-pure-garbage.off "OFF: binary garbage"
: | input_error off-empty.off "OFF: empty file"
printf '# only a comment\n\n' | input_error off-comment-only.off "OFF: only a comment"
printf 'OFF\n0 0 0\n' | input_error off-zero-vertices.off "OFF: zero vertices"

# OBJ
printf 'v 0 0 0\nv 1 0\nv 0 1 0\n' | parse_error obj-two-coordinates.obj 2 "OBJ: vertex with two coordinates"
printf 'v 0 0 0\nv nan 0 0\n' | parse_error obj-nan.obj 2 "OBJ: NaN coordinate"
printf 'v 0 0 0\nv 0 0 1e400\n' | parse_error obj-overflow.obj 2 "OBJ: 1e400 overflows"
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n' | parse_error obj-face-index.obj 4 "OBJ: face index out of range"
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n' | parse_error obj-face-index-zero.obj 4 "OBJ: face index 0"
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 99999999999999999999\n' | parse_error obj-face-index-huge.obj 4 "OBJ: face index beyond any integer"
printf 'v 0 0 0\nv 1 0 0\nv 0 1' | parse_error obj-truncated.obj 3 "OBJ: truncated vertex"
printf 'v 0 0 0\nv 1 0 0\nv x y z\n' | parse_error obj-words.obj 3 "OBJ: words for coordinates"
printf '# nothing\nvn 0 0 1\n' | input_error obj-no-vertices.obj "OBJ: no vertices"
garbage 4096 21 | input_error obj-garbage.obj "OBJ: binary garbage"
: | input_error obj-empty.obj "OBJ: empty file"

# XYZ
printf '0 0 0\n1 0\n' | parse_error xyz-two-coordinates.xyz 2 "XYZ: two coordinates"
printf '0 0 0\n1 0 0\n0 1 zero\n' | parse_error xyz-word.xyz 3 "XYZ: a word"
printf '0 0 0\n1 0 0 0\n' | parse_error xyz-four-coordinates.xyz 2 "XYZ: four coordinates"
printf '0 0 0\nnan 1 1\n' | parse_error xyz-nan.xyz 2 "XYZ: NaN"
printf '0 0 0\n1 INF 1\n' | parse_error xyz-inf.xyz 2 "XYZ: infinity"
printf '0 0 0\n1 1e999 1\n' | parse_error xyz-overflow.xyz 2 "XYZ: 1e999 overflows"
printf '0 0 0\n1,,2\n' | parse_error xyz-empty-field.xyz 2 "XYZ: empty field"
printf '0 0 0\n1 0 0\n\x01\x02\x03\n' | parse_error xyz-control-bytes.xyz 3 "XYZ: control bytes"
printf '0 0 0\n0x1p3 0 0\n' | parse_error xyz-hex-float.xyz 2 "XYZ: hexadecimal float"
{ printf '0 0 0\n'; head -c 2000000 /dev/zero | tr '\0' '1'; printf ' 0 0\n'; } |
  parse_error xyz-huge-number.xyz 2 "XYZ: a 2-million-digit number"
garbage 4096 31 | input_error xyz-garbage.xyz "XYZ: binary garbage"
: | input_error xyz-empty.xyz "XYZ: empty file"
printf '# a\n\n# b\n' | input_error xyz-comments-only.xyz "XYZ: comments only"

# The pair file
printf 'pair a\nA 2\n0 0 0\n' | pair_error pair-truncated.pair 4 "pair: truncated"
printf 'pair a\nA 1\n0 0 0\nB 1\n' | pair_error pair-truncated-b.pair 5 "pair: B truncated"
printf 'pair a\nA 99999999999\n0 0 0\n' | pair_error pair-absurd-count.pair 2 "pair: 10^11 points claimed"
printf 'pair a\nA -1\nB 0\n' | pair_error pair-negative-count.pair 2 "pair: negative count"
printf 'pair a\nA x\nB 0\n' | pair_error pair-word-count.pair 2 "pair: count is a word"
printf 'pair a\nA 1\nnan 0 0\nB 0\n' | pair_error pair-nan.pair 3 "pair: NaN"
printf 'pair a\nA 1\n0 0 0\nB 1\n0 0 -inf\n' | pair_error pair-inf.pair 5 "pair: infinity"
printf 'pair a\nA 1\n0 0\nB 0\n' | pair_error pair-two-coordinates.pair 3 "pair: two coordinates"
printf 'A 1\n0 0 0\nB 0\n' | pair_error pair-no-header.pair 1 "pair: no pair line"
printf 'pair a\nB 1\n0 0 0\nA 0\n' | pair_error pair-b-first.pair 2 "pair: B before A"
printf 'pair a\nA 0\nB 0\nB 0\n' | pair_error pair-extra-b.pair 4 "pair: a second B"
printf 'pair\nA 0\nB 0\n' | pair_error pair-no-name.pair 1 "pair: no name"
printf "pair %s\nA 0\nB 0\n" "$(head -c 300 /dev/zero | tr '\0' n)" | pair_error pair-long-name.pair 1 "pair: 300-byte name"
printf 'pair a b\nA 0\nB 0\n' | pair_error pair-two-names.pair 1 "pair: two names"
printf 'pair a\nA 0\nB 0\npair b\nA 1\n0 0 0\nB 1\n1 1 x\n' | pair_error pair-error-in-second.pair 8 "pair: error in the second pair"
garbage 4096 41 | pair_error pair-garbage.pair - "pair: binary garbage"
{ printf 'pair a\nA 1\n'; garbage 2000 42; } | pair_error pair-garbage-points.pair - "pair: garbage points"
expect 0 "pair: an empty file holds no pairs" -- "$cli" batch "$(: | file pair-empty.pair)"

# ---------------------------------------------------------------------------------------------
# Missing files, directories, unknown formats, unwritable outputs
mkdir "$tmp/dir.xyz" "$tmp/dir.off" "$tmp/dir.obj" "$tmp/dir.pair" "$tmp/plaindir"
for f in "$tmp/missing.xyz" "$tmp/missing.off" "$tmp/dir.xyz" "$tmp/dir.off" "$tmp/dir.obj"; do
  expect 1 "info on $(basename "$f")" --names "$f" -- "$cli" info "$f"
  expect 1 "collide with $(basename "$f") as A" --names "$f" -- "$cli" collide "$f" "$good"
  expect 1 "gap with $(basename "$f") as B" --names "$f" -- "$cli" gap --dir 1,0,0 "$good" "$f"
  expect 1 "inside with $(basename "$f")" --names "$f" -- "$cli" inside "$f" 0,0,0
done
for f in "$tmp/missing.pair" "$tmp/dir.pair" "$tmp/plaindir"; do
  expect 1 "batch on $(basename "$f")" --names "$f" -- "$cli" batch "$f"
done
expect 1 "unknown extension" --names "$tmp/shape.stl" -- "$cli" info "$(printf '0 0 0\n' | file shape.stl)"
expect 1 "no extension" --names "$tmp/plaindir" -- "$cli" info "$tmp/plaindir"
expect 1 "hull into a missing directory" --names "$tmp/no/such/dir/out.off" -- \
  "$cli" hull "$good" -o "$tmp/no/such/dir/out.off"
expect 1 "hull into a directory" --names "$tmp/plaindir" -- "$cli" hull "$good" -o "$tmp/plaindir"
if [ -w /dev/full ]; then
  expect 1 "hull into a full device" --names /dev/full -- "$cli" hull "$good" -o /dev/full
fi
expect 1 "batch: binary garbage on standard input" -- \
  bash -c "garbage() { awk 'BEGIN { srand(5); for (i = 0; i < 999; i++) printf \"%c\", int(rand() * 256) }'; }; garbage | \"$cli\" batch -"

# ---------------------------------------------------------------------------------------------
# Command line: usage errors (exit 2)
usage() { local what=$1; shift; expect 2 "$what" -- "$cli" "$@"; }
usage "no command"
usage "unknown command" frobnicate
usage "empty command" ""
usage "info: no file" info
usage "info: two files" info "$good" "$good"
usage "info: unknown option" info --bogus "$good"
usage "hull: no -o" hull "$good"
usage "hull: -o without value" hull "$good" -o
usage "collide: one file" collide "$good"
usage "collide: three files" collide "$good" "$good" "$good"
usage "collide: --algo without value" collide "$good" "$good" --algo
usage "collide: --algo empty" collide --algo "" "$good" "$good"
usage "collide: --algo upper case" collide --algo GJK "$good" "$good"
usage "collide: --algo unknown" collide --algo simplex "$good" "$good"
usage "collide: --tol a word" collide --tol abc "$good" "$good"
usage "collide: --tol NaN" collide --tol nan "$good" "$good"
usage "collide: --tol negative" collide --tol -1e-12 "$good" "$good"
usage "collide: --tol 1e-3 (bound excluded)" collide --tol 1e-3 "$good" "$good"
usage "collide: --tol inf" collide --tol inf "$good" "$good"
usage "collide: --tol trailing junk" collide --tol 1e-12x "$good" "$good"
usage "collide: --tol without value" collide "$good" "$good" --tol
usage "collide: --translate-b two numbers" collide --translate-b 1,2 "$good" "$good"
usage "collide: --translate-b four numbers" collide --translate-b 1,2,3,4 "$good" "$good"
usage "collide: --translate-b NaN" collide --translate-b nan,0,0 "$good" "$good"
usage "collide: --translate-b overflow" collide --translate-b 1e999,0,0 "$good" "$good"
usage "collide: --translate-b empty field" collide --translate-b 1,,3 "$good" "$good"
usage "collide: --translate-b spaces" collide --translate-b "1, 2, 3 " "$good" "$good"
usage "collide: --rotate-b zero" collide --rotate-b 0,0,0,0 "$good" "$good"
usage "collide: --rotate-b three numbers" collide --rotate-b 1,0,0 "$good" "$good"
usage "collide: --rotate-b NaN" collide --rotate-b nan,0,0,1 "$good" "$good"
usage "collide: --rotate-b infinite" collide --rotate-b 1,inf,0,0 "$good" "$good"
usage "collide: --rotate-b junk" collide --rotate-b 1,0,0,0x "$good" "$good"
usage "batch: no file" batch
usage "batch: two files" batch "$goodpair" "$goodpair"
usage "batch: --repeat 0" batch --repeat 0 "$goodpair"
usage "batch: --repeat negative" batch --repeat -3 "$goodpair"
usage "batch: --repeat word" batch --repeat many "$goodpair"
usage "batch: --repeat too large" batch --repeat 1000001 "$goodpair"
usage "batch: --repeat overflow" batch --repeat 99999999999999999999 "$goodpair"
usage "batch: --repeat float" batch --repeat 2.5 "$goodpair"
usage "batch: --repeat without value" batch "$goodpair" --repeat
usage "batch: --algo unknown" batch --algo xyz "$goodpair"
usage "gap: no --dir" gap "$good" "$good"
usage "gap: --dir without value" gap "$good" "$good" --dir
usage "gap: --dir zero" gap --dir 0,0,0 "$good" "$good"
usage "gap: --dir minus zero" gap --dir -0,0,-0 "$good" "$good"
usage "gap: --dir NaN" gap --dir nan,1,0 "$good" "$good"
usage "gap: --dir two numbers" gap --dir 1,0 "$good" "$good"
usage "gap: --dir words" gap --dir x,y,z "$good" "$good"
usage "contains: one file" contains "$good"
usage "contains: unknown option" contains --tol 1 "$good" "$good"
usage "inside: no point" inside "$good"
usage "inside: point with two numbers" inside "$good" 1,2
usage "inside: point with four numbers" inside "$good" 1,2,3,4
usage "inside: NaN point" inside "$good" nan,0,0
usage "inside: infinite point" inside "$good" 0,-inf,0
usage "inside: overflowing point" inside "$good" 0,0,1e400
usage "inside: words" inside "$good" a,b,c

echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
