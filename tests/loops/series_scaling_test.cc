// Scaling doubles to integer ticks (the trace-independent part of
// `macroscope loops --from`).
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "loops/series_scaling.h"
#include "util/error.h"

namespace macroscope::loops {
namespace {

std::vector<double> Factors() {
  std::vector<double> factors;
  for (const TickUnit& unit : TickUnits()) factors.push_back(unit.per_second);
  return factors;
}

TEST(SeriesScaling, UnitsCoarsestFirst) {
  ASSERT_EQ(TickUnits().size(), 4u);
  EXPECT_EQ(TickUnits()[0].name, "s");
  EXPECT_EQ(TickUnits()[3].name, "ns");
  ASSERT_NE(FindTickUnit("us"), nullptr);
  EXPECT_EQ(FindTickUnit("us")->per_second, 1e6);
  EXPECT_EQ(FindTickUnit("min"), nullptr);
}

TEST(SeriesScaling, NearlyIntegralAbsorbsDecimalRounding) {
  EXPECT_TRUE(NearlyIntegral(0.013 * 1e3));  // 13.000000000000002 or so
  EXPECT_TRUE(NearlyIntegral(0.0 * 1e9));
  EXPECT_TRUE(NearlyIntegral(-3.0));
  EXPECT_TRUE(NearlyIntegral(123456.789 * 1e3));
  EXPECT_FALSE(NearlyIntegral(0.013 * 1e2));
  EXPECT_FALSE(NearlyIntegral(1e-12 * 1e9));
  EXPECT_FALSE(NearlyIntegral(2.5));
}

TEST(SeriesScaling, CoarsestExactUnit) {
  const std::vector<double> factors = Factors();
  EXPECT_EQ(CoarsestIntegralFactor(std::vector<double>{0, 1, 5172}, factors), 0);          // s
  EXPECT_EQ(CoarsestIntegralFactor(std::vector<double>{0, 0.01, 0.013, 0.19}, factors), 1);  // ms
  EXPECT_EQ(CoarsestIntegralFactor(std::vector<double>{0.5, 0.000004}, factors), 2);       // us
  EXPECT_EQ(CoarsestIntegralFactor(std::vector<double>{1.000000001}, factors), 3);         // ns
  EXPECT_EQ(CoarsestIntegralFactor(std::vector<double>{1e-10}, factors), -1);
}

TEST(SeriesScaling, ScaleRoundsAndCounts) {
  const ScaledSeries exact = ScaleToIntegers(std::vector<double>{0.0, 0.01, 0.013}, 1e3, "time");
  EXPECT_EQ(exact.values, (std::vector<int64_t>{0, 10, 13}));
  EXPECT_EQ(exact.rounded, 0);
  EXPECT_EQ(exact.first_rounded, -1);
  const ScaledSeries rounded = ScaleToIntegers(std::vector<double>{1.0, 1.6e-9, -2.2e-9}, 1e9, "time");
  EXPECT_EQ(rounded.values, (std::vector<int64_t>{1000000000, 2, -2}));
  EXPECT_EQ(rounded.rounded, 2);
  EXPECT_EQ(rounded.first_rounded, 1);
  EXPECT_NEAR(rounded.max_error, 0.4, 1e-6);
}

TEST(SeriesScaling, OverflowIsAUserError) {
  EXPECT_THROW(ScaleToIntegers(std::vector<double>{1e10}, 1e9, "time"), UserError);
  EXPECT_THROW(ScaleToIntegers(std::vector<double>{1.0 / 0.0}, 1, "value"), UserError);
  const ScaledSeries low = ScaleToIntegers(std::vector<double>{-9223372036854775808.0}, 1, "value");
  EXPECT_EQ(low.values[0], INT64_MIN);
}

TEST(SeriesScaling, FormatDoubleIsShort) {
  EXPECT_EQ(FormatDouble(0.013), "0.013");
  EXPECT_EQ(FormatDouble(2.5), "2.5");
  EXPECT_EQ(FormatDouble(10), "10");
}

}  // namespace
}  // namespace macroscope::loops
