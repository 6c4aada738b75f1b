// `macroscope anomalies TRACE --type T`: entities whose duration or
// inter-arrival time lies outside mean ± 3σ/√n (docs/anomalies.md). The
// detection is analysis::AnomalyDetector's, the workflow module's too.
#include <memory>

#include "analysis/anomalies.h"
#include "cli/commands.h"
#include "cli/table_output.h"
#include "cli/entity_streaming.h"
#include "cli/trace_loading.h"

namespace macroscope::cli {

void RegisterAnomaliesCommand(CLI::App& app) {
  struct Args {
    std::vector<std::string> files;
    formats::ReadOptions read;
    analysis::AnomalyRequest request;
    std::string metric = "duration";
    analysis::TableFormat format = analysis::TableFormat::kText;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("anomalies", "Entities whose duration or inter-arrival time lies outside "
                                                  "mean ± 3σ/√n of their type");
  cmd->add_option("files", args->files, "Trace files, read in order as one trace")->required();
  cmd->add_option("--type", args->request.type,
                  "The entities: TYPE or TYPE=VALUE (an entity type's name; VALUE may end in * for a prefix)")
      ->required();
  cmd->add_option("--metric", args->metric, "duration (states; default) or interarrival (time since the previous "
                                            "start in the same container)")
      ->check(CLI::IsMember({"duration", "interarrival"}));
  cmd->add_option("--containers", args->request.containers, "Only these containers and their descendants");
  AddTableFormatOption(*cmd, args->format);
  AddReadOptions(*cmd, args->read);
  cmd->callback([args] {
    analysis::AnomalyRequest request = args->request;
    request.metric =
        args->metric == "interarrival" ? analysis::AnomalyMetric::kInterarrival : analysis::AnomalyMetric::kDuration;
    analysis::AnomalyDetector detector(request, "--type");
    Trace trace;
    StreamEntities(args->files, args->read, trace,
                   [&](const Trace& t, const EntityChunk& chunk) { detector.Add(t, chunk); });
    PrintTable(detector.ToTable(trace), args->format);
  });
}

}  // namespace macroscope::cli
