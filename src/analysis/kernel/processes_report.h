// `kernel processes` whole, from one trace's chunks: the threads' table
// (ProcessTable), or with `cpus` the CPUs' table (CpuTable), for all the
// threads or one process's subtree. The command and the workflow module
// kernel-processes both run this (docs/kernel.md).
#pragma once

#include <cstdint>
#include <optional>

#include "analysis/kernel/cpu_table.h"
#include "analysis/kernel/process_table.h"
#include "analysis/table.h"
#include "model/entity_chunk.h"
#include "model/trace.h"

namespace macroscope::analysis::kernel {

class ProcessesReport {
 public:
  ProcessesReport(std::optional<int64_t> subtree, bool cpus) : subtree_(subtree), cpus_(cpus) {}

  // Every chunk of the trace, in any order (reads only its strings).
  void Add(const Trace& trace, const EntityChunk& chunk) {
    processes_.Add(trace, chunk);
    if (cpus_) cpu_table_.Add(trace, chunk);
  }

  // Once the trace is read.
  Table ToTable(const Trace& trace) const {
    const ProcessTableRows rows = processes_.Rows(trace, subtree_);
    return cpus_ ? cpu_table_.ToTable(trace, rows) : ProcessesTable(rows);
  }

 private:
  std::optional<int64_t> subtree_;
  bool cpus_;
  ProcessTable processes_;
  CpuTable cpu_table_;
};

}  // namespace macroscope::analysis::kernel
