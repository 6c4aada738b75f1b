// Opening a trace for a command: the one place that knows which reader
// to call, so every command accepts the same inputs.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "formats/format.h"
#include "model/trace.h"

namespace macroscope::cli {

struct LoadedTrace {
  Trace trace;
  formats::ReadStats stats;
  double seconds = 0;  // wall time of reading and simulating
};

// Adds the reader options every trace-reading command shares.
void AddReadOptions(CLI::App& command, formats::ReadOptions& options);

// Throws UserError naming the file for unreadable or invalid input.
void LoadTrace(const std::vector<std::string>& files, const formats::ReadOptions& options, LoadedTrace& out);

}  // namespace macroscope::cli
