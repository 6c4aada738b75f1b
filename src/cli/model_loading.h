// The model-source step shared by `aggregate` and `overview`: a microscopic
// model from a CSV file or from a trace (read through the format registry,
// or a chunked store read lazily, modelled by analysis::BuildModel), then
// the type and container filters.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/micro_model.h"
#include "formats/format.h"

namespace macroscope::cli {

struct ModelSource {
  std::vector<std::string> trace;      // trace files (empty when model_in is set)
  std::string model_in;                // CSV model
  formats::ReadOptions read;
  std::string metric = "state-time";
  std::optional<int32_t> slices;       // CSV default: largest slice + 1; trace default: 100
  bool bins = false;                   // slices are the trace's time bins (analysis::ModelRequest)
  // As given (time_base.h ParseTime: clock seconds, +OFFSET, a date); read
  // with the trace's time base once it is loaded. Default: the trace's span.
  std::optional<std::string> start, end;
  std::vector<std::string> types;      // model types, or entity types (all their values)
  std::vector<std::string> containers; // slash paths of container subtrees
  std::string cache_directory;         // model cache; empty: no cache
};

struct ModelTimings {
  double read = 0;   // reading the trace or the CSV
  double model = 0;  // building, coarsening and filtering the model
  bool from_cache = false;
};

// Throws UserError for bad input (unknown metric, type or container, range
// outside the trace, ...).
analysis::MicroModel LoadModel(const ModelSource& source, ModelTimings* timings);

}  // namespace macroscope::cli
