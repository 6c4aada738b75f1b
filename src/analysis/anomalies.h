// Anomalies, as the seed defines them (../shared/spec/management.md): the
// entities whose value — a state's duration, or the time since the previous
// start in the same container — lies outside mean ± 3σ/√n of all the values
// (σ the population standard deviation, n their number). One detector
// serves `macroscope anomalies` and the workflow module `anomalies`
// (docs/anomalies.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/entity_selection.h"
#include "analysis/table.h"
#include "model/entity_chunk.h"
#include "model/trace.h"

namespace macroscope::analysis {

// The seed's band of a set of values: their mean, population standard
// deviation σ, and mean ± 3σ/√n (n their number; all 0 for none). A value
// outside [lower, upper] is an anomaly; campaigns (compare/campaign.h) flag
// the runs whose distance lies above it.
struct AnomalyBand {
  double mean = 0, stddev = 0, lower = 0, upper = 0;
};
AnomalyBand ThreeSigmaBand(const std::vector<double>& values);

enum class AnomalyMetric { kDuration, kInterarrival };

struct AnomalyRequest {
  std::string type;  // a selection: TYPE or TYPE=VALUE (entity_selection.h)
  AnomalyMetric metric = AnomalyMetric::kDuration;
  std::vector<std::string> containers;  // names or aliases; their subtrees (empty: all)
};

struct Anomaly {
  std::string type, value, container;
  int64_t start_ns = 0, end_ns = 0;  // from the trace's origin (model time 0)
  double start_seconds = 0;
  int64_t measure_ns = 0;  // the duration, or the time since the previous start
};

struct AnomalyReport {
  uint64_t count = 0;  // values measured
  double mean_ns = 0, stddev_ns = 0, lower_ns = 0, upper_ns = 0;  // the band: mean ± 3σ/√n
  std::vector<Anomaly> anomalies;  // by start time, then container
};

class AnomalyDetector {
 public:
  // Throws UserError for a bad selection (naming `option`).
  AnomalyDetector(const AnomalyRequest& request, std::string_view option);

  // Every chunk of one trace; the entities the selection matches are
  // kept. Reads only `trace`'s strings (it may still be being read).
  void Add(const Trace& trace, const EntityChunk& chunk);

  // Once the trace is read (complete). Throws UserError when no entity
  // matched, or when durations are asked of events.
  AnomalyReport Finish(const Trace& trace) const;
  // The result table the command prints and the module sends: Finish()'s
  // report, one row per anomaly (AnomaliesTable).
  Table ToTable(const Trace& trace) const;

 private:
  struct Kept {
    ContainerId container;
    StringId type, value;
    double start, end;
    TypeKind kind;
  };
  AnomalyRequest request_;
  std::string option_;
  EntitySelection selection_;
  std::vector<Kept> kept_;
  std::vector<StringId> types_seen_;  // for the message when nothing matches
};

// One row per anomaly, in the report's order: type, value, container,
// start_ns, end_ns, start (seconds), measure_ns, then the figures of all
// the values on every row: count, mean_ns, stddev_ns, lower_ns, upper_ns.
Table AnomaliesTable(const AnomalyReport& report);

}  // namespace macroscope::analysis
