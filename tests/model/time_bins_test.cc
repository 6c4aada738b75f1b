// Time bins: nested exactly from level to level, in time order, and the
// parting level is the first whose bins tell two times apart.
#include "model/time_bins.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace macroscope {
namespace {

TEST(TimeBins, BinsNestAndFollowTime) {
  const TimeBins bins(-3.25, 1e4 + 0.1);
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> time(-10, 1e4 + 5);
  for (int k = 0; k < 20000; ++k) {
    const double a = time(random), b = time(random);
    const uint64_t pa = bins.Position(a), pb = bins.Position(b);
    if (a <= b) {
      EXPECT_LE(pa, pb) << a << " " << b;
    }
    for (int level = 0; level < TimeBins::kLevels; ++level) {
      const uint64_t bin = TimeBins::Bin(pa, level);
      ASSERT_LT(bin, uint64_t{1} << level);
      EXPECT_EQ(TimeBins::Bin(pa, level + 1) >> 1, bin);
    }
    const int parting = TimeBins::PartingLevel(pa, pb);
    for (int level = 0; level <= TimeBins::kLevels; ++level) {
      EXPECT_EQ(TimeBins::Bin(pa, level) != TimeBins::Bin(pb, level), level >= parting) << level;
    }
  }
}

TEST(TimeBins, EdgesAndEmptySpans) {
  const TimeBins bins(0, 8);
  EXPECT_EQ(bins.Position(-1), 0u);
  EXPECT_EQ(bins.Position(0), 0u);
  EXPECT_EQ(bins.Position(8), TimeBins::kLastPosition);
  EXPECT_EQ(bins.Position(std::numeric_limits<double>::quiet_NaN()), 0u);
  EXPECT_EQ(bins.Bin(4.0, 1), 1u);
  EXPECT_EQ(bins.Bin(3.999, 1), 0u);
  EXPECT_EQ(bins.Bin(8.0, 3), 7u);
  EXPECT_EQ(bins.LevelFor(8), 0);
  EXPECT_EQ(bins.LevelFor(100), 0);
  EXPECT_EQ(bins.LevelFor(1), 3);
  EXPECT_EQ(bins.LevelFor(1.1), 2);
  EXPECT_EQ(bins.LevelFor(0.9), 3);
  EXPECT_EQ(bins.BinWidth(3), 1.0);
  EXPECT_EQ(TimeBins::PartingLevel(5, 5), TimeBins::kLevels + 1);
  const TimeBins empty(2, 2);
  EXPECT_EQ(empty.Position(5), 0u);
  EXPECT_EQ(empty.LevelFor(1e-9), 0);
}

}  // namespace
}  // namespace macroscope
