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
  TimeAxis axis(analysis::TimeRange{10, 20, {}}, 5, 100, 600);
  EXPECT_DOUBLE_EQ(axis.SliceX(0), 100);
  EXPECT_DOUBLE_EQ(axis.SliceX(5), 600);
  EXPECT_DOUBLE_EQ(axis.TimeX(15), 350);
  EXPECT_DOUBLE_EQ(axis.SliceDuration(), 2);
  TimeAxis slices(std::nullopt, 4, 0, 400);
  EXPECT_FALSE(slices.has_time());
  EXPECT_DOUBLE_EQ(slices.SliceDuration(), 1);
}

std::vector<std::string> Labels(const TimeAxis& axis) {
  std::vector<std::string> labels;
  for (const auto& tick : axis.Ticks()) labels.push_back(tick.label);
  return labels;
}

// An LTTng kernel trace's clock: ns ticks counted from its first event, with an epoch.
TimeBase KernelClock() {
  return TimeBase{.num = 1, .den = 1000000000, .whole_ticks = true, .origin = 1412670961211260539,
                  .epoch_ns = 1412670961211260539};
}

TEST(TimeAxisTest, TraceTimesAreSecondsFromTheStart) {
  // 6 s of ns ticks: labels by HumanSeconds, never the clock's 10-digit seconds.
  TimeAxis axis(analysis::TimeRange{0, 6006490300, KernelClock()}, 100, 100, 900);
  EXPECT_TRUE(axis.in_seconds());
  EXPECT_EQ(Labels(axis), (std::vector<std::string>{"+0 s", "+1 s", "+2 s", "+3 s", "+4 s", "+5 s", "+6 s"}));
  EXPECT_DOUBLE_EQ(axis.Ticks()[1].x, 100 + 800 / 6.0064903);
  EXPECT_DOUBLE_EQ(axis.SliceSeconds(), 0.060064903);
  EXPECT_EQ(axis.Captions(), std::make_pair(std::string("time from trace start"),
                                            std::string("trace start: 2014-10-07 08:36:01.211260539 UTC")));
}

TEST(TimeAxisTest, AWindowCountsFromItsOwnStart) {
  // 4 ms from +2.5 s: millisecond labels, and the window's start on the wall clock.
  TimeAxis axis(analysis::TimeRange{2500000000, 2504000000, KernelClock()}, 100, 0, 800,
                AxisTime{.origin = "range start"});
  EXPECT_EQ(Labels(axis), (std::vector<std::string>{"+0 ms", "+1 ms", "+2 ms", "+3 ms", "+4 ms"}));
  EXPECT_EQ(axis.Captions().first, "time from range start");
  EXPECT_EQ(axis.Captions().second, "range start: 2014-10-07 08:36:03.711260539 UTC");
}

TEST(TimeAxisTest, SecondsWithoutAWallClockAndModelUnits) {
  // A Pajé trace: seconds, no epoch.
  TimeAxis paje(analysis::TimeRange{0, 3367, {}}, 100, 0, 700);
  EXPECT_EQ(Labels(paje), (std::vector<std::string>{"+0 s", "+500 s", "+1000 s", "+1500 s", "+2000 s", "+2500 s",
                                                    "+3000 s"}));
  EXPECT_EQ(paje.Captions(), std::make_pair(std::string("time from trace start"), std::string()));
  // A CSV model's range has no unit: plain numbers.
  TimeAxis csv(analysis::TimeRange{0, 10, {}}, 10, 0, 500, AxisTime{.seconds = false});
  EXPECT_FALSE(csv.in_seconds());
  EXPECT_EQ(Labels(csv).front(), "0");
  EXPECT_EQ(csv.Captions().first, "time (model units)");
  EXPECT_EQ(TimeAxis(std::nullopt, 4, 0, 400).Captions().first, "slice");
}

}  // namespace
}  // namespace macroscope::render
