#include "formats/ftrace/ftrace_format.h"

#include "formats/ftrace/ftrace_reader.h"
#include "formats/ftrace/trace_cmd_records.h"

namespace macroscope::ftrace {

namespace {

// A file that starts with the .dat magic (versions 6 and 7).
bool Sniff(const std::string&, std::string_view head) { return LooksLikeTraceCmdData(head); }

formats::ReadStats Read(const std::vector<std::string>& files, const formats::ReadOptions& options, Trace& trace) {
  FtraceReadOptions ftrace;
  ftrace.events_only = options.events_only;
  ftrace.simulator = formats::StreamingSimulation(options);
  FtraceReadStats s = ReadFtrace(files, trace, ftrace);
  formats::WarnTolerated(files.front(), s.warnings);  // tolerated, never silent: one line each
  return {.events = s.events, .bytes = s.bytes};
}

}  // namespace

formats::Format FtraceFormat() {
  return {"ftrace", "trace-cmd .dat files (ftrace) through libtracecmd, kernel events mapped as CTF kernel traces",
          Sniff, Read};
}

}  // namespace macroscope::ftrace
