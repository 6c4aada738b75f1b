// Reads Pajé trace files into the trace model.
//
// Files are memory-mapped and read in order as one stream (definitions of
// one file hold for the next); a PajeTraceFile event queues the named file
// (relative to the file that names it) to be read after the current one,
// once. Bad input throws UserError "file:line: message".
#pragma once

#include <string>
#include <vector>

#include "formats/paje/chunk_decoder.h"
#include "formats/paje/line_sort.h"
#include "formats/paje/simulator.h"
#include "formats/part_exchange.h"
#include "model/trace.h"

namespace macroscope::paje {

struct ReadOptions {
  bool no_strict = false;  // accept old field names (pj_dump -n)
  // --sort: each file's lines in time order, as StarVZ sorts StarPU's
  // paje.trace (line_sort.h), sorting up to sort_memory bytes in memory.
  bool sort = false;
  size_t sort_memory = kSortMemory;
  // Chunks of about chunk_bytes of input when several threads decode
  // (chunk_decoder.h; their number: ReadPaje's `threads`).
  size_t chunk_bytes = kChunkBytes;
  SimulatorOptions simulator;
  // Read in parts (ReadPaje's `share`): part 0 ends with the whole trace,
  // as a whole reading builds it, the others with no entities (import).
  bool gather = false;
};

struct ReadStats {
  uint64_t lines = 0;
  uint64_t events = 0;
  uint64_t bytes = 0;
};

// Reads `files` ("-" is standard input) into `trace`, simulated. Call
// trace.BuildIndexes() before window queries. `threads` (formats::ReadOptions::
// threads): threads decoding event lines besides the one simulating; 0, one
// per core but the simulating thread's; 1, one thread decoding line by line.
// With `share`, the files (not standard input; without --sort or a sink)
// are read in parts by byte range (range_reading.h); else they are read
// whole by every part, part 0 alone keeping the entities.
ReadStats ReadPaje(const std::vector<std::string>& files, const ReadOptions& options, Trace& trace,
                   int threads = 0, formats::PartExchange* share = nullptr);

// Reads one trace held in memory; `name` stands for the file in messages.
ReadStats ReadPajeText(std::string_view text, const std::string& name, const ReadOptions& options, Trace& trace,
                       int threads = 0);

// True when `head` (the first bytes of a file) looks like a Pajé trace.
bool LooksLikePaje(std::string_view head);

}  // namespace macroscope::paje
