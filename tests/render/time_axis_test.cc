#include "render/time_axis.h"

#include <gtest/gtest.h>

namespace macroscope::render {
namespace {

TEST(TimeAxisTest, TicksAreRoundNumbersInsideTheRange) {
  EXPECT_EQ(NiceTicks(0, 10, 6), (std::vector<double>{0, 2, 4, 6, 8, 10}));
  EXPECT_EQ(NiceTicks(0.13, 0.98, 5), (std::vector<double>{0.2, 0.4, 0.6, 0.8}));
  EXPECT_EQ(NiceTicks(1003, 1017, 4), (std::vector<double>{1005, 1010, 1015}));
  EXPECT_TRUE(NiceTicks(5, 5, 6).empty());
}

TEST(TimeAxisTest, LabelsHaveTheDecimalsTheStepNeeds) {
  EXPECT_EQ(FormatTick(1500, 500), "1500");
  EXPECT_EQ(FormatTick(0.25, 0.05), "0.25");
  EXPECT_EQ(FormatTick(0.5, 0.5), "0.5");
  EXPECT_EQ(FormatTick(2, 0.5), "2.0");
}

TEST(TimeAxisTest, SlicesMapToPixels) {
  TimeAxis axis(analysis::TimeRange{10, 20}, 5, 100, 600);
  EXPECT_DOUBLE_EQ(axis.SliceX(0), 100);
  EXPECT_DOUBLE_EQ(axis.SliceX(5), 600);
  EXPECT_DOUBLE_EQ(axis.TimeX(15), 350);
  EXPECT_DOUBLE_EQ(axis.SliceDuration(), 2);
  TimeAxis slices(std::nullopt, 4, 0, 400);
  EXPECT_FALSE(slices.has_time());
  EXPECT_DOUBLE_EQ(slices.SliceDuration(), 1);
}

}  // namespace
}  // namespace macroscope::render
