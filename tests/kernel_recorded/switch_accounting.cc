#include "switch_accounting.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <sstream>

#include "../kernel/switch_time.h"

namespace macroscope::testing {

std::string BaseName(const std::string& name) {
  size_t colon = name.rfind(':');
  return colon == std::string::npos ? name : name.substr(colon + 1);
}

std::vector<TextEvent> ParseEventLines(const std::string& text) {
  // The task's tid, its CPU, the time and the event's name (perf's with
  // its system: the greedy match stops at the name's last colon).
  static const std::regex kEvent(R"(^.*?[- ](\d+) +\[(\d+)\] +(\d+)\.(\d{9}): +(\S+):( |$))");
  static const std::regex kPrev(R"( prev_pid=(-?\d+) )"), kNext(R"( next_pid=(-?\d+)( |$))");
  std::vector<TextEvent> events;
  std::istringstream in(text);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (!std::regex_search(line, m, kEvent)) {
      bool event_like = line.find("]") != std::string::npos && line.find(": ") != std::string::npos &&
                        line.find("EVENTS DROPPED") == std::string::npos;
      EXPECT_FALSE(event_like) << "an event line the test cannot read: " << line;
      continue;
    }
    TextEvent& e = events.emplace_back();
    e.tid = std::stoll(m[1]);
    e.cpu = std::stoi(m[2]);
    e.time_ns = std::stoll(m[3]) * 1000000000 + std::stoll(m[4]);
    e.name = m[5];
    e.line = line;
    if (BaseName(e.name) == "sched_switch") {
      std::string rest = m.suffix();
      rest = " " + rest;
      std::smatch f;
      if (std::regex_search(rest, f, kPrev)) e.prev_pid = std::stoll(f[1]);
      if (std::regex_search(rest, f, kNext)) e.next_pid = std::stoll(f[1]);
      EXPECT_TRUE(e.prev_pid && e.next_pid) << "a sched_switch without prev_pid/next_pid: " << line;
    }
  }
  return events;
}

SwitchAccounting AccountSwitches(const std::vector<TextEvent>& events) {
  SwitchAccounting a;
  std::vector<SwitchIn> switches;
  for (const TextEvent& e : events) {
    ++a.counts[e.name];
    a.last_ns = std::max(a.last_ns, e.time_ns);
    if (BaseName(e.name) == "sched_switch" && e.next_pid) switches.push_back({e.cpu, e.time_ns, *e.next_pid});
  }
  for (const auto& [tid, ns] : RunningNsPerTid(TimePerCpu(switches, a.last_ns)))
    if (ns != 0) a.running_ns[tid] = ns;
  return a;
}

std::string LinesOf(const std::vector<TextEvent>& events, int64_t tid, size_t limit) {
  std::string out;
  size_t n = 0;
  for (const TextEvent& e : events)
    if ((e.tid == tid || e.prev_pid == tid || e.next_pid == tid) && n++ < limit) out += e.line + "\n";
  return out;
}

}  // namespace macroscope::testing
