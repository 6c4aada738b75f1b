#include "analysis/trace_model.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "analysis/model_accumulator.h"
#include "analysis/parallel.h"
#include "model/lod_window.h"
#include "util/error.h"

namespace macroscope::analysis {

namespace {

constexpr std::pair<std::string_view, Metric> kMetrics[] = {
    {"state-time", Metric::kStateTime},        {"state-count", Metric::kStateCount},
    {"event-count", Metric::kEventCount},      {"mean-state-duration", Metric::kMeanStateDuration},
    {"variable-mean", Metric::kVariableMean},  {"variable-min", Metric::kVariableMin},
    {"variable-max", Metric::kVariableMax},    {"link-count", Metric::kLinkCount},
};

// The bins nearest `slices` equal slices of [begin, end]: the level whose
// bins are between 1/sqrt(2) and sqrt(2) times the slices' width, from the
// bin holding `begin` to the one holding `end` (an `end` on a bin's edge
// does not take the bin it begins).
Grid BinsGrid(const Trace& trace, double begin, double end, int32_t slices) {
  const TimeBins bins(trace.start_time(), trace.end_time());
  const double width = (end - begin) / slices;
  int level = bins.LevelFor(width);
  if (level < TimeBins::kLevels && bins.BinWidth(level) > std::sqrt(2.0) * width) ++level;
  const uint64_t first = bins.Bin(begin, level);
  const uint64_t end_position = bins.Position(end);
  const uint64_t last = std::max(first, TimeBins::Bin(end_position > 0 ? end_position - 1 : 0, level));
  return Grid::OfBins(bins, level, first, static_cast<int32_t>(last - first + 1));
}

// Store `k`'s entities into `accumulator` from its summary, when it has one
// deep enough for the grid's bins. False (nothing added) otherwise.
bool AddFromSummary(const EntitySource& source, uint32_t k, const Grid& grid, Metric metric,
                    ModelAccumulator& accumulator) {
  if (!grid.bins || metric == Metric::kVariableMean) return false;
  if (grid.level > source.summary_finest(k)) return false;
  const uint64_t last = grid.first_bin + static_cast<uint64_t>(grid.slices) - 1;
  const std::shared_ptr<const LodSummary> summary = source.summary(k, grid.level, grid.first_bin, last);
  if (!summary) return false;
  const ContainerId container = source.trace().stores()[k].container;
  ForEachInBins(
      *summary, *grid.bins, grid.level, grid.first_bin, last,
      [&](const EntityCopy& e) { accumulator.Add(k, container, e); },
      [&](const LodCell& c) { accumulator.AddCell(k, container, static_cast<int32_t>(c.bin - grid.first_bin), c); });
  return true;
}

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
  const Grid grid = request.bins ? BinsGrid(trace, begin, end, request.slices) : Grid(begin, end, request.slices);
  // With bins, a time on a bin's edge may lie a rounding outside the
  // grid's range: chunks are read a bin wider each side.
  const double margin = grid.bins ? grid.width : 0;
  ModelAccumulator accumulator(request.metric, grid);
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
    ThrowIfCancelled(request.cancel);
    if (AddFromSummary(source, k, grid, request.metric, accumulator)) {
      accumulator.Close(k);
      return;
    }
    source.ForEachChunk(k, grid.begin - margin, grid.end + margin, [&](const EntityChunk& chunk) {
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

bool Additive(Metric m) {
  return m == Metric::kStateTime || m == Metric::kStateCount || m == Metric::kEventCount || m == Metric::kLinkCount;
}

int32_t CachedSlices(int32_t asked) { return asked >= 900 ? asked : asked * (900 / asked); }

MicroModel BuildModelAsCached(const EntitySource& source, const ModelRequest& request) {
  if (request.bins || !Additive(request.metric) || request.slices < 1) return BuildModel(source, request);
  ModelRequest cached = request;
  cached.slices = CachedSlices(request.slices);
  MicroModel model = BuildModel(source, cached);
  if (cached.slices == request.slices) return model;
  return model.Coarsen(cached.slices / request.slices);
}

MicroModel BuildModel(const Trace& trace, const ModelRequest& request) {
  return BuildModel(TraceSource(trace), request);
}

}  // namespace macroscope::analysis
