// count, statistics and measure on the sample trace: exact rows.
#include <algorithm>
#include <cmath>

#include "module_testing.h"

namespace macroscope::pipeline {
namespace {

using testing::MakeSample;
using testing::RowsOf;
using testing::Texts;
using Table = std::vector<std::vector<std::string>>;

TEST(CountModule, ByValueIsTheDefault) {
  const RowBatch rows = RowsOf(CountModule(), nlohmann::json::object(), {MakeSample().batch});
  EXPECT_EQ(rows.columns, (std::vector<std::string>{"value", "count"}));
  EXPECT_EQ(Texts(rows), (Table{{"", "3"}, {"msg", "2"}, {"run", "2"}, {"tick", "2"}, {"wait", "1"}}));
  EXPECT_TRUE(std::holds_alternative<int64_t>(rows.at(0, 1)));
}

TEST(CountModule, ByEachKey) {
  auto count = [](const char* by) { return Texts(RowsOf(CountModule(), {{"by", by}}, {MakeSample().batch})); };
  EXPECT_EQ(count("name"), (Table{{"Power", "3"}, {"msg", "2"}, {"run", "2"}, {"tick", "2"}, {"wait", "1"}}));
  EXPECT_EQ(count("type"), (Table{{"Comm", "2"}, {"Event", "2"}, {"Power", "3"}, {"State", "3"}}));
  EXPECT_EQ(count("container"), (Table{{"0", "2"}, {"n1", "5"}, {"n2", "3"}}));
  EXPECT_EQ(count("kind"), (Table{{"event", "2"}, {"link", "2"}, {"state", "3"}, {"variable", "3"}}));
  EXPECT_EQ(count("type+value"), (Table{{"Comm", "msg", "2"},
                                        {"Event", "tick", "2"},
                                        {"Power", "", "3"},
                                        {"State", "run", "2"},
                                        {"State", "wait", "1"}}));
  EXPECT_EQ(RowsOf(CountModule(), {{"by", "type+value"}}, {MakeSample().batch}).columns,
            (std::vector<std::string>{"type", "value", "count"}));
}

TEST(CountModule, SeveralBatchesAndSeveralTraces) {
  // Two traces whose string ids differ: counts merge by text.
  testing::Sample a = MakeSample(), b = MakeSample();
  b.trace->strings().Intern("shifts nothing but is new");
  const Table rows = Texts(RowsOf(CountModule(), {{"by", "type"}}, {a.batch, a.Batch(0, 4), b.batch}));
  EXPECT_EQ(rows, (Table{{"Comm", "4"}, {"Event", "5"}, {"Power", "6"}, {"State", "9"}}));
}

TEST(CountModule, NoEntitiesGivesTheHeaderOnly) {
  const RowBatch rows = RowsOf(CountModule(), {{"by", "kind"}}, {});
  EXPECT_EQ(rows.columns, (std::vector<std::string>{"kind", "count"}));
  EXPECT_EQ(rows.rows(), 0u);
}

TEST(CountModule, BadKeyRefused) {
  const std::string e = testing::ErrorOf([] { testing::Make(CountModule(), "c", {{"by", "colour"}}); });
  EXPECT_NE(e.find("module 'c': parameter 'by': 'colour' is not one of name, value"), std::string::npos) << e;
}

double At(const RowBatch& rows, size_t row, size_t column) { return std::get<double>(rows.at(row, column)); }

TEST(StatisticsModule, DurationsAndValuesByValue) {
  const RowBatch rows = RowsOf(StatisticsModule(), nlohmann::json::object(), {MakeSample().batch});
  EXPECT_EQ(rows.columns, (std::vector<std::string>{"value", "count", "mean", "stddev", "min", "max", "sum"}));
  // Events have no measure: no "tick" row. "" is the Power variables' values.
  ASSERT_EQ(rows.rows(), 4u);
  const Table texts = Texts(rows);
  EXPECT_EQ(texts[0][0], "");
  EXPECT_EQ(texts[1][0], "msg");
  EXPECT_EQ(texts[2][0], "run");
  EXPECT_EQ(texts[3][0], "wait");
  // Power: 10, 20, 1.5.
  EXPECT_EQ(std::get<int64_t>(rows.at(0, 1)), 3);
  EXPECT_DOUBLE_EQ(At(rows, 0, 2), 10.5);
  EXPECT_DOUBLE_EQ(At(rows, 0, 3), std::sqrt(171.5 / 2));
  EXPECT_EQ(At(rows, 0, 4), 1.5);
  EXPECT_EQ(At(rows, 0, 5), 20);
  EXPECT_EQ(At(rows, 0, 6), 31.5);
  // msg latencies 0.5 and 2.
  EXPECT_DOUBLE_EQ(At(rows, 1, 2), 1.25);
  EXPECT_DOUBLE_EQ(At(rows, 1, 3), std::sqrt(1.125));
  EXPECT_EQ(At(rows, 1, 6), 2.5);
  // run: 2 and 3 s.
  EXPECT_EQ(std::get<int64_t>(rows.at(2, 1)), 2);
  EXPECT_DOUBLE_EQ(At(rows, 2, 2), 2.5);
  EXPECT_DOUBLE_EQ(At(rows, 2, 3), std::sqrt(0.5));
  EXPECT_EQ(At(rows, 2, 4), 2);
  EXPECT_EQ(At(rows, 2, 5), 3);
  EXPECT_EQ(At(rows, 2, 6), 5);
  // wait: one value, no sample deviation.
  EXPECT_EQ(texts[3], (std::vector<std::string>{"wait", "1", "3", "", "3", "3", "3"}));
}

// Rows of count, mean, stddev, min, max, sum, compared as numbers.
void ExpectStatistics(const RowBatch& rows, size_t row, const std::vector<std::string>& key,
                      std::vector<double> expected) {
  ASSERT_LT(row, rows.rows());
  const size_t k = key.size();
  for (size_t c = 0; c < k; ++c) EXPECT_EQ(analysis::CellText(rows.at(row, c)), key[c]);
  EXPECT_EQ(std::get<int64_t>(rows.at(row, k)), static_cast<int64_t>(expected[0]));
  for (size_t c = 1; c < expected.size(); ++c) {
    if (std::isnan(expected[c])) {
      EXPECT_TRUE(std::holds_alternative<std::monostate>(rows.at(row, k + c))) << "column " << rows.columns[k + c];
      continue;
    }
    EXPECT_NEAR(At(rows, row, k + c), expected[c], 1e-12 * std::max(1.0, std::fabs(expected[c])))
        << "row " << row << " column " << rows.columns[k + c];
  }
}

TEST(StatisticsModule, DurationsOfEveryKindByType) {
  const RowBatch rows = RowsOf(StatisticsModule(), {{"by", "type"}, {"of", "duration"}}, {MakeSample().batch});
  ASSERT_EQ(rows.rows(), 3u);
  ExpectStatistics(rows, 0, {"Comm"}, {2, 1.25, std::sqrt(1.125), 0.5, 2, 2.5});
  ExpectStatistics(rows, 1, {"Power"}, {3, 20.0 / 3, std::sqrt(25.0 / 3), 5, 10, 20});
  ExpectStatistics(rows, 2, {"State"}, {3, 8.0 / 3, std::sqrt(1.0 / 3), 2, 3, 8});
}

TEST(StatisticsModule, ValuesOnly) {
  const RowBatch rows = RowsOf(StatisticsModule(), {{"by", "container"}, {"of", "value"}}, {MakeSample().batch});
  ASSERT_EQ(rows.rows(), 2u);
  ExpectStatistics(rows, 0, {"n1"}, {2, 15, std::sqrt(50.0), 10, 20, 30});
  ExpectStatistics(rows, 1, {"n2"}, {1, 1.5, NAN, 1.5, 1.5, 1.5});
}

TEST(StatisticsModule, MergesTraces) {
  // The same entities from two traces (their tables merge) and twice from one.
  const RowBatch two = RowsOf(StatisticsModule(), {{"by", "type+value"}}, {MakeSample().batch, MakeSample().batch});
  ASSERT_EQ(two.rows(), 4u);
  ExpectStatistics(two, 0, {"Comm", "msg"}, {4, 1.25, std::sqrt(0.75), 0.5, 2, 5});
  ExpectStatistics(two, 1, {"Power", ""}, {6, 10.5, std::sqrt(171.5 * 2 / 5), 1.5, 20, 63});
  testing::Sample s = MakeSample();
  const RowBatch one = RowsOf(StatisticsModule(), {{"by", "type+value"}}, {s.batch, s.batch});
  for (size_t r = 0; r < one.rows(); ++r) {
    for (size_t c = 2; c < one.columns.size(); ++c) {
      if (std::holds_alternative<double>(one.at(r, c))) {
        EXPECT_NEAR(At(one, r, c), At(two, r, c), 1e-12);
      }
    }
  }
}

TEST(StatisticsModule, WelfordIsStableFarFromZero) {
  // Durations 1e9 + {4, 7, 13, 16} ticks of a nanosecond clock: a naive
  // sum of squares loses the deviation; Welford keeps it.
  testing::Sample s = MakeSample();
  std::vector<EntityBatch> batches;
  for (double d : {4.0, 7.0, 13.0, 16.0}) {
    s.entities[0].start = 0;
    s.entities[0].end = 1e9 + d;
    EntityBatch& b = batches.emplace_back(s.Batch(0, 1));
    b.base = TimeBase{.num = 1, .den = 1, .whole_ticks = false, .origin = 0, .epoch_ns = std::nullopt};
  }
  const RowBatch rows = RowsOf(StatisticsModule(), {{"by", "type"}}, batches);
  EXPECT_DOUBLE_EQ(At(rows, 0, 2), 1e9 + 10);
  EXPECT_NEAR(At(rows, 0, 3), std::sqrt(30.0), 1e-6);
}

TEST(StatisticsModule, BadMeasureRefused) {
  const std::string e = testing::ErrorOf([] { testing::Make(StatisticsModule(), "s", {{"of", "size"}}); });
  EXPECT_NE(e.find("module 's': parameter 'of'"), std::string::npos) << e;
}

TEST(MeasureModule, OneRowPerMeasuredEntity) {
  const RowBatch rows = RowsOf(MeasureModule(), nlohmann::json::object(), {MakeSample().batch});
  EXPECT_EQ(rows.columns, (std::vector<std::string>{"type", "container", "value", "start", "measure"}));
  EXPECT_EQ(Texts(rows), (Table{{"State", "n1", "run", "0", "2"},
                                {"State", "n1", "wait", "2", "3"},
                                {"State", "n2", "run", "1", "3"},
                                {"Power", "n1", "", "0", "10"},
                                {"Power", "n1", "", "5", "20"},
                                {"Power", "n2", "", "0", "1.5"},
                                {"Comm", "0", "msg", "1", "0.5"},
                                {"Comm", "0", "msg", "2", "2"}}));
}

TEST(MeasureModule, StartsInSecondsOfTheClock) {
  testing::Sample s = MakeSample();
  for (testing::TestEntity& e : s.entities) {
    e.start *= 1000;
    e.end *= 1000;
  }
  s.batch = s.Batch(0, s.entities.size());
  s.batch.base = TimeBase{.num = 1, .den = 1000, .whole_ticks = true, .origin = 0, .epoch_ns = std::nullopt};
  const RowBatch rows = RowsOf(MeasureModule(), {{"of", "duration"}}, {s.batch});
  // wait: [2000, 5000] ms ticks.
  EXPECT_EQ(Texts(rows)[1], (std::vector<std::string>{"State", "n1", "wait", "2", "3"}));
  EXPECT_EQ(rows.rows(), 8u);
}

}  // namespace
}  // namespace macroscope::pipeline
