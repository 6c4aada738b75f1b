#!/usr/bin/env bash
# Compares `macroscope dump` with the reference `pj_dump` (Debian pajeng) on
# one trace: the sets of output lines must be equal, and when pj_dump refuses
# the trace, macroscope must refuse it too (exit 1, a file:line message).
# Usage: compare_with_pj_dump.sh MACROSCOPE TRACE [options passed to both]
set -u
macroscope=$1
trace=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

pj_dump "$@" "$trace" > "$work/expected" 2> "$work/expected.err"
pj_status=$?
# pj_dump reports some refusals on stdout and may still exit 0 after an
# exception message: a refusal is a non-zero exit or an exception message.
if [ $pj_status -ne 0 ] || grep -q "Exception\|invalid\|Error during" "$work/expected" "$work/expected.err"; then
  "$macroscope" dump "$@" "$trace" > "$work/actual" 2> "$work/actual.err"
  status=$?
  if [ $status -ne 1 ]; then
    echo "FAIL $trace: pj_dump refuses it, macroscope exited $status"
    head -3 "$work/expected" "$work/expected.err"
    exit 1
  fi
  if ! grep -q "^macroscope: .*:[0-9][0-9]*: " "$work/actual.err"; then
    echo "FAIL $trace: refusal without a file:line message:"; cat "$work/actual.err"; exit 1
  fi
  echo "ok $trace (refused by both: $(head -1 "$work/actual.err"))"
  exit 0
fi
"$macroscope" dump "$@" "$trace" > "$work/actual" 2> "$work/actual.err"
status=$?
if [ $status -ne 0 ]; then
  echo "FAIL $trace: macroscope exited $status where pj_dump accepts it:"; cat "$work/actual.err"; exit 1
fi
LC_ALL=C sort "$work/expected" > "$work/expected.sorted"
LC_ALL=C sort "$work/actual" > "$work/actual.sorted"
if ! cmp -s "$work/expected.sorted" "$work/actual.sorted"; then
  echo "FAIL $trace $*: line sets differ (< pj_dump, > macroscope):"
  diff "$work/expected.sorted" "$work/actual.sorted" | head -20
  exit 1
fi
echo "ok $trace $* ($(wc -l < "$work/expected") lines)"
