// `aggregate --save`: keeps an aggregation — its parameters and its JSON
// result — in the trace catalog (docs/catalog.md), on the entry of the
// trace it was computed from, where `catalog info` shows it.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "analysis/micro_model.h"
#include "catalog/catalog.h"
#include "cli/aggregate_options.h"

namespace macroscope::cli {

class AggregationSaver {
 public:
  // Opens the catalog (empty path: the default one) and finds the trace
  // there, before any work is done. Throws UserError for a CSV model (no
  // trace) or a trace the catalog does not hold.
  AggregationSaver(const std::string& catalog_path, const AggregateOptions& options);

  // Saves the parameters (those of the options, with the model's actual
  // range and slice count) and `result`; `selection` is {"p": P} or
  // {"plist": METHOD}. Returns the aggregation's id.
  int64_t Save(const analysis::MicroModel& model, const nlohmann::ordered_json& selection,
               const nlohmann::ordered_json& result);

  const std::string& catalog_path() const { return catalog_.path(); }

 private:
  catalog::Catalog catalog_;
  const AggregateOptions& options_;
  int64_t trace_id_ = 0;
};

}  // namespace macroscope::cli
