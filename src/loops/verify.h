// Regenerating a model and comparing it with the trace.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "loops/model.h"

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

}  // namespace macroscope::loops
