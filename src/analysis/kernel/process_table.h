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
#include <unordered_map>
#include <variant>
#include <vector>

#include "analysis/entity_records.h"
#include "model/trace.h"

namespace macroscope::analysis::kernel {

struct ThreadRow {
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

// One cell of the table: empty, an integer or text.
using ProcessCell = std::variant<std::monostate, int64_t, std::string>;

class ProcessTable {
 public:
  // Every entity of one trace, in any order: Thread states add their time
  // to the state's class, Syscall states count; others are ignored.
  void Add(const Trace& trace, const EntityRecord& r);

  // Once the trace is read (its containers and their fields complete): the
  // kernel threads (thread containers with a `tid` field), all or only
  // those of process `subtree` and its descendants.
  ProcessTableRows Rows(const Trace& trace, std::optional<int64_t> subtree = std::nullopt) const;

 private:
  struct Sums {
    int64_t user = 0, kernel = 0, interrupted = 0, exiting = 0, waiting = 0, runnable = 0, syscalls = 0;
  };
  std::unordered_map<ContainerId, Sums> sums_;
};

// The columns, in order: tid, pid, ppid, name, names, start, end,
// running_ns, user_ns, kernel_ns, interrupted_ns, exiting_ns, waiting_ns, runnable_ns,
// syscalls, then the counter columns.
std::vector<std::string> ProcessColumns(const ProcessTableRows& table);
// A row's cells, one per column (names joined with '|'; no ppid: empty).
std::vector<ProcessCell> ProcessCells(const ProcessTableRows& table, const ThreadRow& row);

}  // namespace macroscope::analysis::kernel
