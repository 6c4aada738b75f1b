// The tests' own computation of kernel latencies (docs/kernel.md,
// "Latencies") from a peer's text of a trace — babeltrace2's, `perf
// script`'s, `trace-cmd report`'s lines, each turned into a LatencyEvent by
// its test — independently of macroscope: syscalls paired per thread (the
// CPU's task of its last sched_switch), interrupt handlers per CPU stack,
// wakeups to switch ins per tid; the statistics by their definitions.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace macroscope::testing {

struct LatencyEvent {
  int64_t ns = 0;
  int cpu = 0;
  std::string base;  // the name without its "system:" prefix
  // The fields the computation reads, by name: next_tid (or next_pid),
  // tid (or pid) of a wakeup or exit, irq, name (an IRQ's), vec, id.
  std::map<std::string, std::string> fields;
  std::optional<int64_t> Int(const std::string& name) const {
    auto it = fields.find(name);
    if (it == fields.end()) return std::nullopt;
    return std::stoll(it->second);
  }
  std::optional<int64_t> Tid(const std::string& tid, const std::string& pid) const {
    std::optional<int64_t> v = Int(tid);
    return v ? v : Int(pid);
  }
};

// Row key: (kind, name, id) as the command's columns give them: syscalls by
// name (id empty: -1 here), hard IRQs by number and name, softirqs by
// vector (name left out: ""), threads by tid (name left out).
using LatencyKey = std::tuple<std::string, std::string, int64_t>;
using LatencySamples = std::map<LatencyKey, std::vector<int64_t>>;

struct ReferenceLatencies {
  LatencySamples syscall, irq, sched;
  bool used_waking = false;
};

// `tracepoints`: the kernel's own tracepoint names (perf, trace-cmd:
// sys_enter_X / sys_exit_X, raw sys_enter / sys_exit with an id), else
// LTTng's (syscall_entry_X, compat_syscall_entry_X, sys_X; exits
// syscall_exit_X, compat_syscall_exit_X, exit_syscall).
inline ReferenceLatencies ComputeLatencies(const std::vector<LatencyEvent>& events, bool tracepoints) {
  ReferenceLatencies out;
  auto starts = [](const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0 && s.size() > p.size(); };
  auto entry_of = [&](const LatencyEvent& e) -> std::optional<std::string> {
    if (tracepoints) {
      if (e.base == "sys_enter") return "id " + std::to_string(e.Int("id").value_or(-1));
      if (starts(e.base, "sys_enter_")) return e.base.substr(10);
      return std::nullopt;
    }
    for (const char* p : {"syscall_entry_", "compat_syscall_entry_", "sys_"})
      if (starts(e.base, p)) return e.base.substr(std::string(p).size());
    return std::nullopt;
  };
  auto is_exit = [&](const LatencyEvent& e) {
    if (tracepoints) return e.base == "sys_exit" || starts(e.base, "sys_exit_");
    return e.base == "exit_syscall" || starts(e.base, "syscall_exit_") || starts(e.base, "compat_syscall_exit_");
  };
  std::map<int, int64_t> current;                                    // cpu -> tid of its last switch in
  std::map<int, int> cpu_depth;                                      // syscalls entered while no thread was known
  std::map<int64_t, std::vector<std::pair<std::string, int64_t>>> calls;  // tid -> open syscalls
  std::map<int, std::vector<std::tuple<char, std::string, int64_t, int64_t>>> handlers;  // cpu -> open (kind, name, id, ns)
  for (const LatencyEvent& e : events) {
    if (e.base == "sched_switch") {
      cpu_depth[e.cpu] = 0;
      current[e.cpu] = e.Tid("next_tid", "next_pid").value_or(0);
      continue;
    }
    if (e.base == "sched_process_exit") {  // exit_group never returns
      calls.erase(e.Tid("tid", "pid").value_or(-1));
      continue;
    }
    const std::optional<std::string> entry = entry_of(e);
    if (entry || is_exit(e)) {
      auto c = current.find(e.cpu);
      if (c == current.end() || c->second == 0) {  // no thread: the CPU's, ended at its next switch
        int& depth = cpu_depth[e.cpu];
        depth = entry ? depth + 1 : std::max(0, depth - 1);
        continue;
      }
      auto& open = calls[c->second];
      if (entry) {
        open.emplace_back(*entry, e.ns);
      } else if (!open.empty()) {
        out.syscall[{"syscall", open.back().first, -1}].push_back(e.ns - open.back().second);
        open.pop_back();
      }
      continue;
    }
    auto& stack = handlers[e.cpu];
    if (e.base == "irq_handler_entry") {
      const int64_t irq = e.Int("irq").value_or(-1);
      auto name = e.fields.find("name");
      stack.emplace_back('i', name != e.fields.end() && !name->second.empty() ? name->second : std::to_string(irq),
                         irq, e.ns);
    } else if (e.base == "softirq_entry") {
      stack.emplace_back('s', "", e.Int("vec").value_or(-1), e.ns);
    } else if (e.base == "irq_handler_exit" || e.base == "softirq_exit") {
      const char kind = e.base == "irq_handler_exit" ? 'i' : 's';
      if (stack.empty() || std::get<0>(stack.back()) != kind) continue;  // only the innermost, of its kind
      const auto& [k, name, id, start] = stack.back();
      out.irq[{k == 'i' ? "hardirq" : "softirq", name, id}].push_back(e.ns - start);
      stack.pop_back();
    }
  }
  // Scheduling: per tid the latest wakeup (sched_waking when the trace has
  // any) since its previous switch in, to its next switch in; a wakeup
  // and a switch in at the same ns in that order.
  for (const LatencyEvent& e : events) out.used_waking |= e.base == "sched_waking";
  const std::string wakeup = out.used_waking ? "sched_waking" : "sched_wakeup";
  std::vector<std::tuple<int64_t, int, int64_t>> sched;  // (ns, 0 wakeup / 1 switch in, tid)
  for (const LatencyEvent& e : events) {
    if (e.base == wakeup) sched.emplace_back(e.ns, 0, e.Tid("tid", "pid").value_or(-1));
    if (e.base == "sched_switch")
      if (int64_t next = e.Tid("next_tid", "next_pid").value_or(0); next != 0) sched.emplace_back(e.ns, 1, next);
  }
  std::stable_sort(sched.begin(), sched.end());
  std::map<int64_t, int64_t> pending;
  for (const auto& [ns, what, tid] : sched) {
    if (what == 0) {
      pending[tid] = ns;
    } else if (auto it = pending.find(tid); it != pending.end()) {
      out.sched[{"sched", "", tid}].push_back(ns - it->second);
      pending.erase(it);
    }
  }
  return out;
}

// The statistics of docs/kernel.md by their definitions.
struct ReferenceStatistics {
  int64_t count = 0, min = 0, max = 0, p50 = 0, p90 = 0, p99 = 0;
  double mean = 0;
};
inline ReferenceStatistics StatisticsOf(std::vector<int64_t> d) {
  std::sort(d.begin(), d.end());
  ReferenceStatistics s;
  s.count = static_cast<int64_t>(d.size());
  s.min = d.front();
  s.max = d.back();
  auto rank = [&](int p) {  // nearest rank: the smallest value with at least p % of the values at or below it
    for (int64_t r = 1; r <= s.count; ++r)
      if (r * 100 >= p * s.count) return d[static_cast<size_t>(r - 1)];
    return d.back();
  };
  s.p50 = rank(50);
  s.p90 = rank(90);
  s.p99 = rank(99);
  long double sum = 0;
  for (int64_t x : d) sum += x;
  s.mean = static_cast<double>(sum / s.count);
  return s;
}

// The rows of `kernel latency --format json` against the samples: the same
// rows, each with the samples' count, min, max and percentiles to the ns,
// and their mean.
inline void ExpectLatencyRows(const nlohmann::json& rows, const LatencySamples& expected, const std::string& what) {
  ASSERT_TRUE(rows.is_array()) << what;
  LatencySamples seen;  // the rows' keys, as the samples key them
  for (const nlohmann::json& row : rows) {
    const std::string kind = row.at("kind");
    const int64_t id = row.at("id").is_null() ? -1 : row.at("id").get<int64_t>();
    const std::string name = row.at("name");
    const LatencyKey key{kind, kind == "syscall" || kind == "hardirq" ? name : "", id};
    SCOPED_TRACE(what + ": " + kind + " " + name + " " + std::to_string(id));
    auto it = expected.find(key);
    if (it == expected.end()) {
      ADD_FAILURE() << "a row the peer's text does not give";
      continue;
    }
    seen[key];
    const ReferenceStatistics s = StatisticsOf(it->second);
    EXPECT_EQ(row.at("count").get<int64_t>(), s.count);
    EXPECT_EQ(row.at("min_ns").get<int64_t>(), s.min);
    EXPECT_EQ(row.at("max_ns").get<int64_t>(), s.max);
    EXPECT_EQ(row.at("p50_ns").get<int64_t>(), s.p50);
    EXPECT_EQ(row.at("p90_ns").get<int64_t>(), s.p90);
    EXPECT_EQ(row.at("p99_ns").get<int64_t>(), s.p99);
    EXPECT_NEAR(row.at("mean_ns").get<double>(), s.mean, 1e-9 * std::max(1.0, s.mean));
  }
  for (const auto& [key, samples] : expected)
    EXPECT_TRUE(seen.contains(key)) << what << ": no row for " << std::get<0>(key) << " " << std::get<1>(key) << " "
                                    << std::get<2>(key) << " (" << samples.size() << " samples)";
}

}  // namespace macroscope::testing
