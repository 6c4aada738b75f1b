#!/usr/bin/env bash
# Runs the SimGrid test program to write a Pajé trace, then checks that the
# trace holds at least one event of each kind asked for, so that the
# comparisons with pj_dump that use it cannot pass on a trace that lost them.
# Usage: generate_trace.sh PROGRAM PLATFORM OUT "PajeKind PajeKind..." [--cfg=...]
set -u
program=$1
platform=$2
out=$3
kinds=$4
shift 4
rm -f "$out"
if ! "$program" "$platform" --cfg=tracing:yes "--cfg=tracing/filename:$out" "$@" > "$out.log" 2>&1; then
  echo "FAIL $program exited with an error:"; tail -20 "$out.log"; exit 1
fi
# Events per kind: map each %EventDef id to its kind, then count event lines.
counts=$(awk '
  /^%[ \t]*EventDef/ { sub(/^%[ \t]*EventDef/, ""); split($0, w); kind[w[2]] = w[1]; next }
  /^[ \t]*(%|#|$)/ { next }
  { n[kind[$1]]++ }
  END { for (k in n) print k, n[k] }' "$out")
missing=""
for k in $kinds; do
  echo "$counts" | grep -q "^$k [0-9]" || missing="$missing $k"
done
if [ -n "$missing" ]; then
  echo "FAIL $out lacks events of kind:$missing"; echo "$counts"; exit 1
fi
echo "ok $out ($(grep -vc '^[%#]' "$out") events:" $counts ")"
