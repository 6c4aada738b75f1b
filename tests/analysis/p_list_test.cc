// Significant p values: the exact method against the seed's dichotomy, and
// against re-running the best cuts inside each range.
#include "analysis/p_list.h"

#include <gtest/gtest.h>

#include <memory>

#include "analysis/spatiotemporal_partition.h"
#include "analysis/temporal_partition.h"
#include "test_models.h"

namespace macroscope::analysis {
namespace {

void CheckLists(const Aggregation& aggregation) {
  const double threshold = 1e-4;
  Quality full = aggregation.FullAggregate();
  TieRule same(0, full.gain, full.loss);
  auto exact = SignificantPsExact(aggregation);
  auto dichotomy = SignificantPsDichotomy(aggregation, threshold);
  ASSERT_FALSE(exact.empty());
  EXPECT_EQ(exact.front().p, 0.0);
  for (size_t k = 0; k < exact.size(); ++k) {
    double next = k + 1 < exact.size() ? exact[k + 1].p : 1.0;
    EXPECT_LT(exact[k].p, next);
    // The listed partition is the optimum inside its range...
    Quality inside = aggregation.Evaluate(0.5 * (exact[k].p + next));
    EXPECT_TRUE(same.Same(inside, exact[k].quality)) << "range " << exact[k].p << " " << next;
    // ...and consecutive ranges hold different partitions.
    if (k > 0) {
      EXPECT_FALSE(same.Same(exact[k - 1].quality, exact[k].quality));
    }
    // A range wider than twice the threshold is found by the dichotomy.
    if (next - exact[k].p > 2 * threshold) {
      bool found = false;
      for (const auto& entry : dichotomy) found |= same.Same(entry.quality, exact[k].quality);
      EXPECT_TRUE(found) << "range " << exact[k].p << " " << next;
    }
  }
  // Every partition the dichotomy selects is one of the exact list.
  for (const auto& entry : dichotomy) {
    bool found = false;
    for (const auto& e : exact) found |= same.Same(entry.quality, e.quality);
    EXPECT_TRUE(found) << "dichotomy p " << entry.p;
  }
  // The exact breakpoints sit within the dichotomy's resolution of its ps.
  EXPECT_GE(exact.size(), dichotomy.size());
}

class PListTemporal : public ::testing::TestWithParam<uint64_t> {};

TEST_P(PListTemporal, ExactAndDichotomySelectTheSamePartitions) {
  MicroModel model = testing::RandomModel(GetParam(), 20, 3, true, GetParam() % 2 ? 0.3 : 0.0);
  TemporalAggregation aggregation(TemporalQualities::Compute(model));
  CheckLists(aggregation);
}

INSTANTIATE_TEST_SUITE_P(Seeds, PListTemporal, ::testing::Range<uint64_t>(1, 11));

class PListSpatiotemporal : public ::testing::TestWithParam<uint64_t> {};

TEST_P(PListSpatiotemporal, ExactAndDichotomySelectTheSamePartitions) {
  MicroModel model = testing::RandomModel(GetParam(), 8, 2, true, GetParam() % 2 ? 0.3 : 0.0);
  SpatiotemporalAggregation aggregation(SpatiotemporalQualities::Compute(model));
  CheckLists(aggregation);
}

INSTANTIATE_TEST_SUITE_P(Seeds, PListSpatiotemporal, ::testing::Range<uint64_t>(1, 9));

TEST(PListTest, Figure57ExactList) {
  TemporalAggregation aggregation(TemporalQualities::Compute(testing::Figure57Model()));
  auto list = SignificantPsExact(aggregation);
  EXPECT_EQ(list.front().quality.parts, 10);
  EXPECT_EQ(list.back().quality.parts, 1);
  for (size_t k = 1; k < list.size(); ++k) {
    EXPECT_LT(list[k - 1].p, list[k].p);
    EXPECT_LT(list[k - 1].quality.gain, list[k].quality.gain);
    EXPECT_LT(list[k - 1].quality.loss, list[k].quality.loss);
  }
}

}  // namespace
}  // namespace macroscope::analysis
