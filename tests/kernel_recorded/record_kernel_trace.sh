#!/usr/bin/env bash
# Records the workload (kr_workload.c) with the kernel's scheduler events:
#
#   record_kernel_trace.sh perf OUT WORKLOAD
#       perf record -e 'sched:*' -a into OUT/perf.data, converted to CTF
#       (perf data convert --to-ctf) into OUT/perf-ctf;
#   record_kernel_trace.sh trace-cmd OUT WORKLOAD
#       trace-cmd record -e sched (every CPU) into OUT/trace.dat;
#   record_kernel_trace.sh perf-latency|trace-cmd-latency OUT WORKLOAD
#       the same with syscalls and interrupts too (perf: 'raw_syscalls:*'
#       and 'irq:*'; trace-cmd: -e syscalls -e irq), for the latency tests.
#
# The workload's own lines (one per task: "task NAME TID PID") go to
# OUT/tasks.txt. Exits 77 with one line on stderr saying why when tracing
# is not permitted here (no tool, no tracefs, no permission); any other
# failure exits 1 with the tool's message. Recordings of this script wait
# for each other (a lock): two trace-cmd sessions on the kernel's one top
# buffer would disturb each other.
set -uo pipefail
usage="usage: record_kernel_trace.sh perf|trace-cmd|perf-latency|trace-cmd-latency OUT WORKLOAD"
mode=${1:?$usage}
out=${2:?$usage}
workload=${3:?$usage}
mkdir -p "$out"

skip() {
  echo "$*" >&2
  exit 77
}
# The last line a tool printed, for a message.
last_line() { grep -v '^[[:space:]]*$' "$1" | tail -n 1; }

exec 9> "${TMPDIR:-/tmp}/macroscope-kernel-recording.lock"
flock -w 120 9 || { echo "waited 120 s for another recording to end" >&2; exit 1; }

# tracefs holds the tracepoints' formats both tools read.
if [ ! -e /sys/kernel/tracing/events ]; then
  mount -t tracefs nodev /sys/kernel/tracing 2> /dev/null ||
    skip "no tracefs at /sys/kernel/tracing and it cannot be mounted here (not root, or not permitted)"
fi

perf_events=(-e 'sched:*')
trace_cmd_events=(-e sched)
case $mode in
  *-latency)
    perf_events+=(-e 'raw_syscalls:*' -e 'irq:*')
    trace_cmd_events+=(-e syscalls -e irq)
    mode=${mode%-latency}
    ;;
esac

case $mode in
  perf)
    command -v perf > /dev/null || skip "no perf (Debian package linux-perf)"
    if ! timeout 60 perf record -q "${perf_events[@]}" -a -o "$out/perf.data" -- "$workload" > "$out/tasks.txt" \
        2> "$out/perf-record.log"; then
      skip "perf record ${perf_events[*]} -a is not permitted here: $(last_line "$out/perf-record.log")"
    fi
    if ! timeout 60 perf data convert --to-ctf "$out/perf-ctf" -i "$out/perf.data" > "$out/perf-convert.log" 2>&1; then
      echo "perf data convert --to-ctf failed: $(last_line "$out/perf-convert.log")" >&2
      exit 1
    fi
    ;;
  trace-cmd)
    command -v trace-cmd > /dev/null || skip "no trace-cmd (Debian package trace-cmd)"
    # -d: leave the function tracer alone through its tracefs option (the
    # default writes /proc/sys/kernel/ftrace_enabled, read-only in
    # containers); --no-filter: no pid filter for trace-cmd's own threads
    # (set_ftrace_pid may be refused, and trace-cmd 3.1 then crashes). The
    # workload names the recording's length only: every CPU's events are
    # recorded, as with perf -a. trace-cmd may still exit 1 on resetting
    # what it could not set at the end: the file is judged by
    # `trace-cmd report` reading it.
    timeout 60 trace-cmd record -q -d --no-filter "${trace_cmd_events[@]}" -o "$out/trace.dat" "$workload" \
      > "$out/tasks.txt" 2> "$out/trace-cmd-record.log"
    if ! trace-cmd report "$out/trace.dat" > /dev/null 2>&1; then
      skip "trace-cmd record ${trace_cmd_events[*]} is not permitted here: $(last_line "$out/trace-cmd-record.log")"
    fi
    ;;
  *)
    echo "$usage" >&2
    exit 2
    ;;
esac
grep -c '^task ' "$out/tasks.txt" > /dev/null || { echo "the workload printed no task" >&2; exit 1; }
