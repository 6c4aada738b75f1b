// The exact sum: correctly rounded on known cases, and the same double for
// the same terms in any order and any split into merged sums.
#include "util/exact_sum.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace macroscope {
namespace {

double Sum(const std::vector<double>& terms) {
  ExactSum sum;
  for (double x : terms) sum.Add(x);
  return sum.Value();
}

TEST(ExactSum, KnownCasesAreCorrectlyRounded) {
  EXPECT_EQ(Sum({}), 0);
  EXPECT_EQ(Sum({0.1, 0.2}), 0.30000000000000004);  // 0.1 + 0.2 is correctly rounded already
  EXPECT_EQ(Sum(std::vector<double>(10, 0.1)), 1.0);  // a plain sum: 0.9999999999999999
  EXPECT_EQ(Sum({1e16, 1, -1e16}), 1);                 // a plain sum: 0
  EXPECT_EQ(Sum({1e100, 1, -1e100, 1e-100, 1e50, -1, -1e50}), 1e-100);
  EXPECT_EQ(Sum({1, -1}), 0);
  EXPECT_EQ(Sum({1e-300, 1e300, -1e300}), 1e-300);
  // Ties: half an ulp of 1 goes to even, unless a smaller term breaks the tie.
  const double half_ulp = std::ldexp(1, -53), tiny = std::ldexp(1, -106);
  EXPECT_EQ(Sum({1, half_ulp}), 1);
  EXPECT_EQ(Sum({1, half_ulp, tiny}), 1 + 2 * half_ulp);
  EXPECT_EQ(Sum({1, half_ulp, -tiny}), 1);
  EXPECT_EQ(Sum({-1, -half_ulp, -tiny}), -1 - 2 * half_ulp);
  EXPECT_EQ(Sum({1 + 2 * half_ulp, half_ulp}), 1 + 4 * half_ulp);  // odd: to even, upwards
  EXPECT_EQ(Sum({1 + 2 * half_ulp, half_ulp, -tiny}), 1 + 2 * half_ulp);
}

TEST(ExactSum, NonFiniteTermsAndOverflow) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(Sum({1, inf, 2}), inf);
  EXPECT_EQ(Sum({-inf, 1}), -inf);
  EXPECT_TRUE(std::isnan(Sum({inf, 1, -inf})));
  EXPECT_TRUE(std::isnan(Sum({std::nan(""), 1})));
  EXPECT_EQ(Sum({DBL_MAX, DBL_MAX}), inf);
  EXPECT_EQ(Sum({-DBL_MAX, -DBL_MAX, 1}), -inf);
  EXPECT_EQ(Sum({DBL_MAX, 1, -DBL_MAX}), 1);
  ExactSum infinite, finite;
  infinite.Add(inf);
  finite.Add(1);
  finite.Merge(infinite);
  EXPECT_EQ(finite.Value(), inf);
}

// Terms whose plain sum depends on their order: huge ones that cancel,
// ones lost beside them, and many short decimals (state times of a trace
// with times that are not whole numbers).
std::vector<double> Adversarial() {
  std::vector<double> terms{1e16, 1, -1e16, 3e-17, 1e308, -1e308};
  for (int i = 0; i < 1000; ++i) terms.push_back(0.1);
  for (int i = 1; i < 500; ++i) terms.push_back(0.0013 * i);
  return terms;
}

TEST(ExactSum, AnyOrderAnySplitGivesTheSameDouble) {
  std::vector<double> terms = Adversarial();
  const double expected = Sum(terms);
  std::mt19937_64 random(16);
  for (int round = 0; round < 20; ++round) {
    std::shuffle(terms.begin(), terms.end(), random);
    EXPECT_EQ(Sum(terms), expected) << "order " << round;
    // Cut in pieces summed apart, then merged (as the ranks of an MPI job:
    // their terms sent, or merged in place).
    const size_t pieces = 2 + round % 5;
    std::vector<ExactSum> parts(pieces);
    for (size_t i = 0; i < terms.size(); ++i) parts[(i * 7 + round) % pieces].Add(terms[i]);
    ExactSum merged, sent;
    for (const ExactSum& part : parts) {
      merged.Merge(part);
      for (double term : part.Terms()) sent.Add(term);
    }
    EXPECT_EQ(merged.Value(), expected) << "split " << round;
    EXPECT_EQ(sent.Value(), expected) << "split " << round;
  }
  // The exact sum: 1 + 3e-17 + 1000 × 0.1 + 0.0013 × (1 + … + 499), each
  // term the double it is; the plain sum in this order is another double.
  double plain = 0;
  for (double x : Adversarial()) plain += x;
  EXPECT_NE(plain, expected);
  EXPECT_NEAR(expected, 1 + 100 + 0.0013 * 499 * 500 / 2, 1e-9);
}

TEST(ExactSum, MergesItself) {
  ExactSum sum;
  for (double x : {1e16, 1.0, 0.1}) sum.Add(x);
  sum.Merge(sum);
  EXPECT_EQ(sum.Value(), Sum({2e16, 2, 0.2}));
}

}  // namespace
}  // namespace macroscope
