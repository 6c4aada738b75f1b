// Every class of bad Paraver input is refused with FILE:LINE: problem on one
// line, exit 1, and nothing written by convert.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "test_support.h"

namespace macroscope::paraver {
namespace {

using macroscope::testing::Macroscope;
using macroscope::testing::TempDir;
using macroscope::testing::WriteText;

constexpr char kHeader[] = "#Paraver (01/01/70 at 00:00):1000_ns:1(2):1:1(2:1)\n";

struct Case {
  const char* name;
  std::string prv, pcf, row;  // pcf, row empty: absent
  const char* file;           // "prv", "pcf" or "row": the file the message names
  int line;
  const char* message;
};

void ExpectRefused(const Case& c) {
  TempDir dir;
  const std::string prv = dir.path() + "/bad.prv";
  WriteText(prv, c.prv);
  if (!c.pcf.empty()) WriteText(dir.path() + "/bad.pcf", c.pcf);
  if (!c.row.empty()) WriteText(dir.path() + "/bad.row", c.row);
  const std::string named = dir.path() + "/bad." + c.file + ":" + std::to_string(c.line) + ": ";
  auto r = Macroscope("info " + prv);
  EXPECT_EQ(r.exit_code, 1) << c.name << ": " << r.err;
  EXPECT_EQ(r.err.rfind("macroscope: " + named, 0), 0u) << c.name << ": " << r.err;
  EXPECT_NE(r.err.find(c.message), std::string::npos) << c.name << ": " << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << c.name << ": " << r.err;
  auto convert = Macroscope("convert " + prv + " -o " + dir.path() + "/out.prv");
  EXPECT_EQ(convert.exit_code, 1) << c.name;
  for (const char* ext : {".prv", ".pcf", ".row"})
    EXPECT_FALSE(std::filesystem::exists(dir.path() + "/out" + ext)) << c.name << ext;
}

TEST(ParaverBadInput, EachClassIsRefusedWithItsLine) {
  const std::string h = kHeader;
  const Case cases[] = {
      {"no date", "#Paraver 1000_ns:1(2):1:1(2:1)\n", "", "", "prv", 1, "expected '#Paraver (date)"},
      {"unit", "#Paraver (x):10_fs:1(2):1:1(2:1)\n", "", "", "prv", 1, "unknown time unit 'fs'"},
      {"duration", "#Paraver (x):ten_ns:1(2):1:1(2:1)\n", "", "", "prv", 1, "the duration 'ten_ns' is not a number"},
      {"nodes", "#Paraver (x):10:2(1):1:1(2:1)\n", "", "", "prv", 1, "nodes announced 2, CPUs given for 1"},
      {"applications", "#Paraver (x):10:1(2):2:1(2:1)\n", "", "", "prv", 1,
       "announces 2 application(s) and describes 1"},
      {"tasks", "#Paraver (x):10:1(2):1:2(2:1)\n", "", "", "prv", 1, "announces 2 task(s) and describes 1"},
      {"task", "#Paraver (x):10:1(2):1:1(two:1)\n", "", "", "prv", 1, "expected a task as threads:node"},
      {"too many threads", "#Paraver (x):10:1(2):1:1(99999999:1)\n", "", "", "prv", 1, "more than"},
      {"kind", h + "1:1:1:1:1:0:10:1\n5:1:1:1:1:0\n", "", "", "prv", 3, "unknown record kind '5'"},
      {"state fields", h + "1:1:1:1:1:0:10\n", "", "", "prv", 2, "a state record has 8 fields"},
      {"event fields", h + "2:1:1:1:1:0:5\n", "", "", "prv", 2, "an event record has"},
      {"communication fields", h + "3:1:1:1:1:0:0:1:1:1:2:0:0:8\n", "", "", "prv", 2,
       "a communication record has 15 fields"},
      {"number", h + "1:1:1:1:1:0:1x:1\n", "", "", "prv", 2, "the end time '1x' is not a number"},
      {"negative", h + "2:1:1:1:1:-5:1:1\n", "", "", "prv", 2, "the time '-5' is not a number"},
      {"no application", h + "2:1:2:1:1:5:1:1\n", "", "", "prv", 2, "no application 2 in the header"},
      {"no task", h + "2:1:1:3:1:5:1:1\n", "", "", "prv", 2, "no task 3 in application 1"},
      {"no thread", h + "2:1:1:1:3:5:1:1\n", "", "", "prv", 2, "no thread 3 in task 1.1"},
      {"end before begin", h + "1:1:1:1:1:10:5:1\n", "", "", "prv", 2, "ends (5) before it begins (10)"},
      {"overlap", h + "1:1:1:1:1:0:10:1\n1:1:1:1:1:5:20:2\n", "", "", "prv", 3, "overlaps a state"},
      {"backwards", h + "2:1:1:1:1:50:1:1\n2:1:1:1:1:40:1:1\n", "", "", "prv", 3, "time goes backwards"},
      {"late communicator", h + "2:1:1:1:1:50:1:1\nc:1:1:1:1\n", "", "", "prv", 3,
       "communicator (c) after the first record"},
      {"communicator", h + "c:1:1:2:1\n", "", "", "prv", 2, "announces 2 task(s) and lists 1"},
      {"beyond 2^53", h + "2:1:1:1:1:9007199254740992:1:1\n", "", "", "prv", 2, "beyond 2^53"},
      // Global operations (4), communicators (c, i) and the header forms around them.
      {"global operation fields", h + "4:1:1:1:1:0:1:2:3\n", "", "", "prv", 2,
       "a global operation record has 11 fields"},
      {"global operation time", h + "4:1:1:1:1:x:1:2:3:4:0\n", "", "", "prv", 2, "the time 'x' is not a number"},
      {"global operation beyond 2^53", h + "4:1:1:1:1:9007199254740992:1:2:3:4:0\n", "", "", "prv", 2, "beyond 2^53"},
      {"global operation thread", h + "4:1:1:1:3:5:1:2:3:4:0\n", "", "", "prv", 2, "no thread 3 in task 1.1"},
      {"duration beyond 2^53", "#Paraver (x):9007199254740992_ns:1(2):1:1(2:1)\n", "", "", "prv", 1, "beyond 2^53"},
      {"receive beyond 2^53", h + "3:1:1:1:1:0:0:1:1:1:2:0:9007199254740992:8:1\n", "", "", "prv", 2, "beyond 2^53"},
      {"state end beyond 2^53", h + "1:1:1:1:1:0:9007199254740992:1\n", "", "", "prv", 2, "beyond 2^53"},
      {"state end -2", h + "1:1:1:1:1:0:-2:1\n", "", "", "prv", 2, "the end time '-2' is not a number"},
      {"physical send time", h + "3:1:1:1:1:0:a:1:1:1:2:0:0:8:1\n", "", "", "prv", 2,
       "the physical send time 'a' is not a number"},
      {"before the logical send", h + "3:1:1:1:1:10:9:2:1:1:2:5:5:8:1\n", "", "", "prv", 2,
       "physical send (9) and receive (5) both come before its logical send (10)"},
      {"event value", h + "2:1:1:1:1:5:1:5x\n", "", "", "prv", 2, "the event value '5x' is not a number"},
      {"event value sign", h + "2:1:1:1:1:5:1:-\n", "", "", "prv", 2, "the event value '-' is not a number"},
      {"communicator task -2", h + "c:1:1:1:-2\n", "", "", "prv", 2,
       "the task '-2' of a communicator is neither a task number nor -1"},
      {"communicator task 0", h + "c:1:1:1:0\n", "", "", "prv", 2, "no task 0 in application 1"},
      {"intercommunicator", h + "i:1:5:1:1\n", "", "", "prv", 2, "an intercommunicator has 7 fields"},
      {"late intercommunicator", h + "2:1:1:1:1:5:1:1\ni:1:1:1:1:1:1\n", "", "", "prv", 3,
       "communicator (i) after the first record"},
      {"fewer communicators", "#Paraver (x):10:1(2):1:1(2:1),2\nc:1:1:1:1\n2:1:1:1:1:5:1:1\n", "", "", "prv", 3,
       "the header announces 2 communicator(s), 1 come before the first record"},
      {"fewer communicators at the end", "#Paraver (x):10:1(2):1:1(2:1),2\nc:1:1:1:1\n", "", "", "prv", 2,
       "the header announces 2 communicator(s), 1 come"},
      {"application separator", "#Paraver (x):10:1(2):2:1(1:1);1(1:1)\n", "", "", "prv", 1,
       "expected an application as nTasks"},
      {"more applications", "#Paraver (x):10:1(2):1:1(1:1):1(1:1)\n", "", "", "prv", 1,
       "announces 1 application(s) and describes more"},
      {"communicator count", "#Paraver (x):10:1(2):1:1(2:1),x\n", "", "", "prv", 1, "expected ',<communicators>'"},
      {"node cpus", "#Paraver (x):10:2(1,x):1:1(2:1)\n", "", "", "prv", 1, "the CPUs of a node 'x' are not a number"},
      {"too many nodes", "#Paraver (x):10:2000000:1:1(2:1)\n", "", "", "prv", 1, "more than 1048576 nodes"},
      {"pcf value", h, "EVENT_TYPE\n0 1 x\nVALUES\n--1 y\n", "", "pcf", 4, "expected an event value"},
      {"pcf state", h, "STATES\nzero Idle\n", "", "pcf", 2, "expected a state"},
      {"pcf colour", h, "STATES_COLOR\n0 {1,2}\n", "", "pcf", 2, "expected a colour"},
      {"pcf values", h, "\nVALUES\n1 x\n", "", "pcf", 3, "VALUES without an EVENT_TYPE"},
      {"pcf duplicate state name", h, "STATES\n0 Run\n1 Run\n", "", "pcf", 3, "already defined"},
      {"row level", h, "", "LEVEL THREAD 2\na\nb\n", "row", 1, "expected 'LEVEL <name> SIZE <count>'"},
      {"row short", h, "", "LEVEL THREAD SIZE 3\na\nb\n", "row", 3, "announces 3 names, the file ends after 2"},
      {"row count", h, "", "LEVEL THREAD SIZE 1\na\n", "row", 1, "names 1 object(s), the trace has 2"},
  };
  for (const Case& c : cases) ExpectRefused(c);
}

TEST(ParaverBadInput, SeveralPrvFilesAreRefused) {
  TempDir dir;
  WriteText(dir.path() + "/a.prv", kHeader);
  WriteText(dir.path() + "/b.prv", kHeader);
  auto r = Macroscope("info " + dir.path() + "/a.prv " + dir.path() + "/b.prv");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("read one at a time"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace macroscope::paraver
