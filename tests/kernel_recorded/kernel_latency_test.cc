// `kernel latency` on the workload recorded with syscalls and interrupts
// (record_kernel_trace.sh's perf-latency and trace-cmd-latency modes):
// every row of every kind equals, to the ns, the latencies the test
// computes from `perf script --ns` / `trace-cmd report -R -t`
// (tests/kernel/latency_reference.h): perf's raw syscalls ("id N") read
// through its CTF conversion, trace-cmd's named ones from the .dat.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "../kernel/latency_reference.h"
#include "kernel_recording.h"
#include "switch_accounting.h"
#include "thread_path_reference.h"

namespace macroscope::testing {
namespace {

// The fields the latency computation reads, from a peer's event line.
std::vector<LatencyEvent> LatencyEvents(const std::string& text) {
  static const std::regex kField(R"((?:^| )(next_pid|pid|irq|name|vec|id)=(\S+))"), kNr(R"(^ ?NR (\d+))");
  std::vector<LatencyEvent> events;
  for (const TextEvent& t : ParseEventLines(text)) {
    LatencyEvent& e = events.emplace_back();
    e.ns = t.time_ns;
    e.cpu = t.cpu;
    e.base = BaseName(t.name);
    // The fields follow "NAME: ".
    const std::string rest = t.line.substr(t.line.find(t.name + ":") + t.name.size() + 1);
    for (auto it = std::sregex_iterator(rest.begin(), rest.end(), kField); it != std::sregex_iterator(); ++it)
      e.fields.emplace((*it)[1], (*it)[2]);
    std::smatch nr;  // perf's raw_syscalls: "NR 16 (…)", "NR 16 = 0"
    if (std::regex_search(rest, nr, kNr)) e.fields["id"] = nr[1];
    if (t.next_pid) e.fields["next_pid"] = std::to_string(*t.next_pid);
  }
  return events;
}

nlohmann::json Latency(const std::string& trace, const std::string& kind) {
  CommandResult r = Macroscope("kernel latency " + Quote(trace) + " --kind " + kind + " --format json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::array();
}

void ExpectPeersLatencies(const KernelRecording& r) {
  if (const std::string loss = PerfLoss(r); !loss.empty())
    GTEST_SKIP() << "perf lost events under load (\"" << loss << "\"): the peers pair syscalls around the gaps "
                 << "differently";
  const ReferenceLatencies expected = ComputeLatencies(LatencyEvents(r.text), true);
  EXPECT_FALSE(expected.syscall.empty());
  EXPECT_FALSE(expected.sched.empty());
  ExpectLatencyRows(Latency(r.trace, "syscall"), expected.syscall, "syscall");
  ExpectLatencyRows(Latency(r.trace, "irq"), expected.irq, "irq");
  ExpectLatencyRows(Latency(r.trace, "sched"), expected.sched, "sched");
  // The workload's sleeper wakes up and runs again: it has a row.
  const nlohmann::json sched = Latency(r.trace, "sched");
  for (const WorkloadTask& task : r.tasks) {
    if (task.name != "kr-sleeper") continue;
    auto of_task = [&](const nlohmann::json& row) { return row["id"] == task.tid; };
    EXPECT_TRUE(std::any_of(sched.begin(), sched.end(), of_task)) << "no sched row of " << task.name << " " << task.tid;
  }
}

class PerfLatencyRecording : public RecordingTest<kPerfLatencyMode> {};
TEST_F(PerfLatencyRecording, LatenciesArePerfScripts) { ExpectPeersLatencies(*recording_); }
// With interrupts: wakeups from a handler are `interrupt` or `timer`.
TEST_F(PerfLatencyRecording, ThreadCriticalPathsArePerfScripts) {
  if (const std::string loss = PerfLoss(*recording_); !loss.empty())
    GTEST_SKIP() << "perf lost events under load (\"" << loss << "\"): the peers' threads differ around the gaps";
  ExpectPeersThreadPaths(*recording_);
}

class TraceCmdLatencyRecording : public RecordingTest<kTraceCmdLatencyMode> {};
TEST_F(TraceCmdLatencyRecording, LatenciesAreTraceCmdReports) { ExpectPeersLatencies(*recording_); }
TEST_F(TraceCmdLatencyRecording, ThreadCriticalPathsAreTraceCmdReports) { ExpectPeersThreadPaths(*recording_); }

}  // namespace
}  // namespace macroscope::testing
