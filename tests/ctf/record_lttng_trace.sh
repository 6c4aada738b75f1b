#!/usr/bin/env bash
# Records an LTTng-UST trace of PROGRAM (lttng_workload.c) into OUTPUT: all
# userspace events of PROGRAM's process, the vtid/vpid/procname contexts,
# with the libc wrapper (malloc/free...) and cyg-profile
# (func_entry/func_exit) preloaded.
#   record_lttng_trace.sh PROGRAM OUTPUT [ARGUMENTS...]
# The CTest fixture of the recorded-trace tests (ctf.record_lttng_trace).
# Uses the session daemon that answers, else starts one and stops it after.
# Every step is bounded in time: a broken setup fails with a message, it
# does not hang. OUTPUT is replaced only by a complete, readable trace.
set -euo pipefail

program=$1
output=$2
shift 2  # the rest: PROGRAM's arguments
limit=60  # seconds for any one step

fail() {
  echo "record_lttng_trace: $*" >&2
  exit 1
}

[ -x "$program" ] || fail "no program at $program"
for tool in lttng lttng-sessiond babeltrace2 timeout flock; do
  command -v "$tool" >/dev/null || fail "$tool not found (Debian packages lttng-tools, babeltrace2, coreutils, util-linux)"
done

# One recording at a time per user on this machine (other build folders,
# other ctest runs, whatever their TMPDIR): no two of ours race to start or
# stop the daemon.
exec 9>>"/tmp/macroscope-lttng-record-$(id -u).lock"
flock -w $((2 * limit)) 9 || fail "another recording has held the lock for $((2 * limit)) s"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/macroscope-lttng-XXXXXX")
# Our own LTTng home: no user configuration or current session leaks in,
# and a non-root user gets a session daemon of their own here. (Root always
# talks to the system-wide daemon.)
export LTTNG_HOME=$scratch/home
mkdir -p "$LTTNG_HOME"
# Unique among concurrent runs on the machine.
session=macroscope-ctf-$$-$(date +%s%N)
session_created=0
daemon_pid=
# The program runs under a name of its own (its threads' procname, up to
# 15 characters with the "-ust" of LTTng's listener threads): the session
# records that process only, whatever else runs with LTTng-UST meanwhile.
name=mcw$$x
mkdir "$scratch/bin"
cp "$program" "$scratch/bin/$name"

# Runs `lttng ARGS...`; on failure or timeout, stops with its output.
lttng_do() {
  local out
  if ! out=$(timeout "$limit" lttng --no-sessiond "$@" 2>&1); then
    fail "\`lttng $*\` failed or timed out: $out"
  fi
}

daemon_answers() { timeout 10 lttng list >/dev/null 2>&1; }

start_daemon() {
  local rundir pid
  if [ "$(id -u)" = 0 ]; then rundir=/var/run/lttng; else rundir=$LTTNG_HOME/.lttng; fi
  # --no-kernel: userspace only; never loads kernel modules.
  # Without the lock's descriptor: a daemon that outlives us must not hold it.
  timeout "$limit" lttng-sessiond --daemonize --no-kernel >"$scratch/sessiond.log" 2>&1 9>&- || return 0
  pid=$(cat "$rundir/lttng-sessiond.pid" 2>/dev/null || true)
  # Only a process we can tell is the session daemon is ever stopped.
  if [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = lttng-sessiond ]; then daemon_pid=$pid; fi
}

stop_our_daemon() {
  [ -n "$daemon_pid" ] || return 0
  # Someone else may have started to use it meanwhile: leave it then.
  if timeout 10 lttng list 2>/dev/null | grep -q '^ *[0-9]*) '; then
    echo "record_lttng_trace: leaving session daemon $daemon_pid running: it has other sessions" >&2
    return 0
  fi
  kill -TERM "$daemon_pid" 2>/dev/null || return 0
  for _ in $(seq 100); do
    kill -0 "$daemon_pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL "$daemon_pid" 2>/dev/null || true
}

cleanup() {
  if [ "$session_created" = 1 ]; then
    timeout "$limit" lttng destroy "$session" >/dev/null 2>&1 || true
  fi
  stop_our_daemon
  rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# A daemon, then the session. A daemon someone else starts or stops at the
# same moment only costs another round.
deadline=$((SECONDS + limit))
while [ "$session_created" = 0 ] && [ "$SECONDS" -lt "$deadline" ]; do
  daemon_answers || start_daemon
  # --no-sessiond: `lttng create` would otherwise spawn a daemon we do not know of.
  if timeout "$limit" lttng --no-sessiond create "$session" --output="$scratch/trace" >"$scratch/create.log" 2>&1; then
    session_created=1
  else
    sleep 1
  fi
done
[ "$session_created" = 1 ] ||
  fail "cannot create an LTTng session: $(cat "$scratch/create.log"); starting a session daemon said: $(cat "$scratch/sessiond.log" 2>/dev/null)"

lttng_do enable-event --session="$session" --userspace --all --filter="\$ctx.procname == \"$name*\""
lttng_do add-context --session="$session" --userspace --type=vtid --type=vpid --type=procname
lttng_do start "$session"

# env sets the preload for the program only (not for timeout). The register
# timeout lets a loaded machine's daemon answer before main() runs (the
# default, 3 s, would start the program untraced).
timeout "$limit" env LD_PRELOAD="liblttng-ust-libc-wrapper.so liblttng-ust-cyg-profile.so" \
  LTTNG_UST_REGISTER_TIMEOUT=20000 "$scratch/bin/$name" "$@" >"$scratch/program.log" 2>&1 ||
  fail "the traced program failed: $(cat "$scratch/program.log")"

lttng_do stop "$session"
lttng_do destroy "$session"
session_created=0

# A trace babeltrace2 reads, with what the program must have produced.
[ -n "$(find "$scratch/trace" -name metadata -print -quit 2>/dev/null)" ] ||
  fail "the session wrote no trace into $scratch/trace (did the program register with the session daemon?)"
timeout "$limit" babeltrace2 "$scratch/trace" >"$scratch/events.txt" 2>"$scratch/babeltrace2.log" ||
  fail "babeltrace2 cannot read the recorded trace: $(cat "$scratch/babeltrace2.log")"
for event in lttng_ust_tracef:event lttng_ust_cyg_profile:func_entry lttng_ust_cyg_profile:func_exit \
  lttng_ust_libc:malloc lttng_ust_libc:free; do
  grep -q " $event: " "$scratch/events.txt" ||
    fail "the recorded trace has no $event event ($(wc -l <"$scratch/events.txt") events in all)"
done

# Copied beside OUTPUT first, then renamed: never a half-copied trace.
mkdir -p "$(dirname "$output")"
partial=$output.partial.$$
rm -rf "$partial"
cp -R "$scratch/trace" "$partial"
rm -rf "$output"
mv "$partial" "$output"
echo "recorded $(wc -l <"$scratch/events.txt") events of $name into $output"
