#include "analysis/trace_model.h"

#include <algorithm>
#include <string>

#include "analysis/model_accumulator.h"
#include "analysis/parallel.h"
#include "util/error.h"

namespace macroscope::analysis {

namespace {

constexpr std::pair<std::string_view, Metric> kMetrics[] = {
    {"state-time", Metric::kStateTime},        {"state-count", Metric::kStateCount},
    {"event-count", Metric::kEventCount},      {"mean-state-duration", Metric::kMeanStateDuration},
    {"variable-mean", Metric::kVariableMean},  {"variable-min", Metric::kVariableMin},
    {"variable-max", Metric::kVariableMax},    {"link-count", Metric::kLinkCount},
};

}  // namespace

std::optional<Metric> MetricFromName(std::string_view name) {
  for (auto& [n, m] : kMetrics)
    if (n == name) return m;
  return std::nullopt;
}

TypeKind MetricKind(Metric m) {
  switch (m) {
    case Metric::kStateTime:
    case Metric::kStateCount:
    case Metric::kMeanStateDuration: return TypeKind::kState;
    case Metric::kEventCount: return TypeKind::kEvent;
    case Metric::kVariableMean:
    case Metric::kVariableMin:
    case Metric::kVariableMax: return TypeKind::kVariable;
    case Metric::kLinkCount: return TypeKind::kLink;
  }
  return TypeKind::kState;
}

std::vector<std::string> MetricNames() {
  std::vector<std::string> names;
  for (auto& [n, m] : kMetrics) names.emplace_back(n);
  return names;
}

MicroModel BuildModel(const Trace& trace, const ModelRequest& request) {
  if (request.slices < 1) throw UserError("--slices must be at least 1");
  double begin = request.start.value_or(trace.start_time());
  double end = request.end.value_or(trace.end_time());
  if (!(begin < end))
    throw UserError("empty time range [" + std::to_string(begin) + ", " + std::to_string(end) + "]");
  if (begin < trace.start_time() || end > trace.end_time())
    throw UserError("time range [" + std::to_string(begin) + ", " + std::to_string(end) +
                    "] is outside the trace's span [" + std::to_string(trace.start_time()) + ", " +
                    std::to_string(trace.end_time()) + "]");
  // Store by store over threads: each store feeds its own series, so the
  // model is the same whatever their number.
  ModelAccumulator accumulator(request.metric, Grid(begin, end, request.slices));
  const std::vector<EntityStore>& stores = trace.stores();
  accumulator.Reserve(stores.size());
  const int threads = request.threads == 0 ? DefaultThreadCount() : request.threads;
  ParallelFor(static_cast<int64_t>(stores.size()), std::max(threads, 1), [&](int64_t index, int) {
    // In chunks, so that a cancellation is seen within a few milliseconds
    // however large the store.
    constexpr size_t kChunk = size_t{1} << 16;
    const EntityStore& store = stores[index];
    for (size_t begin = 0; begin < store.size(); begin += kChunk) {
      ThrowIfCancelled(request.cancel);
      accumulator.Add(static_cast<uint32_t>(index),
                      EntityChunk::Of(store, begin, std::min(store.size(), begin + kChunk)));
    }
    accumulator.Close(static_cast<uint32_t>(index));
  });
  return accumulator.Model(trace, request);
}

}  // namespace macroscope::analysis
