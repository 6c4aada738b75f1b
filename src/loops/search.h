// Top-down phase search: the seed's algorithm (PLI), exact.
#pragma once

#include <cstdint>
#include <vector>

#include "loops/model.h"
#include "loops/options.h"

namespace macroscope::loops {

// Models the width-`width` sequence data[0..n) as a list of phases.
// `depth` is the number of loop dimensions enclosing the sequence (0 for
// the trace). The variable, distant and recurrence searches apply to the
// trace only (width 1); bodies are searched in the adjacent-fixed mode.
// Quadratic in n per phase found (autocorrelation plus one linear scan per
// candidate period); the variable and distant searches are more costly
// and only run on ranges of at most kVariableSearchLimit values.
std::vector<Node> SearchPhases(const uint64_t* data, int64_t n, int width, int depth,
                               const Options& options);

inline constexpr int64_t kVariableSearchLimit = 2000;
inline constexpr int64_t kDistantVariableSearchLimit = 200;
inline constexpr int64_t kRecurrenceSearchLimit = 5000;
inline constexpr int64_t kRecurrenceMaxPeriod = 16;

// Builds the Loop phase of period p and count k starting at `start` in a
// fixed-size adjacent configuration; its body is searched when the depth
// allows, listed otherwise.
Node MakeFixedLoop(const uint64_t* data, int width, int depth, int64_t start, int64_t period,
                   int64_t count, const Options& options);

}  // namespace macroscope::loops
