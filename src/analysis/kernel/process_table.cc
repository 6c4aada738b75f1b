#include "analysis/kernel/process_table.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string_view>

#include "analysis/entity_selection.h"
#include "analysis/kernel/kernel_entities.h"

namespace macroscope::analysis::kernel {

namespace {

std::string_view TextField(const Trace& trace, const Container& c, std::string_view name) {
  for (const ExtraField& f : c.extras)
    if (trace.Str(f.name) == name) return trace.Str(f.value);
  return {};
}

// A process is in the subtree of `root` when it is root or one of its
// ancestors (by ppid) is; `parent` maps pid to ppid.
bool InSubtree(int64_t pid, int64_t root, const std::unordered_map<int64_t, int64_t>& parent) {
  for (size_t steps = 0; steps <= parent.size(); ++steps) {  // bounded: a bad table may loop
    if (pid == root) return true;
    auto it = parent.find(pid);
    if (it == parent.end() || it->second == pid) return false;
    pid = it->second;
  }
  return false;
}

}  // namespace

double* ProcessTable::TimeOf(Sums& s, std::string_view value) {
  if (value == "user") return &s.user;
  if (value == "kernel") return &s.kernel;
  if (value == "interrupted") return &s.interrupted;
  if (value == "exiting") return &s.exiting;
  if (value == "waiting") return &s.waiting;
  if (value == "runnable") return &s.runnable;
  return nullptr;
}

void ProcessTable::Add(const Trace& trace, const EntityChunk& chunk) {
  if (chunk.kind != TypeKind::kState || chunk.empty()) return;
  const std::string_view type = trace.Str(chunk.type_name);
  if (type == kSyscallType) {
    sums_[chunk.container].syscalls += static_cast<int64_t>(chunk.size());
    return;
  }
  if (type != kThreadStateType) return;
  Sums& s = sums_[chunk.container];
  for (size_t i = 0; i < chunk.size(); ++i)
    if (double* time = TimeOf(s, trace.Str(chunk.Value(i)))) *time += chunk.Duration(i);
}

ProcessTableRows ProcessTable::Rows(const Trace& trace, std::optional<int64_t> subtree) const {
  ProcessTableRows out;
  std::set<std::string, std::less<>> counters;
  for (ContainerId id = 0; id < trace.containers().size(); ++id) {
    const Container& c = trace.container(id);
    if (!ContainerIs(trace, id, kThreadAlias)) continue;
    auto tid = IntegerField(trace, c, "tid");
    if (!tid) continue;  // a userspace thread (vtid)
    ThreadRow& row = out.rows.emplace_back();
    row.container = id;
    row.tid = *tid;
    row.pid = IntegerField(trace, c, "pid").value_or(*tid);
    row.ppid = IntegerField(trace, c, "ppid");
    std::string_view names = TextField(trace, c, "names");
    for (size_t begin = 0; begin < names.size();) {
      size_t bar = std::min(names.find('|', begin), names.size());
      row.names.emplace_back(names.substr(begin, bar - begin));
      begin = bar + 1;
    }
    row.start = Nanoseconds(trace.time_base(), c.start);
    row.end = IntegerField(trace, c, "end").value_or(Nanoseconds(trace.time_base(), c.end));
    if (auto it = sums_.find(id); it != sums_.end()) {
      const Sums& s = it->second;
      auto ns = [&](double ticks) { return Nanoseconds(trace.time_base(), ticks); };
      row.user_ns = ns(s.user);
      row.kernel_ns = ns(s.kernel);
      row.interrupted_ns = ns(s.interrupted);
      row.exiting_ns = ns(s.exiting);
      row.waiting_ns = ns(s.waiting);
      row.runnable_ns = ns(s.runnable);
      row.syscalls = s.syscalls;
    }
    for (const ExtraField& f : c.extras)
      if (std::string_view name = trace.Str(f.name); name.substr(0, 5) == "perf_") {
        counters.emplace(name);
        row.counters.emplace(name, std::stoll(std::string(trace.Str(f.value))));
      }
  }
  out.counter_columns.assign(counters.begin(), counters.end());
  // The seed's compute instructions: instructions minus L1 data loads and
  // stores, from the thread's own counters, else the CPU's.
  for (std::string_view prefix : {"perf_thread_", "perf_cpu_"}) {
    std::string instructions = std::string(prefix) + "instructions", loads = std::string(prefix) + "L1_dcache_loads",
                stores = std::string(prefix) + "L1_dcache_stores";
    if (!counters.contains(instructions) || !counters.contains(loads) || !counters.contains(stores)) continue;
    out.counter_columns.emplace_back("compute_instructions");
    for (ThreadRow& row : out.rows) {
      auto i = row.counters.find(instructions), l = row.counters.find(loads), s = row.counters.find(stores);
      if (i != row.counters.end() && l != row.counters.end() && s != row.counters.end())
        row.counters["compute_instructions"] = i->second - (l->second + s->second);
    }
    break;
  }
  if (subtree) {
    std::unordered_map<int64_t, int64_t> parent;
    for (const ThreadRow& row : out.rows)
      if (row.ppid && row.tid == row.pid) parent[row.pid] = *row.ppid;
    for (const ThreadRow& row : out.rows)  // processes known only by their other threads
      if (row.ppid) parent.try_emplace(row.pid, *row.ppid);
    // A row's own ppid first: a pid used again has a parent per incarnation.
    std::erase_if(out.rows, [&](const ThreadRow& row) {
      return row.pid != *subtree && !(row.ppid && InSubtree(*row.ppid, *subtree, parent));
    });
  }
  std::stable_sort(out.rows.begin(), out.rows.end(), [](const ThreadRow& a, const ThreadRow& b) {
    if (a.running_ns() != b.running_ns()) return a.running_ns() > b.running_ns();
    if (a.tid != b.tid) return a.tid < b.tid;
    return a.start < b.start;
  });
  return out;
}

Table ProcessesTable(const ProcessTableRows& rows) {
  std::vector<std::string> columns = {"tid",     "pid",       "ppid",           "name",       "names",
                                      "start",   "end",       "running_ns",     "user_ns",    "kernel_ns",
                                      "interrupted_ns", "exiting_ns", "waiting_ns", "runnable_ns", "syscalls"};
  columns.insert(columns.end(), rows.counter_columns.begin(), rows.counter_columns.end());
  Table table(std::move(columns));
  for (const ThreadRow& row : rows.rows) {
    std::string names;
    for (const std::string& n : row.names) names += (names.empty() ? "" : "|") + n;
    table.Put(row.tid);
    table.Put(row.pid);
    if (row.ppid)
      table.Put(*row.ppid);
    else
      table.PutEmpty();
    table.Put(row.name());
    table.Put(names);
    for (int64_t v : {row.start, row.end, row.running_ns(), row.user_ns, row.kernel_ns, row.interrupted_ns,
                      row.exiting_ns, row.waiting_ns, row.runnable_ns, row.syscalls})
      table.Put(v);
    for (const std::string& column : rows.counter_columns) {
      auto it = row.counters.find(column);
      if (it == row.counters.end())
        table.PutEmpty();
      else
        table.Put(it->second);
    }
  }
  return table;
}

}  // namespace macroscope::analysis::kernel
