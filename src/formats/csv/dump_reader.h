// Reads pj_dump's output (and `macroscope dump`'s, which equals it) back
// as a trace: Container lines rebuild the container tree and container
// types, State/Event/Variable/Link lines the entity types and entities,
// through the Pajé simulator (table.h). docs/csv.md.
//
// Times: a dump of a Pajé trace (the root container's start printed as
// "0") keeps pj_dump's seconds; any other dump (a clock printed with a
// fixed number of decimals) is read exactly, in ticks of its last decimal.
// The order of the lines is kept: `macroscope dump` of the result prints
// the same lines. User fields (-u) are not read back.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "formats/paje/line_sort.h"
#include "formats/paje/simulator.h"
#include "model/trace.h"

namespace macroscope::csv {

struct ReadCounts {
  uint64_t lines = 0;
  uint64_t bytes = 0;
};

// `memory`: bytes of rows held before they go to sorted runs in $TMPDIR
// (table.h), the hidden --sort-memory.
ReadCounts ReadDump(const std::vector<std::string>& files, Trace& trace, const paje::SimulatorOptions& options,
                    size_t memory = paje::kSortMemory);
// One dump held in memory; `name` stands for the file in messages.
ReadCounts ReadDumpText(std::string_view text, const std::string& name, Trace& trace,
                        const paje::SimulatorOptions& options, size_t memory = paje::kSortMemory);

// True when `head` starts as pj_dump's output does ("Container, ").
bool LooksLikeDump(std::string_view head);

}  // namespace macroscope::csv
