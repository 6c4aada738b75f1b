// Bottom-up recogniser of fixed-size loop nests (adjacent intervals).
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
// nesting depth found. Exact; uses options.max_depth only.
std::vector<Node> BottomUpPhases(const uint64_t* data, int64_t n, const Options& options);

}  // namespace macroscope::loops
