// Workflow files through `macroscope run`: parameters, refusals naming the
// file and the ports, sub-workflows instantiated N times, the picture, and
// the record of runs in the catalog (catalog runs / rerun).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "test_support.h"

namespace macroscope::testing {
namespace {

class WorkflowFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    trace_ = dir_.path() + "/g.trace";
    ASSERT_EQ(Macroscope("generate --depth 2 --arity 3 --events 3000 --nested --punctual --links --variables -o " +
                         Quote(trace_))
                  .exit_code,
              0);
  }
  std::string Write(const std::string& name, const std::string& text) {
    std::string path = dir_.path() + "/" + name;
    WriteText(path, text);
    return path;
  }
  // `macroscope run` recording in this test's own catalog.
  CommandResult Run(const std::string& args) {
    return Macroscope("run --catalog " + Quote(catalog_) + " " + args);
  }
  CommandResult Catalog(const std::string& args) {
    return Macroscope("catalog " + args + " --catalog " + Quote(catalog_));
  }
  std::string Example(const std::string& name) {
    return std::string(MACROSCOPE_SOURCE_DIR) + "/examples/workflows/" + name;
  }

  TempDir dir_;
  std::string trace_;
  std::string catalog_ = dir_.path() + "/catalog.sqlite";
};

TEST_F(WorkflowFileTest, LinkBetweenPortsOfDifferentTypesIsRefusedNamingBoth) {
  std::string wf = Write("bad.json", R"({"parameters": {"input": {}},
    "modules": {"read": {"module": "read", "input": "${input}"},
                "plot": {"module": "box-plot", "path": "p.svg", "value": "measure"}},
    "links": [["read.out", "plot.in"]]})");
  auto r = Run("--no-record " + Quote(wf) + " --set input=" + Quote(trace_));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("bad.json"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("read.out"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("plot.in"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("entities"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("rows"), std::string::npos) << r.err;
}

TEST_F(WorkflowFileTest, BadFilesAreRefusedWithTheFileAndTheProblem) {
  struct Case {
    const char* text;
    const char* expected;
  } cases[] = {
      {"{", "not valid JSON"},
      {R"({"modules": {"a": {"module": "nonesuch"}}})", "unknown module kind 'nonesuch'"},
      {R"({"modules": {"a": {"module": "count", "by": "value", "colour": "red"}}, "links": []})", "colour"},
      {R"({"modules": {"a": {"module": "count", "by": "${missing}"}}})", "${missing}"},
      {R"({"modules": {"a": {"module": "count"}}, "links": [["a.rows", "b.in"]]})", "no module 'b'"},
      {R"({"modules": {"a": {"module": "count"}}})", "input 'a.in' is not linked"},
      {R"({"modules": {"a": {"module": "workflow", "file": "self.json"}}})", "uses itself"},
  };
  for (const Case& c : cases) {
    std::string wf = Write("self.json", c.text);
    auto r = Run("--no-record " + Quote(wf));
    EXPECT_EQ(r.exit_code, 1) << c.text << "\n" << r.err;
    EXPECT_NE(r.err.find("self.json"), std::string::npos) << c.text << "\n" << r.err;
    EXPECT_NE(r.err.find(c.expected), std::string::npos) << c.text << "\n" << r.err;
  }
}

TEST_F(WorkflowFileTest, ParametersComeFromSetOrDefaultsAndUnknownOnesAreRefused) {
  std::string out = dir_.path() + "/d.csv";
  auto missing = Run("--no-record " + Quote(Example("state-durations.json")));
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("parameter 'input' needs a value"), std::string::npos) << missing.err;
  auto unknown = Run("--no-record " + Quote(Example("state-durations.json")) + " --set input=" + Quote(trace_) +
                     " --set colour=red");
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_NE(unknown.err.find("no parameter 'colour'"), std::string::npos) << unknown.err;
  auto ok = Run("--no-record " + Quote(Example("state-durations.json")) + " --set input=" + Quote(trace_) +
                " --set output=" + Quote(out));
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ReadText(out).rfind("value,count,mean,stddev,min,max,sum\n", 0), 0u) << ReadText(out);
}

TEST_F(WorkflowFileTest, AFailingModuleFailsTheRunWithItsMessageAndLeavesNoOutput) {
  std::string bad = Write("bad.trace", "%EventDef PajeDefineContainerType 1\n% Alias string\n%EndEventDef\n1 x\n2 y\n");
  std::string out = dir_.path() + "/never.csv";
  auto r = Run(Quote(Example("state-durations.json")) + " --set input=" + Quote(bad) + " --set output=" + Quote(out));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("module 'read'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("bad.trace"), std::string::npos) << r.err;
  EXPECT_FALSE(std::ifstream(out).good());
  auto runs = Catalog("runs --json");
  ASSERT_EQ(runs.exit_code, 0) << runs.err;
  auto j = nlohmann::json::parse(runs.out);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["outcome"], "failed");
  EXPECT_NE(j[0]["message"].get<std::string>().find("module 'read'"), std::string::npos);
}

TEST_F(WorkflowFileTest, GraphDrawsEveryModuleAndLinkAsSvg) {
  std::string svg = dir_.path() + "/g.svg";
  auto r = Run("--graph " + Quote(Example("campaign.json")) + " --set inputs=" + Quote(trace_ + "," + trace_ + "," + trace_) +
               " -o " + Quote(svg));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string text = ReadText(svg);
  EXPECT_NE(text.find("<svg"), std::string::npos);
  for (const char* name : {"runs[0].read", "runs[1].read", "runs[2].measure", "runs/values", "plot", "write"})
    EXPECT_NE(text.find(name), std::string::npos) << name;
  EXPECT_NE(text.find("entities"), std::string::npos);
  EXPECT_NE(text.find("rows"), std::string::npos);
  EXPECT_FALSE(std::ifstream(dir_.path() + "/campaign.svg").good()) << "--graph runs nothing";
}

TEST_F(WorkflowFileTest, RunsAreRecordedWithChecksumsAndRerunRepeatsThem) {
  std::string out = dir_.path() + "/d.csv";
  auto first = Run(Quote(Example("state-durations.json")) + " --set input=" + Quote(trace_) + " --set output=" +
                   Quote(out));
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const std::string produced = ReadText(out);
  std::remove(out.c_str());
  auto again = Catalog("rerun 1");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(ReadText(out), produced);
  auto runs = Catalog("runs --json");
  ASSERT_EQ(runs.exit_code, 0) << runs.err;
  auto j = nlohmann::json::parse(runs.out);
  ASSERT_EQ(j.size(), 2u);
  for (const auto& run : j) {
    EXPECT_EQ(run["outcome"], "succeeded");
    EXPECT_EQ(run["parameters"]["input"], trace_);
    EXPECT_NE(run["workflow"].get<std::string>().find("state-durations.json"), std::string::npos);
    ASSERT_EQ(run["files"].size(), 2u) << run.dump();
    EXPECT_EQ(run["files"][0]["role"], "input");
    EXPECT_EQ(run["files"][0]["checksum"], j[0]["files"][0]["checksum"]);
    EXPECT_EQ(run["files"][1]["role"], "output");
    EXPECT_EQ(run["files"][1]["checksum"], j[0]["files"][1]["checksum"]);
  }
  EXPECT_EQ(j[1]["rerun_of"], 1);
  auto text = Catalog("runs");
  EXPECT_NE(text.out.find("succeeded"), std::string::npos) << text.out;
  EXPECT_EQ(Catalog("rerun 9").exit_code, 1);
}

TEST_F(WorkflowFileTest, SubWorkflowInstancesEachReadTheirOwnInput) {
  std::string second = dir_.path() + "/h.trace";
  ASSERT_EQ(Macroscope("generate --depth 1 --arity 2 --events 500 --seed 7 -o " + Quote(second)).exit_code, 0);
  std::string csv = dir_.path() + "/values.csv", svg = dir_.path() + "/plot.svg";
  auto r = Run("--no-record " + Quote(Example("campaign.json")) + " --set inputs=" + Quote(trace_ + "," + second) +
               " --set output=" + Quote(svg) + " --set values=" + Quote(csv));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Each run's rows equal the one-run workflow's on its trace, tagged with the run.
  std::string text = ReadText(csv);
  size_t run0 = 0, run1 = 0;
  for (size_t at = text.find('\n'); at != std::string::npos && at + 1 < text.size(); at = text.find('\n', at + 1)) {
    run0 += text.compare(at + 1, 2, "0,") == 0;
    run1 += text.compare(at + 1, 2, "1,") == 0;
  }
  auto states = [&](const std::string& trace) {
    auto dump = RunCommand("pj_dump " + Quote(trace) + " | grep -c '^State'");
    return std::stoul(dump.out);
  };
  EXPECT_EQ(run0, states(trace_));
  EXPECT_EQ(run1, states(second));
  EXPECT_NE(ReadText(svg).find("<svg"), std::string::npos);
}

}  // namespace
}  // namespace macroscope::testing
