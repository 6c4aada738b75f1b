// The options `aggregate` and `overview` share: where the model comes
// from (TRACE or --model-in, --cache/--no-cache, --metric, --slices, --start/--end, --types,
// --containers), how it is aggregated (--mode, --p, --normalize,
// --threads), declared once so that both commands read them alike.
#pragma once

#include <CLI/CLI.hpp>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "analysis/aggregation.h"
#include "analysis/micro_model.h"
#include "cli/model_loading.h"
#include "formats/format.h"

namespace macroscope::cli {

struct AggregateOptions {
  std::string trace;
  formats::ReadOptions read;
  std::string cache_directory;  // model cache; empty: no cache
  std::string model_in;
  std::string metric = "state-time";
  int slices = 0;  // 0: not given
  std::string mode = "temporal";
  double p = -1;  // < 0: not given
  std::string start, end;  // as given (model_loading.h)
  std::vector<std::string> types;
  std::vector<std::string> containers;
  bool normalize = false;
  bool bins = false;
  int threads = 0;

  // Filled by AddAggregateOptions, read after parsing.
  CLI::Option* p_option = nullptr;
  CLI::Option* slices_option = nullptr;
  CLI::Option* start_option = nullptr;
  CLI::Option* end_option = nullptr;

  bool p_given() const { return p_option != nullptr && p_option->count() > 0; }
  bool slices_given() const { return slices_option != nullptr && slices_option->count() > 0; }
  bool start_given() const { return start_option != nullptr && start_option->count() > 0; }
  bool end_given() const { return end_option != nullptr && end_option->count() > 0; }
};

// Declares the shared options on `cmd`; `options` must outlive it. The
// `--threads` option is declared separately (AddThreadsOption) so that
// each command keeps its own --help order.
void AddAggregateOptions(CLI::App& cmd, AggregateOptions& options);
void AddThreadsOption(CLI::App& cmd, AggregateOptions& options);

// Throws UserError on a bad combination or value (source, --p range,
// --slices, --mode, --metric, --start/--end).
void ValidateAggregateOptions(const AggregateOptions& options);

// The model the options name (see LoadModel).
analysis::MicroModel LoadAggregateModel(const AggregateOptions& options, ModelTimings* timings);

// Qualities of `model` in the options' mode (normalised with --normalize).
std::unique_ptr<analysis::Aggregation> MakeAggregation(const analysis::MicroModel& model,
                                                       const AggregateOptions& options);

}  // namespace macroscope::cli
