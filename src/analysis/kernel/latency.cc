#include "analysis/kernel/latency.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <map>
#include <tuple>

#include "analysis/kernel/kernel_entities.h"
#include "analysis/kernel/process_table.h"
#include "util/error.h"

namespace macroscope::analysis::kernel {

namespace {

__extension__ typedef __int128 Int128;  // exact sums of durations and their squares

constexpr uint8_t kUnclassed = 0, kOther = 1, kWakeup = 2, kWaking = 3;

int64_t WholeTicks(double d) { return static_cast<int64_t>(std::llround(d)); }

// The scheduling latencies per tid: each switch in of a thread minus the
// latest of its wakeups since its previous switch in (a wakeup at the same
// tick as a switch in counts for it); a switch in without such a wakeup
// gives none. Both lists are (tid, ticks), sorted.
void PairWakeups(const std::vector<std::pair<int64_t, int64_t>>& wakeups,
                 const std::vector<std::pair<int64_t, int64_t>>& switch_ins,
                 std::map<int64_t, std::vector<int64_t>>& samples) {
  size_t w = 0;
  for (size_t s = 0; s < switch_ins.size(); ++s) {
    const auto [tid, at] = switch_ins[s];
    // Skip the wakeups of smaller tids, and this tid's at or before its
    // previous switch in (they were that one's).
    const bool first = s == 0 || switch_ins[s - 1].first != tid;
    const int64_t from = first ? INT64_MIN : switch_ins[s - 1].second + 1;
    while (w < wakeups.size() && wakeups[w] < std::pair{tid, from}) ++w;
    std::optional<int64_t> latest;
    while (w < wakeups.size() && wakeups[w].first == tid && wakeups[w].second <= at) latest = wakeups[w++].second;
    if (latest) samples[tid].push_back(at - *latest);
  }
}

}  // namespace

std::string_view LatencyKindName(LatencyKind kind) {
  switch (kind) {
    case LatencyKind::kSyscall: return "syscall";
    case LatencyKind::kIrq: return "irq";
    case LatencyKind::kSched: return "sched";
  }
  return "";
}

LatencyKind ParseLatencyKind(std::string_view text, std::string_view what) {
  for (LatencyKind k : {LatencyKind::kSyscall, LatencyKind::kIrq, LatencyKind::kSched})
    if (text == LatencyKindName(k)) return k;
  throw UserError(std::string(what) + ": syscall, irq or sched, not '" + std::string(text) + "'");
}

void CheckLatencyBins(int64_t bins, std::string_view what) {
  if (bins < 1 || bins > 100000)
    throw UserError(std::string(what) + ": from 1 to 100000, not " + std::to_string(bins));
}

int64_t NearestRank(const std::vector<int64_t>& sorted, int p) {
  const int64_t n = static_cast<int64_t>(sorted.size());
  const int64_t rank = std::max<int64_t>(1, (p * n + 99) / 100);  // ceil(p n / 100), in integers
  return sorted[static_cast<size_t>(rank - 1)];
}

LatencyStatistics Summarize(const std::vector<int64_t>& sorted) {
  LatencyStatistics s;
  const int64_t n = static_cast<int64_t>(sorted.size());
  s.count = n;
  s.min = sorted.front();
  s.max = sorted.back();
  s.p50 = NearestRank(sorted, 50);
  s.p90 = NearestRank(sorted, 90);
  s.p99 = NearestRank(sorted, 99);
  // Exact sums in 128 bits: the mean is sum / n, the variance
  // (n * sum of squares - sum^2) / n^2, each rounded once.
  Int128 sum = 0, squares = 0;
  for (int64_t d : sorted) {
    sum += d;
    squares += static_cast<Int128>(d) * d;
  }
  s.mean = static_cast<double>(static_cast<long double>(sum) / n);
  const Int128 spread = n * squares - sum * sum;
  s.stddev = static_cast<double>(std::sqrt(static_cast<long double>(spread)) / n);
  return s;
}

void LatencyTally::Add(const Trace& trace, const EntityChunk& chunk) {
  if (chunk.empty()) return;
  if (chunk.kind == TypeKind::kEvent) {
    for (size_t i = 0; i < chunk.size(); ++i) {
      const StringId v = chunk.Value(i);
      if (v >= event_classes_.size()) event_classes_.resize(std::max<size_t>(v + 1, event_classes_.size() * 2));
      uint8_t& c = event_classes_[v];
      if (c == kUnclassed) {
        const std::string_view base = EventBaseName(trace.Str(v));
        c = base == "sched_wakeup" ? kWakeup : base == "sched_waking" ? kWaking : kOther;
      }
      if (c == kOther) continue;
      if (std::optional<int64_t> tid = WokenTid(trace, chunk, i))
        (c == kWakeup ? wakeups_ : wakings_).emplace_back(chunk.start[i], *tid);
    }
    return;
  }
  if (chunk.kind != TypeKind::kState) return;
  const std::string_view type = trace.Str(chunk.type_name);
  if (type == kCpuStateType) {
    auto& ins = switch_ins_[chunk.container];
    for (size_t i = 0; i < chunk.size(); ++i)
      if (std::optional<int64_t> tid = NextTid(trace, chunk, i); tid && *tid != 0) ins.emplace_back(chunk.start[i], *tid);
    return;
  }
  if (type != kSyscallType && type != kInterruptType) return;
  for (size_t i = 0; i < chunk.size(); ++i) {
    const std::optional<KernelStateValue> state = KernelStateOf(trace.Str(chunk.Value(i)));
    if (!state) continue;
    // Only a state its exit ended: not one cut by the trace's end, its
    // thread's end or exit_group.
    if (!EndedByExit(trace, chunk, i, state->kind)) continue;
    std::optional<int64_t> number;
    if (state->kind == KernelState::kHardIrq) number = IntegerField(trace, chunk, i, "irq");
    if (state->kind == KernelState::kSoftIrq) number = IntegerField(trace, chunk, i, "vec");
    durations_[Key{chunk.container, chunk.Value(i), number}].push_back(WholeTicks(chunk.Duration(i)));
  }
}

std::string_view LatencyTally::WakeupEvent() const {
  return !wakings_.empty() ? "sched_waking" : !wakeups_.empty() ? "sched_wakeup" : "";
}

std::vector<LatencySeries> LatencyTally::Series(const Trace& trace, LatencyKind kind) const {
  if (!IsKernelTrace(trace))
    throw UserError("not a kernel trace: it has no CPU (a kernel trace's sched_switch, syscall and interrupt events "
                    "make the CPUs, threads and states latencies are measured on: LTTng kernel, perf, trace-cmd)");
  const TimeBase& base = trace.time_base();
  auto ns = [&](int64_t ticks) { return DurationNanoseconds(base, static_cast<double>(ticks)); };
  // (kind, number, name) -> durations: the rows in their order.
  std::map<std::tuple<std::string, std::optional<int64_t>, std::string>, std::vector<int64_t>> rows;
  if (kind == LatencyKind::kSyscall || kind == LatencyKind::kIrq) {
    for (const auto& [key, ticks] : durations_) {
      const KernelStateValue state = *KernelStateOf(trace.Str(key.value));
      if ((kind == LatencyKind::kSyscall) != (state.kind == KernelState::kSyscall)) continue;
      // A syscall is a thread's: those on a CPU whose thread was unknown end
      // at its next switch, not at their exit.
      if (state.kind == KernelState::kSyscall && !ContainerIs(trace, key.container, kThreadAlias)) continue;
      const std::string row_kind = state.kind == KernelState::kSyscall   ? "syscall"
                                   : state.kind == KernelState::kHardIrq ? "hardirq"
                                                                         : "softirq";
      std::vector<int64_t>& into = rows[{row_kind, key.number, std::string(state.name)}];
      for (int64_t t : ticks) into.push_back(ns(t));
    }
  }
  std::vector<LatencySeries> out;
  if (kind == LatencyKind::kSched) {
    // In ticks, by (tid, time); the wakeup event chosen as WakeupEvent() says.
    auto sorted = [](const std::vector<std::pair<double, int64_t>>& from) {
      std::vector<std::pair<int64_t, int64_t>> to;
      to.reserve(from.size());
      for (const auto& [t, tid] : from) to.emplace_back(tid, WholeTicks(t));
      std::sort(to.begin(), to.end());
      return to;
    };
    std::vector<std::pair<double, int64_t>> all_ins;
    for (const auto& [cpu, ins] : switch_ins_)
      if (ContainerIs(trace, cpu, kCpuAlias)) all_ins.insert(all_ins.end(), ins.begin(), ins.end());
    std::map<int64_t, std::vector<int64_t>> samples;  // tid -> ticks
    PairWakeups(sorted(wakings_.empty() ? wakeups_ : wakings_), sorted(all_ins), samples);
    // Each tid's pid and name: its last thread's (a tid used again has several).
    std::map<int64_t, const ThreadRow*> threads;
    const ProcessTableRows named = ProcessTable().Rows(trace);
    for (const ThreadRow& row : named.rows)
      if (auto [it, fresh] = threads.emplace(row.tid, &row); !fresh && row.start >= it->second->start) it->second = &row;
    for (auto& [tid, ticks] : samples) {
      LatencySeries& s = out.emplace_back();
      s.kind = "sched";
      s.id = tid;
      if (auto it = threads.find(tid); it != threads.end()) {
        s.name = it->second->name();
        s.pid = it->second->pid;
      }
      for (int64_t t : ticks) s.durations.push_back(ns(t));
      std::sort(s.durations.begin(), s.durations.end());
    }
    return out;
  }
  for (auto& [key, durations] : rows) {
    LatencySeries& s = out.emplace_back();
    s.kind = std::get<0>(key);
    s.id = std::get<1>(key);
    s.name = std::get<2>(key);
    s.durations = std::move(durations);
    std::sort(s.durations.begin(), s.durations.end());
  }
  return out;
}

Table LatencyColumns() {
  return Table({"kind", "name", "id", "pid", "count", "min_ns", "mean_ns", "max_ns", "stddev_ns", "p50_ns", "p90_ns",
                "p99_ns"});
}

Table LatencyHistogramColumns() { return Table({"bin_start", "bin_end", "count"}); }

Table LatencyTally::ToTable(const Trace& trace, LatencyKind kind) const {
  Table table = LatencyColumns();
  auto put = [&](const std::optional<int64_t>& v) {
    if (v)
      table.Put(*v);
    else
      table.PutEmpty();
  };
  for (const LatencySeries& s : Series(trace, kind)) {
    const LatencyStatistics st = Summarize(s.durations);
    table.Put(s.kind);
    table.Put(s.name);
    put(s.id);
    put(s.pid);
    table.Put(st.count);
    table.Put(st.min);
    table.Put(st.mean);
    table.Put(st.max);
    table.Put(st.stddev);
    for (int64_t percentile : {st.p50, st.p90, st.p99}) table.Put(percentile);
  }
  return table;
}

Table LatencyTally::HistogramTable(const Trace& trace, LatencyKind kind, int64_t bins,
                                   const std::optional<std::string>& name) const {
  CheckLatencyBins(bins, "bins");
  std::vector<int64_t> durations;
  bool named = false;
  for (const LatencySeries& s : Series(trace, kind)) {
    if (name && s.name != *name && !(s.id && std::to_string(*s.id) == *name)) continue;
    named = true;
    durations.insert(durations.end(), s.durations.begin(), s.durations.end());
  }
  if (name && !named)
    throw UserError("name: no " + std::string(LatencyKindName(kind)) + " row named '" + *name + "' (nor of that id)");
  Table table = LatencyHistogramColumns();
  if (durations.empty()) return table;
  const auto [lo, hi] = std::minmax_element(durations.begin(), durations.end());
  const int64_t width = (*hi - *lo + 1 + bins - 1) / bins;  // ceil((max - min + 1) / bins), at least 1
  std::vector<int64_t> counts(static_cast<size_t>(bins));
  for (int64_t d : durations) ++counts[static_cast<size_t>((d - *lo) / width)];
  for (int64_t b = 0; b < bins; ++b) {
    table.Put(*lo + b * width);
    table.Put(*lo + (b + 1) * width);
    table.Put(counts[static_cast<size_t>(b)]);
  }
  return table;
}

}  // namespace macroscope::analysis::kernel
