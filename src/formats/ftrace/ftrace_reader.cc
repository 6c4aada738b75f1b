#include "formats/ftrace/ftrace_reader.h"

#include "formats/ctf/event_clock.h"
#include "formats/ctf/event_mapper.h"
#include "formats/ctf/raw_events.h"
#include "formats/ftrace/trace_cmd_records.h"
#include "util/error.h"

namespace macroscope::ftrace {

namespace {

void AddWarnings(const TraceCmdRecordStats& records, FtraceReadStats& stats) {
  for (const auto& [where, lost] : records.lost)
    stats.warnings.push_back(where + ": " + (lost < 0 ? std::string("some") : std::to_string(lost)) +
                             " events lost by the kernel's ring buffer (the threads' states there are guesses)");
  for (const std::string& instance : records.instances)
    stats.warnings.push_back("buffer instance `" + instance + "` not read (only the top buffer is)");
}

}  // namespace

FtraceReadStats ReadFtrace(const std::vector<std::string>& files, Trace& trace, const FtraceReadOptions& options) {
  std::string label = files.empty() ? std::string() : files.front();
  for (size_t i = 1; i < files.size(); ++i) label += ", " + files[i];
  paje::Simulator simulator(trace, options.simulator);
  ctf::EventClock clock(trace);
  uint64_t mapped = 0;  // records mapped so far, for messages
  FtraceReadStats stats;
  TraceCmdRecordStats records;
  try {
    if (options.events_only) {
      ctf::RawEvents raw(trace, simulator);
      records = ForEachTraceCmdRecord(files, [&](const ctf::CtfEvent& e) {
        ++mapped;
        raw.Map(e, clock.Time(e));
      });
      raw.Finish(clock.last());
    } else {
      ctf::EventMapper mapper(trace, simulator);
      records = ForEachTraceCmdRecord(files, [&](const ctf::CtfEvent& e) {
        ++mapped;
        mapper.Map(e, clock.Time(e));
      });
      mapper.Finish(clock.last());
    }
  } catch (const paje::SimulationError& e) {
    throw UserError(label + ": record " + std::to_string(mapped) + ": " + e.what());
  }
  stats.events = records.records;
  stats.bytes = records.bytes;
  AddWarnings(records, stats);
  return stats;
}

}  // namespace macroscope::ftrace
