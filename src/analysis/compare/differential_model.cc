#include "analysis/compare/differential_model.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "analysis/compare/run_matching.h"
#include "util/error.h"

namespace macroscope::analysis::compare {

namespace {

// Factor that turns a model value of `base` into the aligned model's: ns
// for the time metrics, unchanged for counts and variables.
double ValueScale(const AlignedModels& runs, const TimeBase& base) {
  // num * 1e9 / den: exactly 1 for a nanosecond clock.
  return runs.TimeValues() ? static_cast<double>(base.num) * 1e9 / static_cast<double>(base.den) : 1.0;
}

const TimeBase kNanoseconds{.num = 1, .den = 1000000000, .whole_ticks = true, .origin = 0, .epoch_ns = std::nullopt};

}  // namespace

std::vector<LeafPair> MatchLeavesByPath(const Hierarchy& a, const Hierarchy& b) {
  auto paths = [](const Hierarchy& tree) {
    std::vector<std::string> out;
    for (NodeId leaf : tree.Leaves()) out.push_back(tree.Path(leaf));
    return out;
  };
  const std::vector<std::string> a_paths = paths(a), b_paths = paths(b);
  std::vector<LeafPair> pairs;
  for (const auto& [i, j] : MatchPaths(a_paths, b_paths)) pairs.push_back({a_paths[i], b_paths[j]});
  return pairs;
}

ModelRequest AlignedRequest(ModelRequest request, const TimeBase& base, double origin, int64_t span_ns) {
  if (span_ns <= 0) throw UserError("the aligned span of the two runs is empty");
  request.start = origin;
  request.end = origin + DurationTicks(base, span_ns);
  request.bins = false;  // equal slices of the span, exactly
  return request;
}

AlignedModels AlignModels(const MicroModel& a, const MicroModel& b, Metric metric, int64_t span_ns,
                          const std::vector<LeafPair>& pairs) {
  if (a.slices() != b.slices()) throw UserError("the two runs' models have different slices");
  if (!a.range() || !b.range()) throw UserError("a run's model has no time range");
  if (pairs.empty()) throw UserError("the two runs have no container in common");
  Hierarchy tree;
  std::vector<std::pair<NodeId, NodeId>> a_leaves, b_leaves;  // (source leaf, aligned leaf)
  for (const LeafPair& pair : pairs) {
    const std::optional<NodeId> from_a = a.hierarchy().FindPath(pair.a), from_b = b.hierarchy().FindPath(pair.b);
    if (!from_a || !from_b || !a.hierarchy().IsLeaf(*from_a) || !b.hierarchy().IsLeaf(*from_b)) {
      throw UserError("container pair '" + pair.a + "', '" + pair.b + "': not a leaf of each run's model");
    }
    if (tree.FindPath(pair.a)) throw UserError("container '" + pair.a + "' is paired twice");
    const NodeId leaf = tree.AddPath(pair.a);
    a_leaves.emplace_back(*from_a, leaf);
    b_leaves.emplace_back(*from_b, leaf);
  }
  std::vector<std::string> types = a.types();
  for (const std::string& type : b.types())
    if (!a.TypeIndex(type)) types.push_back(type);

  AlignedModels out{MicroModel(tree, types, a.slices()), MicroModel(tree, types, a.slices()), span_ns, metric};
  auto fill = [&](const MicroModel& from, const std::vector<std::pair<NodeId, NodeId>>& leaves, MicroModel& to) {
    const double scale = ValueScale(out, from.range()->base);
    for (const auto& [source, target] : leaves) {
      const int32_t index = *from.LeafIndex(source);
      for (int32_t type = 0; type < from.type_count(); ++type) {
        const std::span<const double> series = from.Series(index, type);
        if (series.empty()) continue;
        std::vector<double> values(series.begin(), series.end());
        if (scale != 1.0)
          for (double& v : values) v *= scale;
        to.AddSeries(target, *to.TypeIndex(from.types()[type]), std::move(values));
      }
    }
    to.set_range({0, static_cast<double>(span_ns), kNanoseconds});
  };
  fill(a, a_leaves, out.a);
  fill(b, b_leaves, out.b);
  return out;
}

std::string IncreaseType(std::string_view type) { return std::string(type) + " +"; }
std::string DecreaseType(std::string_view type) { return std::string(type) + " -"; }
std::string ChangedType(std::string_view difference_type) {
  return std::string(difference_type.substr(0, difference_type.size() - std::min<size_t>(2, difference_type.size())));
}

MicroModel DifferenceModel(const AlignedModels& runs) {
  const MicroModel& a = runs.a;
  const MicroModel& b = runs.b;
  std::vector<std::string> types;
  for (const std::string& type : a.types()) {
    types.push_back(IncreaseType(type));
    types.push_back(DecreaseType(type));
  }
  MicroModel difference(a.hierarchy(), types, a.slices());
  const int32_t slices = a.slices();
  for (int32_t leaf = 0; leaf < a.leaf_count(); ++leaf) {
    for (int32_t type = 0; type < a.type_count(); ++type) {
      const std::span<const double> x = a.Series(leaf, type), y = b.Series(leaf, type);
      if (x.empty() && y.empty()) continue;
      std::vector<double> up(slices, 0.0), down(slices, 0.0);
      bool any_up = false, any_down = false;
      for (int32_t t = 0; t < slices; ++t) {
        const double d = (y.empty() ? 0.0 : y[t]) - (x.empty() ? 0.0 : x[t]);
        if (d > 0) up[t] = d, any_up = true;
        if (d < 0) down[t] = -d, any_down = true;
      }
      const NodeId node = a.leaves()[leaf];
      if (any_up) difference.AddSeries(node, 2 * type, std::move(up));
      if (any_down) difference.AddSeries(node, 2 * type + 1, std::move(down));
    }
  }
  if (a.range()) difference.set_range(*a.range());
  return difference;
}

}  // namespace macroscope::analysis::compare
