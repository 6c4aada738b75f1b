#!/usr/bin/env bash
# Records GStreamer debug logs of a small pipeline (three threads: the
# application's, the source's streaming thread, the queue's) into OUTPUT:
#   plain.log   GST_DEBUG=5 without colours, the program's own output
#               (stdout) mixed in, as `2>&1` gives it;
#   colour.log  GST_DEBUG=4 with ANSI colours forced on (checked to be there).
#   record_gstreamer_logs.sh GST_LAUNCH OUTPUT
# The CTest fixture of the recorded-log tests (gstreamer.record_logs).
# OUTPUT is replaced only by complete logs.
set -euo pipefail

gst_launch=$1
output=$2
fail() {
  echo "record_gstreamer_logs: $*" >&2
  exit 1
}

scratch=$(mktemp -d "${TMPDIR:-/tmp}/macroscope-gst-XXXXXX")
trap 'rm -rf "$scratch"' EXIT
pipeline=(videotestsrc num-buffers=30 ! jpegenc ! queue ! jpegdec ! fakesink)

# No user registry or plugin path leaks in; the registry is rebuilt once.
export GST_REGISTRY=$scratch/registry.bin
unset GST_PLUGIN_PATH GST_DEBUG_FILE GST_DEBUG_COLOR_MODE
GST_DEBUG=5 GST_DEBUG_NO_COLOR=1 timeout 60 "$gst_launch" -q "${pipeline[@]}" >"$scratch/warmup.log" 2>&1 ||
  fail "gst-launch-1.0 failed (Debian gstreamer1.0-plugins-base and -good installed?): $(tail -3 "$scratch/warmup.log")"
GST_DEBUG=5 GST_DEBUG_NO_COLOR=1 timeout 60 "$gst_launch" "${pipeline[@]}" >"$scratch/plain.log" 2>&1 ||
  fail "gst-launch-1.0 failed: $(tail -3 "$scratch/plain.log")"
GST_DEBUG=4 GST_DEBUG_COLOR_MODE=on timeout 60 "$gst_launch" "${pipeline[@]}" 2>"$scratch/colour.log" >/dev/null ||
  fail "gst-launch-1.0 failed: $(tail -3 "$scratch/colour.log")"
grep -q $'\x1b\\[' "$scratch/colour.log" || fail "GST_DEBUG_COLOR_MODE=on wrote no ANSI colours"

rm -rf "$output"
mkdir -p "$output"
mv "$scratch/plain.log" "$scratch/colour.log" "$output/"
