// Window statistics checked by hand on a small trace.
#include "analysis/state_statistics.h"

#include <gtest/gtest.h>

#include "small_trace.h"
#include "util/error.h"

namespace macroscope::analysis {
namespace {

const char* kBody = R"(4 0 p1 S A
4 3 p1 S B
4 0 p2 S A
7 6 p2 E tick
4 10 p1 S B
)";

const StatisticsRow* Find(const Statistics& s, const std::string& value) {
  for (auto& r : s.rows)
    if (r.value == value) return &r;
  return nullptr;
}

TEST(StateStatistics, WholeTrace) {
  Trace trace = testing::ReadSmallTrace(kBody);
  Statistics s = ComputeStatistics(trace, {});
  const StatisticsRow* a = Find(s, "A");
  const StatisticsRow* b = Find(s, "B");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->count, 2u);
  EXPECT_DOUBLE_EQ(a->total_time, 13);  // 3 on p1, 10 on p2
  EXPECT_DOUBLE_EQ(a->mean_time, 6.5);
  EXPECT_DOUBLE_EQ(b->total_time, 7);   // [3,10); the B opened at 10 lasts 0
  EXPECT_NEAR(a->share + b->share, 100, 1e-9);
  EXPECT_NEAR(a->share, 65, 1e-9);
  const StatisticsRow* tick = Find(s, "tick");
  ASSERT_TRUE(tick);
  EXPECT_EQ(tick->kind, "event");
  EXPECT_EQ(tick->count, 1u);
}

// Two state types of one name under different container types make one
// row (one model type too: trace_model_test.cc).
TEST(StateStatistics, TypesOfOneNameAreOneRow) {
  Trace trace = testing::ReadSmallTrace(std::string(R"(0 G N GPU
1 SG G State
3 0 g1 G n1 g1
4 0 g1 SG A
4 4 g1 SG B
)") + kBody);
  Statistics s = ComputeStatistics(trace, {});
  ASSERT_EQ(s.rows.size(), 3u);  // State A, State B, Event tick
  const StatisticsRow* a = Find(s, "A");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->count, 3u);
  EXPECT_DOUBLE_EQ(a->total_time, 17);  // 13 on p1 and p2, 4 on g1
  EXPECT_DOUBLE_EQ(Find(s, "B")->total_time, 13);  // 7 on p1, 6 on g1
}

TEST(StateStatistics, WindowAndContainers) {
  Trace trace = testing::ReadSmallTrace(kBody);
  StatisticsRequest r;
  r.start = 2;
  r.end = 4;
  r.containers = {"p1"};
  Statistics s = ComputeStatistics(trace, r);
  EXPECT_DOUBLE_EQ(Find(s, "A")->total_time, 1);
  EXPECT_DOUBLE_EQ(Find(s, "B")->total_time, 1);
  EXPECT_EQ(Find(s, "tick"), nullptr);
  r.containers = {"nope"};
  EXPECT_THROW(ComputeStatistics(trace, r), UserError);
  r.containers = {};
  r.start = 5;
  r.end = 5;
  EXPECT_THROW(ComputeStatistics(trace, r), UserError);
}

TEST(StateStatistics, TotalsAreRoundedOnce) {
  // Ten states of 0.1 (the double) on ten containers: their exact sum is
  // 1 to the nearest double, where adding them one by one gives
  // 0.9999999999999999.
  std::string body;
  for (int p = 1; p <= 10; ++p) {
    const std::string name = "q" + std::to_string(p);
    body += "3 0 " + name + " P n1 " + name + "\n4 0 " + name + " S A\n4 0.1 " + name + " S B\n";
  }
  Statistics s = ComputeStatistics(testing::ReadSmallTrace(body), {});
  EXPECT_EQ(Find(s, "A")->total_time, 1.0);
  EXPECT_EQ(Find(s, "A")->mean_time, 0.1);
  EXPECT_EQ(Find(s, "A")->share, 100);
}

}  // namespace
}  // namespace macroscope::analysis
