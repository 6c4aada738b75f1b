#!/usr/bin/env bash
# Pajé -> `macroscope convert` -> Pajé: pj_dump must print the same set of
# lines for the written file as for the original (or refuse both).
# Usage: paje_round_trip.sh MACROSCOPE TRACE
#        paje_round_trip.sh MACROSCOPE --generate   (a generated trace with
#        nested states, punctual events, links and variables)
set -u
macroscope=$1
trace=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "$trace" = --generate ]; then
  "$macroscope" generate --depth 2 --arity 4 --events 20000 --nested --punctual --links --variables \
    -o "$work/generated.trace" || exit 1
  trace=$work/generated.trace
fi
pj_dump "$trace" > "$work/expected" 2> "$work/expected.err"
if [ $? -ne 0 ] || grep -q "Exception\|invalid\|Error during" "$work/expected" "$work/expected.err"; then
  if "$macroscope" convert "$trace" -o "$work/out.paje" 2> "$work/err"; then
    echo "FAIL $trace: pj_dump refuses it, convert accepted it"; exit 1
  fi
  [ -e "$work/out.paje" ] && { echo "FAIL $trace: output left behind"; exit 1; }
  echo "ok $trace (refused by both)"; exit 0
fi
"$macroscope" convert "$trace" -o "$work/out.paje" || { echo "FAIL $trace: convert failed"; exit 1; }
pj_dump "$work/out.paje" > "$work/actual" 2>&1 || { echo "FAIL $trace: pj_dump refuses the written file"; head -3 "$work/actual"; exit 1; }
LC_ALL=C sort "$work/expected" > "$work/expected.sorted"
LC_ALL=C sort "$work/actual" > "$work/actual.sorted"
if ! cmp -s "$work/expected.sorted" "$work/actual.sorted"; then
  echo "FAIL $trace: pj_dump line sets differ (< original, > written):"
  diff "$work/expected.sorted" "$work/actual.sorted" | head -20
  exit 1
fi
echo "ok $trace ($(wc -l < "$work/expected") lines)"
