// box-plot, curve and histogram: the pictures exist in the format their
// extension names, carry their labels, and refuse missing columns; the
// numbers behind them (quartiles, whiskers, bins).
#include <filesystem>

#include "module_testing.h"
#include "render/charts.h"
#include "test_support.h"

namespace macroscope::pipeline {
namespace {

using macroscope::testing::ReadText;
using macroscope::testing::TempDir;
using testing::ErrorOf;
using testing::WriteRows;

// Runs 1..3 with 10 durations each, and a step column.
RowBatch RunRows() {
  RowBatch rows;
  rows.columns = {"run", "step", "duration"};
  for (int64_t run = 1; run <= 3; ++run)
    for (int64_t i = 0; i < 10; ++i) {
      rows.cells.emplace_back(std::in_place_type<std::string>, "run " + std::to_string(run));
      rows.cells.emplace_back(std::in_place_type<int64_t>, i);
      rows.cells.emplace_back(std::in_place_type<double>,
                              static_cast<double>(run) + 0.1 * static_cast<double>(i) + (i == 9 ? 5.0 : 0.0));
    }
  return rows;
}

bool LooksLikeSvg(const std::string& text) { return text.rfind("<?xml", 0) == 0 || text.rfind("<svg", 0) == 0; }

size_t Occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(BoxPlotModule, OneBoxPerGroupInSvg) {
  TempDir dir;
  const std::string path = dir.path() + "/box.svg";
  EXPECT_EQ(WriteRows(BoxPlotModule(), {{"path", path}, {"group", "run"}, {"value", "duration"}}, {RunRows()}),
            std::vector<std::string>{path});
  const std::string svg = ReadText(path);
  ASSERT_TRUE(LooksLikeSvg(svg)) << svg.substr(0, 100);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_NE(svg.find("<title>duration by run</title>"), std::string::npos);
  for (const char* group : {"run 1", "run 2", "run 3"})
    EXPECT_EQ(Occurrences(svg, std::string(group) + "\n"), 1u) << group;
  EXPECT_NE(svg.find("n = 10"), std::string::npos);
  // Fewer groups, fewer shapes.
  const std::string one_path = dir.path() + "/one.svg";
  WriteRows(BoxPlotModule(), {{"path", one_path}, {"value", "duration"}, {"title", "All runs"}}, {RunRows()});
  const std::string one = ReadText(one_path);
  EXPECT_NE(one.find("<title>All runs</title>"), std::string::npos);
  EXPECT_GT(Occurrences(svg, "<path"), Occurrences(one, "<path"));
}

TEST(BoxPlotModule, Png) {
  TempDir dir;
  const std::string path = dir.path() + "/box.PNG";
  WriteRows(BoxPlotModule(), {{"path", path}, {"group", "run"}, {"value", "duration"}}, {RunRows()});
  EXPECT_EQ(ReadText(path).substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

TEST(BoxPlotModule, UnknownColumnNamedAtRunTime) {
  TempDir dir;
  const std::string path = dir.path() + "/box.svg";
  const std::string e = ErrorOf([&] {
    WriteRows(BoxPlotModule(), {{"path", path}, {"group", "host"}, {"value", "duration"}}, {RunRows()});
  });
  EXPECT_NE(e.find("module 'm': box-plot: no column 'host' in the rows it reads (columns: run, step, duration)"),
            std::string::npos)
      << e;
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(BoxPlotModule, TextThatIsNoNumberRefused) {
  TempDir dir;
  const std::string e = ErrorOf([&] {
    WriteRows(BoxPlotModule(), {{"path", dir.path() + "/b.svg"}, {"value", "run"}}, {RunRows()});
  });
  EXPECT_NE(e.find("box-plot: column 'run' holds 'run 1', which is not a number"), std::string::npos) << e;
}

// The column parameters `info` declares (value, x, y), all set to `column`.
nlohmann::json ColumnParams(const ModuleInfo& info, const std::string& column) {
  nlohmann::json p = nlohmann::json::object();
  for (const ParamInfo& declared : info.params)
    if (declared.name == "value" || declared.name == "x" || declared.name == "y")
      p[std::string(declared.name)] = column;
  return p;
}

TEST(ChartModules, BadParametersRefused) {
  for (const ModuleInfo& info : {BoxPlotModule(), CurveModule(), HistogramModule()}) {
    auto make = [&](nlohmann::json params) {
      nlohmann::json p = ColumnParams(info, "v");
      p.update(params);
      return ErrorOf([&] { testing::Make(info, "chart", p); });
    };
    EXPECT_NE(make(nlohmann::json::object()).find("missing parameter 'path'"), std::string::npos) << info.kind;
    EXPECT_NE(make({{"path", "chart.pdf"}}).find("parameter 'path': 'chart.pdf': a chart is written as .svg or .png"),
              std::string::npos)
        << info.kind;
    EXPECT_EQ(make({{"path", "chart.svg"}}), "") << info.kind;
  }
  EXPECT_NE(ErrorOf([] {
              testing::Make(BoxPlotModule(), "b", {{"path", "b.svg"}});
            }).find("missing parameter 'value'"),
            std::string::npos);
  EXPECT_NE(ErrorOf([] {
              testing::Make(HistogramModule(), "h", {{"path", "h.svg"}, {"value", "v"}, {"bins", 0}});
            }).find("parameter 'bins'"),
            std::string::npos);
}

TEST(CurveModule, OneLinePerGroup) {
  TempDir dir;
  const std::string path = dir.path() + "/curve.svg";
  WriteRows(CurveModule(), {{"path", path}, {"x", "step"}, {"y", "duration"}, {"group", "run"}}, {RunRows()});
  const std::string svg = ReadText(path);
  ASSERT_TRUE(LooksLikeSvg(svg));
  EXPECT_NE(svg.find("<title>duration against step</title>"), std::string::npos);
  for (const char* group : {"run 1", "run 2", "run 3"})
    EXPECT_NE(svg.find(std::string(group) + "\n"), std::string::npos);
  const std::string png = dir.path() + "/curve.png";
  WriteRows(CurveModule(), {{"path", png}, {"x", "step"}, {"y", "duration"}}, {RunRows()});
  EXPECT_EQ(ReadText(png).substr(0, 4), "\x89PNG");
  const std::string e = ErrorOf([&] {
    WriteRows(CurveModule(), {{"path", png}, {"x", "time"}, {"y", "duration"}}, {RunRows()});
  });
  EXPECT_NE(e.find("curve: no column 'time'"), std::string::npos) << e;
}

TEST(HistogramModule, SvgAndPng) {
  TempDir dir;
  const std::string path = dir.path() + "/histogram.svg";
  WriteRows(HistogramModule(), {{"path", path}, {"value", "duration"}, {"bins", "5"}, {"title", "Durations"}},
            {RunRows()});
  const std::string svg = ReadText(path);
  ASSERT_TRUE(LooksLikeSvg(svg));
  EXPECT_NE(svg.find("<title>Durations</title>"), std::string::npos);
  const std::string png = dir.path() + "/histogram.png";
  WriteRows(HistogramModule(), {{"path", png}, {"value", "duration"}}, {RunRows()});
  EXPECT_EQ(ReadText(png).substr(0, 4), "\x89PNG");
  const std::string e = ErrorOf([&] { WriteRows(HistogramModule(), {{"path", png}, {"value", "size"}}, {RunRows()}); });
  EXPECT_NE(e.find("histogram: no column 'size'"), std::string::npos) << e;
}

TEST(Charts, EmptyInputStillDrawsAnEmptyChart) {
  TempDir dir;
  RowBatch empty;
  empty.columns = {"run", "duration"};
  for (const ModuleInfo& info : {BoxPlotModule(), CurveModule(), HistogramModule()}) {
    const std::string path = dir.path() + "/" + std::string(info.kind) + ".svg";
    nlohmann::json params = ColumnParams(info, "duration");
    params["path"] = path;
    WriteRows(info, params, {empty});
    EXPECT_TRUE(LooksLikeSvg(ReadText(path))) << info.kind;
  }
}

TEST(Charts, BoxSummary) {
  // 1..9 and 100: quartiles interpolated as numpy does.
  const render::BoxSummary s = render::SummarizeBox({9, 1, 2, 3, 4, 5, 6, 7, 8, 100});
  EXPECT_EQ(s.count, 10u);
  EXPECT_DOUBLE_EQ(s.q1, 3.25);
  EXPECT_DOUBLE_EQ(s.median, 5.5);
  EXPECT_DOUBLE_EQ(s.q3, 7.75);
  EXPECT_EQ(s.low, 1);
  EXPECT_EQ(s.high, 9);
  EXPECT_EQ(s.outliers, std::vector<double>{100});
  const render::BoxSummary one = render::SummarizeBox({4});
  EXPECT_EQ(one.q1, 4);
  EXPECT_EQ(one.high, 4);
  EXPECT_TRUE(one.outliers.empty());
}

TEST(Charts, Bins) {
  const render::Bins b = render::BinValues({0, 1, 2, 3, 4, 5, 6, 7, 8, 10}, 5);
  EXPECT_EQ(b.low, 0);
  EXPECT_EQ(b.width, 2);
  EXPECT_EQ(b.counts, (std::vector<int64_t>{2, 2, 2, 2, 2}));
  const render::Bins same = render::BinValues({3, 3, 3}, 20);
  EXPECT_EQ(same.counts, std::vector<int64_t>{3});
  EXPECT_EQ(same.low, 2.5);
  EXPECT_EQ(render::BinValues({}, 4).counts, (std::vector<int64_t>{0, 0, 0, 0}));
}

}  // namespace
}  // namespace macroscope::pipeline
