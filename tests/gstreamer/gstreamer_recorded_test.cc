// The logs gst-launch-1.0 wrote for this ctest run (record_gstreamer_logs.sh):
// every count and time of `macroscope dump` against the log's own text,
// counted by awk, not by the reader's parser.
#include <algorithm>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"

namespace macroscope::gstreamer {
namespace {

using testing::Macroscope;
using testing::Quote;
using testing::ReadText;
using testing::RunCommand;
using testing::TempDir;
using testing::WriteText;

#define NEEDS_RECORDED_LOGS() \
  if (!HAVE_GST_LAUNCH) GTEST_SKIP() << "gst-launch-1.0 not found (Debian gstreamer1.0-tools): no log recorded"

std::string Log(const std::string& name) { return std::string(RECORDED_GSTREAMER_LOGS) + "/" + name; }

// The lines of the log that are messages, as awk tells them (Debian's awk,
// mawk, has no {9}).
const char kMessage[] = "/^[0-9]+:[0-9][0-9]:[0-9][0-9][.][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9] +[0-9]+ /";

// The log without its ANSI colours, by sed (the fields awk counts are then
// the same in both forms).
const std::string kStripColours = "sed 's/\\x1b\\[[0-9;]*m//g' ";

// "KEY COUNT" lines, the output of the awk programs below.
std::map<std::string, uint64_t> Counts(const std::string& command) {
  auto r = RunCommand(command);
  EXPECT_EQ(r.exit_code, 0) << command << "\n" << r.err;
  std::map<std::string, uint64_t> out;
  std::istringstream in(r.out);
  std::string key;
  uint64_t n;
  while (in >> key >> n) out[key] = n;
  return out;
}

// Messages of the log per whitespace-separated column (3: thread, 4: level).
std::map<std::string, uint64_t> LogCounts(const std::string& log, int column) {
  return Counts(kStripColours + Quote(log) + " | awk '" + kMessage + " {n[$" + std::to_string(column) +
                "]++} END {for (k in n) print k, n[k]}'");
}

// Lines of `dump` of one kind (State, Event) per column (2: container, 8: a state's value).
std::map<std::string, uint64_t> DumpCounts(const std::string& dump, const std::string& kind, int column) {
  return Counts("awk -F', ' '$1 == \"" + kind + "\" {n[$" + std::to_string(column) +
                "]++} END {for (k in n) print k, n[k]}' " + Quote(dump));
}

std::string Dump(const std::string& log, const std::string& out) {
  auto r = Macroscope("dump -l 9 " + Quote(log) + " -o " + Quote(out));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return out;
}

TEST(GstreamerRecorded, CountsPerThreadAndLevel) {
  NEEDS_RECORDED_LOGS();
  TempDir dir;
  for (const char* name : {"plain.log", "colour.log"}) {
    SCOPED_TRACE(name);
    const std::string dump = Dump(Log(name), dir.path() + "/" + name + ".dump");
    const auto threads = LogCounts(Log(name), 3);
    ASSERT_GE(threads.size(), 3u);  // the application, the source, the queue
    EXPECT_EQ(DumpCounts(dump, "Event", 2), threads);
    EXPECT_EQ(DumpCounts(dump, "State", 2), threads);
    const auto levels = LogCounts(Log(name), 4);
    EXPECT_EQ(DumpCounts(dump, "State", 8), levels);
    EXPECT_GT(levels.at(std::string(name) == "plain.log" ? "DEBUG" : "INFO"), 100u);
  }
}

// Every message time, to the nanosecond: dump -l 9 prints the log's own clock.
TEST(GstreamerRecorded, TimesExact) {
  NEEDS_RECORDED_LOGS();
  TempDir dir;
  const std::string dump = Dump(Log("plain.log"), dir.path() + "/plain.dump");
  auto log_times = RunCommand("awk '" + std::string(kMessage) +
                              " {split($1, t, \"[:.]\"); printf \"%d.%s\\n\", t[1] * 3600 + t[2] * 60 + t[3], t[4]}' " +
                              Quote(Log("plain.log")) + " | sort");
  auto dump_times = RunCommand("awk -F', ' '$1 == \"Event\" {print $4}' " + Quote(dump) + " | sort");
  ASSERT_EQ(log_times.exit_code, 0);
  EXPECT_GT(log_times.out.size(), 1000u);
  // Not EXPECT_EQ: a difference would print both lists whole.
  EXPECT_TRUE(dump_times.out == log_times.out) << "the event times differ from the log's";
}

// A thread's states follow each other: each ends where the next starts, the
// last at the trace's end (the last message).
TEST(GstreamerRecorded, StatesLastToTheNextMessage) {
  NEEDS_RECORDED_LOGS();
  TempDir dir;
  std::istringstream in(ReadText(Dump(Log("plain.log"), dir.path() + "/plain.dump")));
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> states;  // container -> (start, end)
  std::string line, last_event;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    for (size_t p = 0, q; p != std::string::npos; p = q == std::string::npos ? q : q + 2) {
      q = line.find(", ", p);
      f.push_back(line.substr(p, q - p));
    }
    if (f[0] == "State") states[f[1]].push_back({f[3], f[4]});
    if (f[0] == "Event") last_event = std::max(last_event, f[3]);  // same width: "0.0..." times
  }
  ASSERT_FALSE(states.empty());
  for (auto& [container, list] : states) {
    std::sort(list.begin(), list.end());
    for (size_t i = 0; i + 1 < list.size(); ++i) ASSERT_EQ(list[i].second, list[i + 1].first) << container << " " << i;
    EXPECT_EQ(list.back().second, last_event) << container;
  }
}

// The coloured log reads as the same log without its colours, and the
// program's own output mixed into a log is skipped with one counted warning.
TEST(GstreamerRecorded, ColoursAndProgramOutput) {
  NEEDS_RECORDED_LOGS();
  TempDir dir;
  const std::string colour = ReadText(Log("colour.log"));
  ASSERT_NE(colour.find("\x1b["), std::string::npos);
  const std::string stripped = dir.path() + "/stripped.log";
  auto sed = RunCommand(kStripColours + Quote(Log("colour.log")));  // RunCommand captures stdout
  ASSERT_EQ(sed.exit_code, 0);
  WriteText(stripped, sed.out);
  ASSERT_EQ(ReadText(stripped).find('\x1b'), std::string::npos);
  const std::string a = ReadText(Dump(Log("colour.log"), dir.path() + "/a.dump"));
  EXPECT_GT(a.size(), 1000u);
  EXPECT_TRUE(a == ReadText(Dump(stripped, dir.path() + "/b.dump"))) << "the dumps differ";

  // Lines that are neither messages nor blank: how many, and the first.
  auto other = RunCommand("awk '!" + std::string(kMessage) + " && NF > 0 {if (!n++) first = NR} END {print n, first}' " +
                          Quote(Log("plain.log")));
  std::istringstream counted(other.out);
  uint64_t other_lines = 0, first_line = 0;
  counted >> other_lines >> first_line;
  EXPECT_GE(other_lines, 5u);  // "Setting pipeline to PAUSED ..."
  auto r = Macroscope("info " + Quote(Log("plain.log")));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "macroscope: warning: " + Log("plain.log") + ": " + std::to_string(other_lines) +
                       " lines that are not GStreamer debug messages skipped (the first: " + Log("plain.log") + ":" +
                       std::to_string(first_line) + ")\n");
}

}  // namespace
}  // namespace macroscope::gstreamer
