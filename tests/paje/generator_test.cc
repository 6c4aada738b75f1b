// `macroscope generate`: the trace of every entity kind the benchmarks read
// (states on every container level, pushed states nested three deep,
// punctual events, links, variables on every level) is one pj_dump reads
// as macroscope does, holds each kind, and is the same for the same seed.
#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"

namespace macroscope::testing {
namespace {

constexpr const char* kEveryKind =
    "generate --depth 3 --arity 3 --events 20000 --nested --nesting 3 --punctual --links --variables --inner";

class GeneratorTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    CommandResult g = Macroscope(std::string(kEveryKind) + " -o " + Quote(Trace()));
    ASSERT_EQ(g.exit_code, 0) << g.err;
  }
  static void TearDownTestSuite() { delete dir_; }
  static std::string Trace() { return dir_->path() + "/every_kind.trace"; }

  static TempDir* dir_;
};
TempDir* GeneratorTest::dir_ = nullptr;

TEST_F(GeneratorTest, EveryKindIsReadAsPjDumpReadsIt) {
  for (const std::string options : {"", "-i"}) {
    CommandResult peer = RunCommand("pj_dump " + options + " " + Quote(Trace()));
    ASSERT_EQ(peer.exit_code, 0) << peer.err;
    ASSERT_EQ(peer.out.find("Exception"), std::string::npos) << peer.out.substr(0, 300);
    CommandResult ours = Macroscope("dump " + options + " " + Quote(Trace()));
    ASSERT_EQ(ours.exit_code, 0) << ours.err;
    EXPECT_EQ(SortedLines(ours.out), SortedLines(peer.out)) << "options: " << options;
  }
}

TEST_F(GeneratorTest, EveryKindOnEveryLevel) {
  // Rows per (kind, container level, type); the level is the number of
  // dots in the container's name (c0 is level 1, c0.1.2 level 3).
  std::map<std::string, int> rows;
  int deepest_nesting = 0;
  CommandResult dump = Macroscope("dump " + Quote(Trace()));
  ASSERT_EQ(dump.exit_code, 0) << dump.err;
  for (const std::string& line : SortedLines(dump.out)) {
    std::vector<std::string> fields;  // "Kind, container, type, start, end, duration, imbrication, ..."
    for (size_t from = 0, to = 0; to != std::string::npos; from = to + 2)
      fields.push_back(line.substr(from, (to = line.find(", ", from)) - from));
    if (fields.size() < 3) continue;
    const size_t level = 1 + std::count(fields[1].begin(), fields[1].end(), '.');
    ++rows[fields[0] + " L" + std::to_string(level) + " " + fields[2]];
    if (fields[2] == "Nested") deepest_nesting = std::max(deepest_nesting, std::stoi(fields[6]));
  }
  for (const char* key : {"State L1 State 1", "State L2 State 2", "State L3 State", "State L3 Nested",
                          "Variable L1 Load 1", "Variable L2 Load 2", "Variable L3 Load", "Event L3 Event",
                          "Link L1 Message"})
    EXPECT_GT(rows[key], 0) << key;
  EXPECT_EQ(deepest_nesting, 2);  // three pushed states deep
}

// Pushes are written ahead of the current instant: those still open when
// the generator stops end at the latest time written, never before they
// began (the trace's end was the last line's time, earlier than them).
TEST_F(GeneratorTest, NoStateEndsBeforeItBegins) {
  const std::string path = dir_->path() + "/ahead.trace";
  for (int seed : {2, 18, 19}) {
    const CommandResult g = Macroscope("generate --depth 2 --arity 6 --events 3000 --nested --nesting 3 --inner" +
                                       std::string(" --punctual --seed ") + std::to_string(seed) + " -o " + Quote(path));
    ASSERT_EQ(g.exit_code, 0) << g.err;
    const CommandResult dump = Macroscope("dump " + Quote(path));
    ASSERT_EQ(dump.exit_code, 0) << dump.err;
    std::istringstream lines(dump.out);
    for (std::string line; std::getline(lines, line);)  // a negative duration
      EXPECT_EQ(line.find(", -"), std::string::npos) << "seed " << seed << ": " << line;
  }
}

TEST_F(GeneratorTest, SameSeedSameTrace) {
  const std::string again = dir_->path() + "/again.trace";
  ASSERT_EQ(Macroscope(std::string(kEveryKind) + " -o " + Quote(again)).exit_code, 0);
  EXPECT_EQ(ReadText(again), ReadText(Trace()));
}

TEST_F(GeneratorTest, NestingOutOfRangeIsRefused) {
  CommandResult r = Macroscope("generate --events 10 --nested --nesting 9");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--nesting must be in 1..8"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace macroscope::testing
