// The interval index answers exactly what a linear scan answers, for
// nested, overlapping, reversed and degenerate intervals.
#include "model/interval_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace macroscope {
namespace {

std::vector<uint32_t> Scan(const std::vector<double>& s, const std::vector<double>& e, double t1, double t2) {
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < s.size(); ++i)
    if (std::min(s[i], e[i]) <= t2 && std::max(s[i], e[i]) >= t1) out.push_back(i);
  return out;
}

TEST(IntervalIndex, MatchesLinearScanOnRandomIntervals) {
  std::mt19937 rng(42);
  for (int n : {0, 1, 2, 3, 7, 8, 9, 31, 100, 1000, 4097}) {
    std::vector<double> s(n), e(n);
    std::uniform_real_distribution<double> at(0, 1000), len(0, 50);
    for (int i = 0; i < n; ++i) {
      s[i] = at(rng);
      e[i] = i % 17 == 0 ? s[i] - len(rng) : s[i] + (i % 5 == 0 ? 0 : len(rng));  // some reversed, some points
    }
    IntervalIndex index(s, e);
    for (int q = 0; q < 200; ++q) {
      double a = at(rng), b = a + len(rng) * (q % 3);
      auto got = index.Query(a, b);
      std::sort(got.begin(), got.end());
      EXPECT_EQ(got, Scan(s, e, a, b)) << "n=" << n << " query [" << a << ", " << b << "]";
    }
  }
}

TEST(IntervalIndex, NestedStatesAllFound) {
  // A push/pop stack: each level strictly inside the one below.
  std::vector<double> s, e;
  for (int level = 0; level < 50; ++level) {
    s.push_back(level);
    e.push_back(100 - level);
  }
  IntervalIndex index(s, e);
  EXPECT_EQ(index.Query(49.5, 50.5).size(), 50u);
  EXPECT_EQ(index.Query(0, 0).size(), 1u);
  EXPECT_TRUE(index.Query(101, 200).empty());
}

}  // namespace
}  // namespace macroscope
