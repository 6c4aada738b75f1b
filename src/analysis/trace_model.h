// Builds the microscopic model of a trace (the Ocelotl method's input):
// resources = the leaves of the container tree (an internal container that
// carries entities gets a "(self)" leaf), |T| equal slices of a time range,
// and one model type per (entity type, value) — "Type:value" — or per
// variable type. One pass over the entities, linear in their number.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/cancellation.h"
#include "analysis/micro_model.h"
#include "model/entity_source.h"
#include "model/trace.h"

namespace macroscope::analysis {

enum class Metric {
  kStateTime,           // time spent in each state value, clipped to slices
  kStateCount,          // states starting in the slice
  kEventCount,          // punctual events in the slice
  kMeanStateDuration,   // state time / states active in the slice
  kVariableMean,        // time-weighted mean of each variable in the slice
  kVariableMin,
  kVariableMax,
  kLinkCount,           // links leaving the resource in the slice
};

// "state-time", "state-count", ... ; nullopt for an unknown name.
std::optional<Metric> MetricFromName(std::string_view name);
std::vector<std::string> MetricNames();
// The kind of entity a metric counts.
TypeKind MetricKind(Metric metric);

// Whether a metric's cells add up over slices: a model of a multiple of
// the slices asked then serves, coarsened (MicroModel::Coarsen).
bool Additive(Metric metric);

// The slices `aggregate` and `overview` take by default.
inline constexpr int32_t kDefaultSlices = 100;

struct ModelRequest {
  Metric metric = Metric::kStateTime;
  int32_t slices = kDefaultSlices;
  // Slices are the trace's time bins (model/time_bins.h) nearest the asked
  // width (between 1/sqrt(2) and sqrt(2) times as many), over the range
  // widened to whole bins: what a store's level-of-detail summaries
  // answer without reading the entities, at any size. Otherwise `slices`
  // equal slices of the range, exactly.
  bool bins = false;
  std::optional<double> start, end;        // default: the trace's span
  std::vector<std::string> types;          // entity type names to keep (empty: all)
  std::vector<std::string> containers;     // container paths to keep (empty: all)
  int threads = 1;                         // stores spread over this many (0: one per core)
  const Cancellation* cancel = nullptr;    // polled between chunks of entities (BuildModel)
};

// Throws UserError for a range outside the trace, zero slices, or an
// unknown type or container in a filter; Cancelled once request.cancel is
// set.
// Reads only the chunks that meet the range; with bins, the summaries of
// the stores that have them down to the bins' level (model/lod_window.h),
// for every metric but variable-mean.
MicroModel BuildModel(const EntitySource& source, const ModelRequest& request);
// The same over a trace in memory.
MicroModel BuildModel(const Trace& trace, const ModelRequest& request);

// The slices a model is built with to be kept in the model cache
// (model_cache.h), so that it serves many later requests: about 900 (the
// seed's choice), a multiple of the `asked` count.
int32_t CachedSlices(int32_t asked);
// The model `request` asks for as `aggregate` gets it through its cache:
// built with CachedSlices(request.slices) slices and coarsened to
// request.slices when the metric is Additive (plain BuildModel otherwise,
// and with bins), the same to the bit whether the cache held it or not.
MicroModel BuildModelAsCached(const EntitySource& source, const ModelRequest& request);

}  // namespace macroscope::analysis
