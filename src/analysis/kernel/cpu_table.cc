#include "analysis/kernel/cpu_table.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string_view>

#include "analysis/entity_selection.h"

namespace macroscope::analysis::kernel {

namespace {

constexpr std::string_view kCpuType = "ctf.cpu";  // the CTF reader's CPU containers (alias)

bool IsCpu(const Trace& trace, ContainerId id) {
  const Container& c = trace.container(id);
  return c.type != kNone && trace.Str(trace.type(c.type).alias) == kCpuType;
}

// The tid a sched_switch switched in: LTTng's next_tid, perf's and
// ftrace's next_pid (a tid too).
std::optional<int64_t> NextTid(const Trace& trace, std::span<const ExtraField> fields) {
  for (std::string_view name : {"next_tid", "next_pid"})
    for (const ExtraField& f : fields)
      if (trace.Str(f.name) == name) {
        std::string_view text = trace.Str(f.value);
        int64_t tid = 0;
        auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), tid);
        if (error == std::errc() && end == text.data() + text.size()) return tid;
      }
  return std::nullopt;
}

}  // namespace

int64_t CpuRow::running_ns() const {
  int64_t sum = 0;
  for (const CpuThreadTime& t : threads) sum += t.running_ns;
  return sum;
}

void CpuTable::Add(const Trace& trace, const EntityRecord& r) {
  if (r.kind != TypeKind::kState || trace.Str(r.type) != "CPU" || !IsCpu(trace, r.container)) return;
  Sums& s = sums_[r.container];
  if (!s.seen || r.start < s.first) s.first = r.start;
  s.seen = true;
  const TimeBase& base = trace.time_base();
  int64_t d = Nanoseconds(base, r.end) - Nanoseconds(base, r.start);
  std::optional<int64_t> tid = NextTid(trace, r.fields);
  if (trace.Str(r.value) == "idle" || tid.value_or(0) == 0)
    s.idle += d;
  else
    s.running[*tid] += d;
}

std::vector<CpuRow> CpuTable::Rows(const Trace& trace) const {
  const TimeBase& base = trace.time_base();
  const int64_t start = Nanoseconds(base, trace.start_time()), end = Nanoseconds(base, trace.end_time());
  std::vector<CpuRow> rows;
  for (ContainerId id = 0; id < trace.containers().size(); ++id) {
    if (!IsCpu(trace, id)) continue;
    CpuRow& row = rows.emplace_back();
    row.cpu = std::string(trace.Str(trace.container(id).name));
    row.span_ns = end - start;
    row.unknown_ns = row.span_ns;
    auto it = sums_.find(id);
    if (it == sums_.end()) continue;
    const Sums& s = it->second;
    row.unknown_ns = Nanoseconds(base, s.first) - start;
    row.idle_ns = s.idle;
    for (const auto& [tid, ns] : s.running) row.threads.push_back({tid, ns});
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

std::vector<std::string> CpuColumns() { return {"cpu", "kind", "tid", "pid", "name", "ns"}; }

std::vector<std::vector<ProcessCell>> CpuCells(const std::vector<CpuRow>& cpus, const ProcessTableRows& threads) {
  std::unordered_map<int64_t, const ThreadRow*> last;  // tid -> its latest thread
  for (const ThreadRow& row : threads.rows)
    if (auto [it, inserted] = last.try_emplace(row.tid, &row); !inserted && it->second->start < row.start)
      it->second = &row;
  std::vector<std::vector<ProcessCell>> out;
  auto add = [&](const CpuRow& cpu, std::string kind, ProcessCell tid, ProcessCell pid, ProcessCell name,
                 int64_t ns) {
    out.push_back({cpu.cpu, std::move(kind), std::move(tid), std::move(pid), std::move(name), ns});
  };
  for (const CpuRow& cpu : cpus) {
    for (const CpuThreadTime& t : cpu.threads) {
      auto it = last.find(t.tid);
      ProcessCell pid, name;
      if (it != last.end()) {
        pid = it->second->pid;
        name = it->second->name();
      }
      add(cpu, "thread", t.tid, pid, name, t.running_ns);
    }
    add(cpu, "idle", {}, {}, {}, cpu.idle_ns);
    add(cpu, "unknown", {}, {}, {}, cpu.unknown_ns);
    add(cpu, "span", {}, {}, {}, cpu.span_ns);
  }
  return out;
}

}  // namespace macroscope::analysis::kernel
