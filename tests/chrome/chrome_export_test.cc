// Chrome JSON export (`macroscope convert … -o X.json`): valid JSON in the
// object form with the expected phases, and re-imported with the same
// number of states, events, variables and links.
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "test_helpers.h"

namespace macroscope::chrome {
namespace {

using testing::ChromeTestData;
using testing::Macroscope;
using testing::ReadText;
using testing::Scratch;

nlohmann::json Totals(const std::string& file) {
  auto r = Macroscope("info --json " + file);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out)["totals"];
}

TEST(ChromeExport, PajeToChromeKeepsEveryEntity) {
  const std::string dir = Scratch("export_paje");
  const std::string paje = dir + "/gen.trace", json = dir + "/gen.json";
  ASSERT_EQ(Macroscope("generate --depth 2 --arity 3 --events 5000 --nested --punctual --links --variables -o " + paje)
                .exit_code,
            0);
  auto r = Macroscope("convert " + paje + " -o " + json);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  auto doc = nlohmann::json::parse(ReadText(json));  // throws (fails) when invalid
  ASSERT_TRUE(doc.is_object());
  ASSERT_TRUE(doc["traceEvents"].is_array());
  std::set<std::string> phases;
  for (auto& e : doc["traceEvents"]) {
    phases.insert(e["ph"].get<std::string>());
    EXPECT_TRUE(e.contains("pid") && e.contains("tid"));
  }
  EXPECT_EQ(phases, (std::set<std::string>{"M", "X", "i", "C", "s", "f"}));
  auto before = Totals(paje), after = Totals(json);
  for (const char* kind : {"state", "event", "variable", "link"}) EXPECT_EQ(before[kind], after[kind]) << kind;
  EXPECT_GT(before["link"].get<int>(), 0);
  EXPECT_GT(before["variable"].get<int>(), 0);
}

TEST(ChromeExport, DeepTreesAreFlattenedWithPathNames) {
  const std::string dir = Scratch("export_deep");
  const std::string paje = dir + "/deep.trace", json = dir + "/deep.json";
  ASSERT_EQ(Macroscope("generate --depth 3 --arity 2 --events 500 -o " + paje).exit_code, 0);
  ASSERT_EQ(Macroscope("convert " + paje + " -o " + json).exit_code, 0);
  auto doc = nlohmann::json::parse(ReadText(json));
  std::set<std::string> processes;
  size_t threads = 0, sort_indexes = 0;
  for (auto& e : doc["traceEvents"]) {
    if (e["ph"] != "M") continue;
    if (e["name"] == "process_name") processes.insert(e["args"]["name"].get<std::string>());
    threads += e["name"] == "thread_name";
    sort_indexes += e["name"] == "process_sort_index" || e["name"] == "thread_sort_index";
  }
  EXPECT_EQ(threads, 8u);  // the 2^3 leaves
  EXPECT_EQ(processes.size(), 4u);  // their parents, named by path
  for (const std::string& p : processes) EXPECT_NE(p.find('/'), std::string::npos) << p;
  EXPECT_EQ(sort_indexes, 12u);
}

// The suite's own trace, and catapult's where the shared test data is.
std::vector<std::string> ChromeInputs() {
  const std::string suite = Scratch("export_inputs") + "/suite.json";
  testing::WriteSuiteTrace(suite);
  std::vector<std::string> inputs{suite};
  if (macroscope::testing::HaveSharedTestData())
    for (const char* name : {"flow.json", "x_event_trace.json"}) inputs.push_back(ChromeTestData() + "/" + name);
  return inputs;
}

TEST(ChromeExport, ChromeToChromeAndToPajeKeepCounts) {
  const std::string dir = Scratch("export_chrome");
  for (const std::string& in : ChromeInputs()) {
    const std::string name = in;
    ASSERT_EQ(Macroscope("convert " + in + " -o " + dir + "/out.json").exit_code, 0);
    ASSERT_EQ(Macroscope("convert " + in + " -o " + dir + "/out.paje").exit_code, 0);
    auto a = Totals(in), b = Totals(dir + "/out.json"), c = Totals(dir + "/out.paje");
    for (const char* kind : {"state", "event", "variable", "link", "container"}) {
      EXPECT_EQ(a[kind], b[kind]) << name << " " << kind;
      EXPECT_EQ(a[kind], c[kind]) << name << " " << kind;
    }
  }
}

TEST(ChromeExport, FormatFromOptionAndStandardOutput) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const std::string in = ChromeTestData() + "/big_trace.json";
  auto r = Macroscope("convert " + in + " --to paje -o -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("# Written by macroscope", 0), 0u);
  auto j = Macroscope("convert " + in + " --to chrome -o -");
  ASSERT_EQ(j.exit_code, 0) << j.err;
  EXPECT_EQ(nlohmann::json::parse(j.out)["traceEvents"].size(), 933u + 4 * 2 + 4 * 2);
  auto bad = Macroscope("convert " + in + " -o " + Scratch("ext") + "/out.txt");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("--to"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace macroscope::chrome
