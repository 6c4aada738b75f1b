// The tests' one sched_switch accounting (docs/kernel.md), whatever text
// the switches were read from (babeltrace2's for CTF in tests/kernel,
// `perf script` / `trace-cmd report` in tests/kernel_recorded): a CPU runs
// the task its latest sched_switch switched in (tid 0: idle), exited or
// not, until its next switch or the trace's last event; before its first
// switch, nobody known. Plain C++: no test framework, no trace reader.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace macroscope::testing {

// One sched_switch: on `cpu`, at `ns`, task `next` switched in.
struct SwitchIn {
  int cpu = 0;
  int64_t ns = 0;
  int64_t next = 0;
};

struct CpuTime {
  int64_t first_switch = -1;  // ns; -1: none
  int64_t idle = 0;
  std::map<int64_t, int64_t> running;  // tid -> ns; every tid switched in (0 ns included)
};

// `switches` in time order; `last_ns`: the trace's last event.
inline std::map<int, CpuTime> TimePerCpu(const std::vector<SwitchIn>& switches, int64_t last_ns) {
  std::map<int, CpuTime> cpus;
  std::map<int, std::pair<int64_t, int64_t>> current;  // cpu -> (tid, since)
  auto close = [&](int cpu, int64_t t) {
    auto it = current.find(cpu);
    if (it == current.end()) return;
    auto [tid, since] = it->second;
    (tid == 0 ? cpus[cpu].idle : cpus[cpu].running[tid]) += t - since;
  };
  for (const SwitchIn& s : switches) {
    close(s.cpu, s.ns);
    CpuTime& cpu = cpus[s.cpu];
    if (cpu.first_switch < 0) cpu.first_switch = s.ns;
    current[s.cpu] = {s.next, s.ns};
    if (s.next > 0) cpu.running.emplace(s.next, 0);
  }
  for (auto& [cpu, c] : current) close(cpu, last_ns);
  return cpus;
}

// Running ns per tid: TimePerCpu's, summed over the CPUs.
inline std::map<int64_t, int64_t> RunningNsPerTid(const std::map<int, CpuTime>& cpus) {
  std::map<int64_t, int64_t> running;
  for (const auto& [cpu, time] : cpus)
    for (const auto& [tid, ns] : time.running) running[tid] += ns;
  return running;
}

}  // namespace macroscope::testing
