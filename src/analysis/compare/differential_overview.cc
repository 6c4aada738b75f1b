#include "analysis/compare/differential_overview.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "analysis/make_aggregation.h"
#include "analysis/part_values.h"
#include "util/error.h"

namespace macroscope::analysis::compare {

DifferentialOverviewResult DifferentialOverview(AlignedModels runs, const DifferentialOptions& options) {
  if (options.p && !(*options.p >= 0 && *options.p <= 1)) throw UserError("--p must be in [0, 1]");
  if (options.types_per_part < 1) throw UserError("the types shown per part must be at least 1");
  MicroModel difference = DifferenceModel(runs);
  DifferentialOverviewResult out{std::move(runs), std::move(difference), nullptr, {}, 0, {}, 0, 0, {}};
  out.aggregation =
      MakeAggregation(out.difference, options.spatiotemporal, options.normalize, options.threads, options.cancel);
  out.p_list = SignificantPsExact(*out.aggregation, options.cancel);
  out.p = options.p ? *options.p : KneeP(out.p_list, out.aggregation->FullAggregate());
  out.partition = out.aggregation->Best(out.p, options.cancel);
  const Quality full = out.aggregation->FullAggregate();
  out.gain_share = full.gain > 0 ? out.partition.quality.gain / full.gain : 0;
  out.loss_share = full.loss > 0 ? out.partition.quality.loss / full.loss : 0;
  out.parts = DifferencePartsTable(out, options.types_per_part);
  return out;
}

namespace {

// AlignedRequest over `source`'s trace: a window that starts or ends within
// a nanosecond's rounding outside the trace's span (a span in whole ns of a
// clock in seconds) starts or ends with the trace.
ModelRequest WindowOf(const EntitySource& source, const ModelRequest& request, double origin, int64_t span_ns) {
  const Trace& trace = source.trace();
  ModelRequest window = AlignedRequest(request, trace.time_base(), origin, span_ns);
  const double ns = DurationTicks(trace.time_base(), 1);
  if (*window.start < trace.start_time() && trace.start_time() - *window.start <= ns) window.start = trace.start_time();
  if (*window.end > trace.end_time() && *window.end - trace.end_time() <= ns) window.end = trace.end_time();
  return window;
}

}  // namespace

DifferentialOverviewResult DifferentialOverview(const EntitySource& a, const EntitySource& b, double a_origin,
                                                double b_origin, int64_t span_ns, const ModelRequest& request,
                                                const DifferentialOptions& options, std::vector<LeafPair> pairs) {
  const MicroModel model_a = BuildModel(a, WindowOf(a, request, a_origin, span_ns));
  const MicroModel model_b = BuildModel(b, WindowOf(b, request, b_origin, span_ns));
  if (pairs.empty()) pairs = MatchLeavesByPath(model_a.hierarchy(), model_b.hierarchy());
  return DifferentialOverview(AlignModels(model_a, model_b, request.metric, span_ns, pairs), options);
}

Table DifferencePartsTable() {
  return Table({"rank", "part", "start", "end", "node", "difference_rate", "a_rate", "b_rate", "type", "a_share",
                "b_share", "share_change", "p", "gain", "loss"});
}

Table DifferencePartsTable(const DifferentialOverviewResult& overview, int types_per_part) {
  const AlignedModels& runs = overview.runs;
  const MicroModel& difference = overview.difference;
  const std::vector<Part>& parts = overview.partition.parts;
  const std::vector<LeafSpan> spans = NodeLeafSpans(difference.hierarchy());
  const std::vector<PartValues> sums = PartSums(difference, overview.partition, spans);
  // Values in the metric's unit (seconds for durations, held in ns).
  const double unit = runs.TimeValues() ? 1e-9 : 1.0;
  const double slice_seconds = static_cast<double>(runs.span_ns) * 1e-9 / difference.slices();

  struct Row {
    size_t part;
    double rate;
  };
  std::vector<Row> order;
  for (size_t i = 0; i < parts.size(); ++i) {
    const double seconds = (parts[i].last_slice - parts[i].first_slice + 1) * slice_seconds;
    order.push_back({i, sums[i].total * unit / seconds});
  }
  std::stable_sort(order.begin(), order.end(), [](const Row& x, const Row& y) { return x.rate > y.rate; });

  Table table = DifferencePartsTable();
  for (size_t rank = 0; rank < order.size(); ++rank) {
    const Part& part = parts[order[rank].part];
    const double seconds = (part.last_slice - part.first_slice + 1) * slice_seconds;
    const PartValues a = SumValues(runs.a, spans[part.node], part.first_slice, part.last_slice);
    const PartValues b = SumValues(runs.b, spans[part.node], part.first_slice, part.last_slice);
    auto share = [](const PartValues& v, int32_t type) { return v.total > 0 ? v.per_type[type] / v.total : 0.0; };
    std::vector<int32_t> types(runs.a.type_count());
    std::iota(types.begin(), types.end(), 0);
    std::stable_sort(types.begin(), types.end(), [&](int32_t x, int32_t y) {
      return std::fabs(share(b, x) - share(a, x)) > std::fabs(share(b, y) - share(a, y));
    });
    types.resize(std::min<size_t>(types.size(), static_cast<size_t>(types_per_part)));
    // A type that neither run has in the part says nothing (its change is
    // 0); the part keeps its first row all the same.
    while (types.size() > 1 && share(a, types.back()) == 0 && share(b, types.back()) == 0) types.pop_back();
    for (int32_t type : types) {
      table.Put(static_cast<int64_t>(rank + 1));
      table.Put(static_cast<int64_t>(order[rank].part));
      table.Put(part.first_slice * slice_seconds);
      table.Put((part.last_slice + 1) * slice_seconds);
      table.Put(part.node == Hierarchy::kRoot ? std::string() : difference.hierarchy().Path(part.node));
      table.Put(order[rank].rate);
      table.Put(a.total * unit / seconds);
      table.Put(b.total * unit / seconds);
      table.Put(runs.a.types()[type]);
      table.Put(share(a, type));
      table.Put(share(b, type));
      table.Put(share(b, type) - share(a, type));
      table.Put(overview.p);
      table.Put(overview.gain_share);
      table.Put(overview.loss_share);
    }
  }
  return table;
}

}  // namespace macroscope::analysis::compare
