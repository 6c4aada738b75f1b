#include "formats/csv/csv_format.h"

#include "formats/csv/dump_reader.h"
#include "formats/csv/generic_reader.h"

namespace macroscope::csv {

namespace {

bool SniffDump(const std::string&, std::string_view head) { return LooksLikeDump(head); }
bool SniffGeneric(const std::string&, std::string_view head) { return LooksLikeGenericCsv(head); }

formats::ReadStats ReadDumpFiles(const std::vector<std::string>& files, const formats::ReadOptions& options,
                                 Trace& trace) {
  ReadCounts counts = ReadDump(files, trace, formats::StreamingSimulation(options), options.paje.sort_memory);
  return {.events = counts.lines, .bytes = counts.bytes};
}

formats::ReadStats ReadGenericFiles(const std::vector<std::string>& files, const formats::ReadOptions& options,
                                    Trace& trace) {
  ReadCounts counts = ReadGenericCsv(files, trace, formats::StreamingSimulation(options), options.paje.sort_memory);
  return {.events = counts.lines, .bytes = counts.bytes};
}

}  // namespace

formats::Format DumpFormat() {
  return {"pj_dump", "pj_dump's CSV output (and macroscope dump's), read back as a trace", SniffDump, ReadDumpFiles};
}

formats::Format GenericCsvFormat() {
  return {"csv", "CSV with a header naming its columns: container, type, time or start/end, value, kind… (docs/csv.md)",
          SniffGeneric, ReadGenericFiles};
}

}  // namespace macroscope::csv
