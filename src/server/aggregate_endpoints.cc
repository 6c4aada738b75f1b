#include "server/aggregate_endpoints.h"

#include <optional>
#include <vector>

#include "analysis/aggregation_json.h"
#include "analysis/make_aggregation.h"
#include "analysis/model_filters.h"
#include "analysis/trace_model.h"
#include "server/api_error.h"
#include "server/query_params.h"

namespace macroscope::server {

namespace {

inline constexpr int64_t kMaxSlices = 10000;

struct AggregateParams {
  analysis::ModelRequest model;
  std::string metric;
  bool spatiotemporal = false;
  bool normalize = false;
  std::vector<std::string> types, containers;
  double p = 0.5;

  // Everything that changes the model or its qualities (not p).
  std::string CacheKey(size_t trace_id) const {
    nlohmann::json key = {trace_id,   metric,         model.slices, model.bins, spatiotemporal, normalize,
                          types,      containers,     model.start ? nlohmann::json(*model.start) : nullptr,
                          model.end ? nlohmann::json(*model.end) : nullptr};
    return key.dump();
  }
};

AggregateParams ReadParams(const Trace& trace, const httplib::Request& request) {
  AggregateParams params;
  params.metric = Text(request, "metric").value_or("state-time");
  auto metric = analysis::MetricFromName(params.metric);
  if (!metric) {
    std::string known;
    for (const auto& name : analysis::MetricNames()) known += (known.empty() ? "" : ", ") + name;
    BadRequest("unknown metric '" + params.metric + "' (known: " + known + ")");
  }
  params.model.metric = *metric;
  params.model.slices = static_cast<int32_t>(Integer(request, "slices", 1, kMaxSlices).value_or(100));
  const std::string mode = Text(request, "mode").value_or("temporal");
  if (mode != "temporal" && mode != "spatiotemporal") BadRequest("mode must be temporal or spatiotemporal");
  params.spatiotemporal = mode == "spatiotemporal";
  params.p = Number(request, "p").value_or(0.5);
  if (!(params.p >= 0 && params.p <= 1)) BadRequest("p must be in [0, 1]");
  auto start = Number(request, "start");
  auto end = Number(request, "end");
  // One bound alone keeps the trace's other one, as a window would.
  if (start || end) {
    params.model.start = start.value_or(trace.start_time());
    params.model.end = end.value_or(trace.end_time());
    if (!(*params.model.start < *params.model.end)) BadRequest("start must be before end");
  }
  params.types = List(request, "types");
  params.containers = List(request, "containers");
  params.normalize = Flag(request, "normalize");
  params.model.bins = Flag(request, "bins");
  return params;
}

}  // namespace

std::string AggregateAnswer(const EntitySource& source, size_t trace_id, const httplib::Request& request,
                            AggregationCache& cache, int threads, bool with_p,
                            const analysis::Cancellation* cancel) {
  AggregateParams params = ReadParams(source.trace(), request);
  params.model.threads = threads;
  params.model.cancel = cancel;
  auto built = cache.Get(
      params.CacheKey(trace_id),
      [&] {
        analysis::MicroModel model =
            analysis::FilterModel(analysis::BuildModel(source, params.model), params.types, params.containers);
        auto aggregation =
            analysis::MakeAggregation(model, params.spatiotemporal, params.normalize, threads, cancel);
        return std::make_shared<const BuiltAggregation>(std::move(model), std::move(aggregation));
      },
      cancel);
  const auto dump = [](const nlohmann::ordered_json& json) {
    return json.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  };
  if (!with_p) return dump(analysis::PListJson(built->PList(cancel)));

  const analysis::Partition partition = built->aggregation().Best(params.p, cancel);
  nlohmann::ordered_json out =
      analysis::PartitionJson(built->model(), built->aggregation(), partition, params.p, params.spatiotemporal);
  const auto sums = analysis::PartSums(built->model(), partition, built->spans());
  auto& parts = out["parts"];
  for (size_t i = 0; i < partition.parts.size(); ++i) {
    parts[i]["node_id"] = partition.parts[i].node;
    parts[i]["values"] = sums[i].per_type;
  }
  out["types"] = built->model().types();
  out["nodes"] = built->nodes();
  return dump(out);
}

}  // namespace macroscope::server
