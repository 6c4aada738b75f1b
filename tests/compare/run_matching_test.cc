#include "analysis/compare/run_matching.h"

#include <gtest/gtest.h>

#include "compare_test_traces.h"
#include "test_support.h"
#include "util/error.h"

namespace macroscope::analysis::compare {
namespace {

using testing::ReadWhole;
using testing::SharedTestData;
using testing::TraceOfContainers;

TEST(RunMatching, IdsAreDigitRunsButNotDottedNumbers) {
  EXPECT_EQ(PathWithoutIds("rank 3"), "rank #");
  EXPECT_EQ(PathWithoutIds("gst-launch-1.0 (1234)"), "gst-launch-1.0 (#)");
  EXPECT_EQ(PathWithoutIds("host 12/rank 34"), "host #/rank #");
  EXPECT_EQ(PathWithoutIds("libfoo 2.38"), "libfoo 2.38");
  EXPECT_EQ(PathWithoutIds("main"), "main");
  EXPECT_EQ(PathWithoutIds("Process 5515/0x5632fa28c200"), "Process #/#");  // a GStreamer thread
  EXPECT_EQ(PathWithoutIds("0x"), "#x");  // no address: a number
}

TEST(RunMatching, SamePathsFirstThenPathsWithoutIdsInOrder) {
  const Trace a = TraceOfContainers({"rank 0", "rank 1", "app (100)", "app (200)", "only a"});
  const Trace b = TraceOfContainers({"app (300)", "rank 1", "rank 2", "app (400)", "only b", "extra (7)"});
  const ContainerMatch m = MatchContainers(a, b);
  // Container ids: 1.. in creation order.
  const std::vector<std::pair<ContainerId, ContainerId>> expected = {
      {1, 3},  // rank 0 ~ rank 2 (rank 1 took its exact peer)
      {2, 2},  // rank 1 = rank 1
      {3, 1},  // app (100) ~ app (300): first with first
      {4, 4},  // app (200) ~ app (400)
  };
  EXPECT_EQ(m.matched, expected);
  EXPECT_EQ(m.only_a, std::vector<ContainerId>({5}));
  EXPECT_EQ(m.only_b, std::vector<ContainerId>({5, 6}));
}

TEST(RunMatching, NothingInCommonIsRefused) {
  const Trace a = TraceOfContainers({"alpha"});
  const Trace b = TraceOfContainers({"beta", "gamma"});
  try {
    CheckComparable(a, "a.json", b, "b.json");
    FAIL() << "no error";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("a.json and b.json have no container in common"), std::string::npos)
        << e.what();
  }
}

// The two Score-P runs of the shared ping-pong (one with PAPI counters):
// the same two ranks, every container matched to the one of its path.
TEST(RunMatching, TwoScorePRunsMatchEveryContainer) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const Trace a = ReadWhole({SharedTestData() + "/otf2/ping-pong-otf2/traces.otf2"});
  const Trace b = ReadWhole({SharedTestData() + "/otf2/ping-pong-otf2-papi/traces.otf2"});
  EXPECT_NO_THROW(CheckComparable(a, "A", b, "B"));
  const ContainerMatch m = MatchContainers(a, b);
  EXPECT_EQ(m.matched.size() + 1, a.containers().size());
  EXPECT_TRUE(m.only_a.empty());
  for (const auto& [ia, ib] : m.matched) EXPECT_EQ(a.ContainerPath(ia), b.ContainerPath(ib));
}

// A perf kernel trace against a Score-P MPI trace: refused, naming both
// traces and both kinds.
TEST(RunMatching, KernelTraceAgainstMpiTraceIsRefused) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const Trace kernel_trace = ReadWhole({SharedTestData() + "/ctf/perf-taskset2"});
  const Trace mpi = ReadWhole({SharedTestData() + "/otf2/ping-pong-otf2/traces.otf2"});
  try {
    CheckComparable(kernel_trace, "perf-taskset2", mpi, "traces.otf2");
    FAIL() << "no error";
  } catch (const UserError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("perf-taskset2 is a kernel trace"), std::string::npos) << message;
    EXPECT_NE(message.find("traces.otf2 is a user-space trace"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace macroscope::analysis::compare
