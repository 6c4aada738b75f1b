// `macroscope aggregate`: the Ocelotl overview of a microscopic model —
// the optimal temporal or spatiotemporal partition at one p, or the list of
// significant p values. Output shapes are documented in docs/aggregate.md.
#include <chrono>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/aggregation_json.h"
#include "analysis/aggregation_table.h"
#include "analysis/micro_model.h"
#include "analysis/p_list.h"
#include "analysis/spatiotemporal_partition.h"
#include "analysis/table_writer.h"
#include "analysis/temporal_partition.h"
#include "cli/aggregate_options.h"
#include "cli/aggregation_saving.h"
#include "cli/catalog_option.h"
#include "cli/commands.h"
#include "cli/model_loading.h"
#include "cli/trace_loading.h"
#include "mpi/world.h"
#include "util/error.h"

namespace macroscope::cli {

namespace {

using analysis::MicroModel;

// The options only `aggregate` has; the shared ones are in aggregate_options.h.
struct AggregateCommandOptions {
  AggregateOptions shared;
  bool plist = false;
  std::string plist_method = "exact";
  double threshold = 1e-4;
  std::string format = "json";
  bool timings = false;
  bool save = false;
  std::string catalog;  // for --save; empty: the default catalog
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

void Validate(const AggregateCommandOptions& o) {
  ValidateAggregateOptions(o.shared);
  if (o.shared.p_given() == o.plist) throw UserError("give exactly one of --p P and --plist");
  if (o.format != "json" && o.format != "csv") {
    throw UserError("--format must be json or csv, got '" + o.format + "'");
  }
  if (o.plist_method != "exact" && o.plist_method != "dichotomy") {
    throw UserError("--plist-method must be exact or dichotomy, got '" + o.plist_method + "'");
  }
  if (!(o.threshold > 0 && o.threshold < 1)) throw UserError("--threshold must be in (0, 1)");
}

void WritePartition(const AggregateCommandOptions& o, const MicroModel& model,
                    const analysis::Aggregation& aggregation,
                    const analysis::Partition& partition) {
  const bool spatial = o.shared.mode == "spatiotemporal";
  if (o.format == "csv") {
    std::cout << analysis::FormatTable(analysis::PartitionTable(model, aggregation, partition, spatial),
                                       analysis::TableFormat::kCsv);
    return;
  }
  std::cout << analysis::PartitionJson(model, aggregation, partition, o.shared.p, spatial).dump() << "\n";
}

void WritePList(const AggregateCommandOptions& o, const analysis::Aggregation& aggregation,
                const std::vector<analysis::PListEntry>& list) {
  if (o.format == "csv") {
    std::cout << analysis::FormatTable(analysis::PListTable(aggregation, list), analysis::TableFormat::kCsv);
    return;
  }
  std::cout << analysis::PListJson(list).dump() << "\n";
}

void Saved(const AggregationSaver& saver, int64_t id) {
  std::cerr << "saved as aggregation " << id << " in " << saver.catalog_path() << "\n";
}

// The aggregation of the model and its output.
void Aggregate(const AggregateCommandOptions& o, const MicroModel& model, std::optional<AggregationSaver>& saver,
               Timings& timings) {
  Stopwatch watch;
  std::unique_ptr<analysis::Aggregation> aggregation = MakeAggregation(model, o.shared);
  timings.qualities = watch.Lap();

  if (o.plist) {
    auto list = o.plist_method == "exact"
                    ? analysis::SignificantPsExact(*aggregation)
                    : analysis::SignificantPsDichotomy(*aggregation, o.threshold);
    timings.p_list = watch.Lap();
    WritePList(o, *aggregation, list);
    if (saver) Saved(*saver, saver->Save(model, {{"plist", o.plist_method}}, analysis::PListJson(list)));
  } else {
    analysis::Partition partition = aggregation->Best(o.shared.p);
    timings.cuts = watch.Lap();
    WritePartition(o, model, *aggregation, partition);
    if (saver) {
      const bool spatial = o.shared.mode == "spatiotemporal";
      Saved(*saver, saver->Save(model, {{"p", o.shared.p}},
                                analysis::PartitionJson(model, *aggregation, partition, o.shared.p, spatial)));
    }
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

void RunAggregate(AggregateCommandOptions o) {
  Validate(o);
  // Under mpirun: every process reads its share of the trace and the model
  // is reduced on rank 0, which alone aggregates and writes (docs/mpi.md).
  mpi::World* world = mpi::Launched();
  if (!o.shared.trace.empty()) o.shared.read.share = mpi::ShareFor({o.shared.trace});
  // Checked before any work: a trace missing from the catalog fails fast.
  std::optional<AggregationSaver> saver;
  if (o.save) saver.emplace(o.catalog, o.shared);
  Timings timings;
  ModelTimings model_timings;
  MicroModel model = LoadAggregateModel(o.shared, &model_timings);
  timings.read = model_timings.read;
  timings.model = model_timings.model;
  timings.model_from_cache = model_timings.from_cache;
  mpi::OnRoot(world, [&] { Aggregate(o, model, saver, timings); });
}

}  // namespace

void RegisterAggregateCommand(CLI::App& app) {
  auto options = std::make_shared<AggregateCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "aggregate", "Optimal temporal or spatiotemporal aggregation of a microscopic model");
  AddAggregateOptions(*cmd, options->shared);
  cmd->add_flag("--plist", options->plist, "List the significant p values instead");
  cmd->add_option("--plist-method", options->plist_method,
                  "exact (breakpoints of the optimum) or dichotomy (the seed's baseline)")
      ->capture_default_str();
  cmd->add_option("--threshold", options->threshold, "Dichotomy threshold on p")
      ->capture_default_str();
  cmd->add_option("--format", options->format, "json or csv")->capture_default_str();
  cmd->add_flag("--timings", options->timings,
                "Print the wall time of each phase as one JSON line on stderr");
  cmd->add_flag("--save", options->save,
                "Keep the parameters and the result in the trace catalog (the trace must be in it)");
  AddCatalogOption(*cmd, options->catalog);
  AddThreadsOption(*cmd, options->shared);
  cmd->callback([options] { RunAggregate(*options); });
}

}  // namespace macroscope::cli
