// `macroscope kernel processes --cpus`: a CPU's time is always someone's.
// On every kernel trace the suite has in CTF (its own kernel-shaped trace;
// the shared LTTng and perf traces, skipped without them): the conservation
// laws (ExpectCpuTimeConserved), and per CPU and thread the figures of
// sched_switch accounting computed here from babeltrace2's text. The
// recordings of tests/kernel_recorded check the laws on perf and ftrace.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kernel_test_support.h"

namespace macroscope::kernel::testing {
namespace {

void ExpectCpuTimeAddsUp(const std::string& dir) {
  std::vector<KernelEvent> events = KernelBabeltraceEvents(dir);
  ASSERT_FALSE(events.empty());
  const int64_t first = events.front().ns, span = events.back().ns - first;
  const std::map<int, CpuTime> expected = TimePerCpu(events);
  ASSERT_FALSE(expected.empty()) << "no sched_switch in " << dir;
  const std::map<std::string, CpuFigures> got = ExpectCpuTimeConserved(dir);

  // Each CPU's figures against the accounting done here.
  for (const auto& [number, want] : expected) {
    const std::string cpu = "cpu" + std::to_string(number);
    ASSERT_TRUE(got.contains(cpu)) << cpu << " of " << dir;
    const CpuFigures& f = got.at(cpu);
    EXPECT_EQ(f.span, span) << cpu;
    EXPECT_EQ(f.idle, want.idle) << cpu;
    EXPECT_EQ(f.unknown, want.first_switch - first) << cpu;
    for (const auto& [tid, ns] : want.running) {
      EXPECT_EQ(f.threads.contains(tid) ? f.threads.at(tid) : 0, ns) << cpu << " tid " << tid;
    }
    for (const auto& [tid, ns] : f.threads) {
      EXPECT_TRUE(want.running.contains(tid)) << cpu << " tid " << tid;
    }
  }
}

TEST(KernelCpus, SuiteTraceAddsUp) { ExpectCpuTimeAddsUp(KernelTraceDir()); }

class KernelCpusTestdata : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { MACROSCOPE_NEEDS_SHARED_TESTDATA(); }
};

TEST_P(KernelCpusTestdata, AddsUp) { ExpectCpuTimeAddsUp(SharedTrace(GetParam())); }

// Every kernel trace of the shared data: LTTng (bug446190,
// flipping-endianness) and perf's CTF conversion (perf-taskset2).
INSTANTIATE_TEST_SUITE_P(Traces, KernelCpusTestdata,
                         ::testing::Values("ctf/bug446190", "ctf/flipping-endianness", "ctf/perf-taskset2"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string n = info.param.substr(4);
                           for (char& c : n)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

}  // namespace
}  // namespace macroscope::kernel::testing
