// Opening a trace for a command: the one place that knows which reader
// to call, so every command accepts the same inputs.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "formats/format.h"
#include "model/entity_sink.h"
#include "model/trace.h"

namespace macroscope::cli {

struct LoadedTrace {
  Trace trace;
  formats::ReadStats stats;
  double seconds = 0;  // wall time of reading and simulating
};

// Adds the reader options every trace-reading command shares.
void AddReadOptions(CLI::App& command, formats::ReadOptions& options);

// --window A,B (`text`; empty: none) as model times: each bound in any form
// ParseTime takes. Throws UserError naming --window for a bad one.
void ParseWindowOption(const Trace& trace, const std::string& text, std::optional<double>& start,
                       std::optional<double>& end);

// Throws UserError naming the file for unreadable or invalid input.
void LoadTrace(const std::vector<std::string>& files, const formats::ReadOptions& options, LoadedTrace& out);

// A trace the command is done with as the process ends: left for the exit
// to take back whole rather than freed column by column (on the
// benchmark's mix, 12,000 frees: 1 ms of its 13 ms outside the reading).
// It stays reachable, so leak checkers do not count it.
void DropAtExit(Trace&& trace);

// For an analysis that needs the trace's end before its first entity (the
// model's slices, the statistics' window) and takes entities as they come:
// reads the one Pajé file `files` holds streaming (docs/streaming.md) into
// the sink `sink_for(end)` returns, `end` told by the file's last line
// (paje/last_time.h); `out` keeps the types, containers and names. False
// when that cannot be: another format, several files, standard input,
// --sort, a share of an MPI job, no end told, or a reading that ended
// elsewhere (then the sink's entities are to be dropped, and the caller
// reads the trace whole).
bool StreamPaje(const std::vector<std::string>& files, const formats::ReadOptions& options,
                const std::function<EntitySink*(double end)>& sink_for, LoadedTrace& out);

}  // namespace macroscope::cli
