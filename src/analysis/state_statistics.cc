#include "analysis/state_statistics.h"

#include <cstdio>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <map>
#include <string>
#include <tuple>

#include "analysis/container_scope.h"
#include "model/lod_window.h"
#include "model/time_bins.h"
#include "util/error.h"

namespace macroscope::analysis {

namespace {

// The request's window, checked.
std::pair<double, double> WindowOf(const Trace& trace, const StatisticsRequest& request) {
  const double start = request.start.value_or(trace.start_time());
  const double end = request.end.value_or(trace.end_time());
  if (!(start < end)) throw UserError("empty time window [" + std::to_string(start) + ", " + std::to_string(end) + "]");
  return {start, end};
}

// Bins of about a thousandth of the window: few cells a store, and small
// edge bins to read from the chunks.
constexpr double kBinsPerWindow = 1024;
// Under this many bins (of 64 entities or more on average), a window's
// two edge bins cost about what its chunks do: each edge reads a whole
// chunk (4096 entities) from the store. Its chunks are read instead (1 %
// of a 10^9-entity trace: 3.9 s through summaries whose finest bins were
// 41 in the window, against 2.3 s from the chunks; 0.14 s against 5.3 s
// at 10^8 with 5).
constexpr uint64_t kFewestBins = 256;

// Store `k`'s rows from its level-of-detail summary, when it has one: its
// cells (whose entities lie inside the window) merged whole, the others
// added one by one. False (nothing added) otherwise.
bool AddFromSummary(const EntitySource& source, uint32_t k, double start, double end, StatisticsAccumulator& rows) {
  const int finest = source.summary_finest(k);
  if (finest < 0) return false;
  const Trace& trace = source.trace();
  const EntityStore& s = trace.stores()[k];
  const TimeBins bins(trace.start_time(), trace.end_time());
  // Over the whole trace, level 0's one bin holds every entity, inside it:
  // a cell per nesting level. Else the level's bins must be small at the
  // window's edges, which are read from the chunks.
  const bool whole = start <= trace.start_time() && end >= trace.end_time();
  const int level = whole ? 0 : std::min(finest, bins.LevelFor((end - start) / kBinsPerWindow));
  const uint64_t first_bin = bins.Bin(start, level), last_bin = bins.Bin(end, level);
  if (!whole && last_bin - first_bin + 1 < kFewestBins) return false;
  const LodWindow window{start, end, level, std::numeric_limits<double>::infinity()};
  const std::shared_ptr<const LodSummary> summary = source.summary(k, level, first_bin, last_bin);
  if (!summary) return false;
  ForEachInWindow(
      *summary, source, k, bins, window, [&](const EntityCopy& e) { rows.Add(s.kind, s.type, e); },
      [&](const LodCell& c) { rows.Merge(s.kind, s.type, c.cell); });
  return true;
}

}  // namespace

Statistics ComputeStatistics(const EntitySource& source, const StatisticsRequest& request) {
  const Trace& trace = source.trace();
  const auto [start, end] = WindowOf(trace, request);
  const std::vector<bool> in_scope = ContainersInScope(trace, request.containers, {}, request.container_ids);
  StatisticsAccumulator rows(start, end);
  for (uint32_t k = 0; k < trace.stores().size(); ++k) {
    const EntityStore& s = trace.stores()[k];
    if (!in_scope[s.container] || s.kind == TypeKind::kVariable) continue;
    if (AddFromSummary(source, k, start, end, rows)) continue;
    source.ForEachChunk(k, start, end, [&](const EntityChunk& chunk) { rows.Add(chunk); });
  }
  return rows.Finish(trace);
}

Statistics ComputeStatistics(const Trace& trace, const StatisticsRequest& request) {
  return ComputeStatistics(TraceSource(trace), request);
}

StatisticsRow& StatisticsAccumulator::Row(TypeKind kind, TypeId type, StringId value) {
  // A type has one kind: (type, value) alone names the row in the cache.
  const uint64_t key = uint64_t{type} << 32 | value;
  auto& cached = cache_.Slot(key);
  if (cached.key != key) cached = {key, &rows_[static_cast<size_t>(kind)][key]};
  return *cached.value;
}

void StatisticsAccumulator::Add(const EntityChunk& s) {
  if (s.kind == TypeKind::kVariable) return;
  for (size_t i = 0; i < s.size(); ++i) {
    const double a = std::min(s.start[i], s.End(i)), b = std::max(s.start[i], s.End(i));
    Add(s.kind, s.type, a, b, s.value[i]);
  }
}

void StatisticsAccumulator::Add(TypeKind kind, TypeId type, const EntityCopy& e) {
  if (kind != TypeKind::kVariable) Add(kind, type, e.Low(), e.High(), e.value);
}

void StatisticsAccumulator::Merge(TypeKind kind, TypeId type, const CellSummary& cell) {
  if (kind == TypeKind::kVariable) return;
  for (const ValueTally& t : cell.tallies) {
    StatisticsRow& row = Row(kind, type, t.value);
    row.count += t.count;
    // Inside the window, a state's time is its length: the cell's sum.
    if (kind == TypeKind::kState) row.time.Merge(t.time);
  }
}

Statistics StatisticsAccumulator::Finish(const Trace& trace) const {
  Statistics out;
  out.base = trace.time_base();
  out.start = start_;
  out.end = end_;
  // Types of one name under different container types (the "Region" of CPU
  // threads and of GPU streams) make one row, as they make one model type
  // (trace_model.cc) and as the rows of an MPI job's ranks meet, by name.
  std::map<std::tuple<std::string, std::string, std::string>, StatisticsRow> named;
  for (size_t k = 0; k < rows_.size(); ++k) {
    for (const auto& [key, row] : rows_[k]) {
      const TypeKind kind = static_cast<TypeKind>(k);
      const TypeId type = static_cast<TypeId>(key >> 32);
      const StringId value = static_cast<StringId>(key);
      std::string kind_name(TypeKindName(kind)), type_name(trace.Str(trace.type(type).name)),
          value_name(trace.Str(value));
      StatisticsRow& into = named[{kind_name, type_name, value_name}];
      into.kind = kind_name;
      into.type = type_name;
      into.value = value_name;
      into.count += row.count;
      into.time.Merge(row.time);
    }
  }
  for (auto& [key, row] : named) out.rows.push_back(std::move(row));
  FinishStatistics(out);
  return out;
}

void FinishStatistics(Statistics& out) {
  const auto is_state = [](const StatisticsRow& row) { return row.kind == TypeKindName(TypeKind::kState); };
  ExactSum all;
  for (const StatisticsRow& row : out.rows)
    if (is_state(row)) all.Merge(row.time);
  const double all_state_time = all.Value();
  for (StatisticsRow& row : out.rows) {
    if (!is_state(row)) continue;
    row.total_time = row.time.Value();
    row.mean_time = row.count > 0 ? row.total_time / static_cast<double>(row.count) : 0;
    row.share = all_state_time > 0 ? 100 * row.total_time / all_state_time : 0;
  }
  // Ties in names' order, not in the order the trace met them: the same
  // order however the trace was read (in parts too, docs/mpi.md).
  std::stable_sort(out.rows.begin(), out.rows.end(), [](const StatisticsRow& x, const StatisticsRow& y) {
    if (x.kind != y.kind) return x.kind > y.kind;  // states first
    if (x.total_time != y.total_time) return x.total_time > y.total_time;
    if (x.count != y.count) return x.count > y.count;
    if (x.type != y.type) return x.type < y.type;
    return x.value < y.value;
  });
}

Table StatisticsTable(const Statistics& stats, StatisticsTimes times) {
  const bool for_people = times == StatisticsTimes::kForPeople;
  Table table = for_people ? Table({"kind", "type", "value", "count", "total time", "mean time", "share %"})
                           : Table({"kind", "type", "value", "count", "total_time", "mean_time", "share"});
  for (const StatisticsRow& r : stats.rows) {
    table.Put(r.kind);
    table.Put(r.type);
    table.Put(r.value);
    table.Put(r.count);
    if (!for_people) {
      table.Put(r.total_time);
      table.Put(r.mean_time);
      table.Put(r.share);
    } else if (r.kind == TypeKindName(TypeKind::kState)) {
      table.Put(HumanSeconds(stats.base.Seconds(r.total_time), 0, false));
      table.Put(HumanSeconds(stats.base.Seconds(r.mean_time), 0, false));
      char share[32];
      std::snprintf(share, sizeof share, "%.2f", r.share);
      table.Put(share);
    } else {
      for (int column = 0; column < 3; ++column) table.PutEmpty();
    }
  }
  return table;
}

}  // namespace macroscope::analysis
