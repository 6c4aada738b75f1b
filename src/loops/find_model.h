// The entry point: an integer series in, a model program out.
#pragma once

#include <cstdint>
#include <span>

#include "loops/model.h"
#include "loops/options.h"
#include "loops/trace_text.h"

namespace macroscope::loops {

// How a model was found: the mode and algorithm that gave it (in the
// automatic mode, the candidate that won).
struct Choice {
  Mode mode = Mode::kAdjacentFixed;
  Algorithm algorithm = Algorithm::kSearch;
};

// Models `trace` (any integer series: addresses, counts, durations...).
// The result regenerates the trace exactly (Generate(model) == trace),
// using exceptions only when options.tolerance > 0. Options are assumed
// valid (0 <= tolerance < 1, max_depth >= 1, recurrence_order >= 0).
// Mode kAuto keeps the smallest exact model among the bottom-up
// recogniser (whose loop bounds may be affine in the outer indices) and,
// on short traces, the search in each of the seed's modes; a forced mode
// other than af, or recurrences, always search. Never throws on any input
// values. `chosen`, when given, receives what gave the model.
Model FindModel(std::span<const int64_t> trace, const Options& options, Choice* chosen = nullptr);

// The same, reading the trace from `reader`. A trace longer than
// kAutoSearchLimit that only the bottom-up recogniser models (modes auto
// and af, no tolerance, no recurrences) is streamed: memory holds the
// recogniser's first-pass items, not the values. Otherwise the values are
// read whole and modelled as above.
Model FindModel(TraceReader& reader, const Options& options, Choice* chosen = nullptr);

}  // namespace macroscope::loops
