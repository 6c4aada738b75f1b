// `macroscope kernel processes` and the raw events of two recordings of the
// workload (kr_workload.c) — perf's, read as CTF after `perf data convert
// --to-ctf`, and trace-cmd's .dat — against the peers' own text of the
// same recording: the running time of every thread to the nanosecond
// (switch_accounting.h computes it from `perf script` / `trace-cmd report`),
// the workload's tasks, the event counts per name.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "../kernel/kernel_test_support.h"
#include "kernel_recording.h"
#include "switch_accounting.h"
#include "test_support.h"
#include "thread_path_reference.h"

namespace macroscope::testing {
namespace {

// Checks shared by both recordings.
class Recorded : public ::testing::Test {
 protected:
  // The rows of `kernel processes --format csv`.
  static std::vector<std::map<std::string, std::string>> ProcessRows(const KernelRecording& r) {
    CommandResult k = Macroscope("kernel processes --format csv " + Quote(r.trace));
    EXPECT_EQ(k.exit_code, 0) << k.err;
    return CsvRows(k.out);
  }

  static void ExpectTasksFound(const KernelRecording& r) {
    ASSERT_EQ(r.tasks.size(), 6u) << "the workload announces six tasks";
    const auto rows = ProcessRows(r);
    // Whether a task is seen running depends on the recording: some
    // kernels here drop a CPU's switches out of idle (perf -a records no
    // `swapper ==> task` line on that CPU), and a task only ever switched
    // in from idle there has no running time in the peer's accounting
    // either. So: it runs for macroscope exactly when it does for the peer.
    const SwitchAccounting peer = AccountSwitches(ParseEventLines(r.text));
    for (const WorkloadTask& task : r.tasks) {
      bool found = false;
      for (const auto& row : rows) {
        if (row.at("tid") != std::to_string(task.tid)) continue;
        found = true;
        // A process's main thread has its pid; the mapping cannot tell the
        // others' (docs/ftrace.md: the fork events carry no tgid).
        if (task.tid == task.pid) {
          EXPECT_EQ(row.at("pid"), std::to_string(task.pid)) << task.name;
        }
        EXPECT_NE(("|" + row.at("names") + "|").find("|" + task.name + "|"), std::string::npos)
            << task.name << " not among the names " << row.at("names");
        EXPECT_EQ(std::stoll(row.at("running_ns")) > 0, peer.running_ns.count(task.tid) > 0)
            << task.name << " runs for macroscope exactly when it does in the peer's switches";
      }
      EXPECT_TRUE(found) << "no row for " << task.name << " (tid " << task.tid << ")";
    }
  }

  static void ExpectRunningTimesOfSwitches(const KernelRecording& r) {
    const std::vector<TextEvent> events = ParseEventLines(r.text);
    const SwitchAccounting expected = AccountSwitches(events);
    ASSERT_FALSE(expected.running_ns.empty());
    std::map<int64_t, int64_t> running;  // a tid used again has a row per thread: summed
    for (const auto& row : ProcessRows(r)) running[std::stoll(row.at("tid"))] += std::stoll(row.at("running_ns"));
    for (auto it = running.begin(); it != running.end();) it = it->second == 0 ? running.erase(it) : std::next(it);
    int shown = 0;  // the peer's lines of the first threads that differ
    for (const auto& [tid, ns] : expected.running_ns) {
      const int64_t got = running.count(tid) ? running.at(tid) : -1;
      EXPECT_EQ(got, ns) << "tid " << tid << ": macroscope's (-1: no row), then the sched_switch accounting's "
                         << "running time; the trace ends at " << expected.last_ns << "; its lines:\n"
                         << (got != ns && shown++ < 3 ? LinesOf(events, tid) : std::string("(not shown)"));
    }
    for (const auto& [tid, ns] : running)
      EXPECT_TRUE(expected.running_ns.count(tid)) << "tid " << tid << " runs " << ns << " ns, never switched in";
    // The workload's main thread is switched in from perf's own exec,
    // never from idle alone: it runs in every recording.
    EXPECT_GT(expected.running_ns.count(r.tasks.front().tid), 0u) << r.tasks.front().name;
  }

  // The example workflow count-by-name reads the raw events (CTF and
  // ftrace: every record, value = its event name).
  static void ExpectEventCountsOfPeer(const KernelRecording& r) {
    const SwitchAccounting expected = AccountSwitches(ParseEventLines(r.text));
    TempDir out;
    const std::string csv = out.path() + "/counts.csv";
    const std::string workflow = std::string(MACROSCOPE_SOURCE_DIR) + "/examples/workflows/count-by-name.json";
    CommandResult run = Macroscope("run --no-record -q " + Quote(workflow) + " --set input=" + Quote(r.trace) +
                                   " --set output=" + Quote(csv));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    std::map<std::string, uint64_t> counted;
    for (const auto& row : CsvRows(ReadText(csv))) counted[row.at("name")] = std::stoull(row.at("count"));
    EXPECT_EQ(counted, expected.counts);
    EXPECT_GT(expected.counts.count(r.trace.ends_with(".dat") ? "sched_switch" : "sched:sched_switch"), 0u);
  }
};

// perf record -e 'sched:*' -a, converted to CTF; perf script is the peer.
class PerfRecording : public RecordingTest<kPerfMode, Recorded> {};

TEST_F(PerfRecording, WorkloadTasksFound) { ExpectTasksFound(*recording_); }
TEST_F(PerfRecording, RunningTimeIsSchedSwitchAccountingOfPerfScript) {
  ExpectRunningTimesOfSwitches(*recording_);
}
TEST_F(PerfRecording, EventCountsPerNameArePerfScripts) { ExpectEventCountsOfPeer(*recording_); }
TEST_F(PerfRecording, CpuTimeAddsUp) { kernel::testing::ExpectCpuTimeConserved(recording_->trace); }
TEST_F(PerfRecording, ThreadCriticalPathsArePerfScripts) { ExpectPeersThreadPaths(*recording_); }

// trace-cmd record -e sched; trace-cmd report is the peer.
class TraceCmdRecording : public RecordingTest<kTraceCmdMode, Recorded> {};

TEST_F(TraceCmdRecording, WorkloadTasksFound) { ExpectTasksFound(*recording_); }
TEST_F(TraceCmdRecording, RunningTimeIsSchedSwitchAccountingOfTraceCmdReport) {
  ExpectRunningTimesOfSwitches(*recording_);
}
TEST_F(TraceCmdRecording, EventCountsPerNameAreTraceCmdReports) { ExpectEventCountsOfPeer(*recording_); }
TEST_F(TraceCmdRecording, CpuTimeAddsUp) { kernel::testing::ExpectCpuTimeConserved(recording_->trace); }
TEST_F(TraceCmdRecording, ThreadCriticalPathsAreTraceCmdReports) { ExpectPeersThreadPaths(*recording_); }

}  // namespace
}  // namespace macroscope::testing
