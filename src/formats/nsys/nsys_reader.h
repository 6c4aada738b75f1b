// Reads Nsight Systems SQLite exports (`nsys export --type sqlite`) into the
// trace model, through the Pajé simulator like every other reader, with
// Debian's SQLite library (util/sqlite.h), the file opened read-only.
//
// Mapping (docs/nsys.md): a container per process and thread (globalPid,
// globalTid, decoded as Nsight documents them) holding the CUDA runtime
// and driver calls, NVTX push/pop and start/end ranges and marks, and OS
// runtime calls, nested calls as nested states; a container per GPU
// device, CUDA context and stream holding the kernels, memory copies and
// memsets; a link from each call to the GPU work it started (same
// correlationId). Times are the export's integer nanoseconds, exact: whole
// ticks of 1 ns from an origin at the first event (model/time_base.h), the
// wall clock from TARGET_INFO_SESSION_START_TIME when the file has it.
//
// Tables and columns a schema version lacks are read as absent. Refused
// (UserError "FILE: message"): a file that is not SQLite or is corrupt, an
// export without any table of events this reader maps, an essential column
// missing, times beyond what model times hold. Tolerated and counted (one
// warning line each): rows without a time or a thread, ends before starts,
// ranges that overlap their enclosing range (cut at its end), spans never
// ended (closed at the trace end), NVTX records of other types.
//
// Memory: the export is a database, not a time-ordered stream, so rows are
// read table by table and become records sorted in a budget, in runs on
// disk beyond it (nsys_records.h): the spans by container to be nested,
// calls and GPU work by correlationId to be linked, and the simulator
// calls by time, replayed at the end. Held for the whole read: the string
// pool, the containers, and per file the names of processes, threads, GPUs
// and NVTX domains and categories.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "formats/paje/line_sort.h"
#include "formats/paje/simulator.h"
#include "model/trace.h"

namespace macroscope::nsys {

struct ReadReport {
  uint64_t rows = 0;   // rows of the event tables read
  uint64_t bytes = 0;  // bytes of the files
  // What the rows became.
  uint64_t api_calls = 0;                          // CUDA runtime and driver calls (states)
  uint64_t os_calls = 0;                           // OS runtime calls (states)
  uint64_t nvtx_ranges = 0;                        // push/pop and start/end ranges (states)
  uint64_t nvtx_marks = 0;                         // marks (events)
  uint64_t kernels = 0, memcpys = 0, memsets = 0;  // states on the streams
  uint64_t links = 0;                              // GPU work whose launching call is in the file
  uint64_t processes = 0, threads = 0, devices = 0, contexts = 0, streams = 0;

  // Tolerated, counted.
  std::map<std::string, uint64_t> skipped_rows;  // reason ("TABLE: ...") -> rows
  uint64_t ends_before_start = 0;                // read as ending at their start
  uint64_t truncated_ranges = 0;                 // ranges cut at the end of the range they start in
  uint64_t unended = 0;                          // spans without an end (NULL): closed at the trace end

  // One human-readable line per non-zero problem counter.
  std::vector<std::string> Warnings() const;
};

// Reads `files` (merged as one trace, each placed by its session start)
// into `trace`, simulated, with the time span set. `simulation`: only
// `sink` and `drain_interval` apply. `memory`: bytes of records sorted in
// memory before runs go to temporary files (the budget of Pajé's --sort,
// whose hidden --sort-memory sets it too; nsys_records.h).
ReadReport ReadNsys(const std::vector<std::string>& files, Trace& trace, const paje::SimulatorOptions& simulation = {},
                    size_t memory = paje::kSortMemory);

}  // namespace macroscope::nsys
