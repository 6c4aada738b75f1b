// Both CSV readers in bounded memory: beyond the budget (the hidden
// --sort-memory, made tiny here so that every sort writes many runs and
// merges them in levels) the rows and the simulator calls go to sorted
// runs in $TMPDIR. The trace must be the in-memory path's: `dump` prints
// the same, refusals included (tests/formats/streamed_readers_test.cc
// reads the same with a sink).
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "test_support.h"

namespace macroscope {
namespace {

using testing::CommandResult;
using testing::Macroscope;
using testing::Quote;
using testing::ReadText;
using testing::RunCommand;
using testing::TempDir;
using testing::WriteText;

constexpr const char* kTiny = "--sort-memory 4096";

// `dump ARGS` with the default budget and with a tiny one: the same.
CommandResult ExpectSameWithTinyBudget(const std::string& args) {
  CommandResult whole = Macroscope("dump " + args);
  CommandResult runs = Macroscope("dump " + std::string(kTiny) + " " + args);
  EXPECT_EQ(runs.exit_code, whole.exit_code) << runs.err;
  EXPECT_EQ(runs.out, whole.out) << args;
  EXPECT_EQ(runs.err, whole.err) << args;
  return whole;
}

// A generic table of every kind, in no order the sorts may take for
// granted: nested states written out of time order (equal starts, one
// ending with its parent), events, variables, links between containers of
// two levels (keyless: their keys are their lines' places), quoted values;
// `shift`: ticks (ms) added to every time but the containers' first lines'.
std::string GenericTable(int seed, int shift = 0) {
  std::mt19937 random(seed);
  std::vector<std::string> lines;
  for (int c = 0; c < 4; ++c) {
    const std::string cpu = "cpu" + std::to_string(c), node = "node" + std::to_string(c / 2);
    for (int i = 0; i < 150; ++i) {
      const int t = shift + 100 * i + static_cast<int>(random() % 10);
      auto at = [](int ticks) { return std::to_string(ticks / 1000) + "." + std::to_string(1000 + ticks % 1000).substr(1); };
      lines.push_back(cpu + ",Run,state," + at(t) + "," + at(t + 90) + ",\"run, " + std::to_string(i % 3) + "\"," + node + ",");
      lines.push_back(cpu + ",Run,state," + at(t + 10) + "," + at(t + 40) + ",inner," + node + ",");
      lines.push_back(cpu + ",Run,state," + at(t + 10) + "," + at(t + 20) + ",deep," + node + ",");
      lines.push_back(cpu + ",Run,state," + at(t + 50) + "," + at(t + 90) + ",tail," + node + ",");
      lines.push_back(cpu + ",Mark,event," + at(t + 5) + ",,m" + std::to_string(i % 4) + "," + node + ",");
      lines.push_back(cpu + ",Load,variable," + at(t + 7) + ",," + std::to_string(random() % 100) + "," + node + ",");
      lines.push_back(cpu + ",Send,link," + at(t + 30) + "," + at(t + 60 + static_cast<int>(random() % 20)) +
                      ",msg," + node + ",cpu" + std::to_string((c + 1) % 4));
      if (i % 10 == 0) lines.push_back(node + ",Power,variable," + at(t) + ",," + std::to_string(i) + ",,");
    }
  }
  std::shuffle(lines.begin(), lines.end(), random);
  std::string text = "container,type,kind,start,end,value,parent,end_container\n";
  // The containers with their parents first, so that a link may name one.
  for (int c = 0; c < 4; ++c)
    text += "cpu" + std::to_string(c) + ",Born,event,0,,b,node" + std::to_string(c / 2) + ",\n";
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

TEST(CsvBoundedMemory, DumpGivesTheSameTrace) {
  TempDir dir;
  const std::string paje = dir.path() + "/g.paje", csv = dir.path() + "/g.csv";
  ASSERT_EQ(Macroscope("generate --depth 3 --arity 3 --values 5 --events 3000 --nested --punctual --links "
                       "--variables -o " + Quote(paje))
                .exit_code,
            0);
  CommandResult dump = Macroscope("dump " + Quote(paje));
  ASSERT_EQ(dump.exit_code, 0) << dump.err;
  WriteText(csv, dump.out);
  CommandResult again = ExpectSameWithTinyBudget(Quote(csv));
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, dump.out);
}

TEST(CsvBoundedMemory, GenericGivesTheSameTrace) {
  TempDir dir;
  const std::string a = dir.path() + "/a.csv", b = dir.path() + "/b.csv";
  WriteText(a, GenericTable(1));
  WriteText(b, GenericTable(2, 20000));  // after a's: the states of both nest
  CommandResult one = ExpectSameWithTinyBudget("-l 3 " + Quote(a));
  EXPECT_EQ(one.exit_code, 0) << one.err;
  EXPECT_NE(one.out.find("Link, 0, Send"), std::string::npos) << one.out;
  CommandResult two = ExpectSameWithTinyBudget("-l 3 " + Quote(a) + " " + Quote(b));
  EXPECT_EQ(two.exit_code, 0) << two.err;
}

// Refusals found while the rows become simulator calls (states that do not
// nest, an imbrication without its parent state) and while they are
// replayed (a link's end in no container of its type) are the same.
TEST(CsvBoundedMemory, RefusalsAreTheSame) {
  TempDir dir;
  std::string overlap = GenericTable(3);
  overlap += "cpu1,Run,state,50.0,50.5,x,node0,\ncpu1,Run,state,50.25,51,y,node0,\n";
  std::string dump = Macroscope("generate --depth 1 --arity 2 --events 400 --nested").out;
  WriteText(dir.path() + "/g.paje", dump);
  dump = Macroscope("dump " + Quote(dir.path() + "/g.paje")).out;
  const size_t state = dump.find("\nState, ", dump.size() / 2);
  ASSERT_NE(state, std::string::npos);
  std::string imbrication = dump;
  imbrication.insert(state + 1, "State, c1, State, 1.000000, 2.000000, 1.000000, 7, x\n");
  const std::vector<std::pair<std::string, std::string>> cases{{"overlap.csv", overlap},
                                                                {"imbrication.csv", imbrication}};
  for (const auto& [name, text] : cases) {
    SCOPED_TRACE(name);
    WriteText(dir.path() + "/" + name, text);
    CommandResult r = ExpectSameWithTinyBudget(Quote(dir.path() + "/" + name));
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find(dir.path() + "/" + name + ":"), std::string::npos) << r.err;
  }
}

// The runs really are written, in $TMPDIR, and none is left behind; a
// $TMPDIR that cannot hold them is one clear message (exit 1).
TEST(CsvBoundedMemory, RunsGoToTmpdirAndLeaveNothing) {
  TempDir dir, tmp;
  const std::string csv = dir.path() + "/a.csv";
  WriteText(csv, GenericTable(4));
  const std::string dump = " dump " + std::string(kTiny) + " " + Quote(csv);
  CommandResult r = RunCommand("TMPDIR=" + Quote(tmp.path()) + " " + Quote(MACROSCOPE_BINARY) + dump);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::is_empty(tmp.path()));
  const std::string missing = tmp.path() + "/missing";
  r = RunCommand("TMPDIR=" + Quote(missing) + " " + Quote(MACROSCOPE_BINARY) + dump);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty());
  EXPECT_EQ(r.err, "macroscope: " + missing + ": cannot create a temporary file for reading CSV: " +
                       "No such file or directory (TMPDIR names the folder; reading CSV needs about " +
                       "four times the file's size there)\n");
}

}  // namespace
}  // namespace macroscope
