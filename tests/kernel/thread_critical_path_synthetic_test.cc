// A kernel thread's critical path (analysis/kernel/thread_critical_path.h)
// on small event sequences whose paths are worked out by hand in the
// comments: a waker followed back, runnable and preempted waits, wakeups
// from a softirq, an IRQ, an idle CPU, none; a path cut at --end; damaged
// switches (lost switch outs) whose wakers point at each other, where the
// walk must end; bad input.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "analysis/kernel/thread_critical_path.h"
#include "kernel_event_sequence.h"
#include "util/error.h"

namespace macroscope {
namespace {

using analysis::kernel::PathStateName;
using analysis::kernel::ThreadCriticalPathAccumulator;
using analysis::kernel::ThreadPathSegment;
using kernel::testing::Ev;
using kernel::testing::Kernel;
using kernel::testing::Switch;

// A path row as the test writes it: tid, start, end, state, detail.
struct Row {
  int64_t tid;
  double start, end;
  std::string state, detail;
  bool operator==(const Row&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Row& r) {
  return out << r.tid << " [" << r.start << ", " << r.end << ") " << r.state << " " << r.detail;
}

std::vector<Row> PathOf(Kernel& k, int64_t tid, std::optional<double> end = std::nullopt) {
  ThreadCriticalPathAccumulator path;
  for (const EntityStore& s : k.trace().stores()) path.Add(k.trace(), EntityChunk::Of(k.trace(), s));
  std::vector<Row> rows;
  for (const ThreadPathSegment& s : path.Path(k.trace(), tid, end, "--thread"))
    rows.push_back({s.tid, s.start, s.end, std::string(PathStateName(s.state)), s.detail});
  return rows;
}

Ev Waking(double time, int64_t cpu, int64_t tid) { return {time, cpu, "sched_waking", {{"tid", std::to_string(tid)}}}; }

// a (10) runs on cpu0 and blocks at 2000; b (20), running on cpu1 since
// 1000, wakes it at 3000; a runs at 3200, is preempted by c (30) at 3500
// and runs again from 3800 to the end (4000). a's path: its run, b's run
// while a was blocked (back to 2000, when a blocked), a's wait for a CPU
// after the wakeup, its run, its preemption, its run.
TEST(ThreadCriticalPath, FollowsTheWakerWhileBlocked) {
  Kernel k;
  k.Read({Switch(1000, 0, 0, "swapper/0", 0, 10, "a"), Switch(1000, 1, 0, "swapper/1", 0, 20, "b"),
          Switch(2000, 0, 10, "a", 1, 0, "swapper/0"), Waking(3000, 1, 10), Switch(3200, 0, 0, "swapper/0", 0, 10, "a"),
          Switch(3500, 0, 10, "a", 0, 30, "c"), Switch(3800, 0, 30, "c", 1, 10, "a"),
          Switch(4000, 1, 20, "b", 1, 0, "swapper/1")});
  const std::vector<Row> want = {{10, 1000, 2000, "running", "cpu0"}, {20, 2000, 3000, "running", "cpu1"},
                                 {10, 3000, 3200, "runnable", ""},    {10, 3200, 3500, "running", "cpu0"},
                                 {10, 3500, 3800, "preempted", ""},   {10, 3800, 4000, "running", "cpu0"}};
  EXPECT_EQ(PathOf(k, 10), want);
  // b's own path: it ran all along.
  EXPECT_EQ(PathOf(k, 20), std::vector<Row>({{20, 1000, 4000, "running", "cpu1"}}));
}

// a (10) blocks four times on cpu0: woken in the TIMER softirq on cpu1
// (a timer), in eth0's IRQ handler on cpu1, by a sched_waking on cpu0 while
// it is idle, and never (to the trace's end at 6000).
std::vector<Ev> Interrupts() {
  return {Switch(1000, 0, 0, "swapper/0", 0, 10, "a"),
          Switch(2000, 0, 10, "a", 1, 0, "swapper/0"),
          {2500, 1, "softirq_entry", {{"vec", "1"}}},
          Waking(2600, 1, 10),
          {2700, 1, "softirq_exit", {{"vec", "1"}}},
          Switch(2800, 0, 0, "swapper/0", 0, 10, "a"),
          Switch(3000, 0, 10, "a", 1, 0, "swapper/0"),
          {3100, 1, "irq_handler_entry", {{"irq", "19"}, {"name", "eth0"}}},
          Waking(3200, 1, 10),
          {3300, 1, "irq_handler_exit", {{"irq", "19"}, {"ret", "1"}}},
          Switch(3400, 0, 0, "swapper/0", 0, 10, "a"),
          Switch(4000, 0, 10, "a", 1, 0, "swapper/0"),
          Waking(4200, 0, 10),
          Switch(4500, 0, 0, "swapper/0", 0, 10, "a"),
          Switch(5000, 0, 10, "a", 1, 0, "swapper/0"),
          {6000, 1, "sched_stat_runtime", {}}};
}

TEST(ThreadCriticalPath, InterruptsTimersIdleAndUnknownWakeups) {
  Kernel k;
  k.Read(Interrupts());
  const std::vector<Row> want = {
      {10, 1000, 2000, "running", "cpu0"},   {10, 2000, 2600, "timer", "softirq:TIMER"},
      {10, 2600, 2800, "runnable", ""},      {10, 2800, 3000, "running", "cpu0"},
      {10, 3000, 3200, "interrupt", "irq:eth0"}, {10, 3200, 3400, "runnable", ""},
      {10, 3400, 4000, "running", "cpu0"},   {10, 4000, 4200, "blocked", "idle"},
      {10, 4200, 4500, "runnable", ""},      {10, 4500, 5000, "running", "cpu0"},
      {10, 5000, 6000, "blocked", "unknown"}};
  EXPECT_EQ(PathOf(k, 10), want);
  // Up to 3100, inside the second wait: its time so far is the interrupt's
  // that will end it.
  const std::vector<Row> cut = {{10, 1000, 2000, "running", "cpu0"},
                                {10, 2000, 2600, "timer", "softirq:TIMER"},
                                {10, 2600, 2800, "runnable", ""},
                                {10, 2800, 3000, "running", "cpu0"},
                                {10, 3000, 3100, "interrupt", "irq:eth0"}};
  EXPECT_EQ(PathOf(k, 10, 3100.0), cut);
}

// Damaged switches: w (20) runs on cpu2 from 1000, then on cpu3 from 1100
// (its switch out of cpu2 lost: cpu2's task stays w), blocks at 1200; x
// (10) likewise runs on cpu0 from 1000, on cpu1 from 1500 (cpu0's task
// stays x), blocks at 2000. w's wakeup at 2500 is on cpu0 (its task: x),
// x's at 3000 on cpu2 (its task: w): each the other's waker. w's path from
// its end (4000): its run from 2600, its wait for a CPU from 2500, then x
// (w's waker) from 2500 back to 1200 (when w blocked): x blocked from 2000,
// whose waker is w, already followed from 2500: that wait is unknown; x's
// runs on cpu1 and cpu0 before; then w's runs on cpu3 and cpu2. The walk
// ends.
TEST(ThreadCriticalPath, WakersThatWakeEachOtherEnd) {
  Kernel k;
  k.Read({Switch(1000, 0, 0, "swapper/0", 0, 10, "x"), Switch(1000, 2, 0, "swapper/2", 0, 20, "w"),
          Switch(1100, 3, 0, "swapper/3", 0, 20, "w"), Switch(1200, 3, 20, "w", 1, 0, "swapper/3"),
          Switch(1500, 1, 0, "swapper/1", 0, 10, "x"), Switch(2000, 1, 10, "x", 1, 0, "swapper/1"),
          Waking(2500, 0, 20), Switch(2600, 3, 0, "swapper/3", 0, 20, "w"), Waking(3000, 2, 10),
          Switch(3100, 1, 0, "swapper/1", 0, 10, "x"), {4000, 3, "sched_stat_runtime", {}}});
  const std::vector<Row> want = {{20, 1000, 1100, "running", "cpu2"}, {20, 1100, 1200, "running", "cpu3"},
                                 {10, 1200, 1500, "running", "cpu0"}, {10, 1500, 2000, "running", "cpu1"},
                                 {20, 2000, 2500, "blocked", "unknown"}, {20, 2500, 2600, "runnable", ""},
                                 {20, 2600, 4000, "running", "cpu3"}};
  EXPECT_EQ(PathOf(k, 20), want);
}

TEST(ThreadCriticalPath, BadInput) {
  Kernel k;
  k.Read(Interrupts());
  try {
    PathOf(k, 99);
    ADD_FAILURE() << "an unknown tid";
  } catch (const UserError& e) {
    EXPECT_STREQ(e.what(), "--thread: no thread of tid 99 in the trace");
  }
  Trace other;  // no CPU: not a kernel trace
  ThreadCriticalPathAccumulator path;
  EXPECT_THROW(path.Path(other, 10, std::nullopt, "tid"), UserError);
}

}  // namespace
}  // namespace macroscope
