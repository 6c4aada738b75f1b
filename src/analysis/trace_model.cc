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

MicroModel BuildModel(const EntitySource& source, const ModelRequest& request) {
  const Trace& trace = source.trace();
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
  const size_t stores = trace.stores().size();
  accumulator.Reserve(stores);
  const int threads = request.threads == 0 ? DefaultThreadCount() : request.threads;
  ParallelFor(static_cast<int64_t>(stores), std::max(threads, 1), [&](int64_t index, int) {
    const auto k = static_cast<uint32_t>(index);
    // Stores of another kind than the metric's add nothing.
    if (trace.stores()[k].kind != MetricKind(request.metric)) {
      accumulator.Close(k);
      return;
    }
    source.ForEachChunk(k, begin, end, [&](const EntityChunk& chunk) {
      // In parts, so that a cancellation is seen within a few milliseconds
      // however large the chunk.
      constexpr size_t kPart = size_t{1} << 16;
      for (size_t at = 0; at < chunk.size(); at += kPart) {
        ThrowIfCancelled(request.cancel);
        accumulator.Add(k, chunk.Sub(at, std::min(kPart, chunk.size() - at)));
      }
    });
    accumulator.Close(k);
  });
  return accumulator.Model(trace, request);
}

MicroModel BuildModel(const Trace& trace, const ModelRequest& request) {
  return BuildModel(TraceSource(trace), request);
}

}  // namespace macroscope::analysis
