// Golden queries: golden/NAME.sql names a trace on its first line
// ("-- trace: PATH" in this source tree, or "-- shared: PATH" in the
// shared test data, skipped without it) and holds statements; NAME.csv is
// what `macroscope query --format csv` prints for them, run from that
// folder. MACROSCOPE_UPDATE_GOLDEN=1 writes the .csv files anew (read the
// change before committing it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "test_support.h"

namespace macroscope::testing {
namespace {

const std::string kGolden = std::string(MACROSCOPE_SOURCE_DIR) + "/tests/query/golden";

std::vector<std::string> Cases() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(kGolden))
    if (entry.path().extension() == ".sql") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

class QueryGoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(QueryGoldenTest, PrintsItsCsv) {
  const std::string sql = kGolden + "/" + GetParam() + ".sql";
  const std::string text = ReadText(sql);
  const std::string first = text.substr(0, text.find('\n'));
  std::string folder, trace;
  if (first.rfind("-- trace: ", 0) == 0) {
    folder = MACROSCOPE_SOURCE_DIR;
    trace = first.substr(10);
  } else {
    ASSERT_EQ(first.rfind("-- shared: ", 0), 0u) << sql << ": the first line names no trace";
    MACROSCOPE_NEEDS_SHARED_TESTDATA();
    folder = SharedTestData();
    trace = first.substr(11);
  }
  CommandResult r = RunCommand("cd " + Quote(folder) + " && " + Quote(MACROSCOPE_BINARY) + " query --format csv " +
                               Quote(trace) + " < " + Quote(sql));
  ASSERT_EQ(r.exit_code, 0) << r.err;  // standard error may hold the reader's warnings
  const std::string expected = kGolden + "/" + GetParam() + ".csv";
  const char* update = std::getenv("MACROSCOPE_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") WriteText(expected, r.out);
  EXPECT_EQ(r.out, ReadText(expected)) << GetParam() << ".sql";
}

INSTANTIATE_TEST_SUITE_P(Golden, QueryGoldenTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace macroscope::testing
