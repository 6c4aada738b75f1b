// Runs `macroscope aggregate` on small CSV files: good input and each class
// of bad input (exit code 1, one line naming the CSV line).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace {

struct Result {
  int exit_code;
  std::string out;
  std::string err;
};

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// ctest runs each test in its own process, in parallel: files are named
// after the running test so that tests never share one.
std::string TestFile(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "/" + info->test_suite_name() + "." + info->name() + "." + name;
}

std::string WriteFile(const std::string& name, const std::string& text) {
  std::string path = TestFile(name);
  std::ofstream(path) << text;
  return path;
}

Result Aggregate(const std::string& args) {
  std::string out = TestFile("out.txt");
  std::string err = TestFile("err.txt");
  std::string command = std::string("'") + MACROSCOPE_BINARY + "' aggregate " + args + " >'" + out +
                        "' 2>'" + err + "'";
  int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, Slurp(out), Slurp(err)};
}

const char* kFigure57 =
    "resource,slice,type,value\n"
    "s1,0,t,23\ns1,1,t,25\ns1,2,t,22\ns1,3,t,30\ns1,4,t,55\n"
    "s1,5,t,21\ns1,6,t,26\ns1,7,t,35\ns1,8,t,19\ns1,9,t,30\n"
    "s2,0,t,75\ns2,1,t,72\ns2,2,t,71\ns2,3,t,69\ns2,4,t,92\n"
    "s2,5,t,73\ns2,6,t,75\ns2,7,t,35\ns2,8,t,70\ns2,9,t,71\n";

TEST(AggregateCliTest, TemporalPartitionJson) {
  std::string csv = WriteFile("fig57.csv", kFigure57);
  Result run = Aggregate("--model-in '" + csv + "' --mode temporal --p 0.0181885");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto json = nlohmann::json::parse(run.out);
  EXPECT_TRUE(json["range"].is_null());
  EXPECT_EQ(json["slices"], 10);
  EXPECT_EQ(json["normalized"], false);
  ASSERT_EQ(json["parts"].size(), 3u);
  EXPECT_EQ(json["parts"][0]["start_slice"], 0);
  EXPECT_EQ(json["parts"][0]["end_slice"], 6);
  EXPECT_EQ(json["parts"][0]["node"], "");
  EXPECT_EQ(json["parts"][2]["start_slice"], 8);
}

TEST(AggregateCliTest, SpatiotemporalWithRangeFiltersAndCsv) {
  std::string csv = WriteFile("st.csv",
                              "a/x,0,run,1\na/x,1,run,2\na/y,0,run,3\na/y,1,wait,4\n"
                              "b,0,run,5\nb,1,run,5\n");
  Result run = Aggregate("--model-in '" + csv +
                         "' --mode spatiotemporal --p 1 --start 10 --end 20 --slices 2");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json["range"], nlohmann::json::array({10.0, 20.0}));
  ASSERT_EQ(json["parts"].size(), 1u);
  EXPECT_EQ(json["parts"][0]["node"], "");

  run = Aggregate("--model-in '" + csv +
                  "' --mode spatiotemporal --p 0 --containers a/x --types run --format csv");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out.substr(0, run.out.find('\n')), "start_slice,end_slice,node,gain,loss");
  EXPECT_NE(run.out.find("0,0,a/x,"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("1,1,a/x,"), std::string::npos) << run.out;
}

TEST(AggregateCliTest, PListIncreasingAndNormalizedAndTimings) {
  std::string csv = WriteFile("fig57b.csv", kFigure57);
  Result run = Aggregate("--model-in '" + csv + "' --plist --normalize --timings");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto list = nlohmann::json::parse(run.out);
  ASSERT_GE(list.size(), 3u);
  EXPECT_EQ(list[0]["p"], 0.0);
  EXPECT_EQ(list[0]["parts"], 10);
  for (size_t k = 1; k < list.size(); ++k) {
    EXPECT_LT(list[k - 1]["p"].get<double>(), list[k]["p"].get<double>());
  }
  EXPECT_EQ(list.back()["parts"], 1);
  EXPECT_DOUBLE_EQ(list.back()["gain"].get<double>(), 1.0);
  auto timings = nlohmann::json::parse(run.err);
  for (const char* key : {"read", "model", "qualities", "p_list", "cuts"}) {
    EXPECT_TRUE(timings.contains(key)) << key;
  }

  run = Aggregate("--model-in '" + csv + "' --plist --plist-method dichotomy --format csv");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out.substr(0, run.out.find('\n')), "p,gain,loss,parts");
}

// Each bad-input class: exit 1, one line on stderr naming the file and line.
TEST(AggregateCliTest, BadCsvInputNamesTheLine) {
  struct Case {
    const char* name;
    const char* text;
    const char* extra;
    const char* expected;
  };
  const Case cases[] = {
      {"bad_number.csv", "a,0,t,1\na,zero,t,1\n", "", "bad_number.csv:2: bad slice number"},
      {"bad_value.csv", "a,0,t,1\na,1,t,1x\n", "", "bad_value.csv:2: bad value"},
      {"negative.csv", "resource,slice,type,value\na,0,t,-3\n", "",
       "negative.csv:2: negative value"},
      {"unknown_column.csv", "resource,slice,colour,value\na,0,t,1\n", "",
       "unknown_column.csv:1: unknown column 'colour'"},
      {"extra_column.csv", "a,0,t,1\na,1,t,1,2\n", "", "extra_column.csv:2: extra column"},
      {"out_of_range.csv", "a,0,t,1\na,5,t,1\n", "--slices 3",
       "out_of_range.csv:2: slice 5 out of range"},
      {"empty.csv", "", "", "empty.csv:1: empty file"},
  };
  for (const Case& c : cases) {
    std::string csv = WriteFile(c.name, c.text);
    Result run = Aggregate("--model-in '" + csv + "' --p 0.5 " + c.extra);
    EXPECT_EQ(run.exit_code, 1) << c.name;
    EXPECT_NE(run.err.find(c.expected), std::string::npos) << c.name << ": " << run.err;
    EXPECT_EQ(run.err.find('\n'), run.err.size() - 1) << c.name << ": " << run.err;
  }
}

// A trace read through the format registry, modelled, aggregated.
TEST(AggregateCliTest, AggregatesATrace) {
  std::string trace = TestFile("generated.trace");
  ASSERT_EQ(std::system((std::string(MACROSCOPE_BINARY) + " generate --depth 2 --arity 3 --events 3000 -o '" +
                         trace + "'").c_str()), 0);
  Result one = Aggregate("'" + trace + "' --no-cache --slices 12 --p 1");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  auto j = nlohmann::json::parse(one.out);
  EXPECT_EQ(j["slices"], 12);
  EXPECT_EQ(j["range"][0], 0.0);
  ASSERT_EQ(j["parts"].size(), 1u);
  EXPECT_EQ(j["parts"][0]["end_slice"], 11);
  Result micro = Aggregate("'" + trace + "' --no-cache --slices 12 --p 0 --mode spatiotemporal");
  ASSERT_EQ(micro.exit_code, 0) << micro.err;
  EXPECT_EQ(nlohmann::json::parse(micro.out)["parts"].size(), 12u * 9u);  // 9 leaves x 12 slices
  Result outside = Aggregate("'" + trace + "' --slices 12 --p 0.5 --start -10 --end 5");
  EXPECT_EQ(outside.exit_code, 1);
  EXPECT_NE(outside.err.find("outside the trace"), std::string::npos) << outside.err;
  Result metric = Aggregate("'" + trace + "' --p 0.5 --metric nope");
  EXPECT_EQ(metric.exit_code, 1);
  EXPECT_NE(metric.err.find("unknown --metric"), std::string::npos) << metric.err;
}

// Over bins (--bins): 128 bins for 100 slices of the whole trace, about
// 30 over a range widened to whole bins; a chunked store of the trace
// gives the same answers, from its summaries.
TEST(AggregateCliTest, OverBins) {
  const std::string trace = TestFile("generated.trace"), store = TestFile("generated.mstore");
  ASSERT_EQ(std::system((std::string(MACROSCOPE_BINARY) + " generate --depth 2 --arity 3 --events 200000 --nested "
                         "--links -o '" + trace + "' && " + MACROSCOPE_BINARY + " import '" + trace + "' -o '" +
                         store + "' >/dev/null 2>&1").c_str()),
            0);
  for (const std::string args : {" --slices 100 --p 0.4", " --slices 30 --p 0.2 --mode spatiotemporal --start +1000 "
                                                          "--end +500000", " --slices 50 --plist --metric link-count"}) {
    Result from_trace = Aggregate("'" + trace + "' --no-cache --bins" + args);
    ASSERT_EQ(from_trace.exit_code, 0) << from_trace.err;
    Result from_store = Aggregate("'" + store + "' --bins" + args);
    ASSERT_EQ(from_store.exit_code, 0) << from_store.err;
    EXPECT_EQ(from_store.out, from_trace.out) << args;
  }
  auto whole = nlohmann::json::parse(Aggregate("'" + store + "' --bins --slices 100 --p 1").out);
  EXPECT_EQ(whole["slices"], 128);
  auto part = nlohmann::json::parse(Aggregate("'" + store + "' --bins --slices 30 --p 1 --start +1000 --end +500000").out);
  const double begin = part["range"][0], end = part["range"][1];
  EXPECT_LE(begin, 1000.0);
  EXPECT_GE(end, 500000.0);
  const int slices = part["slices"];
  EXPECT_GE(slices, 30 / 1.5);
  EXPECT_LE(slices, 30 * 1.5 + 2);
}

TEST(AggregateCliTest, BadOptionsAreOneLineUserErrors) {
  std::string csv = WriteFile("ok.csv", "a,0,t,1\nb,1,t,2\n");
  const std::pair<std::string, std::string> cases[] = {
      {"--model-in '" + csv + "' --p 1.5", "--p must be in [0, 1]"},
      {"--model-in '" + csv + "' --p -0.1", "--p must be in [0, 1]"},
      {"--model-in '" + csv + "' --p 0.5 --slices 0", "--slices must be at least 1"},
      {"--model-in '" + csv + "' --p 0.5 --types nope", "unknown type 'nope'"},
      {"--model-in '" + csv + "' --p 0.5 --containers a/z", "unknown container 'a/z'"},
      {"missing.paje --p 0.5", "missing.paje: cannot open"},
      {"--model-in '" + csv + "'", "give exactly one of --p P and --plist"},
      {"--model-in '" + csv + "' --p 0.5 --mode spatial", "--mode must be"},
      {"--model-in '" + csv + "' --p 0.5 --bins", "--bins needs a TRACE"},
  };
  for (const auto& [args, expected] : cases) {
    Result run = Aggregate(args);
    EXPECT_EQ(run.exit_code, 1) << args;
    EXPECT_NE(run.err.find(expected), std::string::npos) << args << ": " << run.err;
    EXPECT_EQ(run.err.find('\n'), run.err.size() - 1) << args << ": " << run.err;
  }
}

}  // namespace
