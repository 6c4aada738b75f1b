// The tests' own kernel thread critical path (docs/critical-path.md,
// "Kernel traces"), walked over the peers' text — `trace-cmd report -R -t`
// or `perf script --ns` — independently of macroscope: each thread's
// states from its sched_switch lines (prev_state), forks and exits; each
// CPU's current task and open interrupt handlers (irq_handler_entry/exit,
// softirq_entry/exit, when recorded); the sched_waking (else
// sched_wakeup) lines.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernel_recording.h"
#include "switch_accounting.h"

namespace macroscope::testing {

struct ReferencePathRow {
  int64_t tid = 0;
  int64_t start_ns = 0, end_ns = 0;  // the peer's times
  std::string state;                 // running, runnable, preempted, interrupt, timer, blocked
  std::string detail;                // running: cpuN; interrupt, timer: irq:NAME, softirq:VECTOR; blocked: unknown, idle
};

// The path of thread `tid` from its end (its dead switch out, else the
// last event) back to its first state.
std::vector<ReferencePathRow> ReferenceThreadPath(const std::vector<TextEvent>& events, int64_t tid);

// `critical-path --thread TID` of every workload task, row by row, is the
// reference path over the peer's text of `r`: tid, start, end (the query's
// times: ns since the trace's first event), state, detail. kr-reader's
// path goes through kr-writer's running time up to the wakeup (the pipe's
// write), then kr-reader's wait for a CPU. A path that differs through a
// thread whose switches the tracer lost (a loaded machine) is not compared:
// the test then skips, saying which, once the others are.
void ExpectPeersThreadPaths(const KernelRecording& r);

}  // namespace macroscope::testing
