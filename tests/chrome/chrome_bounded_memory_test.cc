// Chrome JSON in bounded memory: beyond the budget (the hidden --sort-memory,
// made tiny here so that every sort writes many runs and merges them in
// levels) the reader's records go to sorted runs in $TMPDIR. The results
// must be those of the in-memory path: `dump` (the model) and `stats` (a
// streaming sink) print the same, warnings and refusals included.
#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "test_helpers.h"
#include "util/external_sort.h"

namespace macroscope::chrome {
namespace {

using testing::CommandResult;
using testing::Macroscope;
using testing::Scratch;
using testing::WriteText;
using macroscope::testing::Quote;
using macroscope::testing::RunCommand;
using macroscope::testing::TempDir;

constexpr const char* kTiny = "--sort-memory 4096";

// Every kind of record the reader sorts, in an order no sort may take for
// granted: nested B/E over several threads and processes, X written out of
// time order (some outliving their parent, some ending with it, equal
// starts), instants of every scope, counters (with ids), flows s/t/f with
// reused ids and flow v2 bind ids, async and object events, an unclosed B,
// an E without a B, names and sort indexes.
std::string MixedTrace() {
  std::mt19937 random(11);
  std::vector<std::string> events;
  auto add = [&](std::string e) { events.push_back(std::move(e)); };
  for (int pid = 1; pid <= 2; ++pid) {
    const std::string p = "\"pid\":" + std::to_string(pid);
    add("{\"ph\":\"M\"," + p + ",\"name\":\"process_name\",\"args\":{\"name\":\"proc " + std::to_string(pid) + "\"}}");
    add("{\"ph\":\"M\"," + p + ",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":" +
        std::to_string(3 - pid) + "}}");
    for (int tid = 1; tid <= 3; ++tid) {
      const std::string pt = p + ",\"tid\":" + std::to_string(tid);
      add("{\"ph\":\"M\"," + pt + ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":" +
          std::to_string(tid % 2) + "}}");
      uint64_t t = 5 * tid;
      for (int i = 0; i < 60; ++i, t += 100) {
        auto at = [&](uint64_t ts) { return pt + ",\"ts\":" + std::to_string(ts); };
        const std::string n = ",\"name\":\"step" + std::to_string(i % 3) + "\"";
        add("{\"ph\":\"B\"," + at(t) + n + ",\"cat\":\"c" + std::to_string(i % 2) + "\",\"args\":{\"i\":" +
            std::to_string(i) + "}}");
        add("{\"ph\":\"B\"," + at(t + 10) + ",\"name\":\"inner\"}");
        add("{\"ph\":\"E\"," + at(t + 30) + ",\"args\":{\"done\":true}}");
        // X: one ending with its parent, one outliving it, two with equal starts.
        add("{\"ph\":\"X\"," + at(t + 40) + ",\"name\":\"x\",\"dur\":40}");
        add("{\"ph\":\"X\"," + at(t + 40) + ",\"name\":\"y\",\"dur\":" + std::to_string(10 + random() % 20) + "}");
        if (i % 7 == 0) add("{\"ph\":\"X\"," + at(t + 70) + ",\"name\":\"over\",\"dur\":50}");
        add("{\"ph\":\"i\"," + at(t + 45) + ",\"name\":\"mark\",\"s\":\"" + "tpg"[i % 3] + "\"}");
        add("{\"ph\":\"C\"," + at(t + 45) + ",\"name\":\"queue\"" + (i % 2 ? ",\"id\":7" : "") +
            ",\"args\":{\"len\":" + std::to_string(random() % 50) + ",\"cap\":\"64\"}}");
        const std::string id = ",\"cat\":\"f\",\"id\":" + std::to_string(i % 4);
        if (i % 3 == 0) add("{\"ph\":\"s\"," + at(t + 20) + ",\"name\":\"msg\"" + id + "}");
        if (i % 3 == 1) add("{\"ph\":\"t\"," + at(t + 20) + ",\"name\":\"msg\"" + id + "}");
        if (i % 3 == 2) add("{\"ph\":\"f\"," + at(t + 25) + ",\"name\":\"msg\"" + id + ",\"bp\":\"e\"}");
        if (i % 5 == 0)
          add("{\"ph\":\"X\"," + at(t + 50) + ",\"name\":\"bind\",\"dur\":5,\"bind_id\":" + std::to_string(i) +
              (tid == 1 ? ",\"flow_out\":true}" : ",\"flow_in\":true}"));
        if (i % 10 == 0) add("{\"ph\":\"b\"," + at(t + 1) + ",\"name\":\"load\",\"id\":\"0x1\",\"cat\":\"a\"}");
        if (i % 10 == 0) add("{\"ph\":\"O\"," + at(t + 2) + ",\"name\":\"obj\",\"id\":\"0x2\"}");
        if (!(tid == 2 && i == 59)) add("{\"ph\":\"E\"," + at(t + 80) + "}");
      }
      add("{\"ph\":\"E\"," + pt + ",\"ts\":1}");  // before any B of its thread
    }
  }
  // Out of file order: blocks of events swapped, so that every record list
  // needs its sort.
  for (size_t i = 0; i + 40 < events.size(); i += 80)
    std::swap_ranges(events.begin() + i, events.begin() + i + 40, events.begin() + i + 40);
  std::string text = "[\n";
  for (size_t i = 0; i < events.size(); ++i) text += (i ? ",\n" : "") + events[i];
  return text + "\n]\n";
}

// The sorter under the reader: stable (equal keys in adding order) whether
// everything fits, a few runs are written, or runs are merged in levels.
TEST(ChromeBoundedMemory, ExternalSortIsStableInMemoryAndInRuns) {
  struct Record {
    uint32_t key, order;
  };
  struct ByKey {
    bool operator()(const Record& a, const Record& b) const { return a.key < b.key; }
  };
  std::mt19937 random(5);
  std::vector<Record> records;
  for (uint32_t i = 0; i < 20000; ++i) records.push_back({static_cast<uint32_t>(random() % 100), i});
  std::vector<Record> expected = records;
  std::stable_sort(expected.begin(), expected.end(), ByKey{});
  for (size_t memory : {size_t{1} << 20, size_t{64} << 10, size_t{1024}, size_t{160}}) {
    ExternalSort<Record, ByKey> sort(memory, "a test", "little");
    for (const Record& r : records) sort.Add(r);
    std::vector<Record> got;
    Record r;
    while (sort.Next(r)) got.push_back(r);
    ASSERT_EQ(got.size(), expected.size()) << memory;
    for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i].order, expected[i].order) << memory << " at " << i;
    EXPECT_EQ(sort.runs() > 0, memory < (size_t{1} << 20)) << memory;
  }
}

// `command FILE` with the default budget and with a tiny one: the same.
void ExpectSameWithTinyBudget(const std::string& command, const std::string& file) {
  CommandResult whole = Macroscope(command + " " + Quote(file));
  CommandResult runs = Macroscope(command + " " + kTiny + " " + Quote(file));
  EXPECT_EQ(whole.exit_code, 0) << whole.err;
  EXPECT_EQ(runs.exit_code, whole.exit_code) << runs.err;
  EXPECT_FALSE(whole.out.empty());
  EXPECT_EQ(runs.out, whole.out) << command << " " << file;
  EXPECT_EQ(runs.err, whole.err) << command << " " << file;
}

void ExpectSameResults(const std::string& file) {
  ExpectSameWithTinyBudget("dump", file);
  ExpectSameWithTinyBudget("stats", file);
}

TEST(ChromeBoundedMemory, MixedTraceGivesTheSameResults) {
  const std::string file = Scratch("bounded_mixed") + "/mixed.json";
  WriteText(file, MixedTrace());
  ExpectSameResults(file);
  // The warnings are there to be compared: truncated and unclosed slices,
  // an E without a B, unmatched flows.
  CommandResult r = Macroscope("stats " + std::string(kTiny) + " " + Quote(file));
  EXPECT_NE(r.err.find("E without a matching B"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("outliving their parent"), std::string::npos) << r.err;
}

TEST(ChromeBoundedMemory, SuiteTraceGivesTheSameResults) {
  const std::string file = Scratch("bounded_suite") + "/suite.json";
  testing::WriteSuiteTrace(file);
  ExpectSameResults(file);
}

TEST(ChromeBoundedMemory, RealTracesGiveTheSameResults) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  for (const char* name : {"flow.json", "x_event_trace.json", "v8_runtime_call_stats.json", "big_trace.json"})
    ExpectSameResults(testing::ChromeTestData() + "/" + name);
}

// Bad input says the same whatever the budget.
TEST(ChromeBoundedMemory, RefusalsAreTheSame) {
  const std::string dir = Scratch("bounded_refused");
  std::string text = MixedTrace();
  WriteText(dir + "/truncated.json", text.substr(0, text.size() / 2));
  // Text that is not JSON, a number too large for a double.
  WriteText(dir + "/huge.json", "[{\"ph\":\"X\",\"ts\":1,\"dur\":1e999}]\n");
  for (const char* name : {"truncated.json", "huge.json"}) {
    CommandResult whole = Macroscope("stats " + Quote(dir + "/" + name));
    CommandResult runs = Macroscope("stats " + std::string(kTiny) + " " + Quote(dir + "/" + name));
    EXPECT_EQ(whole.exit_code, 1) << whole.err;
    EXPECT_EQ(runs.exit_code, 1) << runs.err;
    EXPECT_EQ(runs.err, whole.err);
  }
}

// The runs really are written, in $TMPDIR, and none is left behind; a
// $TMPDIR that cannot hold them is one clear message (exit 1), which a
// trace that fits the budget never meets.
TEST(ChromeBoundedMemory, RunsGoToTmpdirAndLeaveNothing) {
  const std::string file = Scratch("bounded_tmpdir") + "/mixed.json";
  WriteText(file, MixedTrace());
  TempDir tmp;
  CommandResult r = RunCommand("TMPDIR=" + Quote(tmp.path()) + " " + Quote(MACROSCOPE_BINARY) + " stats " +
                                        kTiny + " " + Quote(file));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::is_empty(tmp.path()));
  const std::string missing = tmp.path() + "/missing";
  r = RunCommand("TMPDIR=" + Quote(missing) + " " + Quote(MACROSCOPE_BINARY) + " stats " + kTiny + " " +
                          Quote(file));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty());
  EXPECT_EQ(r.err, "macroscope: " + missing + ": cannot create a temporary file for reading Chrome JSON: " +
                       "No such file or directory (TMPDIR names the folder; reading Chrome JSON needs about " +
                       "three times the file's size there)\n");
  r = RunCommand("TMPDIR=" + Quote(missing) + " " + Quote(MACROSCOPE_BINARY) + " stats " + Quote(file));
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
}  // namespace macroscope::chrome
