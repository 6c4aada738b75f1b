#!/usr/bin/env bash
# Checks that `macroscope dump` refuses bad input cleanly: exit status 1,
# nothing at all on stdout (no partial dump), and one stderr message
# `macroscope: FILE:LINE: ...` that points at the right line.
#
# Usage:
#   bad_input_test.sh MACROSCOPE TRACE [options]
#       TRACE says what is expected in a comment line
#       `# expect-error: LINE: TEXT` (TEXT: a part of the message, any case).
#   bad_input_test.sh MACROSCOPE --missing-file
#       a file that does not exist: the message must name it.
#   bad_input_test.sh MACROSCOPE --output TRACE
#       `-o OUT` with a bad trace: neither OUT nor a temporary file is left.
set -u
macroscope=$1
mode=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL $*"; echo "--- stdout:"; head -5 "$work/out"; echo "--- stderr:"; cat "$work/err"; exit 1; }

# Runs macroscope dump "$@"; checks the status and the empty stdout.
expect_refusal() {
  "$macroscope" dump "$@" > "$work/out" 2> "$work/err"
  local status=$?
  [ $status -eq 1 ] || fail "macroscope dump $*: exit status $status, expected 1"
  [ ! -s "$work/out" ] || fail "macroscope dump $*: refused, yet wrote to stdout"
  [ "$(wc -l < "$work/err")" -eq 1 ] || fail "macroscope dump $*: expected one line on stderr"
}

case "$mode" in
  --missing-file)
    missing="$work/no such file.trace"
    expect_refusal "$missing"
    grep -qF "macroscope: $missing: " "$work/err" || fail "the message does not name '$missing'"
    ;;
  --output)
    trace=$1
    mkdir "$work/dir"
    expect_refusal -o "$work/dir/out.csv" "$trace"
    leftovers=$(ls -A "$work/dir")
    [ -z "$leftovers" ] || fail "-o with a bad trace left files behind: $leftovers"
    ;;
  *)
    trace=$mode
    expect=$(sed -n 's/^# expect-error: //p' "$trace")
    [ -n "$expect" ] || { echo "FAIL $trace has no '# expect-error: LINE: TEXT' line"; exit 1; }
    line=${expect%%:*}
    text=${expect#*: }
    expect_refusal "$@" "$trace"
    grep -qF "macroscope: $trace:$line: " "$work/err" || fail "expected 'macroscope: $trace:$line: ...'"
    grep -qiF "$text" "$work/err" || fail "expected a message containing '$text'"
    ;;
esac
echo "ok $mode $* ($(cat "$work/err"))"
