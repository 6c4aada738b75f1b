// Statistics of a time window: per state (type, value), how many states
// meet the window, their total and mean time inside it, and the share of
// that time among all states shown; per event (type, value), a count.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/exact_sum.h"
#include "model/trace.h"

namespace macroscope::analysis {

struct StatisticsRequest {
  std::optional<double> start, end;     // default: the trace's span
  std::vector<std::string> containers;  // container names; their subtrees (empty: all)
  std::vector<ContainerId> container_ids;  // the same by id, added to the names
};

struct StatisticsRow {
  std::string kind;   // "state", "event", "link"
  std::string type;
  std::string value;
  uint64_t count = 0;
  ExactSum time;          // states: the exact sum of their times inside the window
  double total_time = 0;  // `time` rounded (FinishStatistics)
  double mean_time = 0;
  double share = 0;       // states: % of all state time in the window
};

// Times and lengths in model units; `base` says what they are.
struct Statistics {
  double start = 0, end = 0;
  TimeBase base;
  std::vector<StatisticsRow> rows;  // by kind, then decreasing total time / count
};

// Throws UserError for an empty window or an unknown container (name or
// id).
Statistics ComputeStatistics(const Trace& trace, const StatisticsRequest& request);

// Given rows with kind, type, value, count and time: each state row's total
// and mean time and share of all the state rows' time, then the rows in
// their order. The sums are exact, rounded once: the same doubles however
// the states were split and summed (docs/mpi.md).
void FinishStatistics(Statistics& out);

}  // namespace macroscope::analysis
