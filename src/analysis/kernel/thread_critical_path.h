// A kernel thread's critical path (docs/critical-path.md, "Kernel
// traces"): what the thread's progress waited for, walking back from its
// end (or a given time) to its start. While the thread runs it is on the
// path (running, on a CPU); waiting for a CPU it is too (runnable after a
// wakeup or a fork, preempted after a switch out in state R); while it is
// blocked, until its wakeup, the path goes to its waker — the task current
// on the CPU of the wakeup event at that time — followed back the same way
// down to the time the blocked thread blocked (through a waker's creation
// to the thread that forked it); a wakeup from an interrupt
// handler makes that time `interrupt` (or `timer`); one without a known
// wakeup, `blocked`.
//
// From the model the CTF and ftrace readers' kernel mapping makes of LTTng
// kernel, perf and trace-cmd traces (kernel_entities.h): the threads'
// Thread states, each CPU's running task (CPU states, sched_switch), its
// Interrupt stack, and sched_waking (else sched_wakeup) events.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/cancellation.h"
#include "analysis/table.h"
#include "model/entity_chunk.h"
#include "model/entity_source.h"
#include "model/trace.h"

namespace macroscope::analysis::kernel {

enum class PathState : uint8_t { kRunning, kRunnable, kPreempted, kInterrupt, kTimer, kBlocked };
std::string_view PathStateName(PathState state);

// One stretch of the path: a thread's time [start, end) (model times).
struct ThreadPathSegment {
  ContainerId thread;
  int64_t tid;
  double start, end;
  PathState state;
  std::string detail;  // running: the CPU; interrupt, timer: the handler's state ("softirq:TIMER");
                       // blocked: "unknown" (no wakeup known), "idle" (woken on an idle CPU, no interrupt seen)
};

class ThreadCriticalPathAccumulator {
 public:
  // Every chunk of one trace, in any order: Thread, CPU and Interrupt
  // states and sched_wakeup / sched_waking / sched_process_fork events;
  // others are ignored.
  void Add(const Trace& trace, const EntityChunk& chunk);

  // Once the trace is complete: the path of thread `tid` (when the tid was
  // used by several threads, the last one alive at `end`, else the last),
  // from the end of its last state or `end` (a model time) back to its
  // first state, in time order. UserError naming `what` when the trace is
  // not a kernel trace or has no thread `tid`.
  std::vector<ThreadPathSegment> Path(const Trace& trace, int64_t tid, std::optional<double> end,
                                      std::string_view what) const;

 private:
  struct Span {  // a Thread state, or a CPU's running task, or an interrupt
    double start, end;
    int64_t value;  // ThreadSpan kind; a task's tid (0 idle, -1 unknown); an interrupt's StringId
    uint16_t level = 0;
  };
  struct Wakeup {
    double time;
    ContainerId cpu;
  };
  struct Fork {
    double time;
    int64_t parent;
  };
  std::unordered_map<ContainerId, std::vector<Span>> threads_, cpus_, interrupts_;
  std::unordered_map<int64_t, std::vector<Wakeup>> wakeups_, wakings_;  // by woken tid
  std::unordered_map<int64_t, std::vector<Fork>> forks_;                // by child tid
  std::vector<uint8_t> classes_;  // by StringId: what a value or event name is
};

// The path of `tid` over `source`'s chunks; stops with Cancelled between
// chunks once `cancel` is set.
std::vector<ThreadPathSegment> ComputeThreadCriticalPath(const EntitySource& source, int64_t tid,
                                                         std::optional<double> end, std::string_view what,
                                                         const Cancellation* cancel = nullptr);

enum class ThreadPathBy { kSegments, kState, kContainer };

// "state" or "container"; UserError naming `option` otherwise.
ThreadPathBy ParseThreadPathBy(std::string_view text, std::string_view option);

// kSegments: one row per segment in time order: container (the thread's
// path), tid, start, end (relative to the trace's start, as the query
// tables' times), state, detail, length_ns. kState, kContainer: the path's
// time per state or per thread: name, length_ns, share.
Table ThreadCriticalPathTable(const Trace& trace, const std::vector<ThreadPathSegment>& path, ThreadPathBy by);

}  // namespace macroscope::analysis::kernel
