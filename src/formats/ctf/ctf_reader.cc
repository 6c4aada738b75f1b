#include "formats/ctf/ctf_reader.h"

#include <filesystem>
#include <system_error>

#include "formats/ctf/event_clock.h"
#include "formats/ctf/event_mapper.h"
#include "formats/ctf/raw_events.h"
#include "formats/ctf/stream_parts.h"
#include "formats/ctf/stream_threads.h"
#include "formats/ctf/trace_directories.h"
#include "formats/paje/range_reading.h"
#include "formats/paje/simulator.h"
#include "util/error.h"

namespace macroscope::ctf {

namespace {

uint64_t DirectoryBytes(const std::string& dir) {
  namespace fs = std::filesystem;
  uint64_t bytes = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code size_ec;
    if (it->is_regular_file(size_ec)) {
      uint64_t size = it->file_size(size_ec);
      if (!size_ec) bytes += size;
    }
  }
  return bytes;
}

}  // namespace

CtfReadStats ReadCtf(const std::vector<std::string>& paths, Trace& trace, const CtfReadOptions& options) {
  if (paths.empty()) throw UserError("no CTF trace given");
  std::vector<std::string> directories;
  for (const std::string& path : paths) {
    std::vector<std::string> found = FindTraceDirectories(path);
    if (found.empty()) throw UserError(path + ": no CTF trace here (no directory with a `metadata` file)");
    directories.insert(directories.end(), found.begin(), found.end());
  }
  std::string label = paths.front();
  for (size_t i = 1; i < paths.size(); ++i) label += ", " + paths[i];

  CtfReadStats stats;
  stats.traces = static_cast<uint32_t>(directories.size());
  for (const std::string& dir : directories) stats.bytes += DirectoryBytes(dir);

  paje::SimulatorOptions simulation;
  simulation.sink = options.simulator.sink;
  simulation.drain_interval = options.simulator.drain_interval;
  simulation.progress = options.simulator.progress;
  paje::Simulator simulator(trace, simulation);
  EventClock clock(trace);
  uint64_t mapped = 0;  // events seen so far, for messages
  auto count = [&](const CtfEvent& e) {
    ++mapped;
    if (auto it = stats.per_name.find(e.name); it != stats.per_name.end())
      ++it->second;
    else
      stats.per_name.emplace(std::string(e.name), 1);
  };
  // The streams decoded on threads, or by the parts of a job.
  auto for_each = [&](const std::function<void(const CtfEvent&)>& on_event) {
    if (options.share != nullptr && options.share->parts() > 1)
      return ForEachCtfEventInParts(directories, label, on_event, stats.overlaps, options.threads, *options.share);
    return ForEachCtfEventOnThreads(directories, label, on_event, stats.overlaps, options.threads);
  };
  try {
    if (options.events_only) {
      RawEvents raw(trace, simulator);
      stats.events = for_each([&](const CtfEvent& e) {
        count(e);
        raw.Map(e, clock.Time(e));
      });
      raw.Finish(clock.last());
    } else {
      EventMapper mapper(trace, simulator);
      stats.events = for_each([&](const CtfEvent& e) {
        count(e);
        mapper.Map(e, clock.Time(e));
      });
      mapper.Finish(clock.last());
      stats.unmatched_exits = mapper.unmatched_exits();
    }
  } catch (const paje::SimulationError& e) {
    throw UserError(label + ": event " + std::to_string(mapped) + ": " + e.what());
  }
  // Every part mapped the whole trace: part 0 alone keeps the entities, so
  // that the reductions of the parts count them once.
  if (options.share != nullptr && options.share->part() != 0) paje::KeepTreesOnly(trace);
  return stats;
}

}  // namespace macroscope::ctf
