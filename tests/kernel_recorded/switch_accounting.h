// The tests' own reading of the peers' text — `trace-cmd report -R -t` and
// `perf script --ns` — and the running time per thread computed from it by
// the definition of docs/kernel.md, independently of macroscope, with the
// tests' one sched_switch accounting (tests/kernel/switch_time.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace macroscope::testing {

// One event line of either tool: "COMM-TID [CPU] SECS.NANOS: NAME: FIELDS"
// (trace-cmd) or "COMM TID [CPU] SECS.NANOS: SYSTEM:NAME: FIELDS" (perf).
struct TextEvent {
  int64_t time_ns = 0;  // exact: the seconds and the nine digits as integers
  int cpu = 0;
  int64_t tid = 0;      // the task the line names before the CPU
  std::string name;     // as printed: "sched_switch" (trace-cmd), "sched:sched_switch" (perf)
  std::optional<int64_t> prev_pid, next_pid;  // sched_switch's fields
  std::string line;     // the whole line, for messages
};

// The event lines of `text`, in its order; other lines (headers, "CPU:N
// [N EVENTS DROPPED]") are left out. Fails the current test on an event
// line it cannot read.
std::vector<TextEvent> ParseEventLines(const std::string& text);

// The name without its "system:" prefix.
std::string BaseName(const std::string& name);

struct SwitchAccounting {
  std::map<int64_t, int64_t> running_ns;   // tid -> ns on a CPU (tids with some time only)
  std::map<std::string, uint64_t> counts;  // events per name as printed
  int64_t last_ns = 0;                     // the trace's end: its last event
};

SwitchAccounting AccountSwitches(const std::vector<TextEvent>& events);

// The first `limit` lines that name `tid` (as the task, or switched out or
// in), for a message.
std::string LinesOf(const std::vector<TextEvent>& events, int64_t tid, size_t limit = 40);

}  // namespace macroscope::testing
