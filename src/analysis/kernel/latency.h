// Kernel latencies: the durations of syscalls (entry to exit on one
// thread), of hard IRQ and softirq handlers (entry to exit on one CPU), and
// each thread's scheduling latency (its wakeup to the sched_switch that
// switches it in), with their statistics per name and their histogram.
// From the model the CTF reader's kernel mapping makes of LTTng kernel,
// perf and trace-cmd traces (kernel_entities.h). One tally serves
// `macroscope kernel latency` and the SQL functions kernel_latency() and
// kernel_latency_histogram() (docs/kernel.md, "Latencies").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/table.h"
#include "model/entity_chunk.h"
#include "model/trace.h"

namespace macroscope::analysis::kernel {

enum class LatencyKind : uint8_t { kSyscall, kIrq, kSched };

// "syscall", "irq", "sched" and back; UserError naming `what` (an option or
// argument) for another word.
std::string_view LatencyKindName(LatencyKind kind);
LatencyKind ParseLatencyKind(std::string_view text, std::string_view what);
// UserError naming `what` unless 1 <= bins <= 100000.
void CheckLatencyBins(int64_t bins, std::string_view what);

// Statistics of integer durations (ns): mean and standard deviation (of
// the population: divided by n) from exact integer sums; percentiles by
// nearest rank (the value of rank ceil(p/100 * n) in ascending order).
struct LatencyStatistics {
  int64_t count = 0, min = 0, max = 0, p50 = 0, p90 = 0, p99 = 0;
  double mean = 0, stddev = 0;
};
// `durations` sorted ascending, at least one.
LatencyStatistics Summarize(const std::vector<int64_t>& sorted);
// The nearest-rank percentile p (0 < p <= 100) of `sorted` (not empty).
int64_t NearestRank(const std::vector<int64_t>& sorted, int p);

// One row: what it measures and its durations, ascending.
struct LatencySeries {
  std::string kind;               // "syscall", "hardirq", "softirq", "sched"
  std::string name;               // the syscall, the IRQ's handler name (else number), the vector, the thread's name
  std::optional<int64_t> id;      // the IRQ number, the softirq vector, the thread's tid
  std::optional<int64_t> pid;     // sched: the thread's process
  std::vector<int64_t> durations;  // ns, ascending
};

class LatencyTally {
 public:
  // Every chunk of one trace, in any order: Syscall and Interrupt states
  // whose exit the trace holds, each CPU's running-task states (a switch
  // in at each start) and sched_wakeup / sched_waking events; others are
  // ignored. Reads only `trace`'s strings (it may still be being read).
  void Add(const Trace& trace, const EntityChunk& chunk);

  // Once the trace is read (containers and time base complete): the rows of
  // `kind`, sorted (syscalls by name; hard IRQs then softirqs, by number
  // then name; threads by tid). UserError when the trace is not a kernel
  // trace (no CPU: no sched_switch, syscall or interrupt mapping).
  std::vector<LatencySeries> Series(const Trace& trace, LatencyKind kind) const;

  // Which wakeup event the sched latencies start at: "sched_waking" when
  // the trace has any, else "sched_wakeup" ("" when it has neither).
  std::string_view WakeupEvent() const;

  // The table `kernel latency --kind K` prints: LatencyColumns(), one row
  // per series.
  Table ToTable(const Trace& trace, LatencyKind kind) const;
  // The histogram of the durations of `kind` (of the rows named `name`, or
  // whose id is `name`, when given): `bins` bins of equal integer width
  // w = ceil((max - min + 1) / bins) from the least duration, [bin_start,
  // bin_end) in ns; no row without durations. UserError when `bins` is not
  // in [1, 100000] or no row is named `name`.
  Table HistogramTable(const Trace& trace, LatencyKind kind, int64_t bins,
                       const std::optional<std::string>& name) const;

 private:
  // Durations in ticks, turned into ns once the time base is final.
  struct Key {
    ContainerId container;
    StringId value;
    std::optional<int64_t> number;  // an IRQ's number, a softirq's vector
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const {
      return std::hash<uint64_t>()((uint64_t{k.container} << 32) ^ k.value ^ (uint64_t(k.number.value_or(-1)) << 17));
    }
  };
  std::unordered_map<Key, std::vector<int64_t>, KeyHash> durations_;  // ticks: syscalls and interrupts
  // Per CPU container: (time, tid) of each switch in.
  std::unordered_map<ContainerId, std::vector<std::pair<double, int64_t>>> switch_ins_;
  // (time, tid) of each sched_wakeup and sched_waking.
  std::vector<std::pair<double, int64_t>> wakeups_, wakings_;
  std::vector<uint8_t> event_classes_;  // by StringId: 0 unknown, 1 other, 2 wakeup, 3 waking
};

// The columns of a latency table: kind, name, id, pid, count, min_ns,
// mean_ns, max_ns, stddev_ns, p50_ns, p90_ns, p99_ns (an empty table).
Table LatencyColumns();
// The histogram's: bin_start, bin_end, count.
Table LatencyHistogramColumns();

}  // namespace macroscope::analysis::kernel
