// The differential microscopic model of two runs A and B (docs/compare.md,
// "Differential overview"): their models over aligned time — the same
// number of slices over [origin, origin + span] of each run, the span in
// nanoseconds, so that slice i lasts the same in both whatever their clocks'
// ticks — over the same leaves (the matched containers) and the same types
// (the union), and the model of their difference.
//
// The difference keeps values >= 0, so that the aggregation (gain, loss,
// the p list) takes it unchanged: each type X gives two types, "X +"
// holding B − A where B exceeds A and "X -" holding A − B where A
// exceeds B. A cell's two values are never both > 0, and their sum is
// |B − A|: a part's total is the amount by which the runs differ there.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/micro_model.h"
#include "analysis/trace_model.h"
#include "model/time_base.h"

namespace macroscope::analysis::compare {

// A leaf of A and the leaf of B that stands for the same resource (their
// paths).
struct LeafPair {
  std::string a, b;
};

// The leaves of two hierarchies paired as the runs' containers are
// (run_matching.h, MatchPaths): the same path, else the same path without
// its ids — processes and threads whose names carry ids that change from
// run to run (a pid, a thread's address). Leaves left over are in no pair.
std::vector<LeafPair> MatchLeavesByPath(const Hierarchy& a, const Hierarchy& b);

// `request` over [origin, origin + span_ns] of a run with this time base.
ModelRequest AlignedRequest(ModelRequest request, const TimeBase& base, double origin, int64_t span_ns);

// The models of A and B over their aligned windows, as AlignModels leaves
// them: the same leaves (A's paths), types, slices and range.
struct AlignedModels {
  MicroModel a;
  MicroModel b;
  int64_t span_ns = 0;
  Metric metric = Metric::kStateTime;
  // Whether values are durations (in ns): the metric's unit is then seconds.
  bool TimeValues() const { return metric == Metric::kStateTime || metric == Metric::kMeanStateDuration; }
};

// `a` and `b` (built by AlignedRequest over the same span and slices)
// restricted to the `pairs` of leaves, under A's paths, with the union of
// their types (A's order, then B's others), values of the time metrics
// (state time, mean state duration) in ns, and the range [0, span_ns] in a
// nanosecond time base: the aligned time. Throws UserError when the slices
// differ, a model has no range, or no pair is given.
AlignedModels AlignModels(const MicroModel& a, const MicroModel& b, Metric metric, int64_t span_ns,
                          const std::vector<LeafPair>& pairs);

// "X +" and "X -": the difference model's types of X.
std::string IncreaseType(std::string_view type);
std::string DecreaseType(std::string_view type);
// X, of a difference model's type "X +" or "X -".
std::string ChangedType(std::string_view difference_type);

// The difference of two aligned models: types IncreaseType(X) and
// DecreaseType(X) for each type X of theirs, in that order; the same
// leaves, slices and range.
MicroModel DifferenceModel(const AlignedModels& runs);

}  // namespace macroscope::analysis::compare
