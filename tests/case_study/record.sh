#!/usr/bin/env bash
# Records the GStreamer case study (docs/case-study-gstreamer.md): the debug
# log of gst-launch-1.0 playing a generated video through an encoder and a
# decoder, pinned to one core, once undisturbed and once with stress-ng
# taking most of that same core for a second in the middle, at a real-time
# priority: only stress-ng disturbs the player, whatever the machine's other
# load.
#   record.sh OUTPUT_DIR [quiet|stressed|both]   (default: both)
# Writes OUTPUT_DIR/quiet.log and/or OUTPUT_DIR/stressed.log, and for the
# stressed run OUTPUT_DIR/stress-window.txt: one line "START END", the
# seconds from gst-launch-1.0's start to stress-ng's start and to its end,
# as this script saw them (the GStreamer log counts from its own start, a
# few milliseconds later). Each file is written whole or not at all.
# Without gst-launch-1.0 or stress-ng, or without the right to real-time
# priorities (root has it), it says so in one line, records nothing and
# succeeds: the tests on the logs then skip.
set -euo pipefail

output=$1
which=${2:-both}
frames=75      # at 15 per second: 5 s
stress_at=2    # s after the start
stress_for=1   # s
load=90        # % of the core the stress takes
niceness=-10   # of the whole script, above the machine's other work
core=0
limit=60  # seconds for any one run

fail() {
  echo "record.sh: $*" >&2
  exit 1
}

for tool in gst-launch-1.0 stress-ng taskset timeout; do
  if ! command -v "$tool" >/dev/null; then
    echo "record.sh: skipped: $tool not found (Debian packages gstreamer1.0-tools, gstreamer1.0-plugins-base, gstreamer1.0-plugins-good, stress-ng)"
    exit 0
  fi
done

if ! chrt -f 1 true 2>/dev/null; then
  echo "record.sh: skipped: the perturbation needs real-time priorities (run as root)"
  exit 0
fi
# The whole script (the player and the timing of the window) runs at
# $niceness, so that the machine's other load takes little from it.
if [ -z "${CASE_STUDY_RAISED:-}" ]; then
  CASE_STUDY_RAISED=1 exec nice -n "$niceness" bash "$0" "$@"
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/macroscope-case-study-XXXXXX")
trap 'rm -rf "$scratch"' EXIT
trap 'exit 1' INT TERM

# Nanoseconds since the epoch, as an integer.
now() { date +%s%N; }

# seconds A B: (B - A) ns as seconds with 9 decimals.
seconds() { printf '%d.%09d' $((($2 - $1) / 1000000000)) $((($2 - $1) % 1000000000)); }

# One run into $scratch/NAME.log. The pipeline: a 1280x720 test picture at
# 15 frames per second, JPEG-encoded and decoded again (about 14 % of the
# core's time), into a sink that plays it at the clock's rate (sync=true):
# the run lasts frames/15 s, and the streaming thread waits on the clock
# between frames. GST_DEBUG=6 (LOG level): about 120 messages per frame, a
# steady flow; the wait for the clock is a DEBUG message, the encoding and
# decoding mostly LOG ones.
play() {
  local name=$1
  GST_DEBUG=6 GST_DEBUG_NO_COLOR=1 timeout "$limit" taskset -c "$core" gst-launch-1.0 \
    videotestsrc num-buffers="$frames" pattern=ball \
    ! video/x-raw,width=1280,height=720,framerate=15/1 \
    ! jpegenc ! jpegdec ! fakesink sync=true \
    >"$scratch/$name.out" 2>"$scratch/$name.log" ||
    fail "gst-launch-1.0 failed ($name run): $(tail -n 3 "$scratch/$name.out" "$scratch/$name.log")"
  grep -q 'Got EOS from element' "$scratch/$name.out" ||
    fail "gst-launch-1.0 did not play to the end ($name run): $(tail -n 3 "$scratch/$name.out")"
}

# The perturbation: a stress-ng CPU worker on gst-launch-1.0's core, from
# stress_at s after its start, for stress_for s, busy $load % of the time in
# 10 ms slices at a real-time priority. Real time takes the core from every
# ordinary process at once, whatever the machine's other load and the
# scheduler's preferences: the player is left about 10 % of the core where
# it needs 14 %, falls behind the clock for the whole window and works
# without waiting, then catches up. (Ordinary CPU hogs, even twelve of them
# at the player's priority, left the window unmarked now and then: the
# scheduler lets a thread that sleeps between frames catch up.)
perturb() {
  local t0=$1 t1 t2
  sleep "$stress_at"
  t1=$(now)
  timeout "$limit" stress-ng --cpu 1 --cpu-load "$load" --cpu-load-slice 10 --sched fifo --sched-prio 1 \
    --taskset "$core" --timeout "${stress_for}s" --quiet \
    >"$scratch/stress.out" 2>&1 || fail "stress-ng failed: $(cat "$scratch/stress.out")"
  t2=$(now)
  echo "$(seconds "$t0" "$t1") $(seconds "$t0" "$t2")" >"$scratch/stress-window.txt"
}

# Moves the finished files into OUTPUT_DIR (a rename each: never half a file).
publish() {
  local f
  for f in "$@"; do
    cp "$scratch/$f" "$output/$f.partial.$$"
    mv "$output/$f.partial.$$" "$output/$f"
  done
}

mkdir -p "$output"
if [ "$which" = quiet ] || [ "$which" = both ]; then
  play quiet
  publish quiet.log
fi
if [ "$which" = stressed ] || [ "$which" = both ]; then
  t0=$(now)
  perturb "$t0" &
  perturber=$!
  play stressed
  wait "$perturber" || fail "the perturbation failed"
  publish stressed.log stress-window.txt
fi
