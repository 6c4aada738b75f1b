// Bottom-up recogniser of loop nests (adjacent intervals; bounds fixed or
// affine in the outer indices).
#pragma once

#include <cstdint>
#include <vector>

#include "loops/model.h"
#include "loops/options.h"

namespace macroscope::loops {

// Longest block of items repeated as one loop body in a single pass.
inline constexpr int64_t kMaxBlockItems = 16;

// Models the trace data[0..n) (width 1) as a list of phases, in time
// O(n * kMaxBlockItems * passes) where the number of passes is about the
// nesting depth found. Exact. Loop bounds may be affine in the outer
// indices when options.mode is kAuto; fixed (af) otherwise. Uses
// options.max_depth too.
std::vector<Node> BottomUpPhases(const uint64_t* data, int64_t n, const Options& options);

}  // namespace macroscope::loops
