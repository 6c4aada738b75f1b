// `macroscope loops --from-lackey FILE`: the data addresses of a memory
// trace written by valgrind's lackey, kept by a filter (a function of the
// traced program, a data address range, loads or stores), for the loop-nest
// modeller; and the `nests:` section naming the arrays of each nest. The
// choices are documented in docs/loops.md.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "loops/elf_symbols.h"
#include "loops/lackey_trace.h"
#include "loops/model.h"
#include "loops/trace_series.h"

namespace macroscope::cli {

struct LackeyRequest {
  std::string file;      // the lackey output
  std::string function;  // keep the accesses of this function's instructions
  std::string binary;    // the traced program; empty: the one of the Command: line, if it is a file here
  std::string range;     // "A-B", hex: keep the data addresses in [A, B)
  std::string access = "all";  // all, loads, stores
  bool access_given = false;
};

struct LackeySeries {
  loops::TraceSeries series;
  std::vector<loops::AccessKind> kinds;       // of each value
  std::optional<loops::ElfSymbols> symbols;   // when the program is known
  std::optional<uint64_t> stack_top;          // the trace's first data address
};

// Throws UserError for a bad --range or --access, --function without a
// program, an unreadable trace or program, a malformed line (FILE:LINE),
// an unknown function, or a filter that keeps nothing.
LackeySeries ReadLackeySeries(const LackeyRequest& request);

// The `nests:` section for the report (empty without the program's
// symbols); `values` are the series' values.
std::string LackeyNests(const loops::Model& model, std::span<const int64_t> values, const LackeySeries& lackey);

}  // namespace macroscope::cli
