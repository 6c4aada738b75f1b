// A flame graph of a calling context tree (analysis/profile.h's
// CallTreeTable): one box a call path, as wide as its inclusive time, above
// its caller; the roots on the bottom line, side by side; callees in name
// order. A function has the same colour as its type would in the overview
// (palette.h). `macroscope flamegraph` draws it (docs/profile.md).
#pragma once

#include <string>

#include "analysis/table.h"
#include "render/canvas.h"

namespace macroscope::render {

struct FlameGraphOptions {
  int width = 1200;
  std::string title = "Flame graph";
  std::string subtitle;  // the trace and window, under the title
};

// Throws std::invalid_argument when `tree` lacks the call tree's columns
// (id, parent, depth, function, calls, inclusive_ns).
std::string DrawFlameGraph(const analysis::Table& tree, const FlameGraphOptions& options, ImageFormat format);
// The same written to `path` (.svg or .png) atomically; throws UserError
// for another extension or a file that cannot be written.
void SaveFlameGraph(const analysis::Table& tree, const FlameGraphOptions& options, const std::string& path);

}  // namespace macroscope::render
