// The aligned models and their difference, against values computed here.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "analysis/compare/differential_model.h"
#include "util/error.h"

namespace macroscope::analysis::compare {
namespace {

const TimeBase kNs{.num = 1, .den = 1000000000, .whole_ticks = true, .origin = 0, .epoch_ns = std::nullopt};
const TimeBase kUs{.num = 1, .den = 1000000, .whole_ticks = true, .origin = 0, .epoch_ns = std::nullopt};

// A model of `slices` slices over [0, span] of `base`, with `paths` as its leaves.
MicroModel Model(const std::vector<std::string>& paths, const std::vector<std::string>& types, int32_t slices,
                 const TimeBase& base, double span) {
  Hierarchy tree;
  for (const std::string& p : paths) tree.AddPath(p);
  MicroModel model(tree, types, slices);
  model.set_range({0, span, base});
  return model;
}

TEST(DifferentialModel, TimeValuesAreNanosecondsWhateverTheClock) {
  // 1 ms in 4 slices: A in ns ticks, B in µs ticks.
  MicroModel a = Model({"p/t"}, {"run", "wait"}, 4, kNs, 1e6);
  MicroModel b = Model({"p/t"}, {"wait", "io"}, 4, kUs, 1e3);
  const NodeId la = *a.hierarchy().FindPath("p/t"), lb = *b.hierarchy().FindPath("p/t");
  const double a_run[4] = {250000, 100000, 0, 250000}, a_wait[4] = {0, 150000, 250000, 0};
  const double b_wait[4] = {50, 250, 0, 0}, b_io[4] = {0, 0, 125, 0};  // µs
  for (int t = 0; t < 4; ++t) {
    a.Add(la, 0, t, a_run[t]);
    a.Add(la, 1, t, a_wait[t]);
    b.Add(lb, 0, t, b_wait[t]);
    b.Add(lb, 1, t, b_io[t]);
  }
  const AlignedModels runs = AlignModels(a, b, Metric::kStateTime, 1000000, MatchLeavesByPath(a.hierarchy(), b.hierarchy()));
  ASSERT_EQ(runs.a.types(), (std::vector<std::string>{"run", "wait", "io"}));
  ASSERT_EQ(runs.b.types(), runs.a.types());
  ASSERT_TRUE(runs.a.range() && runs.b.range());
  EXPECT_EQ(runs.a.range()->end, 1e6);
  EXPECT_EQ(runs.a.range()->base, kNs);

  const MicroModel difference = DifferenceModel(runs);
  ASSERT_EQ(difference.types(),
            (std::vector<std::string>{"run +", "run -", "wait +", "wait -", "io +", "io -"}));
  const NodeId leaf = *difference.hierarchy().FindPath("p/t");
  for (int t = 0; t < 4; ++t) {
    // B − A per type, in ns.
    const double d[3] = {0 - a_run[t], b_wait[t] * 1000 - a_wait[t], b_io[t] * 1000 - 0};
    for (int x = 0; x < 3; ++x) {
      EXPECT_EQ(difference.Value(leaf, 2 * x, t), std::max(d[x], 0.0)) << "type " << x << " slice " << t;
      EXPECT_EQ(difference.Value(leaf, 2 * x + 1, t), std::max(-d[x], 0.0)) << "type " << x << " slice " << t;
    }
  }
}

TEST(DifferentialModel, CountsAreNotScaled) {
  MicroModel a = Model({"r"}, {"e"}, 2, kNs, 1e6), b = Model({"r"}, {"e"}, 2, kUs, 1e3);
  a.Add(*a.hierarchy().FindPath("r"), 0, 0, 3);
  b.Add(*b.hierarchy().FindPath("r"), 0, 0, 5);
  const AlignedModels runs = AlignModels(a, b, Metric::kEventCount, 1000000, {{"r", "r"}});
  EXPECT_EQ(DifferenceModel(runs).Value(*runs.a.hierarchy().FindPath("r"), 0, 0), 2);
}

// As containers pair (run_matching.h): the same path, else the same path
// without its ids (the pid, the threads' addresses), in order; A's order.
TEST(DifferentialModel, LeavesPairByPathThenWithoutIds) {
  Hierarchy a, b;
  for (const char* p : {"Process 10/0x1f", "Process 10/0x2e", "shared/x", "only-a"}) a.AddPath(p);
  for (const char* p : {"shared/x", "Process 77/0x9c", "Process 77/0x8b", "only-b"}) b.AddPath(p);
  const std::vector<LeafPair> pairs = MatchLeavesByPath(a, b);
  ASSERT_EQ(pairs.size(), 3u);
  EXPECT_EQ(pairs[0].a, "Process 10/0x1f");
  EXPECT_EQ(pairs[0].b, "Process 77/0x9c");
  EXPECT_EQ(pairs[1].a, "Process 10/0x2e");
  EXPECT_EQ(pairs[1].b, "Process 77/0x8b");
  EXPECT_EQ(pairs[2].a, "shared/x");
  EXPECT_EQ(pairs[2].b, "shared/x");
}

TEST(DifferentialModel, BadInputIsRefused) {
  const MicroModel a = Model({"r"}, {"e"}, 2, kNs, 10), b = Model({"r"}, {"e"}, 3, kNs, 10);
  EXPECT_THROW(AlignModels(a, b, Metric::kStateTime, 10, {{"r", "r"}}), UserError);
  EXPECT_THROW(AlignModels(a, a, Metric::kStateTime, 10, {}), UserError);
  EXPECT_THROW(AlignModels(a, a, Metric::kStateTime, 10, {{"r", "nope"}}), UserError);
  EXPECT_THROW(AlignedRequest({}, kNs, 0, 0), UserError);
}

TEST(DifferentialModel, AlignedWindowsLastTheSameInEachClock) {
  const ModelRequest ns = AlignedRequest({}, kNs, 1000, 2500000);
  EXPECT_EQ(*ns.end - *ns.start, 2500000);
  const ModelRequest us = AlignedRequest({}, kUs, 7, 2500000);
  EXPECT_EQ(*us.end - *us.start, 2500);
  const ModelRequest seconds = AlignedRequest({}, TimeBase{}, 1.5, 2500000000);
  EXPECT_DOUBLE_EQ(*seconds.end - *seconds.start, 2.5);
}

}  // namespace
}  // namespace macroscope::analysis::compare
