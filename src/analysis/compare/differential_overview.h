// The differential overview of two runs (docs/compare.md, "Differential
// overview"): the optimal aggregation of their difference model
// (differential_model.h) at p — temporal, or spatiotemporal — with the
// quality curves as `overview` states them, and the table of the parts
// where the runs differ most.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "analysis/aggregation.h"
#include "analysis/cancellation.h"
#include "analysis/compare/differential_model.h"
#include "analysis/p_list.h"
#include "analysis/table.h"
#include "model/entity_source.h"

namespace macroscope::analysis::compare {

struct DifferentialOptions {
  bool spatiotemporal = false;
  bool normalize = false;
  std::optional<double> p;  // default: the overview's (KneeP of the exact p list)
  int threads = 1;          // as the aggregation's (0: one per core)
  int types_per_part = 3;   // rows of the parts table per part: the types whose share changed most
  const Cancellation* cancel = nullptr;
};

struct DifferentialOverviewResult {
  AlignedModels runs;
  MicroModel difference;
  std::unique_ptr<Aggregation> aggregation;
  std::vector<PListEntry> p_list;  // exact
  double p = 0;
  Partition partition;  // optimal at p
  // The partition's gain and loss as shares of the full aggregate's (one
  // part over everything): what it keeps and what it loses.
  double gain_share = 0, loss_share = 0;
  Table parts;  // DifferencePartsTable
};

// The aggregation of DifferenceModel(runs) and what it states. Throws
// UserError for p outside [0, 1] or types_per_part < 1; Cancelled.
DifferentialOverviewResult DifferentialOverview(AlignedModels runs, const DifferentialOptions& options);

// The whole way from two runs: each one's model of `request` (metric,
// slices) over its window [origin, origin + span_ns] (origins in each
// trace's model time, e.g. AlignRuns's a_start and b_start), leaves paired
// by `pairs` (MatchLeavesByPath's when empty), then DifferentialOverview.
DifferentialOverviewResult DifferentialOverview(const EntitySource& a, const EntitySource& b, double a_origin,
                                                double b_origin, int64_t span_ns, const ModelRequest& request,
                                                const DifferentialOptions& options,
                                                std::vector<LeafPair> pairs = {});

// The parts where the runs differ most, largest difference first: per
// part, its rank (1: the largest difference per second), part (its index
// in the partition's time order), start and end (seconds from the window's
// start: the aligned origin when the runs are aligned at their starts), node
// (its path, spatiotemporal mode; "" temporal), difference_rate (the sum of
// |B − A| over its cells per second of the part: for state time, states at
// once), a_rate and b_rate (each run's total per second), then one row for each of the `types_per_part` types
// whose share of the part changed most: type, a_share, b_share (of each
// run's total in the part, 0 to 1), share_change (b_share − a_share); a
// type neither run has in the part is left out (one row at least); on
// every row, what the partition states: p, gain and loss (its gain_share
// and loss_share).
Table DifferencePartsTable(const DifferentialOverviewResult& overview, int types_per_part);
// Its columns, no rows.
Table DifferencePartsTable();

}  // namespace macroscope::analysis::compare
