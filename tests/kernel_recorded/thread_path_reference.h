// The tests' own kernel thread critical path (docs/critical-path.md,
// "Kernel traces"), walked over the peers' text — `trace-cmd report -R -t`
// or `perf script --ns` — independently of macroscope: each thread's
// states from its sched_switch lines (prev_state), forks and exits; each
// CPU's current task; the sched_waking (else sched_wakeup) lines.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "switch_accounting.h"

namespace macroscope::testing {

struct ReferencePathRow {
  int64_t tid = 0;
  int64_t start_ns = 0, end_ns = 0;  // the peer's times
  std::string state;                 // running, runnable, preempted, blocked (no interrupt in these recordings)
  std::string detail;                // running: cpuN; blocked: unknown or idle
};

// The path of thread `tid` from its end (its dead switch out, else the
// last event) back to its first state.
std::vector<ReferencePathRow> ReferenceThreadPath(const std::vector<TextEvent>& events, int64_t tid);

}  // namespace macroscope::testing
