#include "loops/autocorrelation.h"

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

namespace macroscope::loops {
namespace {

TEST(Autocorrelation, SeedExampleWithTheStandardEstimator) {
  // The spec's re-checked values: r1 = 0.35, r2 = 0.49, r3 = 0.02.
  const std::vector<uint64_t> trace{3, 3, 7, 13, 11, 23, 15, 33, 19, 43, 23};
  const std::vector<double> r = Autocorrelation(trace.data(), 11, 1, 3);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_NEAR(r[0], 0.35, 0.01);
  EXPECT_NEAR(r[1], 0.49, 0.01);
  EXPECT_NEAR(r[2], 0.02, 0.01);
  EXPECT_EQ(PeriodsByAutocorrelation(trace.data(), 11, 1, 3), (std::vector<int64_t>{2, 1, 3}));
}

TEST(Autocorrelation, ConstantSequenceIsZero) {
  const std::vector<uint64_t> trace(10, 7);
  for (double r : Autocorrelation(trace.data(), 10, 1, 3)) EXPECT_EQ(r, 0.0);
}

}  // namespace
}  // namespace macroscope::loops
