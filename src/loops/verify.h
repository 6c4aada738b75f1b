// Regenerating a model and comparing it with the trace.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "loops/model.h"
#include "loops/trace_text.h"

namespace macroscope::loops {

struct Difference {
  int64_t index = 0;
  int64_t expected = 0;  // the trace's value
  int64_t got = 0;       // the model's value
  // One side ended: `index` is the shorter length; expected/got are 0.
  bool length_mismatch = false;
  int64_t expected_length = 0;
  int64_t got_length = 0;
};

// The first index where the regenerated model differs from `trace`, if any.
std::optional<Difference> FirstDifference(std::span<const int64_t> trace, const Model& model);
// The same against a trace read from its file again, chunk by chunk: a
// trace of any length is checked in the memory of two chunks.
std::optional<Difference> FirstDifference(TraceReader& trace, const Model& model);

}  // namespace macroscope::loops
