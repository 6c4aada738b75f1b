// `macroscope diff A B --by thread` on two perf recordings of the workload
// (kr_workload.c): each of its tasks in A is matched to the task of the same
// name in B (their pids and tids differ: matched by path without ids), with
// the running time the sched_switch accounting of each run's `perf script`
// gives (switch_accounting.h), and B - A.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "kernel_recording.h"
#include "switch_accounting.h"
#include "test_support.h"

namespace macroscope::testing {
namespace {

class PerfRunsDiff : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    a_ = RecordWorkload(kPerfMode);
    b_ = RecordWorkload(kPerfMode);
  }
  static void TearDownTestSuite() {
    a_.reset();
    b_.reset();
  }
  void SetUp() override {
    MACROSCOPE_NEEDS_RECORDING(a_);
    MACROSCOPE_NEEDS_RECORDING(b_);
  }
  static inline std::unique_ptr<KernelRecording> a_, b_;
};

int64_t RunningOf(const SwitchAccounting& accounting, int64_t tid) {
  auto it = accounting.running_ns.find(tid);
  return it == accounting.running_ns.end() ? 0 : it->second;
}

TEST_F(PerfRunsDiff, WorkloadThreadsMatchedWithTheirRunningTimes) {
  CommandResult r = Macroscope("diff --by thread --format csv " + Quote(a_->trace) + " " + Quote(b_->trace));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("containers matched"), std::string::npos) << r.err;
  std::map<int64_t, std::map<std::string, std::string>> by_tid_a;
  for (auto& row : CsvRows(r.out)) by_tid_a[std::stoll(row.at("tid_a"))] = row;
  const SwitchAccounting peer_a = AccountSwitches(ParseEventLines(a_->text));
  const SwitchAccounting peer_b = AccountSwitches(ParseEventLines(b_->text));
  ASSERT_EQ(a_->tasks.size(), b_->tasks.size());
  for (const WorkloadTask& task : a_->tasks) {
    const WorkloadTask* peer = nullptr;
    for (const WorkloadTask& t : b_->tasks)
      if (t.name == task.name) peer = &t;
    ASSERT_NE(peer, nullptr) << task.name;
    auto it = by_tid_a.find(task.tid);
    if (it == by_tid_a.end()) {
      // perf under load may drop the events that name a task: it then
      // matches nothing in the other run, and that is the recording's loss.
      for (const KernelRecording* r : {a_.get(), b_.get()})
        if (const std::string loss = PerfLoss(*r); !loss.empty())
          GTEST_SKIP() << task.name << " unmatched after perf lost events under load ("" << loss << "")";
      KeepRecordingOfFailure(*a_);
      KeepRecordingOfFailure(*b_);
    }
    ASSERT_NE(it, by_tid_a.end()) << task.name << " (tid " << task.tid << ") not in the diff";
    const auto& row = it->second;
    EXPECT_EQ(row.at("tid_b"), std::to_string(peer->tid)) << task.name;
    const int64_t a = RunningOf(peer_a, task.tid), b = RunningOf(peer_b, peer->tid);
    EXPECT_EQ(row.at("running_a_ns"), std::to_string(a)) << task.name;
    EXPECT_EQ(row.at("running_b_ns"), std::to_string(b)) << task.name;
    EXPECT_EQ(row.at("running_diff_ns"), std::to_string(b - a)) << task.name;
  }
}

}  // namespace
}  // namespace macroscope::testing
