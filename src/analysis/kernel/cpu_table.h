// Kernel CPUs: per CPU of a kernel trace, whose its time was — each
// thread's running time there, idle, and unknown before the CPU's first
// sched_switch — from the CPU state the CTF reader sets at every switch
// (docs/ctf.md: value `idle` or the next task's comm, the switch's fields
// naming its tid). A CPU is never idle and running at once, nor running
// nobody: per CPU, threads + idle + unknown = the trace's span, to the ns.
// Serves `macroscope kernel processes --cpus` (docs/kernel.md).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/kernel/process_table.h"
#include "analysis/table.h"
#include "model/entity_chunk.h"
#include "model/trace.h"

namespace macroscope::analysis::kernel {

struct CpuThreadTime {
  int64_t tid = 0;
  int64_t running_ns = 0;
};

struct CpuRow {
  std::string cpu;       // the CPU container's name ("cpu0")
  int64_t span_ns = 0;   // the trace's span: running + idle + unknown
  int64_t unknown_ns = 0;  // from the trace's start to the CPU's first sched_switch
  int64_t idle_ns = 0;
  std::vector<CpuThreadTime> threads;  // by running_ns descending, then tid

  int64_t running_ns() const;
};

class CpuTable {
 public:
  // Every chunk of one trace, in any order: the states of type CPU count
  // (kept per container: which containers are CPUs is known once the trace
  // is complete); others are ignored. Reads only `trace`'s strings (it may
  // still be being read).
  void Add(const Trace& trace, const EntityChunk& chunk);
  // Once the trace is read: one row per CPU container, by CPU number.
  std::vector<CpuRow> Rows(const Trace& trace) const;
  // The table `kernel processes --cpus` prints, from Rows(): columns cpu,
  // kind, tid, pid, name, ns; per CPU its threads (kind `thread`, by
  // running time), then `idle`, `unknown` and `span` (their tid, pid and
  // name empty). A thread's pid and name are its last row's in `threads`
  // (the same trace's).
  Table ToTable(const Trace& trace, const ProcessTableRows& threads) const;

 private:
  // Times in ticks, turned into ns at the end (as ProcessTable's).
  struct Sums {
    double first = 0;  // the earliest CPU state's start (model time)
    bool seen = false;
    double idle = 0;
    std::map<int64_t, double> running;  // tid -> ticks
  };
  std::unordered_map<ContainerId, Sums> sums_;
};

}  // namespace macroscope::analysis::kernel
