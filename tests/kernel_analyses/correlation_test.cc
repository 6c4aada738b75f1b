// Pearson's r of series with hand-computed bin counts, through the class,
// the command (on a Pajé trace written here) and the workflow module.
#include <cmath>

#include "analyses_test_support.h"
#include "analysis/correlation.h"

namespace macroscope::kernel_analyses::testing {
namespace {

// Regular: E1 and E2 have 8 points each, so ⌊√16⌋ = 4 bins of 10 s over
// [0, 40]. E1 per bin: 4, 2, 1, 1; E2: 1, 2, 3, 2. Deviations from the
// means (2, 2): (2, 0, −1, −1) and (−1, 0, 1, 0): r = −3 / √(6·2).
const std::vector<double> kE1 = {0, 1, 2, 3, 10, 11, 20, 40};
const std::vector<double> kE2 = {5, 12, 13, 21, 22, 23, 31, 32};
// Irregular, δ = 2: E3 (the smaller) at 10 and 50, E4 at 11, 12, 49, 80.
// Span [10, 80]; windows [8, 12] and [48, 52]; bins: window 1 (E3 1, E4
// 2), gap (12, 48) (0, 0), window 2 (1, 1), gap (52, 80] (0, 1) — the gap
// before the first window has no length. r = 1 / √(1·2).
const std::vector<double> kE3 = {10, 50};
const std::vector<double> kE4 = {11, 12, 49, 80};

std::string Series(const TempDir& dir) {
  std::string t = PajeHeader();
  for (auto [type, points] : {std::pair{"E1", &kE1}, {"E2", &kE2}, {"E3", &kE3}, {"E4", &kE4}})
    for (double p : *points) t += PajeEvent(p, type, "c1", std::string("hit"));
  std::string path = dir.path() + "/series.paje";
  WriteText(path, t);
  return path;
}

TEST(CorrelationClass, RegularAndIrregularBins) {
  analysis::Correlation c;
  for (double t : kE1) c.AddA(t);
  for (double t : kE2) c.AddB(t);
  analysis::CorrelationResult r = c.Compute(analysis::Binning::kRegular, 0);
  EXPECT_EQ(r.bins, 4u);
  EXPECT_EQ(r.per_bin_a, (std::vector<uint64_t>{4, 2, 1, 1}));
  EXPECT_EQ(r.per_bin_b, (std::vector<uint64_t>{1, 2, 3, 2}));
  ASSERT_TRUE(r.r);
  EXPECT_NEAR(*r.r, -3 / std::sqrt(12.0), 1e-12);

  analysis::Correlation irregular;  // the larger series first: the smaller is found either way
  for (double t : kE4) irregular.AddA(t);
  for (double t : kE3) irregular.AddB(t);
  analysis::CorrelationResult i = irregular.Compute(analysis::Binning::kIrregular, 2);
  EXPECT_EQ(i.per_bin_b, (std::vector<uint64_t>{1, 0, 1, 0}));
  EXPECT_EQ(i.per_bin_a, (std::vector<uint64_t>{2, 0, 1, 1}));
  ASSERT_TRUE(i.r);
  EXPECT_NEAR(*i.r, 1 / std::sqrt(2.0), 1e-12);

  // Identical series: 1; a series whose counts do not vary: undefined.
  analysis::Correlation same;
  for (double t : kE1) {
    same.AddA(t);
    same.AddB(t);
  }
  EXPECT_NEAR(*same.Compute(analysis::Binning::kRegular, 0).r, 1.0, 1e-12);
  analysis::Correlation flat;
  for (double t : {0.0, 10.0, 20.0, 30.0}) flat.AddA(t);
  for (double t : {0.0, 1.0, 2.0, 30.0}) flat.AddB(t);
  EXPECT_FALSE(flat.Compute(analysis::Binning::kRegular, 0).r);  // a: 1, 1, 1, 1 per bin
  EXPECT_THROW(analysis::Correlation().Compute(analysis::Binning::kRegular, 0), UserError);
}

TEST(CorrelateCommand, PrintsTheHandComputedR) {
  TempDir dir;
  std::string trace = Series(dir);
  // The result is a table of one row (bins_kind, bins, count_a, count_b, r).
  auto row = [&](const std::string& args) {
    nlohmann::json rows = JsonOf(Macroscope("correlate " + Quote(trace) + " " + args + " --format json"));
    EXPECT_EQ(rows.size(), 1u) << rows.dump();
    return rows.empty() ? nlohmann::json::object() : rows[0];
  };
  nlohmann::json regular = row("--a E1 --b E2=hit");
  EXPECT_EQ(regular["bins_kind"], "regular");
  EXPECT_EQ(regular["bins"], 4);
  EXPECT_EQ(regular["count_a"], 8);
  EXPECT_EQ(regular["count_b"], 8);
  EXPECT_NEAR(regular["r"].get<double>(), -3 / std::sqrt(12.0), 1e-12);
  nlohmann::json same = row("--a E1 --b E1");
  EXPECT_NEAR(same["r"].get<double>(), 1.0, 1e-12);
  nlohmann::json irregular = row("--a E3 --b E4 --bins irregular --delta 2");
  EXPECT_EQ(irregular["bins"], 4);
  EXPECT_NEAR(irregular["r"].get<double>(), 1 / std::sqrt(2.0), 1e-12);
  // The same δ in milliseconds; text for people: the table aligned.
  CommandResult text = Macroscope("correlate " + Quote(trace) + " --a E3 --b '*=h*' --bins irregular --delta 2000ms");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out.rfind("bins_kind  bins  count_a  count_b", 0), 0u) << text.out;
  EXPECT_NE(text.out.find("\nirregular "), std::string::npos) << text.out;
  // Undefined r, a null: E3 and E4 over ⌊√6⌋ = 2 regular bins of [10, 80],
  // E3 one point in each.
  nlohmann::json flat = row("--a E3 --b E4");
  EXPECT_EQ(flat["bins"], 2);
  EXPECT_TRUE(flat["r"].is_null()) << flat.dump();
}

TEST(CorrelateCommand, RefusesBadOptions) {
  TempDir dir;
  std::string trace = Series(dir);
  for (auto [args, message] : {std::pair{"--a E1 --b E2 --bins irregular", "--bins irregular needs --delta"},
                               {"--a E1 --b E2 --delta 1", "--delta is for --bins irregular"},
                               {"--a E1 --b E2 --bins irregular --delta soon", "--delta"},
                               {"--a E1 --b Nothing", "series b has no point"}}) {
    CommandResult r = Macroscope("correlate " + Quote(trace) + " " + args);
    EXPECT_EQ(r.exit_code, 1) << args;
    EXPECT_NE(r.err.find(message), std::string::npos) << args << ": " << r.err;
  }
}

TEST(CorrelateModule, TwoFilteredStreams) {
  TempDir dir;
  std::string trace = Series(dir);
  using namespace pipeline;
  auto run = [&](nlohmann::json params, const char* a, const char* b) {
    Workflow w;
    w.Add(pipeline::testing::Make(ReadModule(), "read", {{"input", trace}}));
    w.Add(pipeline::testing::Make(FilterModule(), "fa", {{"type", a}}));
    w.Add(pipeline::testing::Make(FilterModule(), "fb", {{"type", b}}));
    w.Add(pipeline::testing::Make(CorrelateModule(), "m", std::move(params)));
    auto& sink =
        static_cast<pipeline::testing::RowCollector&>(w.Add(std::make_unique<pipeline::testing::RowCollector>("sink")));
    w.Link("read", "out", "fa", "in");
    w.Link("fa", "unmatched", "fb", "in");  // one reader feeds both series
    w.Link("fa", "matched", "m", "a");
    w.Link("fb", "matched", "m", "b");
    w.Link("m", "rows", "sink", "in");
    w.Run();
    return sink.all;
  };
  RowBatch regular = run(nlohmann::json::object(), "E1", "E2");
  ASSERT_EQ(regular.rows(), 1u);
  EXPECT_EQ(Cell(regular, 0, "bins"), "4");
  EXPECT_NEAR(std::stod(Cell(regular, 0, "r")), -3 / std::sqrt(12.0), 1e-12);
  RowBatch irregular = run({{"bins", "irregular"}, {"delta", 2}}, "E3", "E4");
  EXPECT_NEAR(std::stod(Cell(irregular, 0, "r")), 1 / std::sqrt(2.0), 1e-12);
  EXPECT_NE(pipeline::testing::ErrorOf([] {
              pipeline::testing::Make(CorrelateModule(), "m", {{"bins", "irregular"}});
            }).find("delta"),
            std::string::npos);
}

}  // namespace
}  // namespace macroscope::kernel_analyses::testing
