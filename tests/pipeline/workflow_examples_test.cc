// The example workflows (examples/workflows/) run through `macroscope run`
// on traces the suite makes, checked against counts made without
// macroscope: pj_dump's entities for a generated Pajé trace, babeltrace2's
// events for the LTTng-UST trace tests/ctf records.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "ctf_test_support.h"
#include "test_support.h"

namespace macroscope::testing {
namespace {

std::string Example(const std::string& name) {
  return std::string(MACROSCOPE_SOURCE_DIR) + "/examples/workflows/" + name;
}

std::vector<std::string> Split(const std::string& line, char separator) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  for (std::string field; std::getline(in, field, separator);) fields.push_back(field);
  return fields;
}

// pj_dump's lines of a trace, split at ", ".
std::vector<std::vector<std::string>> PjDump(const std::string& trace) {
  CommandResult r = RunCommand("pj_dump " + Quote(trace));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::vector<std::string>> lines;
  std::stringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> fields;
    for (size_t start = 0;;) {
      size_t comma = line.find(", ", start);
      fields.push_back(line.substr(start, comma - start));
      if (comma == std::string::npos) break;
      start = comma + 2;
    }
    lines.push_back(std::move(fields));
  }
  return lines;
}

// The rows of a CSV the workflow wrote (no quoted commas in these).
std::vector<std::vector<std::string>> Csv(const std::string& path, std::string* header) {
  std::stringstream in(ReadText(path));
  std::vector<std::vector<std::string>> rows;
  std::string line;
  std::getline(in, *header);
  while (std::getline(in, line)) rows.push_back(Split(line, ','));
  return rows;
}

class ExampleWorkflows : public ::testing::Test {
 protected:
  void SetUp() override {
    trace_ = dir_.path() + "/g.trace";
    ASSERT_EQ(Macroscope("generate --depth 2 --arity 3 --events 5000 --nested --punctual --links --variables -o " +
                         Quote(trace_))
                  .exit_code,
              0);
  }
  void Run(const std::string& example, const std::string& sets) {
    CommandResult r = Macroscope("run --no-record -q " + Quote(Example(example)) + " " + sets);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  TempDir dir_;
  std::string trace_;
  std::string out_ = dir_.path() + "/out.csv";
};

// Every entity pj_dump prints, by name (a variable by its type's name).
TEST_F(ExampleWorkflows, CountByNameEqualsPjDumpsEntities) {
  Run("count-by-name.json", "--set input=" + Quote(trace_) + " --set output=" + Quote(out_));
  std::map<std::string, uint64_t> expected;
  for (const auto& f : PjDump(trace_)) {
    if (f[0] == "State") ++expected[f[7]];
    else if (f[0] == "Event") ++expected[f[4]];
    else if (f[0] == "Link") ++expected[f[6]];
    else if (f[0] == "Variable") ++expected[f[2]];
  }
  std::string header;
  std::map<std::string, uint64_t> counted;
  for (const auto& row : Csv(out_, &header)) counted[row.at(0)] = std::stoull(row.at(1));
  EXPECT_EQ(header, "name,count");
  EXPECT_EQ(counted, expected);
}

// One row per CTF event name with babeltrace2's count.
TEST_F(ExampleWorkflows, CountByNameOnCtfEqualsBabeltrace2) {
  const std::string recording = RECORDED_LTTNG_TRACE;
  auto expected = ctf::testing::CountsPerName(ctf::testing::BabeltraceEvents(recording));
  ASSERT_FALSE(expected.empty());
  Run("count-by-name.json", "--set input=" + Quote(recording) + " --set output=" + Quote(out_));
  std::string header;
  std::map<std::string, uint64_t, std::less<>> counted;
  for (const auto& row : Csv(out_, &header)) counted[row.at(0)] = std::stoull(row.at(1));
  EXPECT_EQ(counted, expected);
}

// Per state value: count, mean, sample std dev, min, max and sum of
// pj_dump's durations.
TEST_F(ExampleWorkflows, StateDurationsEqualPjDumpsStates) {
  Run("state-durations.json", "--set input=" + Quote(trace_) + " --set output=" + Quote(out_));
  std::map<std::string, std::vector<double>> durations;
  for (const auto& f : PjDump(trace_))
    if (f[0] == "State") durations[f[7]].push_back(std::stod(f[5]));
  std::string header;
  auto rows = Csv(out_, &header);
  EXPECT_EQ(header, "value,count,mean,stddev,min,max,sum");
  ASSERT_EQ(rows.size(), durations.size());
  for (const auto& row : rows) {
    ASSERT_EQ(row.size(), 7u);
    const std::vector<double>& d = durations.at(row[0]);
    double sum = 0, min = d[0], max = d[0];
    for (double x : d) sum += x, min = std::min(min, x), max = std::max(max, x);
    const double mean = sum / d.size();
    double squares = 0;
    for (double x : d) squares += (x - mean) * (x - mean);
    const double stddev = d.size() > 1 ? std::sqrt(squares / (d.size() - 1)) : 0;
    EXPECT_EQ(std::stoull(row[1]), d.size()) << row[0];
    EXPECT_NEAR(std::stod(row[2]), mean, 1e-9 * std::max(1.0, mean)) << row[0];
    EXPECT_NEAR(std::stod(row[3]), stddev, 1e-9 * std::max(1.0, stddev)) << row[0];
    EXPECT_EQ(std::stod(row[4]), min) << row[0];
    EXPECT_EQ(std::stod(row[5]), max) << row[0];
    EXPECT_NEAR(std::stod(row[6]), sum, 1e-9 * std::max(1.0, sum)) << row[0];
  }
}

// Three runs, one box each; the collected values are each run's states.
TEST_F(ExampleWorkflows, CampaignCollectsEveryRunIntoOneBoxPlot) {
  std::vector<std::string> traces;
  for (int seed = 1; seed <= 3; ++seed) {
    traces.push_back(dir_.path() + "/run" + std::to_string(seed) + ".trace");
    ASSERT_EQ(Macroscope("generate --depth 1 --arity 3 --events " + std::to_string(1000 * seed) + " --seed " +
                         std::to_string(seed) + " -o " + Quote(traces.back()))
                  .exit_code,
              0);
  }
  const std::string svg = dir_.path() + "/campaign.svg";
  Run("campaign.json", "--set inputs=" + Quote(traces[0] + "," + traces[1] + "," + traces[2]) + " --set output=" +
                           Quote(svg) + " --set values=" + Quote(out_));
  std::string header;
  std::map<std::string, uint64_t> per_run;
  for (const auto& row : Csv(out_, &header)) ++per_run[row.at(0)];
  EXPECT_EQ(header.rfind("run,", 0), 0u) << header;
  for (int run = 0; run < 3; ++run) {
    uint64_t states = 0;
    for (const auto& f : PjDump(traces[run])) states += f[0] == "State";
    EXPECT_EQ(per_run[std::to_string(run)], states) << "run " << run;
  }
  const std::string picture = ReadText(svg);
  EXPECT_NE(picture.find("<svg"), std::string::npos);
}

}  // namespace
}  // namespace macroscope::testing
