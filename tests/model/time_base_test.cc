// The time base: exact clock seconds of whole ticks, times for people,
// wall-clock time and the parsing of command-line times.
#include "model/time_base.h"

#include <gtest/gtest.h>

#include "util/error.h"

namespace macroscope {
namespace {

// An LTTng kernel trace: ns ticks from its first event, epoch clock.
TimeBase Lttng() {
  return {.num = 1, .den = 1000000000, .whole_ticks = true, .origin = 1457113582794728808, .epoch_ns = 1457113582794728808};
}

std::string Clock(const TimeBase& base, double t, int decimals) {
  std::string out;
  AppendClockSeconds(out, base, t, decimals);
  return out;
}

TEST(TimeBase, ClockSecondsOfWholeTicksAreExact) {
  // At 1.46e9 s a double of seconds steps by 238 ns: these would round.
  EXPECT_EQ(Clock(Lttng(), 0, 9), "1457113582.794728808");
  EXPECT_EQ(Clock(Lttng(), 3367987, 9), "1457113582.798096795");
  EXPECT_EQ(Clock(Lttng(), 1, 9), "1457113582.794728809");
  EXPECT_EQ(Clock(Lttng(), 0, 6), "1457113582.794729");  // rounded to nearest
  EXPECT_EQ(Clock(Lttng(), 0, 12), "1457113582.794728808000");
  EXPECT_EQ(Clock(Lttng(), -808, 9), "1457113582.794728000");
  // An OTF2 timer: 1 tick = 1/3 s is not a decimal: rounded at the last digit.
  TimeBase third{.num = 1, .den = 3, .whole_ticks = true, .origin = 1, .epoch_ns = std::nullopt};
  EXPECT_EQ(Clock(third, 1, 6), "0.666667");
  EXPECT_EQ(DecimalsOfTick(Lttng()), 9);
  EXPECT_EQ(DecimalsOfTick(third), 12);
  EXPECT_EQ(DecimalsOfTick(TimeBase{.num = 1, .den = 1000000, .whole_ticks = false, .origin = 0, .epoch_ns = std::nullopt}), 6);
  std::string d;
  AppendDurationSeconds(d, Lttng(), 412500, 9);
  EXPECT_EQ(d, "0.000412500");
}

TEST(TimeBase, DurationNanosecondsOfWholeTicksAreExact) {
  EXPECT_EQ(DurationNanoseconds(Lttng(), 3367987), 3367987);
  // A 2.4 GHz timer 10^15 ticks in (4.6 days): 416666666666666.67 ns.
  TimeBase cycles{.num = 1, .den = 2400000000, .whole_ticks = true, .origin = 0, .epoch_ns = std::nullopt};
  EXPECT_EQ(DurationNanoseconds(cycles, 1e15), 416666666666667);
  EXPECT_EQ(DurationNanoseconds(cycles, 1e15 + 1), 416666666666667);  // + 0.42 ns
  EXPECT_EQ(DurationNanoseconds(cycles, 1e15 + 2), 416666666666668);  // + 0.83 ns
  // Pajé seconds: from the double, as the file gives them.
  EXPECT_EQ(DurationNanoseconds(TimeBase{}, 1.000000001), 1000000001);
}

TEST(TimeBase, PajeSecondsArePrintedAsTheyAre) {
  EXPECT_EQ(Clock(TimeBase{}, 2.5, 6), "2.500000");
  EXPECT_EQ(Clock(TimeBase{}, -1, 3), "-1.000");
}

TEST(TimeBase, HumanSecondsPickTheUnitAndTheDecimals) {
  EXPECT_EQ(HumanSeconds(2.794729, 1e-6, true), "+2.794 729 s");
  EXPECT_EQ(HumanSeconds(412.5e-6, 1e-7, true), "+412.5 µs");
  EXPECT_EQ(HumanSeconds(118e-9, 1e-9, true), "+118 ns");
  EXPECT_EQ(HumanSeconds(0.0125, 1e-4, false), "12.5 ms");
  EXPECT_EQ(HumanSeconds(0.0126, 1e-2, false), "13 ms");
  EXPECT_EQ(HumanSeconds(3367, 0, false), "3367 s");
  EXPECT_EQ(HumanSeconds(6.0064903, 0, false), "6.006 490 300 s");
  EXPECT_EQ(HumanSeconds(0, 0, true), "+0 s");
  EXPECT_EQ(HumanSeconds(-0.5, 0.1, true), "-500 ms");
  // One unit for an axis: the largest label's.
  EXPECT_EQ(HumanSeconds(0.5, 0.5, true, 2.5), "+0.5 s");
  EXPECT_EQ(HumanSeconds(0, 0.5, true, 2.5), "+0.0 s");
}

TEST(TimeBase, WallClockFromTheEpoch) {
  EXPECT_EQ(WallClock(Lttng(), 0), "2016-03-04 17:46:22.794728808");
  EXPECT_EQ(WallClock(Lttng(), 1205192), "2016-03-04 17:46:22.795934000");
  EXPECT_EQ(WallClock(TimeBase{}, 0), "");  // Pajé: no epoch
}

TEST(TimeBase, ParseTimeTakesClockSecondsOffsetsAndDates) {
  const TimeBase b = Lttng();
  EXPECT_EQ(ParseTime(b, "1457113582.798096795", 0, "--start"), 3367987);
  EXPECT_EQ(ParseTime(b, "+3.367987ms", 0, "--start"), 3367987);
  EXPECT_EQ(ParseTime(b, "+3367987ns", 0, "--start"), 3367987);
  EXPECT_EQ(ParseTime(b, "+3367.987 us", 0, "--start"), 3367987);
  EXPECT_EQ(ParseTime(b, "+3367.987µs", 0, "--start"), 3367987);
  EXPECT_EQ(ParseTime(b, "+1", 100, "--start"), 1000000100);  // seconds by default, from the start
  EXPECT_EQ(ParseTime(b, "2016-03-04 17:46:22.798096795", 0, "--start"), 3367987);
  EXPECT_EQ(ParseTime(b, "2016-03-04T17:46:23", 0, "--start"), 205271192);
  EXPECT_EQ(ParseTime(b, "1.457113582798096795e9", 0, "--start"), 3367987);
  // Pajé: the numbers as they are; offsets from the trace start.
  EXPECT_EQ(ParseTime(TimeBase{}, "0.5", 0, "-s"), 0.5);
  EXPECT_EQ(ParseTime(TimeBase{}, "+2ms", 10, "-s"), 10.002);
  for (const char* bad : {"", "abc", "+", "+3parsecs", "1.2.3", "2016-13-99 99:99:99x"})
    EXPECT_THROW(ParseTime(b, bad, 0, "--start"), UserError) << bad;
  EXPECT_THROW(ParseTime(TimeBase{}, "2016-03-04 17:46:22", 0, "--start"), UserError);  // no epoch
  try {
    ParseTime(b, "+3parsecs", 0, "--end");
  } catch (const UserError& e) {
    EXPECT_STREQ(e.what(), "--end: cannot read the time '+3parsecs': expected +NUMBER[s|ms|us|ns]");
  }
}

TEST(TimeBase, TicksBeyondADoublesIntegersAreRefused) {
  EXPECT_NO_THROW(CheckWholeTicks(9007199254740991, "t"));
  EXPECT_THROW(CheckWholeTicks(9007199254740992, "t"), UserError);
  EXPECT_THROW(CheckWholeTicks(-9007199254740993, "t"), UserError);
}

}  // namespace
}  // namespace macroscope
