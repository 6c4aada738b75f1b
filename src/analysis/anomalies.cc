#include "analysis/anomalies.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "analysis/container_scope.h"
#include "util/error.h"

namespace macroscope::analysis {

AnomalyDetector::AnomalyDetector(const AnomalyRequest& request, std::string_view option)
    : request_(request), option_(option), selection_(request.type, option) {}

void AnomalyDetector::Add(const Trace& trace, const EntityChunk& chunk) {
  const bool all = selection_.ForEachMatch(trace, chunk, [&](size_t i) {
    kept_.push_back({chunk.container, chunk.type_name, chunk.Value(i), chunk.start[i], chunk.End(i), chunk.kind});
  });
  if (!all && types_seen_.size() < 64 &&
      std::find(types_seen_.begin(), types_seen_.end(), chunk.type_name) == types_seen_.end())
    types_seen_.push_back(chunk.type_name);
}

AnomalyReport AnomalyDetector::Finish(const Trace& trace) const {
  const std::vector<bool> in_scope = ContainersInScope(trace, request_.containers, "--containers");
  auto scoped = [&](ContainerId c) { return c < in_scope.size() && in_scope[c]; };
  // The measured entities, each with its value in ticks.
  std::vector<std::pair<const Kept*, double>> values;
  if (request_.metric == AnomalyMetric::kDuration) {
    for (const Kept& k : kept_) {
      if (!scoped(k.container)) continue;
      if (k.kind == TypeKind::kEvent)
        throw UserError(option_ + " '" + request_.type + "': events have no duration (try --metric interarrival)");
      values.emplace_back(&k, k.end - k.start);
    }
  } else {
    // Per container, in start order (stable: the stream's order at equal starts).
    std::map<ContainerId, std::vector<const Kept*>> per_container;
    for (const Kept& k : kept_)
      if (scoped(k.container)) per_container[k.container].push_back(&k);
    for (auto& [container, list] : per_container) {
      std::stable_sort(list.begin(), list.end(), [](const Kept* a, const Kept* b) { return a->start < b->start; });
      for (size_t i = 1; i < list.size(); ++i) values.emplace_back(list[i], list[i]->start - list[i - 1]->start);
    }
  }
  if (values.empty()) {
    std::set<std::string> types;
    for (StringId t : types_seen_) types.insert(std::string(trace.Str(t)));
    std::string known;
    for (const std::string& t : types) known += (known.empty() ? "" : ", ") + t;
    throw UserError(option_ + " '" + request_.type + "': no " +
                    (request_.metric == AnomalyMetric::kDuration ? "entity" : "two entities in one container") +
                    " to measure" + (known.empty() ? "" : " (other types in the trace: " + known + ")"));
  }
  std::vector<double> measures;
  measures.reserve(values.size());
  for (const auto& v : values) measures.push_back(v.second);
  const AnomalyBand band = ThreeSigmaBand(measures);
  const double mean = band.mean, sigma = band.stddev, lower = band.lower, upper = band.upper;

  const TimeBase& base = trace.time_base();
  const double ns_per_tick = static_cast<double>(base.num) * 1e9 / static_cast<double>(base.den);
  AnomalyReport report;
  report.count = values.size();
  report.mean_ns = mean * ns_per_tick;
  report.stddev_ns = sigma * ns_per_tick;
  report.lower_ns = lower * ns_per_tick;
  report.upper_ns = upper * ns_per_tick;
  for (const auto& [k, value] : values) {
    if (!(value < lower || value > upper)) continue;
    Anomaly a;
    a.type = std::string(trace.Str(k->type));
    a.value = std::string(trace.Str(k->value));
    a.container =
        k->container < trace.containers().size() ? std::string(trace.Str(trace.container(k->container).name)) : "";
    a.start_ns = Nanoseconds(base, k->start);
    a.end_ns = Nanoseconds(base, k->end);
    a.start_seconds = base.Seconds(k->start);
    a.measure_ns = Nanoseconds(base, value);
    report.anomalies.push_back(std::move(a));
  }
  std::stable_sort(report.anomalies.begin(), report.anomalies.end(), [](const Anomaly& a, const Anomaly& b) {
    return std::tie(a.start_ns, a.container) < std::tie(b.start_ns, b.container);
  });
  return report;
}

AnomalyBand ThreeSigmaBand(const std::vector<double>& values) {
  AnomalyBand band;
  if (values.empty()) return band;
  // Two passes: the mean, then the squared deviations.
  const double n = static_cast<double>(values.size());
  double sum = 0;
  for (const double v : values) sum += v;
  band.mean = sum / n;
  double squares = 0;
  for (const double v : values) squares += (v - band.mean) * (v - band.mean);
  band.stddev = std::sqrt(squares / n);  // population: the values are all there are
  const double half = 3 * band.stddev / std::sqrt(n);
  band.lower = band.mean - half;
  band.upper = band.mean + half;
  return band;
}

Table AnomalyDetector::ToTable(const Trace& trace) const { return AnomaliesTable(Finish(trace)); }

Table AnomaliesTable(const AnomalyReport& report) {
  Table table({"type", "value", "container", "start_ns", "end_ns", "start", "measure_ns", "count", "mean_ns",
               "stddev_ns", "lower_ns", "upper_ns"});
  for (const Anomaly& a : report.anomalies) {
    table.Put(a.type);
    table.Put(a.value);
    table.Put(a.container);
    table.Put(a.start_ns);
    table.Put(a.end_ns);
    table.Put(a.start_seconds);
    table.Put(a.measure_ns);
    table.Put(report.count);
    for (double ns : {report.mean_ns, report.stddev_ns, report.lower_ns, report.upper_ns}) table.Put(ns);
  }
  return table;
}

}  // namespace macroscope::analysis
