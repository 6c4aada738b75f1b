// A campaign: N runs of one experiment, and which of them is not like the
// others (docs/compare.md, "Campaigns"). Per function, the distribution of
// its inclusive time across the runs; per run, its distance from the
// campaign on profiles and on microscopic models, the runs far above the
// others flagged by the seed's rule (anomalies.h: outside mean ± 3σ/√n of
// the N distances), and each flagged run's profile diff against the median
// run. The command prints it; this is the one place that computes it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/anomalies.h"
#include "analysis/compare/run_diff.h"
#include "analysis/table.h"

namespace macroscope::analysis::compare {

struct CampaignRequest {
  int32_t slices = 100;  // of each run's model, over its own span
  size_t diff_rows = 5;  // of each flagged run's diff against the median run
};

// A function's inclusive time in each run, ns (0 in a run without it), in
// the runs' order.
struct FunctionValues {
  std::string function;
  size_t runs = 0;  // that have it
  std::vector<int64_t> inclusive_ns;
};

// A flagged run and the top rows of FunctionDiffTable(median run, it).
struct FlaggedDiff {
  size_t run = 0;  // index into the runs
  Table diff;
};

struct Campaign {
  // function, runs (how many have it), min_ns, q1_ns, median_ns, q3_ns,
  // max_ns, mean_ns: of its inclusive time over all N runs (0 where absent),
  // quartiles interpolated as box plots draw them (util/quantile.h);
  // integers when whole, else doubles; by decreasing median, then name.
  Table functions;
  // run (1..N), trace (its name), exclusive_ns (all its functions'),
  // profile_distance, model_distance, flagged ("profile", "model",
  // "profile model" or empty), in the runs' order.
  Table runs;
  std::vector<FunctionValues> values;  // the functions' rows' values, in the table's order
  std::vector<double> profile_distances, model_distances;
  AnomalyBand profile_band, model_band;
  std::vector<size_t> flagged;  // run indices, in order
  size_t median_run = 0;        // the run of median profile distance
  std::vector<FlaggedDiff> diffs;
  std::string summary;  // one line for people
};

// Throws UserError for fewer than 3 runs (no spread to measure: with two,
// each is as far from the other), or when a run is not comparable with the
// first (CheckComparable: another kind of trace, no container in common).
// Containers are matched against the first run (MatchContainers).
Campaign AnalyzeCampaign(const std::vector<Run>& runs, const CampaignRequest& request);

// The indices into campaign.values of the `count` functions whose inclusive
// time spreads most (max - min), widest first (ties in the values' order):
// those `campaign -o` draws.
std::vector<size_t> WidestSpread(const Campaign& campaign, size_t count);

}  // namespace macroscope::analysis::compare
