// `macroscope anomalies TRACE --type T`: entities whose duration or
// inter-arrival time lies outside mean ± 3σ/√n (docs/anomalies.md). The
// detection is analysis::AnomalyDetector's, the workflow module's too.
#include <charconv>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "analysis/anomalies.h"
#include "cli/commands.h"
#include "cli/entity_streaming.h"
#include "cli/trace_loading.h"
#include "util/csv.h"

namespace macroscope::cli {

namespace {

// The shortest text that reads back to the same double, as write-csv writes.
std::string Shortest(double x) {
  char buffer[32];
  return std::string(buffer, std::to_chars(buffer, buffer + sizeof buffer, x).ptr);
}

}  // namespace

void RegisterAnomaliesCommand(CLI::App& app) {
  struct Args {
    std::vector<std::string> files;
    formats::ReadOptions read;
    analysis::AnomalyRequest request;
    std::string metric = "duration";
    std::string format = "text";
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
  cmd->add_option("--format", args->format, "text, json or csv")->check(CLI::IsMember({"text", "json", "csv"}));
  AddReadOptions(*cmd, args->read);
  cmd->callback([args] {
    analysis::AnomalyRequest request = args->request;
    request.metric =
        args->metric == "interarrival" ? analysis::AnomalyMetric::kInterarrival : analysis::AnomalyMetric::kDuration;
    analysis::AnomalyDetector detector(request, "--type");
    Trace trace;
    StreamEntities(args->files, args->read, trace,
                   [&](const Trace& t, const analysis::EntityRecord& r) { detector.Add(t, r); });
    const analysis::AnomalyReport report = detector.Finish(trace);
    if (args->format == "json") {
      nlohmann::json out = {{"type", request.type},          {"metric", args->metric},
                            {"count", report.count},         {"mean_ns", report.mean_ns},
                            {"stddev_ns", report.stddev_ns}, {"lower_ns", report.lower_ns},
                            {"upper_ns", report.upper_ns},   {"anomalies", nlohmann::json::array()}};
      for (const analysis::Anomaly& a : report.anomalies)
        out["anomalies"].push_back({{"type", a.type},
                                    {"value", a.value},
                                    {"container", a.container},
                                    {"start_ns", a.start_ns},
                                    {"end_ns", a.end_ns},
                                    {"start", a.start_seconds},
                                    {"measure_ns", a.measure_ns}});
      std::cout << out.dump(2) << "\n";
    } else if (args->format == "csv") {
      std::string header;
      for (const char* c : analysis::kAnomalyColumns) header += (header.empty() ? "" : ",") + std::string(c);
      std::printf("%s\n", header.c_str());
      for (const analysis::Anomaly& a : report.anomalies)
        std::printf("%s,%s,%s,%lld,%lld,%s,%lld,%s,%s,%s\n", CsvField(a.type).c_str(), CsvField(a.value).c_str(),
                    CsvField(a.container).c_str(), static_cast<long long>(a.start_ns),
                    static_cast<long long>(a.end_ns), Shortest(a.start_seconds).c_str(),
                    static_cast<long long>(a.measure_ns), Shortest(report.mean_ns).c_str(),
                    Shortest(report.lower_ns).c_str(), Shortest(report.upper_ns).c_str());
    } else {
      std::printf("%s (%s): %llu values, mean %.17g ns, standard deviation %.17g ns (population)\n"
                  "band mean ± 3σ/√n: [%.17g, %.17g] ns; %zu outside\n",
                  request.type.c_str(), args->metric.c_str(), static_cast<unsigned long long>(report.count),
                  report.mean_ns, report.stddev_ns, report.lower_ns, report.upper_ns, report.anomalies.size());
      if (!report.anomalies.empty())
        std::printf("%20s %20s %-24s %-24s\n", "start (ns)", "measure (ns)", "container", "value");
      for (const analysis::Anomaly& a : report.anomalies)
        std::printf("%20lld %20lld %-24s %-24s\n", static_cast<long long>(a.start_ns),
                    static_cast<long long>(a.measure_ns), a.container.c_str(), a.value.c_str());
    }
  });
}

}  // namespace macroscope::cli
