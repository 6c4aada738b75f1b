// Traces with injected outliers, modelled under a tolerance: the nest is
// still found whole and the outliers are listed as exceptions, so the
// trace is rebuilt exactly.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "loops/emit_c.h"
#include "loops/find_model.h"
#include "loops/verify.h"
#include "run_command.h"

namespace macroscope::loops {
namespace {

std::vector<int64_t> Fir2dim(int64_t image) {
  std::vector<int64_t> trace;
  for (int64_t k = 0; k < image; ++k)
    for (int64_t f = 0; f < image; ++f)
      for (int64_t i = 0; i < 3; ++i)
        for (int64_t j = 0; j < 3; ++j) trace.push_back((image + 2) * k + f + (image + 2) * i + j);
  return trace;
}

class Outliers : public ::testing::TestWithParam<Algorithm> {};

TEST_P(Outliers, NestFoundWholeWithExceptionsListed) {
  std::vector<int64_t> trace = Fir2dim(20);  // 3600 values
  const std::vector<int64_t> where{5, 1234, 3599};
  for (int64_t i : where) trace[i] = -777 - i;
  Options options;
  options.algorithm = GetParam();
  options.tolerance = 0.01;
  const Model model = FindModel(trace, options);
  EXPECT_FALSE(FirstDifference(trace, model).has_value());
  ASSERT_EQ(model.phases.size(), 1u);
  EXPECT_EQ(model.phases[0].count * model.phases[0].period, 3600);
  ASSERT_EQ(model.exceptions.size(), where.size());
  for (size_t e = 0; e < where.size(); ++e) {
    EXPECT_EQ(model.exceptions[e].index, where[e]);
    EXPECT_EQ(static_cast<int64_t>(model.exceptions[e].value), -777 - where[e]);
  }
  // Without tolerance the outliers split the nest into several phases.
  options.tolerance = 0.0;
  const Model exact = FindModel(trace, options);
  EXPECT_FALSE(FirstDifference(trace, exact).has_value());
  EXPECT_GT(exact.phases.size(), 1u);
  EXPECT_TRUE(exact.exceptions.empty());
}

INSTANTIATE_TEST_SUITE_P(Algorithms, Outliers, ::testing::Values(Algorithm::kSearch, Algorithm::kBottomUp),
                         [](const ::testing::TestParamInfo<Algorithm>& info) {
                           return info.param == Algorithm::kSearch ? "Search" : "BottomUp";
                         });

TEST(Outliers, ShareStaysWithinTheTolerancePerPhase) {
  // A linear run with an outlier every 10 values: 10 % exceptions. At 5 %
  // the run cannot absorb them all; every phase keeps its share.
  std::vector<int64_t> trace;
  for (int64_t i = 0; i < 400; ++i) trace.push_back(i % 10 == 9 ? 5 : 3 * i);
  Options options;
  options.tolerance = 0.05;
  const Model model = FindModel(trace, options);
  EXPECT_FALSE(FirstDifference(trace, model).has_value());
  for (const Node& phase : model.phases) {
    const int64_t length = NodeLength(phase, 1);
    int64_t errors = 0;
    for (const Exception& e : model.exceptions) errors += e.index >= phase.start && e.index < phase.start + length;
    EXPECT_LE(static_cast<double>(errors), 0.05 * static_cast<double>(length));
  }
}

TEST(Outliers, CommandLineVerifyAndCProgram) {
  std::vector<int64_t> trace = Fir2dim(12);
  trace[100] = 1;
  trace[700] = 99999;
  const std::string dir = testing::ScratchDir("outliers_cli");
  const std::string input = dir + "/trace.txt";
  testing::WriteText(input, testing::Join(trace, " "));
  const auto report = testing::RunCommand(testing::Macroscope() + " loops " + input + " --tolerance 0.01 --verify");
  ASSERT_EQ(report.exit_code, 0) << report.output;
  EXPECT_NE(report.output.find("100: 1"), std::string::npos) << report.output;
  EXPECT_NE(report.output.find("700: 99999"), std::string::npos) << report.output;
  EXPECT_NE(report.output.find("2 exceptions"), std::string::npos) << report.output;
  EXPECT_NE(report.output.find("verify: ok"), std::string::npos) << report.output;
  const auto emit = testing::RunCommand(testing::Macroscope() + " loops " + input +
                                        " --tolerance 0.01 --emit c -o " + dir + "/model.c");
  ASSERT_EQ(emit.exit_code, 0) << emit.output;
  ASSERT_EQ(testing::RunCommand("cc -std=c99 -O1 -w -o " + dir + "/model " + dir + "/model.c").exit_code, 0);
  const auto run = testing::RunCommand(dir + "/model > " + dir + "/out.txt");
  ASSERT_EQ(run.exit_code, 0);
  testing::WriteText(dir + "/expected.txt", testing::Join(trace));
  EXPECT_EQ(testing::RunCommand("cmp " + dir + "/expected.txt " + dir + "/out.txt").exit_code, 0);
  testing::RunCommand("rm -rf '" + dir + "'");
}

}  // namespace
}  // namespace macroscope::loops
