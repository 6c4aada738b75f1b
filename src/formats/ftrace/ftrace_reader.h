// Reads trace-cmd `.dat` files (ftrace) into the trace model: their records
// (trace_cmd_records.h) go through the CTF reader's mapping, so a .dat file
// gives the CPUs, processes, threads and states an LTTng or perf kernel
// trace gives, by the same code (ctf/event_mapper.h). docs/ftrace.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/paje/simulator.h"
#include "model/trace.h"

namespace macroscope::ftrace {

struct FtraceReadOptions {
  // Every record one punctual entity (ctf/raw_events.h) instead of the
  // kernel mapping, as the CTF reader's events-only mode.
  bool events_only = false;
  paje::SimulatorOptions simulator;  // streaming: only `sink` and `drain_interval` apply
};

struct FtraceReadStats {
  uint64_t events = 0;  // records, as `trace-cmd report` prints them
  uint64_t bytes = 0;   // size of the files
  std::vector<std::string> warnings;  // what was tolerated (lost records, instances not read), one line each
};

// Reads `files` (each one recording; several are merged by timestamp) into
// `trace`; times are whole nanoseconds from the first record. Throws
// UserError naming the file for bad input.
FtraceReadStats ReadFtrace(const std::vector<std::string>& files, Trace& trace, const FtraceReadOptions& options = {});

}  // namespace macroscope::ftrace
