// Kernel processes: one row per thread of a kernel trace (tid, pid, ppid,
// names, life, time per state, syscalls, perf counter deltas) from the CTF
// reader's process reconstruction (docs/ctf.md): the Thread states and
// Syscall states of each thread container, and the fields the reader gives
// the thread containers at the end. One table serves `macroscope kernel
// processes` and the workflow module kernel-processes
// (docs/kernel.md).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/table.h"
#include "model/entity_chunk.h"
#include "model/trace.h"

namespace macroscope::analysis::kernel {

struct ThreadRow {
  ContainerId container = kNone;  // the thread's container
  int64_t tid = 0, pid = 0;
  std::optional<int64_t> ppid;     // none when no event says it
  std::vector<std::string> names;  // comm, in order (exec, renames); the last is the name
  // ns from the trace start: fork or first sight; exit, else last sight
  // (docs/kernel.md: its last state may last beyond it).
  int64_t start = 0, end = 0;
  int64_t user_ns = 0, kernel_ns = 0, interrupted_ns = 0, exiting_ns = 0, waiting_ns = 0, runnable_ns = 0;
  int64_t syscalls = 0;
  std::map<std::string, int64_t, std::less<>> counters;  // counter column -> value (absent: none)

  // Time as its CPU's current task, from the switch in to the next switch
  // there (exiting included: a dead task runs until it switches out).
  int64_t running_ns() const { return user_ns + kernel_ns + interrupted_ns + exiting_ns; }
  std::string name() const { return names.empty() ? std::string() : names.back(); }
};

struct ProcessTableRows {
  std::vector<std::string> counter_columns;  // perf_* fields found, then compute_instructions
  std::vector<ThreadRow> rows;               // by running_ns descending, then tid, then start
};

class ProcessTable {
 public:
  // Every chunk of one trace, in any order: Thread states add their time
  // to the state's class, Syscall states count; others are ignored. Reads
  // only `trace`'s strings (it may still be being read).
  void Add(const Trace& trace, const EntityChunk& chunk);

  // Once the trace is read (its containers and their fields complete): the
  // kernel threads (thread containers with a `tid` field), all or only
  // those of process `subtree` and its descendants.
  ProcessTableRows Rows(const Trace& trace, std::optional<int64_t> subtree = std::nullopt) const;

 private:
  // Per thread container. Times are summed in ticks and turned into ns at
  // the end, when the time base is final (whole ticks, as a kernel trace's
  // nanoseconds are, sum exactly in a double below 2^53).
  struct Sums {
    double user = 0, kernel = 0, interrupted = 0, exiting = 0, waiting = 0, runnable = 0;
    int64_t syscalls = 0;
  };
  // The sum a Thread state of value `value` adds to; null for a value not counted.
  static double* TimeOf(Sums& s, std::string_view value);

  std::unordered_map<ContainerId, Sums> sums_;
};

// The table `kernel processes` prints: one row per thread of `rows`, in
// their order; columns tid, pid, ppid (empty when unknown), name, names
// (joined with '|'), start, end, running_ns, user_ns, kernel_ns,
// interrupted_ns, exiting_ns, waiting_ns, runnable_ns, syscalls, then the
// counter columns (empty where a thread has none).
Table ProcessesTable(const ProcessTableRows& rows);

}  // namespace macroscope::analysis::kernel
