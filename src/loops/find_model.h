// The entry point: an integer series in, a model program out.
#pragma once

#include <cstdint>
#include <span>

#include "loops/model.h"
#include "loops/options.h"

namespace macroscope::loops {

// Models `trace` (any integer series: addresses, counts, durations...).
// The result regenerates the trace exactly (Generate(model) == trace),
// using exceptions only when options.tolerance > 0. Options are assumed
// valid (0 <= tolerance < 1, max_depth >= 1, recurrence_order >= 0); the
// bottom-up algorithm handles the af mode without recurrences, other
// requests fall back to the search. Never throws on any input values.
Model FindModel(std::span<const int64_t> trace, const Options& options);

// The algorithm FindModel will actually run for a trace of n values.
Algorithm ResolveAlgorithm(int64_t n, const Options& options);

}  // namespace macroscope::loops
