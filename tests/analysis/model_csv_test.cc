#include "analysis/model_csv.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "util/error.h"

namespace macroscope::analysis {
namespace {

std::string ErrorOf(const std::string& text, std::optional<int32_t> slices = std::nullopt) {
  try {
    ParseModelCsv(text, "m.csv", slices);
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

TEST(ModelCsvTest, ReadsRowsWithHeader) {
  MicroModel model = ParseModelCsv(
      "resource,slice,type,value\n"
      "site/n1,0,run,1.5\n"
      "site/n1,0,run,2\n"
      "\n"
      "# a comment\n"
      "/site/n2,3,wait,4e0\n",
      "m.csv", std::nullopt);
  EXPECT_EQ(model.slices(), 4);
  EXPECT_EQ(model.types(), (std::vector<std::string>{"run", "wait"}));
  NodeId n1 = *model.hierarchy().FindPath("site/n1");
  EXPECT_EQ(model.Value(n1, 0, 0), 3.5);
  EXPECT_FALSE(model.range());
}

TEST(ModelCsvTest, HeaderOrderQuotesAndSelfLeaf) {
  MicroModel model = ParseModelCsv(
      "value,type,resource,slice\n"
      "1,\"a,b\",site,0\n"
      "2,x,site/n1,1\n",
      "m.csv", 5);
  EXPECT_EQ(model.slices(), 5);
  NodeId self = *model.hierarchy().FindPath("site/(self)");
  EXPECT_EQ(model.Value(self, *model.TypeIndex("a,b"), 0), 1);
}

TEST(ModelCsvTest, ErrorsNameFileAndLine) {
  EXPECT_EQ(ErrorOf("a,0,t,1\na,x,t,1\n"), "m.csv:2: bad slice number 'x'");
  EXPECT_EQ(ErrorOf("a,0,t,1\na,1,t,abc\n"), "m.csv:2: bad value 'abc'");
  EXPECT_EQ(ErrorOf("a,0,t,-1\n"), "m.csv:1: negative value -1");
  EXPECT_EQ(ErrorOf("resource,slice,kind,value\n"), "m.csv:1: unknown column 'kind'");
  EXPECT_EQ(ErrorOf("a,0,t,1,9\n"),
            "m.csv:1: extra column: expected 4 fields (resource,slice,type,value), found 5");
  EXPECT_EQ(ErrorOf("a,0,t,1\na,7,t,1\n", 4), "m.csv:2: slice 7 out of range (--slices 4)");
  EXPECT_EQ(ErrorOf(""), "m.csv:1: empty file: no data rows");
  EXPECT_EQ(ErrorOf("resource,slice,type,value\n"), "m.csv:1: empty file: no data rows");
  EXPECT_EQ(ErrorOf("a,0,t,nan\n"), "m.csv:1: value is not finite");
  EXPECT_EQ(ErrorOf("a//b,0,t,1\n"), "m.csv:1: empty name in resource path 'a//b'");
  EXPECT_EQ(ErrorOf("\"a,0,t,1\n"), "m.csv:1: unterminated quoted field");
  EXPECT_EQ(ErrorOf("a,-1,t,1\n"), "m.csv:1: negative slice -1");
}

}  // namespace
}  // namespace macroscope::analysis

namespace macroscope::analysis {
namespace {

// Random short inputs over the CSV alphabet: a model or a UserError, never
// anything else.
TEST(ModelCsvTest, RandomInputNeverCrashes) {
  const std::string alphabet = ",,,\"\n\n0123456789.-+eE/ #abnif\r";
  std::mt19937_64 rng(5);
  for (int round = 0; round < 20000; ++round) {
    std::string text;
    size_t length = rng() % 40;
    for (size_t k = 0; k < length; ++k) text += alphabet[rng() % alphabet.size()];
    try {
      MicroModel model =
          ParseModelCsv(text, "r.csv", rng() % 3 ? std::nullopt : std::optional<int32_t>(4));
      EXPECT_GE(model.slices(), 1);
    } catch (const UserError&) {
    }
  }
}

}  // namespace
}  // namespace macroscope::analysis
