// Design note. The automatic mode is a competition, not a guess: each
// candidate is an exact model, so the smallest one (ModelSize) is the
// best description of the trace. The bottom-up recogniser is linear and
// always runs; the quadratic searches only run where the trace is short
// enough for them (kAutoSearchLimit for af, kAutoModesLimit for the
// variable and distant modes). Ties keep the earlier candidate: the
// seed's af search first, then bottom-up, then av, df, dv, so the simpler
// configuration wins.
#include "loops/find_model.h"

#include <vector>

#include "loops/bottom_up.h"
#include "loops/search.h"
#include "loops/tolerance.h"

namespace macroscope::loops {

namespace {

std::vector<Node> ExactPhases(const uint64_t* data, int64_t n, Mode mode, Algorithm algorithm,
                              const Options& options) {
  if (n == 0) return {};
  Options exact = options;
  exact.mode = mode;
  if (algorithm == Algorithm::kBottomUp) return BottomUpPhases(data, n, exact);
  return SearchPhases(data, n, 1, 0, exact);
}

// The (mode, algorithm) pairs tried for a trace of n values, in order of
// preference on equal sizes.
std::vector<Choice> Candidates(int64_t n, const Options& options) {
  const bool recurrences = options.recurrence_order > 0;
  if (options.mode != Mode::kAuto) {
    // A forced mode: the bottom-up recogniser only knows af.
    Algorithm algorithm = options.algorithm;
    if (options.mode != Mode::kAdjacentFixed || recurrences) algorithm = Algorithm::kSearch;
    if (algorithm == Algorithm::kAuto) algorithm = n <= kAutoSearchLimit ? Algorithm::kSearch : Algorithm::kBottomUp;
    return {{options.mode, algorithm}};
  }
  if (options.algorithm == Algorithm::kBottomUp) return {{Mode::kAuto, Algorithm::kBottomUp}};
  const bool search = options.algorithm == Algorithm::kSearch || n <= kAutoSearchLimit || recurrences;
  std::vector<Choice> candidates;
  if (search) candidates.push_back({Mode::kAdjacentFixed, Algorithm::kSearch});
  if (options.algorithm != Algorithm::kSearch && !recurrences) candidates.push_back({Mode::kAuto, Algorithm::kBottomUp});
  if (search && (n <= kAutoModesLimit || options.algorithm == Algorithm::kSearch)) {
    for (Mode mode : {Mode::kAdjacentVariable, Mode::kDistantFixed, Mode::kDistantVariable}) {
      candidates.push_back({mode, Algorithm::kSearch});
    }
  }
  return candidates;
}

}  // namespace

Model FindModel(std::span<const int64_t> trace, const Options& options, Choice* chosen) {
  Model model;
  model.length = static_cast<int64_t>(trace.size());
  const std::vector<uint64_t> data(trace.begin(), trace.end());
  const int64_t n = model.length;
  int64_t best_size = -1;
  Choice best;
  for (const Choice& candidate : Candidates(n, options)) {
    Model trial;
    trial.length = n;
    trial.phases = ExactPhases(data.data(), n, candidate.mode, candidate.algorithm, options);
    const int64_t size = ModelSize(trial);
    if (best_size < 0 || size < best_size) {
      best_size = size;
      best = candidate;
      model = std::move(trial);
    }
  }
  if (chosen) *chosen = best;
  if (options.tolerance > 0.0) {
    // The slices re-modelled after extension use the winning candidate.
    const ExactModeller modeller = [&](int64_t begin, int64_t end) {
      return ExactPhases(data.data() + begin, end - begin, best.mode, best.algorithm, options);
    };
    ApplyTolerance(data.data(), n, options.tolerance, options, modeller, model);
  }
  return model;
}

Model FindModel(TraceReader& reader, const Options& options, Choice* chosen) {
  std::vector<int64_t> head;
  reader.Read(head, static_cast<size_t>(kAutoSearchLimit) + 1);
  const bool bottom_up_only = options.tolerance == 0.0 && options.recurrence_order == 0 &&
                              (options.mode == Mode::kAuto || options.mode == Mode::kAdjacentFixed) &&
                              options.algorithm != Algorithm::kSearch;
  if (static_cast<int64_t>(head.size()) <= kAutoSearchLimit || !bottom_up_only) {
    while (reader.Read(head, size_t{1} << 20) > 0) {
    }
    return FindModel(head, options, chosen);
  }
  BottomUpBuilder builder(options);
  int64_t length = 0;
  std::vector<int64_t> chunk = std::move(head);
  do {
    length += static_cast<int64_t>(chunk.size());
    builder.Add(std::span<const uint64_t>(reinterpret_cast<const uint64_t*>(chunk.data()), chunk.size()));
    chunk.clear();
  } while (reader.Read(chunk, size_t{1} << 20) > 0);
  Model model;
  model.length = length;
  model.phases = builder.Finish();
  if (chosen) *chosen = {options.mode, Algorithm::kBottomUp};
  return model;
}

}  // namespace macroscope::loops
