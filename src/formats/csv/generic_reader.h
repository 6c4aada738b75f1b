// Reads the generic CSV (docs/csv.md): a header line names the columns
// (container, type, time or start and end, value, kind, parent,
// end_container), each further line is one state, event, variable value
// or link. Times are decimal numbers of seconds (or of the unit a suffix
// of the time columns' names gives: start_ms, time_us, end_ns) read
// exactly, in ticks of the finest decimal the file uses.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "formats/csv/dump_reader.h"

namespace macroscope::csv {

// `memory`: as ReadDump's.
ReadCounts ReadGenericCsv(const std::vector<std::string>& files, Trace& trace,
                          const paje::SimulatorOptions& options, size_t memory = paje::kSortMemory);
ReadCounts ReadGenericCsvText(std::string_view text, const std::string& name, Trace& trace,
                              const paje::SimulatorOptions& options, size_t memory = paje::kSortMemory);

// True when the first line of `head` is a header naming at least the
// container, type and time (or start) columns.
bool LooksLikeGenericCsv(std::string_view head);

}  // namespace macroscope::csv
