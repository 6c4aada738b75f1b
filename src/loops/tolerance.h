// Tolerance: phases extended across values they do not predict, which are
// then listed as exceptions.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "loops/model.h"
#include "loops/options.h"

namespace macroscope::loops {

// Re-models a slice data[begin, end) exactly; returns phases with starts
// relative to `begin`.
using ExactModeller = std::function<std::vector<Node>(int64_t begin, int64_t end)>;

// Design: starting from an exact model, each fixed-size top-level loop
// (largest first) is extrapolated value by value to the right and then to
// the left, over values owned by smaller phases, as long as the
// mispredicted values stay within `tolerance` of the stretched phase and
// each side ends on a predicted value; the stretch is then trimmed to
// whole intervals. Outliers near a phase start leave the exact phase
// misaligned (it starts inside an interval), so a stretched loop may be
// rotated: it is then rebuilt from its predictions (`body_options` model
// its body). The parts no stretched loop covers are re-modelled exactly
// with `modeller`. Every phase of the result has at most
// tolerance * size exceptions.
void ApplyTolerance(const uint64_t* data, int64_t n, double tolerance, const Options& body_options,
                    const ExactModeller& modeller, Model& model);

}  // namespace macroscope::loops
