#include "formats/paraver/paraver_format.h"

#include "formats/paraver/paraver_reader.h"
#include "util/error.h"

namespace macroscope::paraver {

namespace {

bool Sniff(const std::string&, std::string_view head) { return LooksLikeParaver(head); }

formats::ReadStats Read(const std::vector<std::string>& files, const formats::ReadOptions& options, Trace& trace) {
  // The .pcf and .row are found beside the .prv; two traces do not merge.
  if (files.size() != 1) throw UserError(files[1] + ": Paraver traces are read one at a time (give the .prv only)");
  ReadReport report = ReadParaver(files.front(), trace, formats::StreamingSimulation(options));
  return {.events = report.records, .bytes = report.bytes};
}

}  // namespace

formats::Format ParaverFormat() {
  return {"paraver", "Paraver .prv (+ .pcf, .row) of the BSC tools (Extrae, Dimemas)", Sniff, Read};
}

}  // namespace macroscope::paraver
