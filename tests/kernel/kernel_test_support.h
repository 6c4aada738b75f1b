// Helpers of the kernel tests: the suite's kernel-shaped trace (written by
// the kernel.make_kernel_trace fixture, see kernel_trace_fixture/), its
// ground truth, and babeltrace2's text output with the fields the thread
// analyses need, plus an independent computation of running time per thread
// from that text. Everything else comes from tests/ctf's and tests/support's
// helpers (BabeltraceEvents, CountsPerName, TempDir, Macroscope...).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "../ctf/ctf_test_support.h"
#include "switch_time.h"

namespace macroscope::kernel::testing {

using namespace ::macroscope::ctf::testing;
using ::macroscope::testing::CpuTime;
using ::macroscope::testing::RunningNsPerTid;
using ::macroscope::testing::SwitchIn;
using ::macroscope::testing::TimePerCpu;

// The trace directory (holding `metadata`, channel0_0, channel0_1); its
// ground truth; both set by tests/kernel/CMakeLists.txt for every test there.
inline std::string KernelTraceDir() { return KERNEL_TRACE_DIR; }
inline std::string KernelTraceTruthPath() { return KERNEL_TRACE_TRUTH; }

// ground-truth.json, parsed once. Times are ns from the trace's first event
// (macroscope's model times); "first_event_clock_ns" is that event's time as
// babeltrace2 prints it. Keys: events, per_name, per_prefix, per_subsystem,
// per_process_subsystem, cpus[{cpu, idle_ns}], threads[{tid, pid, ppid, name,
// names, start, end, exited, running_ns, user_ns, kernel_ns,
// interrupted_ns, waiting_ns, runnable_ns, syscalls, states[[start, end,
// state]]}]. The rules behind the figures: scenario_truth.h.
inline const nlohmann::json& KernelGroundTruth() {
  static const nlohmann::json truth = [] {
    std::ifstream in(KernelTraceTruthPath());
    EXPECT_TRUE(in) << "no " << KernelTraceTruthPath() << " (run the kernel.make_kernel_trace fixture)";
    return in ? nlohmann::json::parse(in) : nlohmann::json::object();
  }();
  return truth;
}

// The ground truth's entry of thread `tid` (null when it has none).
inline nlohmann::json TruthThread(int64_t tid) {
  for (const nlohmann::json& t : KernelGroundTruth().at("threads"))
    if (t.at("tid").get<int64_t>() == tid) return t;
  return nullptr;
}

// One event of `babeltrace2 --clock-seconds --no-delta DIR`, with its fields
// as printed: `fields["prev_tid"] == "101"`, strings without their quotes,
// enumerations and compounds as printed. The packet context comes first, so
// `cpu_id` is the packet's even if the payload has one too.
struct KernelEvent {
  std::string name;
  std::string base;  // the name without perf's "subsystem:" prefix
  int64_t ns = 0;    // from the clock's origin
  int cpu = -1;      // the packet context's cpu_id, else perf's perf_cpu; -1 without one
  std::map<std::string, std::string, std::less<>> fields;

  // A task id field: LTTng's `WHO_tid`, else perf's `WHO_pid` (a tid
  // too); with `who` empty, `tid`, else `pid`.
  int64_t Tid(const std::string& who) const {
    const std::string prefix = who.empty() ? who : who + "_";
    return Int(fields.contains(prefix + "tid") ? prefix + "tid" : prefix + "pid");
  }

  int64_t Int(std::string_view field) const {
    auto it = fields.find(field);
    EXPECT_NE(it, fields.end()) << name << " has no field " << field;
    return it == fields.end() ? 0 : std::stoll(it->second);
  }
};

// "{ cpu_id = 0 }, { prev_comm = "a b", prev_state = 1, e = ( "X" : container = 5 ) }"
// -> name = value pairs (the first of a name wins).
inline std::map<std::string, std::string, std::less<>> ParseBabeltraceFields(std::string_view text) {
  std::map<std::string, std::string, std::less<>> fields;
  size_t i = 0;
  auto skip_separators = [&] {
    while (i < text.size() && (text[i] == ' ' || text[i] == ',' || text[i] == '{' || text[i] == '}')) ++i;
  };
  while (true) {
    skip_separators();
    if (i >= text.size()) break;
    size_t eq = text.find(" = ", i);
    if (eq == std::string_view::npos) break;
    std::string name(text.substr(i, eq - i));
    i = eq + 3;
    std::string value;
    if (i < text.size() && text[i] == '"') {  // a string, with \" escapes
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\' && i + 1 < text.size()) ++i;
        value += text[i];
      }
      ++i;
    } else if (i < text.size() && (text[i] == '(' || text[i] == '{' || text[i] == '[')) {  // kept as printed
      size_t start = i;
      int depth = 0;
      bool in_string = false;
      for (; i < text.size(); ++i) {
        char c = text[i];
        if (in_string) {
          if (c == '\\') ++i;
          else if (c == '"') in_string = false;
        } else if (c == '"') {
          in_string = true;
        } else if (c == '(' || c == '{' || c == '[') {
          ++depth;
        } else if ((c == ')' || c == '}' || c == ']') && --depth == 0) {
          ++i;
          break;
        }
      }
      value = std::string(text.substr(start, i - start));
    } else {
      size_t end = text.find_first_of(", }", i);
      if (end == std::string_view::npos) end = text.size();
      value = std::string(text.substr(i, end - i));
      i = end;
    }
    fields.emplace(std::move(name), std::move(value));
  }
  return fields;
}

inline std::vector<KernelEvent> KernelBabeltraceEvents(const std::string& dir) {
  std::vector<KernelEvent> events;
  for (BabeltraceEvent& b : BabeltraceEvents(dir)) {
    KernelEvent e;
    e.name = std::move(b.name);
    e.base = e.name.substr(e.name.rfind(':') + 1);
    e.ns = b.ns;
    e.fields = ParseBabeltraceFields(b.fields);
    auto cpu = e.fields.find("cpu_id");
    if (cpu == e.fields.end()) cpu = e.fields.find("perf_cpu");
    if (cpu != e.fields.end()) e.cpu = std::stoi(cpu->second);
    events.push_back(std::move(e));
  }
  return events;
}

// Whose each CPU's time was (switch_time.h), from babeltrace2's sched_switch lines.
inline std::map<int, CpuTime> TimePerCpu(const std::vector<KernelEvent>& events) {
  std::vector<SwitchIn> switches;
  for (const KernelEvent& e : events) {
    if (e.base != "sched_switch") continue;
    EXPECT_GE(e.cpu, 0) << "sched_switch without a cpu";
    switches.push_back({e.cpu, e.ns, e.Tid("next")});
  }
  return TimePerCpu(switches, events.empty() ? 0 : events.back().ns);
}

// Running ns per tid, every tid ever switched in (0 ns included).
inline std::map<int64_t, int64_t> RunningNsPerThread(const std::vector<KernelEvent>& events) {
  return RunningNsPerTid(TimePerCpu(events));
}

// Where each exit's thread ends, from babeltrace2's lines: a task runs on
// after its exit until it switches out dead (prev_state with EXIT_ZOMBIE,
// EXIT_DEAD or TASK_DEAD: 0x70; preempted or blocked, it comes back), or is
// freed while off its CPU; the trace's last event when neither comes and
// it is still its CPU's current task (else its last sight: no entry).
// Keyed by the exit's index in `events`.
inline std::map<size_t, int64_t> EndsOfExits(const std::vector<KernelEvent>& events) {
  std::map<size_t, int64_t> ends;
  std::map<int, int64_t> current;        // cpu -> tid switched in last
  std::map<int64_t, size_t> exiting;     // tid -> its exit, not ended yet
  for (size_t i = 0; i < events.size(); ++i) {
    const KernelEvent& e = events[i];
    if (e.base == "sched_switch") {
      auto it = exiting.find(e.Tid("prev"));
      if (it != exiting.end() && (e.Int("prev_state") & 0x70) != 0) {
        ends[it->second] = e.ns;
        exiting.erase(it);
      }
      current[e.cpu] = e.Tid("next");
    } else if (e.base == "sched_process_exit") {
      exiting[e.Tid({})] = i;
    } else if (e.base == "sched_process_free") {
      auto it = exiting.find(e.Tid({}));
      bool running = false;
      for (const auto& [cpu, tid] : current) running |= it != exiting.end() && tid == it->first;
      if (it != exiting.end() && !running) {
        ends[it->second] = e.ns;
        exiting.erase(it);
      }
    }
  }
  for (const auto& [tid, exit] : exiting)
    for (const auto& [cpu, running] : current)
      if (running == tid) ends[exit] = events.back().ns;
  return ends;
}

// What `kernel processes --cpus` says of one CPU.
struct CpuFigures {
  int64_t running = 0, idle = -1, unknown = -1, span = -1;
  std::map<int64_t, int64_t> threads;  // tid -> ns
};

// A CPU's time is always someone's: on `trace` (any kernel trace macroscope
// reads), per CPU its threads' running time + idle + unknown equals the
// span, to the nanosecond; per thread, the CPUs' figures add up to its
// running_ns in `kernel processes` (the Thread states, incarnations
// summed). Returns the CPUs' figures by name ("cpu0").
inline std::map<std::string, CpuFigures> ExpectCpuTimeConserved(const std::string& trace) {
  auto json = [](const std::string& args) {
    CommandResult r = Macroscope(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::array();
  };
  std::map<std::string, CpuFigures> cpus;
  std::map<int64_t, int64_t> per_tid;  // summed over the CPUs
  for (const nlohmann::json& row : json("kernel processes --cpus --format json " + Quote(trace))) {
    CpuFigures& f = cpus[row["cpu"].get<std::string>()];
    const std::string kind = row["kind"];
    const int64_t ns = row["ns"];
    if (kind == "thread") {
      f.running += ns;
      f.threads[row["tid"].get<int64_t>()] = ns;
      per_tid[row["tid"].get<int64_t>()] += ns;
    } else {
      (kind == "idle" ? f.idle : kind == "unknown" ? f.unknown : f.span) = ns;
    }
  }
  EXPECT_FALSE(cpus.empty()) << "no CPU in " << trace;
  for (const auto& [cpu, f] : cpus) {
    EXPECT_GE(f.idle, 0) << cpu;
    EXPECT_GE(f.unknown, 0) << cpu;
    EXPECT_EQ(f.running + f.idle + f.unknown, f.span) << cpu << " of " << trace;
  }
  std::map<int64_t, int64_t> rows;
  for (const nlohmann::json& r : json("kernel processes --format json " + Quote(trace)))
    rows[r["tid"].get<int64_t>()] += r["running_ns"].get<int64_t>();
  for (const auto& [tid, ns] : per_tid) {
    EXPECT_EQ(rows[tid], ns) << "tid " << tid << " of " << trace;
  }
  for (const auto& [tid, ns] : rows) {
    if (!per_tid.contains(tid)) {
      EXPECT_EQ(ns, 0) << "tid " << tid << " runs on no CPU";
    }
  }
  return cpus;
}

}  // namespace macroscope::kernel::testing
