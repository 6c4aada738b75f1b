#include "cli/aggregate_options.h"

#include <sstream>

#include "analysis/make_aggregation.h"
#include "analysis/model_cache.h"
#include "analysis/trace_model.h"
#include "cli/trace_loading.h"
#include "util/error.h"

namespace macroscope::cli {

void AddAggregateOptions(CLI::App& cmd, AggregateOptions& o) {
  cmd.add_option("TRACE", o.trace, "Trace to model (any supported format)");
  AddReadOptions(cmd, o.read);
  o.cache_directory = analysis::DefaultCacheDirectory();
  cmd.add_option("--cache", o.cache_directory,
                 "Directory of the model cache (another p, mode or a dividing slice count "
                 "reuses a model without reading the trace)")
      ->capture_default_str();
  AggregateOptions* options = &o;
  cmd.add_flag_callback("--no-cache", [options] { options->cache_directory.clear(); },
                        "Neither read nor write the model cache");
  cmd.add_option("--model-in", o.model_in,
                 "Microscopic model as CSV rows resource,slice,type,value ('-' for stdin)");
  std::string metrics;
  for (const auto& name : analysis::MetricNames()) metrics += (metrics.empty() ? "" : ", ") + name;
  cmd.add_option("--metric", o.metric, "Metric of the model built from a trace (" + metrics + ")")
      ->capture_default_str();
  o.slices_option = cmd.add_option("--slices", o.slices,
                                   "Number of time slices |T| (CSV default: largest slice + 1)");
  cmd.add_flag("--bins", o.bins,
               "Slices are the trace's time bins nearest --slices over the range widened to whole bins "
               "(as the workbench's overview; a store answers from its summaries)");
  cmd.add_option("--mode", o.mode, "temporal or spatiotemporal")->capture_default_str();
  o.p_option = cmd.add_option("--p", o.p, "Trade-off parameter p in [0, 1]");
  o.start_option = cmd.add_option("--start", o.start,
                                  "Start of the time range: the trace clock's seconds, +OFFSET from the trace start "
                                  "(+2.5s, +412us) or a UTC date");
  o.end_option = cmd.add_option("--end", o.end, "End of the time range, in the same forms");
  cmd.add_option("--types", o.types, "Keep only these types (comma-separated)")->delimiter(',');
  cmd.add_option("--containers", o.containers,
                 "Keep only these container subtrees, as slash paths (comma-separated)")
      ->delimiter(',');
  cmd.add_flag("--normalize", o.normalize,
               "Divide gains and losses by those of the full aggregate");
}

void AddThreadsOption(CLI::App& cmd, AggregateOptions& o) {
  cmd.remove_option(cmd.get_option("--threads"));  // AddReadOptions': this one reads too
  cmd.add_option("--threads", o.threads, "Worker threads (0: one per core)")
      ->capture_default_str();
}

void ValidateAggregateOptions(const AggregateOptions& o) {
  if (!o.trace.empty() && !o.model_in.empty()) {
    throw UserError("give either a TRACE or --model-in, not both");
  }
  if (o.trace.empty() && o.model_in.empty()) throw UserError("give a TRACE or --model-in FILE.csv");
  if (o.p_given() && !(o.p >= 0 && o.p <= 1)) {
    std::ostringstream text;
    text << "--p must be in [0, 1], got " << o.p;
    throw UserError(text.str());
  }
  if (o.slices_given() && o.slices < 1) throw UserError("--slices must be at least 1");
  if (o.bins && !o.model_in.empty()) throw UserError("--bins needs a TRACE: a CSV model's slices are fixed");
  if (o.mode != "temporal" && o.mode != "spatiotemporal") {
    throw UserError("--mode must be temporal or spatiotemporal, got '" + o.mode + "'");
  }
  if (!analysis::MetricFromName(o.metric)) {
    std::string known;
    for (const auto& name : analysis::MetricNames()) known += (known.empty() ? "" : ", ") + name;
    throw UserError("unknown --metric '" + o.metric + "' (known: " + known + ")");
  }
  if (o.start_given() != o.end_given()) {
    throw UserError("give both --start and --end, or neither");
  }
}

analysis::MicroModel LoadAggregateModel(const AggregateOptions& o, ModelTimings* timings) {
  ModelSource source;
  if (!o.trace.empty()) source.trace = {o.trace};
  source.model_in = o.model_in;
  source.read = o.read;
  source.metric = o.metric;
  if (o.slices_given()) source.slices = o.slices;
  source.bins = o.bins;
  if (o.start_given()) {
    source.start = o.start;
    source.end = o.end;
  }
  source.types = o.types;
  source.containers = o.containers;
  source.cache_directory = o.cache_directory;
  return LoadModel(source, timings);
}

std::unique_ptr<analysis::Aggregation> MakeAggregation(const analysis::MicroModel& model,
                                                       const AggregateOptions& o) {
  return analysis::MakeAggregation(model, o.mode == "spatiotemporal", o.normalize, o.threads);
}

}  // namespace macroscope::cli
