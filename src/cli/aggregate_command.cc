// `macroscope aggregate`: the Ocelotl overview of a microscopic model —
// the optimal temporal or spatiotemporal partition at one p, or the list of
// significant p values. Output shapes are documented in docs/aggregate.md.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/micro_model.h"
#include "analysis/model_cache.h"
#include "analysis/model_csv.h"
#include "analysis/p_list.h"
#include "analysis/spatiotemporal_partition.h"
#include "analysis/temporal_partition.h"
#include "analysis/trace_model.h"
#include "cli/commands.h"
#include "cli/model_loading.h"
#include "cli/trace_loading.h"
#include "util/error.h"

namespace macroscope::cli {

namespace {

using analysis::MicroModel;

struct AggregateOptions {
  std::string trace;
  formats::ReadOptions read;
  std::string cache_directory;
  std::string model_in;
  std::string metric = "state-time";
  int slices = 0;  // 0: not given
  std::string mode = "temporal";
  double p = -1;  // < 0: not given
  bool plist = false;
  std::string plist_method = "exact";
  double threshold = 1e-4;
  double start = NAN;
  double end = NAN;
  std::vector<std::string> types;
  std::vector<std::string> containers;
  bool normalize = false;
  std::string format = "json";
  bool timings = false;
  int threads = 0;
};

// Wall time of each phase, in seconds, for --timings.
struct Timings {
  double read = 0, model = 0, qualities = 0, p_list = 0, cuts = 0;
  bool model_from_cache = false;
};

class Stopwatch {
 public:
  double Lap() {
    auto now = std::chrono::steady_clock::now();
    double seconds = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    return seconds;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

void Validate(const AggregateOptions& o, bool p_given, bool slices_given, bool start_given,
              bool end_given) {
  if (!o.trace.empty() && !o.model_in.empty()) {
    throw UserError("give either a TRACE or --model-in, not both");
  }
  if (o.trace.empty() && o.model_in.empty()) throw UserError("give a TRACE or --model-in FILE.csv");
  if (p_given == o.plist) throw UserError("give exactly one of --p P and --plist");
  if (p_given && !(o.p >= 0 && o.p <= 1)) {
    std::ostringstream text;
    text << "--p must be in [0, 1], got " << o.p;
    throw UserError(text.str());
  }
  if (slices_given && o.slices < 1) throw UserError("--slices must be at least 1");
  if (o.mode != "temporal" && o.mode != "spatiotemporal") {
    throw UserError("--mode must be temporal or spatiotemporal, got '" + o.mode + "'");
  }
  if (o.format != "json" && o.format != "csv") {
    throw UserError("--format must be json or csv, got '" + o.format + "'");
  }
  if (o.plist_method != "exact" && o.plist_method != "dichotomy") {
    throw UserError("--plist-method must be exact or dichotomy, got '" + o.plist_method + "'");
  }
  if (!(o.threshold > 0 && o.threshold < 1)) throw UserError("--threshold must be in (0, 1)");
  if (!analysis::MetricFromName(o.metric)) {
    std::string known;
    for (const auto& name : analysis::MetricNames()) known += (known.empty() ? "" : ", ") + name;
    throw UserError("unknown --metric '" + o.metric + "' (known: " + known + ")");
  }
  if (start_given != end_given) throw UserError("give both --start and --end, or neither");
  if (start_given && !(std::isfinite(o.start) && std::isfinite(o.end) && o.start < o.end)) {
    throw UserError("--start must be before --end");
  }
}

MicroModel LoadAggregateModel(const AggregateOptions& o, bool slices_given, bool range_given,
                              Timings* timings) {
  ModelSource source;
  if (!o.trace.empty()) source.trace = {o.trace};
  source.model_in = o.model_in;
  source.read = o.read;
  source.metric = o.metric;
  if (slices_given) source.slices = o.slices;
  if (range_given) {
    source.start = o.start;
    source.end = o.end;
  }
  source.types = o.types;
  source.containers = o.containers;
  source.cache_directory = o.cache_directory;
  ModelTimings t;
  MicroModel model = LoadModel(source, &t);
  timings->read = t.read;
  timings->model = t.model;
  timings->model_from_cache = t.from_cache;
  return model;
}

std::string CsvNumber(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  return buffer;
}

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

void WritePartition(const AggregateOptions& o, const MicroModel& model,
                    const analysis::Aggregation& aggregation,
                    const analysis::Partition& partition) {
  const bool spatial = o.mode == "spatiotemporal";
  const auto& tree = model.hierarchy();
  if (o.format == "csv") {
    std::string suffix = aggregation.normalized() ? "_normalized" : "";
    std::cout << "start_slice,end_slice,node,gain" << suffix << ",loss" << suffix << "\n";
    for (const auto& part : partition.parts) {
      std::cout << part.first_slice << ',' << part.last_slice << ','
                << CsvField(spatial ? tree.Path(part.node) : "") << ',' << CsvNumber(part.gain)
                << ',' << CsvNumber(part.loss) << '\n';
    }
    return;
  }
  nlohmann::ordered_json out;
  if (model.range()) {
    out["range"] = {model.range()->begin, model.range()->end};
  } else {
    out["range"] = nullptr;
  }
  out["slices"] = model.slices();
  out["p"] = o.p;
  out["gain"] = partition.quality.gain;
  out["loss"] = partition.quality.loss;
  out["normalized"] = aggregation.normalized();
  auto parts = nlohmann::ordered_json::array();
  for (const auto& part : partition.parts) {
    nlohmann::ordered_json item;
    item["start_slice"] = part.first_slice;
    item["end_slice"] = part.last_slice;
    item["node"] = spatial ? tree.Path(part.node) : "";
    item["gain"] = part.gain;
    item["loss"] = part.loss;
    parts.push_back(std::move(item));
  }
  out["parts"] = std::move(parts);
  std::cout << out.dump() << "\n";
}

void WritePList(const AggregateOptions& o, const analysis::Aggregation& aggregation,
                const std::vector<analysis::PListEntry>& list) {
  if (o.format == "csv") {
    std::string suffix = aggregation.normalized() ? "_normalized" : "";
    std::cout << "p,gain" << suffix << ",loss" << suffix << ",parts\n";
    for (const auto& entry : list) {
      std::cout << CsvNumber(entry.p) << ',' << CsvNumber(entry.quality.gain) << ','
                << CsvNumber(entry.quality.loss) << ',' << entry.quality.parts << '\n';
    }
    return;
  }
  auto out = nlohmann::ordered_json::array();
  for (const auto& entry : list) {
    nlohmann::ordered_json item;
    item["p"] = entry.p;
    item["gain"] = entry.quality.gain;
    item["loss"] = entry.quality.loss;
    item["parts"] = entry.quality.parts;
    out.push_back(std::move(item));
  }
  std::cout << out.dump() << "\n";
}

void RunAggregate(const AggregateOptions& o, bool p_given, bool slices_given, bool start_given,
                  bool end_given) {
  Validate(o, p_given, slices_given, start_given, end_given);
  Timings timings;
  MicroModel model = LoadAggregateModel(o, slices_given, start_given, &timings);

  Stopwatch watch;
  std::unique_ptr<analysis::Aggregation> aggregation;
  if (o.mode == "temporal") {
    auto qualities = analysis::TemporalQualities::Compute(model, o.threads);
    if (o.normalize) qualities.Normalize();
    aggregation = std::make_unique<analysis::TemporalAggregation>(std::move(qualities));
  } else {
    auto qualities = analysis::SpatiotemporalQualities::Compute(model, o.threads);
    if (o.normalize) qualities.Normalize();
    aggregation =
        std::make_unique<analysis::SpatiotemporalAggregation>(std::move(qualities), o.threads);
  }
  timings.qualities = watch.Lap();

  if (o.plist) {
    auto list = o.plist_method == "exact"
                    ? analysis::SignificantPsExact(*aggregation)
                    : analysis::SignificantPsDichotomy(*aggregation, o.threshold);
    timings.p_list = watch.Lap();
    WritePList(o, *aggregation, list);
  } else {
    analysis::Partition partition = aggregation->Best(o.p);
    timings.cuts = watch.Lap();
    WritePartition(o, model, *aggregation, partition);
  }
  std::cout.flush();
  if (o.timings) {
    nlohmann::ordered_json line;
    line["read"] = timings.read;
    line["model_from_cache"] = timings.model_from_cache;
    line["model"] = timings.model;
    line["qualities"] = timings.qualities;
    line["p_list"] = timings.p_list;
    line["cuts"] = timings.cuts;
    std::cerr << line.dump() << "\n";
  }
}

}  // namespace

void RegisterAggregateCommand(CLI::App& app) {
  auto options = std::make_shared<AggregateOptions>();
  CLI::App* cmd = app.add_subcommand(
      "aggregate", "Optimal temporal or spatiotemporal aggregation of a microscopic model");
  cmd->add_option("TRACE", options->trace, "Trace to model (any supported format)");
  AddReadOptions(*cmd, options->read);
  options->cache_directory = analysis::DefaultCacheDirectory();
  cmd->add_option("--cache", options->cache_directory, "Directory of the model cache (another p, mode or a "
                  "dividing slice count reuses a model without reading the trace)")->capture_default_str();
  cmd->add_flag_callback("--no-cache", [options] { options->cache_directory.clear(); },
                         "Neither read nor write the model cache");
  cmd->add_option("--model-in", options->model_in,
                  "Microscopic model as CSV rows resource,slice,type,value ('-' for stdin)");
  std::string metrics;
  for (const auto& name : analysis::MetricNames()) metrics += (metrics.empty() ? "" : ", ") + name;
  cmd->add_option("--metric", options->metric,
                  "Metric of the model built from a trace (" + metrics + ")")
      ->capture_default_str();
  auto* slices = cmd->add_option("--slices", options->slices,
                                 "Number of time slices |T| (CSV default: largest slice + 1)");
  cmd->add_option("--mode", options->mode, "temporal or spatiotemporal")->capture_default_str();
  auto* p = cmd->add_option("--p", options->p, "Trade-off parameter p in [0, 1]");
  cmd->add_flag("--plist", options->plist, "List the significant p values instead");
  cmd->add_option("--plist-method", options->plist_method,
                  "exact (breakpoints of the optimum) or dichotomy (the seed's baseline)")
      ->capture_default_str();
  cmd->add_option("--threshold", options->threshold, "Dichotomy threshold on p")
      ->capture_default_str();
  auto* start = cmd->add_option("--start", options->start, "Start of the time range");
  auto* end = cmd->add_option("--end", options->end, "End of the time range");
  cmd->add_option("--types", options->types, "Keep only these types (comma-separated)")
      ->delimiter(',');
  cmd->add_option("--containers", options->containers,
                  "Keep only these container subtrees, as slash paths (comma-separated)")
      ->delimiter(',');
  cmd->add_flag("--normalize", options->normalize,
                "Divide gains and losses by those of the full aggregate");
  cmd->add_option("--format", options->format, "json or csv")->capture_default_str();
  cmd->add_flag("--timings", options->timings,
                "Print the wall time of each phase as one JSON line on stderr");
  cmd->add_option("--threads", options->threads, "Worker threads (0: one per core)")
      ->capture_default_str();
  cmd->callback([options, p, slices, start, end] {
    RunAggregate(*options, p->count() > 0, slices->count() > 0, start->count() > 0,
                 end->count() > 0);
  });
}

}  // namespace macroscope::cli
