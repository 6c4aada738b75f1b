// anomalies: the entities whose duration or inter-arrival time lies outside
// mean ± 3σ/√n: analysis::AnomalyDetector, as `macroscope anomalies` uses
// it (docs/anomalies.md).
#include "analysis/anomalies.h"
#include "pipeline/modules/entity_chunks.h"
#include "pipeline/modules/modules.h"
#include "pipeline/modules/parameter_checks.h"
#include "pipeline/modules/row_writing.h"
#include "util/error.h"

namespace macroscope::pipeline {

namespace {

class Anomalies : public Module {
 public:
  Anomalies(const std::string& name, const analysis::AnomalyRequest& request)
      : Module(name), detector_(request, "module '" + name + "': parameter 'type'") {
    in_ = &AddInput<EntityBatch>("in");
    out_ = &AddOutput<RowBatch>("rows");
  }

  void Run() override {
    const std::shared_ptr<const Trace> trace = ForEachChunk(
        *in_, "anomalies", [&](const Trace& t, const EntityChunk& chunk) { detector_.Add(t, chunk); });
    PublishTable(*out_, trace ? detector_.ToTable(*trace) : analysis::AnomaliesTable({}));
  }

 private:
  analysis::AnomalyDetector detector_;
  Input<EntityBatch>* in_;
  Output<RowBatch>* out_;
};

}  // namespace

ModuleInfo AnomaliesModule() {
  return {
      .kind = "anomalies",
      .description = "Entities whose duration or inter-arrival time lies outside mean ± 3σ/√n (σ: population "
                     "standard deviation, n: number of values)",
      .params = {{"type", "TYPE or TYPE=VALUE: the entities measured (VALUE may end in * for a prefix)", true},
                 {"metric", "duration (default) or interarrival (time since the previous start in the container)"},
                 {"containers", "only these containers (names or aliases) and their descendants (list)"}},
      .inputs = {{"in", "entities", "a trace's entities"}},
      .outputs = {{"rows", "rows",
                   "one row per anomaly: type, value, container, start_ns, end_ns, start (s), measure_ns, then "
                   "count, mean_ns, stddev_ns, lower_ns, upper_ns of all the values"}},
      .make = [](const std::string& name, const Params& params) -> std::unique_ptr<Module> {
        params.Check(AnomaliesModule());
        analysis::AnomalyRequest request;
        request.type = params.String("type");
        request.metric = Choice(params, "metric", {"duration", "interarrival"}, "duration") == 0
                             ? analysis::AnomalyMetric::kDuration
                             : analysis::AnomalyMetric::kInterarrival;
        request.containers = params.Strings("containers", std::vector<std::string>{});
        return std::make_unique<Anomalies>(name, request);
      },
  };
}

}  // namespace macroscope::pipeline
