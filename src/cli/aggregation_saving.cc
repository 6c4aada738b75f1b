#include "cli/aggregation_saving.h"

#include "cli/catalog_option.h"
#include "util/error.h"

namespace macroscope::cli {

AggregationSaver::AggregationSaver(const std::string& catalog_path, const AggregateOptions& options)
    : catalog_(CatalogFile(catalog_path)), options_(options) {
  if (options.trace.empty()) throw UserError("--save needs a trace (a model read with --model-in has none)");
  std::optional<catalog::TraceRecord> record = catalog_.Find(options.trace);
  if (!record) {
    throw UserError(catalog_.path() + ": " + catalog::CatalogPath(options.trace) +
                    " is not in the catalog (add it first: macroscope catalog add TRACE)");
  }
  trace_id_ = record->id;
}

int64_t AggregationSaver::Save(const analysis::MicroModel& model, const nlohmann::ordered_json& selection,
                               const nlohmann::ordered_json& result) {
  nlohmann::ordered_json parameters;
  parameters["metric"] = options_.metric;
  parameters["mode"] = options_.mode;
  parameters["slices"] = model.slices();
  if (model.range()) parameters["range"] = {model.range()->begin, model.range()->end};
  parameters["types"] = options_.types;
  parameters["containers"] = options_.containers;
  parameters["normalize"] = options_.normalize;
  for (const auto& [key, value] : selection.items()) parameters[key] = value;
  return catalog_.SaveAggregation(trace_id_, parameters.dump(), result.dump());
}

}  // namespace macroscope::cli
