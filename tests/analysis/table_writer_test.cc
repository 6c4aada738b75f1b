// The one table writer: text aligned for people, CSV that our CSV reader
// and a strict RFC 4180 reading give back cell for cell, JSON rows; a
// table written in parts is the table written whole.
#include "analysis/table_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>

#include "formats/csv/generic_reader.h"
#include "util/error.h"

namespace macroscope::analysis {
namespace {

Table Sample() {
  Table t({"name", "count", "share"});
  t.Put("main");
  t.Put(int64_t{1234});
  t.Put(0.5);
  t.Put("a, \"quoted\" name");
  t.Put(int64_t{-7});
  t.PutEmpty();
  return t;
}

TEST(TableWriter, TextAlignsTextLeftAndNumbersRight) {
  EXPECT_EQ(FormatTable(Sample(), TableFormat::kText),
            "name              count  share\n"
            "main               1234    0.5\n"
            "a, \"quoted\" name     -7      -\n");
}

TEST(TableWriter, QuantitiesForPeopleAlignRight) {
  Table t({"value", "time", "mixed"});
  for (auto [value, time, mixed] : {std::tuple{"a", "1.5 ms", "12 s"}, {"b", "250 ms", "none"}, {"c", "", "3"}}) {
    t.Put(value);
    if (*time != '\0')
      t.Put(time);
    else
      t.PutEmpty();
    t.Put(mixed);
  }
  EXPECT_EQ(FormatTable(t, TableFormat::kText),
            "value    time  mixed\n"
            "a      1.5 ms  12 s\n"
            "b      250 ms  none\n"
            "c           -  3\n");
}

TEST(TableWriter, CsvQuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(FormatTable(Sample(), TableFormat::kCsv),
            "name,count,share\n"
            "main,1234,0.5\n"
            "\"a, \"\"quoted\"\" name\",-7,\n");
  EXPECT_EQ(CsvField(" edge"), "\" edge\"");
  EXPECT_EQ(CsvField("line\nbreak"), "\"line\nbreak\"");
  EXPECT_EQ(CsvField(""), "");
}

TEST(TableWriter, JsonRowsAreObjects) {
  Table t = Sample();
  t.Put("nan");
  t.Put(int64_t{0});
  t.Put(std::numeric_limits<double>::quiet_NaN());
  const nlohmann::json rows = nlohmann::json::parse(FormatTable(t, TableFormat::kJson));
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0]["name"], "main");
  EXPECT_EQ(rows[0]["count"], 1234);
  EXPECT_EQ(rows[0]["share"], 0.5);
  EXPECT_EQ(rows[1]["name"], "a, \"quoted\" name");
  EXPECT_TRUE(rows[1]["share"].is_null());
  EXPECT_TRUE(rows[2]["share"].is_null());  // not a number: null
  EXPECT_EQ(FormatTable(Table({"a"}), TableFormat::kJson), "[]\n");
}

TEST(TableWriter, PartsMakeTheWholeTable) {
  const Table whole = Sample();
  for (TableFormat format : {TableFormat::kText, TableFormat::kCsv, TableFormat::kJson}) {
    TableWriter writer(format);
    std::string out;
    for (size_t r = 0; r < whole.rows(); ++r) {
      Table part(whole.columns);
      for (size_t c = 0; c < whole.columns.size(); ++c) part.Put(whole.at(r, c));
      writer.Add(part, out);
    }
    writer.Finish(out);
    EXPECT_EQ(out, FormatTable(whole, format));
  }
}

TEST(TableWriter, UnknownFormatIsTheUsersError) {
  EXPECT_EQ(ParseTableFormat("csv"), TableFormat::kCsv);
  EXPECT_THROW(ParseTableFormat("xml"), UserError);
}

// States whose values hold commas, quotes and edge blanks, written as a
// table, read back by the generic CSV reader: the same values.
TEST(TableWriter, CsvReadsBackThroughOurCsvReader) {
  const std::vector<std::string> values = {"plain", "with, comma", "say \"hi\"", " padded ", "\"", ""};
  Table t({"container", "type", "start", "end", "value"});
  for (size_t i = 0; i < values.size(); ++i) {
    t.Put("thread, 0");
    t.Put("Region");
    t.Put(static_cast<int64_t>(i));
    t.Put(static_cast<int64_t>(i + 1));
    t.Put(values[i]);
  }
  Trace trace;
  csv::ReadGenericCsvText(FormatTable(t, TableFormat::kCsv), "table.csv", trace, {});
  std::vector<std::string> read;
  for (const EntityStore& s : trace.stores()) {
    EXPECT_EQ(trace.Str(trace.container(s.container).name), "thread, 0");
    for (StringId v : s.value) read.emplace_back(trace.Str(v));
  }
  EXPECT_EQ(read, values);
}

}  // namespace
}  // namespace macroscope::analysis
