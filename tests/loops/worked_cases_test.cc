// The seed's worked cases (docs: /shared spec loops.md, "Worked cases").
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "loops/find_model.h"
#include "loops/report.h"
#include "loops/verify.h"

namespace macroscope::loops {
namespace {

// The seed's cases are its af search unless a case says otherwise (the
// automatic mode may find smaller models, e.g. a table for a pair).
Options SeedOptions() {
  Options options;
  options.mode = Mode::kAdjacentFixed;
  return options;
}

Model Check(const std::vector<int64_t>& trace, const Options& options = SeedOptions()) {
  Model model = FindModel(trace, options);
  EXPECT_FALSE(FirstDifference(trace, model).has_value());
  EXPECT_TRUE(model.exceptions.empty());
  return model;
}

std::vector<int64_t> Values(const Node& literal) {
  return std::vector<int64_t>(literal.values.begin(), literal.values.end());
}

TEST(WorkedCases, Case1TwoLevelNest) {
  const Model model = Check({3, 3, 7, 13, 11, 23, 15, 33, 19, 43, 23, 53});
  ASSERT_EQ(model.phases.size(), 1u);
  const Node& phase = model.phases[0];
  EXPECT_EQ(phase.kind, NodeKind::kLoop);
  EXPECT_EQ(phase.period, 2);
  EXPECT_EQ(phase.count, 6);
  // Level 1: (A, B) = (6 t2 + 4, 0 t2 + 3) over t2 = 0..1.
  ASSERT_EQ(phase.body.size(), 1u);
  EXPECT_EQ(phase.body[0].count, 2);
  ASSERT_EQ(phase.body[0].body.size(), 1u);
  EXPECT_EQ(Values(phase.body[0].body[0]), (std::vector<int64_t>{6, 0, 4, 3}));
  const std::string report = Report(model, SeedOptions(), Choice{Mode::kAdjacentFixed, Algorithm::kSearch});
  EXPECT_NE(report.find("[4, 10] X + [3, 3] (X = 0..5)"), std::string::npos) << report;
  EXPECT_NE(report.find("(6*t2 + 4)*t1 + 3"), std::string::npos) << report;
}

TEST(WorkedCases, Case2TwoPhasesOfPeriods4And5) {
  const Model model = Check({3, 4, 5, 1, 7, 14, 21, 8, 11, 24, 37, 15, 2, 5, 7, 9,
                             3, 5, 9, 11, 13, 4, 8, 13, 15, 17, 5, 11, 17, 19, 21, 6});
  ASSERT_EQ(model.phases.size(), 2u);
  const Node& first = model.phases[0];
  EXPECT_EQ(first.start, 0);
  EXPECT_EQ(first.period, 4);
  EXPECT_EQ(first.count, 3);
  const Node& second = model.phases[1];
  EXPECT_EQ(second.start, 12);
  EXPECT_EQ(second.period, 5);
  EXPECT_EQ(second.count, 4);
  const std::string report = Report(model, SeedOptions(), Choice{Mode::kAdjacentFixed, Algorithm::kSearch});
  EXPECT_NE(report.find("[4, 10, 16, 7] X + [3, 4, 5, 1] (X = 0..2)"), std::string::npos) << report;
  EXPECT_NE(report.find("[3, 4, 4, 4, 1] X + [2, 5, 7, 9, 3] (X = 0..3)"), std::string::npos) << report;
  // The sub-phases of the seed: (6t2 + 4)t1 + t2 + 3 then 7t1 + 1; 3t1 + 2,
  // 4t1 + 2t2 + 5 (t2 from 0 here), t1 + 3.
  for (const char* line : {"(6*t2 + 4)*t1 + t2 + 3", "7*t1 + 1", "3*t1 + 2", "4*t1 + 2*t2 + 5", "t1 + 3"}) {
    EXPECT_NE(report.find(line), std::string::npos) << line << "\n" << report;
  }
}

TEST(WorkedCases, Case3Fir2dimFourDeepNest) {
  std::vector<int64_t> trace;
  for (int t1 = 0; t1 < 4; ++t1)
    for (int t2 = 0; t2 < 4; ++t2)
      for (int t3 = 0; t3 < 3; ++t3)
        for (int t4 = 0; t4 < 3; ++t4) trace.push_back(6 * t1 + t2 + 6 * t3 + t4);
  ASSERT_EQ(trace.size(), 144u);
  Options search = SeedOptions();
  search.algorithm = Algorithm::kSearch;
  const Model model = Check(trace, search);
  ASSERT_EQ(model.phases.size(), 1u);
  EXPECT_EQ(NodeDepth(model.phases[0]), 4);
  const std::string report = Report(model, search, Choice{Mode::kAdjacentFixed, Algorithm::kSearch});
  EXPECT_NE(report.find("6*t1 + t2 + 6*t3 + t4"), std::string::npos) << report;
  Options bottom_up = SeedOptions();
  bottom_up.algorithm = Algorithm::kBottomUp;
  const Model fast = Check(trace, bottom_up);
  ASSERT_EQ(fast.phases.size(), 1u);
  EXPECT_EQ(NodeDepth(fast.phases[0]), 4);
  EXPECT_NE(Report(fast, bottom_up, Choice{Mode::kAdjacentFixed, Algorithm::kBottomUp}).find("6*t1 + t2 + 6*t3 + t4"), std::string::npos);
}

TEST(WorkedCases, Case4VariableIntervals) {
  Options options;
  options.mode = Mode::kAdjacentVariable;
  const Model model = Check({0, 5, 8, 10, 13, 16, 15, 18, 21, 24, 20, 23, 26, 29, 32}, options);
  ASSERT_EQ(model.phases.size(), 1u);
  const Node& phase = model.phases[0];
  EXPECT_EQ(phase.count, 5);
  EXPECT_EQ(phase.period, 1);
  EXPECT_EQ(phase.period_step, 1);
  const std::string report = Report(model, options, Choice{Mode::kAdjacentFixed, Algorithm::kSearch});
  EXPECT_NE(report.find("for t2 = 0..t1"), std::string::npos) << report;
  EXPECT_NE(report.find("5*t1 + 3*t2"), std::string::npos) << report;
}

TEST(WorkedCases, Case5FibonacciRecurrence) {
  Options options;
  options.recurrence_order = 2;
  const Model model = Check({0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377}, options);
  ASSERT_EQ(model.phases.size(), 1u);
  const Node& phase = model.phases[0];
  ASSERT_EQ(phase.kind, NodeKind::kRecurrence);
  EXPECT_EQ(phase.rec_period, 1);
  EXPECT_EQ(phase.order, 2);
  EXPECT_EQ(std::vector<int64_t>(phase.coefficients.begin(), phase.coefficients.end()),
            (std::vector<int64_t>{1, 1, 0}));
  EXPECT_EQ(Values(phase), (std::vector<int64_t>{0, 1}));
}

TEST(WorkedCases, SeedRecurrenceOfPeriod2) {
  // The seed's second RPLI example: p = 2, A = (3 4 -3; 2 -1 3).
  Options options;
  options.recurrence_order = 2;
  const Model model = Check({0, 2, 2, 1, 3, 3, 14, 8, 51, 16, 206, 27, 819, 41, 3278, 58, 13107, 78, 52430, 101},
                            options);
  ASSERT_EQ(model.phases.size(), 1u);
  const Node& phase = model.phases[0];
  ASSERT_EQ(phase.kind, NodeKind::kRecurrence);
  EXPECT_EQ(phase.rec_period, 2);
  EXPECT_EQ(std::vector<int64_t>(phase.coefficients.begin(), phase.coefficients.end()),
            (std::vector<int64_t>{3, 4, -3, 2, -1, 3}));
}

TEST(WorkedCases, DistantFixedIntervals) {
  // The seed's df example: period 3 intervals separated by 2 values.
  Options options;
  options.mode = Mode::kDistantFixed;
  const Model model = Check({15, 16, 17, 1, 6, 20, 23, 26, 9, 17, 25, 30, 35, 21, 12, 30, 37, 44, 0, 5, 35, 44, 53,
                             23, 25},
                            options);
  ASSERT_EQ(model.phases.size(), 1u);
  EXPECT_EQ(model.phases[0].period, 3);
  EXPECT_EQ(model.phases[0].gap, 2);
  EXPECT_EQ(model.phases[0].count, 5);
}

}  // namespace
}  // namespace macroscope::loops
