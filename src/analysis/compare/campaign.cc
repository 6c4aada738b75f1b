#include "analysis/compare/campaign.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <unordered_map>
#include <utility>

#include "analysis/compare/profile_diff.h"
#include "analysis/profile.h"
#include "analysis/trace_model.h"
#include "util/error.h"
#include "util/quantile.h"

namespace macroscope::analysis::compare {

namespace {

// The interpolated median of `values` (any order).
double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return Quantile(values, 0.5);
}

// Each run's Σ |x - m| / Σ m over coordinates given one at a time (a
// column: the coordinate's value in every run), m the coordinate's median
// over the runs; 0 when Σ m is 0.
class DistanceToMedian {
 public:
  explicit DistanceToMedian(size_t runs) : distances_(runs) {}
  void Add(const std::vector<double>& column) {
    const double m = Median(column);
    for (size_t r = 0; r < column.size(); ++r) distances_[r] += std::abs(column[r] - m);
    total_ += m;
  }
  std::vector<double> Finish() && {
    for (double& d : distances_) d = total_ > 0 ? d / total_ : 0;
    return std::move(distances_);
  }

 private:
  std::vector<double> distances_;
  double total_ = 0;
};

// The runs' models as series of ns: each run's state-time over `slices`
// slices of its own span, per (leaf, type) named in `keys` (a leaf by the
// first run's path of its matched container), keys added as met; only the
// series that are not all 0.
struct ModelCells {
  std::map<std::pair<std::string, std::string>, size_t> keys;  // (leaf, type) -> series number
  std::vector<std::unordered_map<size_t, std::vector<double>>> runs;  // per run: series number -> ns per slice
};

// `path` of a leaf of `run`'s model under the first run's name of its container.
std::string LeafKey(const std::string& path, const std::unordered_map<std::string, std::string>& to_first) {
  const std::string self = "/" + std::string(Hierarchy::kSelfName);
  const bool is_self = path.size() > self.size() && path.ends_with(self);
  const std::string container = is_self ? path.substr(0, path.size() - self.size()) : path;
  auto it = to_first.find(container);
  const std::string first = it == to_first.end() ? container : it->second;
  return is_self ? first + self : first;
}

std::vector<double> ModelDistances(const std::vector<Run>& runs, int32_t slices) {
  const Trace& first = runs.front().source.trace();
  ModelCells cells;
  cells.runs.resize(runs.size());
  for (size_t r = 0; r < runs.size(); ++r) {
    const Trace& trace = runs[r].source.trace();
    std::unordered_map<std::string, std::string> to_first;
    if (r > 0) {
      for (const auto& [ia, ib] : MatchContainers(first, trace).matched)
        to_first.emplace(trace.ContainerPath(ib), first.ContainerPath(ia));
    }
    ModelRequest request;
    request.metric = Metric::kStateTime;
    request.slices = slices;
    const MicroModel model = BuildModel(runs[r].source, request);
    const double ns_per_tick = trace.time_base().SecondsPerTick() * 1e9;
    for (int32_t leaf = 0; leaf < model.leaf_count(); ++leaf) {
      const std::string key = LeafKey(model.hierarchy().Path(model.leaves()[leaf]), to_first);
      for (int32_t type = 0; type < model.type_count(); ++type) {
        const std::span<const double> series = model.Series(leaf, type);
        if (series.empty()) continue;
        const size_t number = cells.keys.try_emplace({key, model.types()[type]}, cells.keys.size()).first->second;
        std::vector<double>& ns = cells.runs[r][number];
        ns.resize(series.size());
        for (size_t s = 0; s < series.size(); ++s) ns[s] += series[s] * ns_per_tick;
      }
    }
  }
  // Cell by cell (a run without a series has 0 there): no dense copy of
  // the models.
  DistanceToMedian distance(runs.size());
  std::vector<double> column(runs.size());
  for (size_t number = 0; number < cells.keys.size(); ++number) {
    for (int32_t slice = 0; slice < slices; ++slice) {
      for (size_t r = 0; r < runs.size(); ++r) {
        auto it = cells.runs[r].find(number);
        column[r] = it == cells.runs[r].end() ? 0 : it->second[static_cast<size_t>(slice)];
      }
      distance.Add(column);
    }
  }
  return std::move(distance).Finish();
}

// A figure of ns: an integer when whole (as the interpolated quantiles of
// whole ns mostly are), else the double.
void PutNanoseconds(Table& table, double ns) {
  if (std::floor(ns) == ns && std::abs(ns) < 9e15) {
    table.Put(static_cast<int64_t>(ns));
  } else {
    table.Put(ns);
  }
}

void PutDistribution(Table& table, const FunctionValues& values) {
  std::vector<double> sorted(values.inclusive_ns.begin(), values.inclusive_ns.end());
  std::sort(sorted.begin(), sorted.end());
  table.Put(values.function);
  table.Put(static_cast<int64_t>(values.runs));
  table.Put(static_cast<int64_t>(sorted.front()));
  for (const double p : {0.25, 0.5, 0.75}) PutNanoseconds(table, Quantile(sorted, p));
  table.Put(static_cast<int64_t>(sorted.back()));
  int64_t sum = 0;
  for (const int64_t v : values.inclusive_ns) sum += v;
  PutNanoseconds(table, static_cast<double>(sum) / static_cast<double>(values.inclusive_ns.size()));
}

std::string RunList(const std::vector<Run>& runs, const std::vector<size_t>& indices) {
  std::string out;
  for (const size_t r : indices) out += (out.empty() ? "" : ", ") + std::to_string(r + 1) + " (" + runs[r].name + ")";
  return out;
}

}  // namespace

Campaign AnalyzeCampaign(const std::vector<Run>& runs, const CampaignRequest& request) {
  if (runs.size() < 3) {
    throw UserError("a campaign needs at least 3 runs (" + std::to_string(runs.size()) +
                    " given): with fewer, no run can be told apart from the others");
  }
  if (request.slices < 1) throw UserError("--slices: at least 1 slice");
  for (size_t r = 1; r < runs.size(); ++r)
    CheckComparable(runs[0].source.trace(), runs[0].name, runs[r].source.trace(), runs[r].name);
  const size_t n = runs.size();

  // The profiles: per function (by name), inclusive and exclusive ns per run.
  struct Sums {
    size_t runs = 0;  // that have it
    std::vector<int64_t> inclusive, exclusive;
  };
  std::map<std::string, Sums> by_function;
  std::vector<Profile> profiles;
  for (size_t r = 0; r < n; ++r) {
    const Trace& trace = runs[r].source.trace();
    std::map<std::string, FunctionSums> sums;
    profiles.push_back(ComputeProfile(runs[r].source, ProfileRequest{}));
    for (const ContainerProfile& c : profiles.back().containers) {
      for (const auto& [function, f] : c.functions) {
        FunctionSums& s = sums[std::string(trace.Str(function))];
        s.inclusive.Merge(f.inclusive);
        s.exclusive.Merge(f.exclusive);
      }
    }
    for (const auto& [name, s] : sums) {
      Sums& f = by_function[name];
      ++f.runs;
      f.inclusive.resize(n);
      f.exclusive.resize(n);
      f.inclusive[r] = DurationNanoseconds(trace.time_base(), s.inclusive);
      f.exclusive[r] = DurationNanoseconds(trace.time_base(), s.exclusive);
    }
  }

  Campaign out;
  for (const auto& [name, f] : by_function) out.values.push_back({name, f.runs, f.inclusive});
  std::vector<double> medians;
  for (const FunctionValues& v : out.values) medians.push_back(Median({v.inclusive_ns.begin(), v.inclusive_ns.end()}));
  std::vector<size_t> order(out.values.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return medians[x] > medians[y]; });
  std::vector<FunctionValues> sorted_values;
  for (const size_t i : order) sorted_values.push_back(std::move(out.values[i]));
  out.values = std::move(sorted_values);
  out.functions = Table({"function", "runs", "min_ns", "q1_ns", "median_ns", "q3_ns", "max_ns", "mean_ns"});
  for (const FunctionValues& v : out.values) PutDistribution(out.functions, v);

  // Distances: exclusive time per function, and the models.
  DistanceToMedian profile_distance(n);
  std::vector<int64_t> exclusive_totals(n);
  std::vector<double> column(n);
  for (const auto& [name, sums] : by_function) {
    for (size_t r = 0; r < n; ++r) {
      column[r] = static_cast<double>(sums.exclusive[r]);
      exclusive_totals[r] += sums.exclusive[r];
    }
    profile_distance.Add(column);
  }
  out.profile_distances = std::move(profile_distance).Finish();
  out.model_distances = ModelDistances(runs, request.slices);
  out.profile_band = ThreeSigmaBand(out.profile_distances);
  out.model_band = ThreeSigmaBand(out.model_distances);

  std::vector<size_t> by_distance(n);
  std::iota(by_distance.begin(), by_distance.end(), 0);
  std::stable_sort(by_distance.begin(), by_distance.end(),
                   [&](size_t x, size_t y) { return out.profile_distances[x] < out.profile_distances[y]; });
  out.median_run = by_distance[(n - 1) / 2];

  out.runs = Table({"run", "trace", "exclusive_ns", "profile_distance", "model_distance", "flagged"});
  for (size_t r = 0; r < n; ++r) {
    const bool profile = out.profile_distances[r] > out.profile_band.upper;
    const bool model = out.model_distances[r] > out.model_band.upper;
    if (profile || model) out.flagged.push_back(r);
    out.runs.Put(static_cast<int64_t>(r + 1));
    out.runs.Put(runs[r].name);
    out.runs.Put(exclusive_totals[r]);
    out.runs.Put(out.profile_distances[r]);
    out.runs.Put(out.model_distances[r]);
    out.runs.Put(std::string(profile ? "profile" : "") + (profile && model ? " " : "") + (model ? "model" : ""));
  }

  const RunProfile median{runs[out.median_run].source.trace(), profiles[out.median_run]};
  for (const size_t r : out.flagged) {
    Table diff = FunctionDiffTable(median, {runs[r].source.trace(), profiles[r]});
    diff.cells.resize(std::min(diff.rows(), request.diff_rows) * diff.columns.size());
    out.diffs.push_back({r, std::move(diff)});
  }

  out.summary = std::to_string(n) + " runs, " + std::to_string(out.values.size()) + " functions; median run " +
                RunList(runs, {out.median_run}) + "; " +
                (out.flagged.empty() ? std::string("no run flagged") : "flagged: " + RunList(runs, out.flagged));
  // A value lies at most √(n - 1) σ from the mean: above mean + 3σ/√n only
  // when n (n - 1) > 9.
  if (n < 4) out.summary += " (with 3 runs none can lie above the band: it takes 4)";
  return out;
}

std::vector<size_t> WidestSpread(const Campaign& campaign, size_t count) {
  std::vector<std::pair<int64_t, size_t>> spreads;
  for (size_t i = 0; i < campaign.values.size(); ++i) {
    const std::vector<int64_t>& v = campaign.values[i].inclusive_ns;
    spreads.emplace_back(*std::max_element(v.begin(), v.end()) - *std::min_element(v.begin(), v.end()), i);
  }
  std::stable_sort(spreads.begin(), spreads.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  std::vector<size_t> out;
  for (size_t k = 0; k < spreads.size() && k < count; ++k) out.push_back(spreads[k].second);
  return out;
}

}  // namespace macroscope::analysis::compare
