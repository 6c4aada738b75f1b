#include "loops/find_model.h"

#include <vector>

#include "loops/bottom_up.h"
#include "loops/search.h"
#include "loops/tolerance.h"

namespace macroscope::loops {

Algorithm ResolveAlgorithm(int64_t n, const Options& options) {
  // The bottom-up recogniser only knows adjacent fixed-size intervals.
  if (options.mode != Mode::kAdjacentFixed || options.recurrence_order > 0) return Algorithm::kSearch;
  if (options.algorithm != Algorithm::kAuto) return options.algorithm;
  return n <= kAutoSearchLimit ? Algorithm::kSearch : Algorithm::kBottomUp;
}

namespace {

std::vector<Node> ExactPhases(const uint64_t* data, int64_t n, const Options& options) {
  if (n == 0) return {};
  if (ResolveAlgorithm(n, options) == Algorithm::kBottomUp) return BottomUpPhases(data, n, options);
  return SearchPhases(data, n, 1, 0, options);
}

}  // namespace

Model FindModel(std::span<const int64_t> trace, const Options& options) {
  Model model;
  model.length = static_cast<int64_t>(trace.size());
  const std::vector<uint64_t> data(trace.begin(), trace.end());
  const int64_t n = model.length;
  model.phases = ExactPhases(data.data(), n, options);
  if (options.tolerance > 0.0) {
    // The slices re-modelled after extension keep the algorithm chosen
    // for the whole trace.
    Options slice_options = options;
    slice_options.algorithm = ResolveAlgorithm(n, options);
    const ExactModeller modeller = [&](int64_t begin, int64_t end) {
      return ExactPhases(data.data() + begin, end - begin, slice_options);
    };
    ApplyTolerance(data.data(), n, options.tolerance, options, modeller, model);
  }
  return model;
}

}  // namespace macroscope::loops
