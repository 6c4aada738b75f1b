// Statistics of a time window: per state (type, value), how many states
// meet the window, their total and mean time inside it, and the share of
// that time among all states shown; per event (type, value), a count.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "util/exact_sum.h"
#include "analysis/table.h"
#include "model/cell_summary.h"
#include "model/entity_sink.h"
#include "model/entity_source.h"
#include "model/trace.h"
#include "util/recent_answers.h"

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
// Only the chunks whose time range meets the window are read, so a narrow
// window of a huge store (store/store_source.h) costs its own chunks; a
// store with a level-of-detail summary is read from its cells of about a
// thousandth of the window, and the chunks of the window's two edge bins
// only. The rows are the same whatever the source (exact sums, in any
// order).
Statistics ComputeStatistics(const EntitySource& source, const StatisticsRequest& request);
// The same of a trace in memory.
Statistics ComputeStatistics(const Trace& trace, const StatisticsRequest& request);

// The rows of a window [start, end] gathered as entities come: a whole
// trace store by store (ComputeStatistics) or the chunks a streaming
// reading hands over (StatisticsSink); the same rows in any order, the
// times being exact sums.
class StatisticsAccumulator {
 public:
  StatisticsAccumulator(double start, double end) : start_(start), end_(end) {}
  // The chunk's entities (variables are not counted).
  void Add(const EntityChunk& chunk);
  // One entity of a store of `kind` and `type`.
  void Add(TypeKind kind, TypeId type, const EntityCopy& e);
  // The entities of a cell, which all lie inside the window
  // (model/lod_summary.h).
  void Merge(TypeKind kind, TypeId type, const CellSummary& cell);
  // The statistics, rows named by `trace` and finished (FinishStatistics).
  Statistics Finish(const Trace& trace) const;

 private:
  StatisticsRow& Row(TypeKind kind, TypeId type, StringId value);
  // An entity over [a, b] (a <= b).
  void Add(TypeKind kind, TypeId type, double a, double b, StringId value) {
    if (b < start_ || a > end_) return;
    StatisticsRow& row = Row(kind, type, value);
    ++row.count;
    if (kind == TypeKind::kState) row.time.Add(std::max(0.0, std::min(b, end_) - std::max(a, start_)));
  }

  double start_, end_;
  // By kind, (type << 32 | value) -> row; nodes do not move.
  std::array<std::unordered_map<uint64_t, StatisticsRow>, 5> rows_;  // TypeKind's five
  // In front of the maps: a trace's (type, value) pairs are few, and a map
  // lookup per entity cost more than its sum.
  RecentAnswers<StatisticsRow*> cache_;
};

// A streaming reading's entities into a StatisticsAccumulator
// (model/entity_sink.h).
class StatisticsSink : public EntitySink {
 public:
  explicit StatisticsSink(StatisticsAccumulator& accumulator) : accumulator_(accumulator) {}
  void Completed(const Trace&, const EntityChunk& chunk) override {
    accumulator_.Add(chunk);
  }

 private:
  StatisticsAccumulator& accumulator_;
};

// Given rows with kind, type, value, count and time: each state row's total
// and mean time and share of all the state rows' time, then the rows in
// their order. The sums are exact, rounded once: the same doubles however
// the states were split and summed (docs/mpi.md).
void FinishStatistics(Statistics& out);

// How a statistics table gives times: in model units, as the JSON does
// (StatisticsJson), for programs; or for people: lengths in a readable unit
// and shares to two decimals, left empty for events and links.
enum class StatisticsTimes { kModelUnits, kForPeople };

// The rows as the one result table: kind, type, value, count, total_time,
// mean_time, share (named "total time", "mean time", "share %" for people).
Table StatisticsTable(const Statistics& stats, StatisticsTimes times);

}  // namespace macroscope::analysis
