#include "analysis/kernel/cpu_table.h"

#include <algorithm>
#include <optional>
#include <string_view>

#include "analysis/entity_selection.h"
#include "analysis/kernel/kernel_entities.h"

namespace macroscope::analysis::kernel {

int64_t CpuRow::running_ns() const {
  int64_t sum = 0;
  for (const CpuThreadTime& t : threads) sum += t.running_ns;
  return sum;
}

void CpuTable::Add(const Trace& trace, const EntityChunk& chunk) {
  if (chunk.kind != TypeKind::kState || chunk.empty() || trace.Str(chunk.type_name) != kCpuStateType) return;
  Sums& s = sums_[chunk.container];
  for (size_t i = 0; i < chunk.size(); ++i) {
    if (!s.seen || chunk.start[i] < s.first) s.first = chunk.start[i];
    s.seen = true;
    const std::optional<int64_t> tid = NextTid(trace, chunk, i);
    if (trace.Str(chunk.Value(i)) == "idle" || tid.value_or(0) == 0)
      s.idle += chunk.Duration(i);
    else
      s.running[*tid] += chunk.Duration(i);
  }
}

std::vector<CpuRow> CpuTable::Rows(const Trace& trace) const {
  const TimeBase& base = trace.time_base();
  const int64_t start = Nanoseconds(base, trace.start_time()), end = Nanoseconds(base, trace.end_time());
  std::vector<CpuRow> rows;
  for (ContainerId id = 0; id < trace.containers().size(); ++id) {
    if (!ContainerIs(trace, id, kCpuAlias)) continue;
    CpuRow& row = rows.emplace_back();
    row.cpu = std::string(trace.Str(trace.container(id).name));
    row.span_ns = end - start;
    row.unknown_ns = row.span_ns;
    auto it = sums_.find(id);
    if (it == sums_.end()) continue;
    const Sums& s = it->second;
    row.unknown_ns = Nanoseconds(base, s.first) - start;
    row.idle_ns = Nanoseconds(base, s.idle);
    for (const auto& [tid, ticks] : s.running) row.threads.push_back({tid, Nanoseconds(base, ticks)});
    std::stable_sort(row.threads.begin(), row.threads.end(), [](const CpuThreadTime& a, const CpuThreadTime& b) {
      return a.running_ns > b.running_ns;
    });
  }
  // cpu2 before cpu10: by the name's length, then the name.
  std::stable_sort(rows.begin(), rows.end(), [](const CpuRow& a, const CpuRow& b) {
    return a.cpu.size() != b.cpu.size() ? a.cpu.size() < b.cpu.size() : a.cpu < b.cpu;
  });
  return rows;
}

Table CpuTable::ToTable(const Trace& trace, const ProcessTableRows& threads) const {
  std::unordered_map<int64_t, const ThreadRow*> last;  // tid -> its latest thread
  for (const ThreadRow& row : threads.rows)
    if (auto [it, inserted] = last.try_emplace(row.tid, &row); !inserted && it->second->start < row.start)
      it->second = &row;
  Table table({"cpu", "kind", "tid", "pid", "name", "ns"});
  // A row of the CPU's own time: no thread.
  auto own = [&](const CpuRow& cpu, const char* kind, int64_t ns) {
    table.Put(cpu.cpu);
    table.Put(kind);
    table.PutEmpty();
    table.PutEmpty();
    table.PutEmpty();
    table.Put(ns);
  };
  for (const CpuRow& cpu : Rows(trace)) {
    for (const CpuThreadTime& t : cpu.threads) {
      table.Put(cpu.cpu);
      table.Put("thread");
      table.Put(t.tid);
      if (auto it = last.find(t.tid); it != last.end()) {
        table.Put(it->second->pid);
        table.Put(it->second->name());
      } else {
        table.PutEmpty();
        table.PutEmpty();
      }
      table.Put(t.running_ns);
    }
    own(cpu, "idle", cpu.idle_ns);
    own(cpu, "unknown", cpu.unknown_ns);
    own(cpu, "span", cpu.span_ns);
  }
  return table;
}

}  // namespace macroscope::analysis::kernel
