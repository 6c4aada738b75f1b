// `kernel memory`'s figures from a trace's chunks: the lttng_ust_libc
// events are kept as they come (a few numbers each) and applied to one
// MemoryTracker (memory_tracker.h) in time order at the end, since readers
// hand events over stream by stream and one thread's malloc and free may
// lie on two CPUs' streams. Serves `macroscope kernel memory` and the
// workflow module kernel-memory (docs/kernel.md).
#pragma once

#include <utility>
#include <vector>

#include "analysis/kernel/memory_tracker.h"
#include "analysis/table.h"
#include "model/entity_chunk.h"
#include "model/time_base.h"
#include "model/trace.h"

namespace macroscope::analysis::kernel {

class MemoryTable {
 public:
  // Every chunk of one trace, in any order: its lttng_ust_libc events are
  // kept; others are ignored. Reads only `trace`'s strings (it may still be
  // being read).
  void Add(const Trace& trace, const EntityChunk& chunk);

  // Once the trace is read (`base`, its time base, final), and once only
  // (the events kept go to the tracker): the events applied in time order. One row per process, by pid, then all processes
  // together (pid empty, name "(all)"): columns pid, name, allocations,
  // frees, reallocs, moves, free_null, unknown_frees, peak_bytes,
  // peak_time_ns, final_bytes. With `series`, it also receives the bytes
  // in use over time: columns time_ns, pid, bytes, a row at each change of
  // a process's bytes.
  Table ToTable(const TimeBase& base, Table* series = nullptr);

 private:
  std::vector<std::pair<double, LibcEvent>> events_;  // (model time, the event; its time_ns set at the end)
};

}  // namespace macroscope::analysis::kernel
