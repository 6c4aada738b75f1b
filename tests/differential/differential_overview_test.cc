// The differential overview of two runs that differ in one while only: the
// part found and the table, against the while the test puts in; the picture.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/compare/differential_overview.h"
#include "render/canvas.h"
#include "render/differential_picture.h"
#include "render/palette.h"
#include "util/error.h"

namespace macroscope::analysis::compare {
namespace {

constexpr int32_t kSlices = 40;
constexpr int64_t kSpanNs = 4000000000;  // 4 s, 0.1 s a slice
constexpr int32_t kFirst = 15, kLast = 24;  // B's different while: [1.5 s, 2.5 s)

// Two threads that compute 80 % and wait 20 % of every slice in A; in B,
// thread 0 waits 70 % over [kFirst, kLast] (its host slowed) and is as A
// elsewhere.
AlignedModels Runs() {
  const TimeBase ns{.num = 1, .den = 1000000000, .whole_ticks = true, .origin = 0, .epoch_ns = std::nullopt};
  const double slice = static_cast<double>(kSpanNs) / kSlices;
  std::vector<MicroModel> models;
  for (int run = 0; run < 2; ++run) {
    Hierarchy tree;
    tree.AddPath("host/t0");
    tree.AddPath("host/t1");
    MicroModel m(tree, {"compute", "wait"}, kSlices);
    m.set_range({0, static_cast<double>(kSpanNs), ns});
    for (const char* path : {"host/t0", "host/t1"}) {
      const NodeId leaf = *m.hierarchy().FindPath(path);
      for (int32_t t = 0; t < kSlices; ++t) {
        const bool slowed = run == 1 && std::string(path) == "host/t0" && t >= kFirst && t <= kLast;
        m.Add(leaf, 0, t, (slowed ? 0.3 : 0.8) * slice);
        m.Add(leaf, 1, t, (slowed ? 0.7 : 0.2) * slice);
      }
    }
    models.push_back(std::move(m));
  }
  return AlignModels(models[0], models[1], Metric::kStateTime, kSpanNs,
                     MatchLeavesByPath(models[0].hierarchy(), models[1].hierarchy()));
}

size_t Column(const Table& table, const std::string& name) {
  for (size_t c = 0; c < table.columns.size(); ++c)
    if (table.columns[c] == name) return c;
  ADD_FAILURE() << "no column " << name;
  return 0;
}

TEST(DifferentialOverview, TheDifferentWhileIsAPartOfItsOwn) {
  const DifferentialOverviewResult overview = DifferentialOverview(Runs(), {});
  // At the overview's p: before, the while, after.
  bool found = false;
  for (const Part& part : overview.partition.parts)
    found = found || (part.first_slice == kFirst && part.last_slice == kLast);
  EXPECT_TRUE(found) << overview.partition.parts.size() << " parts at p = " << overview.p;

  const Table& table = overview.parts;
  ASSERT_EQ(table.columns, DifferencePartsTable().columns);
  ASSERT_GE(table.rows(), 2u);  // 2 types for the first part
  EXPECT_EQ(std::get<int64_t>(table.at(0, Column(table, "rank"))), 1);
  EXPECT_DOUBLE_EQ(std::get<double>(table.at(0, Column(table, "start"))), kFirst * 0.1);
  EXPECT_DOUBLE_EQ(std::get<double>(table.at(0, Column(table, "end"))), (kLast + 1) * 0.1);
  // |B − A| per second: thread 0 computes 0.5 s less and waits 0.5 s more
  // a second: 1 state at once.
  EXPECT_NEAR(std::get<double>(table.at(0, Column(table, "difference_rate"))), 1.0, 1e-12);
  EXPECT_NEAR(std::get<double>(table.at(0, Column(table, "a_rate"))), 2.0, 1e-12);
  EXPECT_NEAR(std::get<double>(table.at(0, Column(table, "b_rate"))), 2.0, 1e-12);
  // Shares of the two threads' time: waiting 0.2 in A, (0.7 + 0.2) / 2 in B.
  for (size_t r = 0; r < 2; ++r) {
    const std::string type = std::get<std::string>(table.at(r, Column(table, "type")));
    const double a = std::get<double>(table.at(r, Column(table, "a_share")));
    const double b = std::get<double>(table.at(r, Column(table, "b_share")));
    EXPECT_NEAR(a, type == "wait" ? 0.2 : 0.8, 1e-12) << type;
    EXPECT_NEAR(b, type == "wait" ? 0.45 : 0.55, 1e-12) << type;
    EXPECT_NEAR(std::get<double>(table.at(r, Column(table, "share_change"))), b - a, 1e-15);
  }
}

TEST(DifferentialOverview, SpatiotemporalFindsTheThread) {
  DifferentialOptions options;
  options.spatiotemporal = true;
  const DifferentialOverviewResult overview = DifferentialOverview(Runs(), options);
  const Table& table = overview.parts;
  ASSERT_GE(table.rows(), 1u);
  EXPECT_EQ(std::get<std::string>(table.at(0, Column(table, "node"))), "host/t0");
  EXPECT_DOUBLE_EQ(std::get<double>(table.at(0, Column(table, "start"))), kFirst * 0.1);
}

TEST(DifferentialOverview, BadOptionsAreRefused) {
  DifferentialOptions options;
  options.p = 1.5;
  EXPECT_THROW(DifferentialOverview(Runs(), options), UserError);
  options.p.reset();
  options.types_per_part = 0;
  EXPECT_THROW(DifferentialOverview(Runs(), options), UserError);
}

TEST(DifferentialOverview, PictureSaysWhichRunsAndHowAligned) {
  const DifferentialOverviewResult overview = DifferentialOverview(Runs(), {});
  render::DifferentialPictureInput input{&overview, "quiet.log", "stressed.log", "start", "state-time"};
  render::Canvas canvas(1200, 800, render::ImageFormat::kSvg);
  render::DrawDifferentialOverview(canvas, input);
  const std::string svg = canvas.Encode();
  const size_t from = svg.find("<desc>"), to = svg.find("</desc>");
  ASSERT_NE(from, std::string::npos);
  const std::string desc = svg.substr(from, to - from);
  EXPECT_NE(desc.find("quiet.log vs stressed.log (B - A), aligned at start"), std::string::npos) << desc;
  EXPECT_NE(desc.find("wait +"), std::string::npos) << desc;
  EXPECT_NE(desc.find("time from aligned start"), std::string::npos) << desc;
}

// More and less of one type share its hue, less paler; two types differ.
TEST(DifferentialOverview, MoreAndLessOfATypeShareItsColour) {
  const std::vector<std::string> types{IncreaseType("wait"), DecreaseType("wait"), IncreaseType("run"),
                                       DecreaseType("run")};
  const std::vector<render::Color> c = render::DifferenceColors(types);
  ASSERT_EQ(c.size(), 4u);
  const std::vector<render::Color> plain = render::TypeColors({"wait", "run"});
  for (int x : {0, 1}) {
    const render::Color& more = c[2 * x];
    const render::Color& less = c[2 * x + 1];
    EXPECT_EQ(more.r, plain[x].r);
    EXPECT_EQ(more.g, plain[x].g);
    EXPECT_EQ(more.b, plain[x].b);
    // The tint: each channel moved toward white by the same share of its distance.
    for (auto [m, l] : {std::pair{more.r, less.r}, std::pair{more.g, less.g}, std::pair{more.b, less.b}})
      EXPECT_NEAR(1 - l, (1 - m) * 0.45, 1e-12);
  }
  EXPECT_FALSE(c[0].r == c[2].r && c[0].g == c[2].g && c[0].b == c[2].b);
}

}  // namespace
}  // namespace macroscope::analysis::compare
