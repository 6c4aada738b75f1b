// Every record kind and header form of the .prv as Paraver's own tools
// write them (the kernel's cutter trace has communicators with task -1 and
// global operations; Extrae and Dimemas separate applications by ',' and
// count the communicators after the last one), with the .pcf's and .row's
// sections. The traces are built here, and what they hold is counted while
// they are built, not taken from the reader.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "formats/paraver/paraver_reader.h"
#include "test_support.h"

namespace macroscope::paraver {
namespace {

using macroscope::testing::Macroscope;
using macroscope::testing::ReadText;
using macroscope::testing::TempDir;
using macroscope::testing::WriteText;

// Writes records and counts them by kind as it goes.
struct PrvBuilder {
  std::string text;
  uint64_t states = 0, events = 0, communications = 0, global_operations = 0, communicators = 0, records = 0;

  void Line(const std::string& line) { text += line + "\n"; }
  void Communicator(const std::string& line) {
    Line(line);
    ++communicators;
    ++records;
  }
  void State(int task, uint64_t begin, const std::string& end, int state) {
    Line("1:" + std::to_string(task) + ":1:" + std::to_string(task) + ":1:" + std::to_string(begin) + ":" + end + ":" +
         std::to_string(state));
    ++states;
    ++records;
  }
  void Event(int task, uint64_t time, const std::vector<std::pair<uint64_t, std::string>>& pairs) {
    std::string line = "2:" + std::to_string(task) + ":1:" + std::to_string(task) + ":1:" + std::to_string(time);
    for (const auto& [type, value] : pairs) line += ":" + std::to_string(type) + ":" + value;
    Line(line);
    events += pairs.size();
    ++records;
  }
  void Communication(int from, int to, uint64_t send, uint64_t recv, const std::string& size, const std::string& tag) {
    Line("3:" + std::to_string(from) + ":1:" + std::to_string(from) + ":1:" + std::to_string(send) + ":" +
         std::to_string(send + 1) + ":" + std::to_string(to) + ":1:" + std::to_string(to) + ":1:" +
         std::to_string(recv - 1) + ":" + std::to_string(recv) + ":" + size + ":" + tag);
    ++communications;
    ++records;
  }
  void GlobalOperation(int task, uint64_t time, int communicator, int send, int recv, int operation, int root) {
    Line("4:" + std::to_string(task) + ":1:" + std::to_string(task) + ":1:" + std::to_string(time) + ":" +
         std::to_string(communicator) + ":" + std::to_string(send) + ":" + std::to_string(recv) + ":" +
         std::to_string(operation) + ":" + std::to_string(root));
    ++global_operations;
    ++records;
  }
};

// Four tasks of one thread on four nodes given without their CPUs, times
// in microseconds (no unit), eight communicators among which the task
// itself (-1) and one without tasks: the shape of the kernel's cutter trace.
// Each task runs, enters a collective (a global operation and an event
// with two pairs), sends to the next task and waits.
PrvBuilder CutterLike(int rounds) {
  PrvBuilder b;
  b.Line("#Paraver (26/01/04 at 16:35):" + std::to_string(rounds * 100 + 100) + ":4:1:4(1:1,1:2,1:3,1:4),8");
  b.Communicator("c:1:91:4:1:2:3:4");
  b.Communicator("c:1:92:1:-1");
  b.Communicator("c:1:93:1:1");
  b.Communicator("C:1:94:3:2:3:4");
  b.Communicator("c:1:95:0");
  b.Communicator("c:1:96:2:3:4");
  b.Communicator("c:1:97:1:3");
  b.Communicator("i:1:98:91:1:96:3");
  // In time order, as Paraver's tools write records.
  for (int r = 0; r < rounds; ++r) {
    const uint64_t t0 = r * 100;
    for (int task = 1; task <= 4; ++task) b.State(task, t0, std::to_string(t0 + 40), 1);
    for (int task = 1; task <= 4; ++task) {
      b.Event(task, t0 + 40, {{50000002, "10"}, {50000003, "0"}});
      b.GlobalOperation(task, t0 + 40, 91, 32, 0, 10, task == 1 ? 1 : 0);
      b.State(task, t0 + 40, std::to_string(t0 + 100), 13);
    }
    // Sent at 50 to 53, received at 90 down to 87: receptions out of the records' order.
    for (int task = 1; task <= 4; ++task)
      b.Communication(task, task % 4 + 1, t0 + 49 + task, t0 + 91 - task, std::to_string(8 * task), std::to_string(r));
  }
  return b;
}

const Container* Named(const Trace& t, std::string_view name) {
  for (const Container& c : t.containers())
    if (t.Str(c.name) == name) return &c;
  return nullptr;
}

std::map<std::string, std::string> Fields(const Trace& t, const std::vector<ExtraField>& extras) {
  std::map<std::string, std::string> out;
  for (const ExtraField& f : extras) out[std::string(t.Str(f.name))] = t.Str(f.value);
  return out;
}

size_t ContainersOfType(const Trace& t, std::string_view type) {
  return std::count_if(t.containers().begin(), t.containers().end(),
                       [&](const Container& c) { return c.type != kNone && t.Str(t.type(c.type).name) == type; });
}

TEST(ParaverRecordKinds, CutterLikeTraceIsReadWhole) {
  const PrvBuilder b = CutterLike(5);
  Trace t;
  const ReadReport r = ReadParaverText(b.text, "", "", "cutter.prv", t);
  EXPECT_EQ(r.states, b.states);
  EXPECT_EQ(r.events, b.events);
  EXPECT_EQ(r.communications, b.communications);
  EXPECT_EQ(r.global_operations, b.global_operations);
  EXPECT_EQ(r.communicators, b.communicators);
  EXPECT_EQ(r.records, b.records);
  EXPECT_EQ(t.CountEntities(TypeKind::kState), b.states);
  EXPECT_EQ(t.CountEntities(TypeKind::kEvent), b.events + b.global_operations);
  EXPECT_EQ(t.CountEntities(TypeKind::kLink), b.communications);
  EXPECT_EQ(t.time_base().den, 1000000u);  // no unit: microseconds

  // Communicators, the task itself and the empty one among them, on the application.
  const auto appl = Fields(t, Named(t, "APPL 1")->extras);
  EXPECT_EQ(appl.at("communicator_91"), "1 2 3 4");
  EXPECT_EQ(appl.at("communicator_92"), "-1");
  EXPECT_EQ(appl.at("communicator_94"), "2 3 4");
  EXPECT_EQ(appl.at("communicator_95"), "");
  EXPECT_EQ(appl.at("intercommunicator_98"), "91 1 96 3");
  EXPECT_EQ(appl.size(), 8u);
  // The date and the nodes as the header gives them, and each task's node.
  EXPECT_EQ(Fields(t, t.container(kRootContainer).extras).at("date"), "26/01/04 at 16:35");
  EXPECT_EQ(Fields(t, t.container(kRootContainer).extras).at("nodes"), "4");
  EXPECT_EQ(Fields(t, Named(t, "TASK 1.3")->extras).at("node"), "3");

  // A global operation: an event whose value is the operation, the rest as fields.
  const Container* thread = Named(t, "THREAD 1.1.1");
  ASSERT_NE(thread, nullptr);
  const EntityStore* ops = nullptr;
  for (const EntityStore& s : t.stores())
    if (t.Str(t.type(s.type).name) == "Global operation" && &t.container(s.container) == thread) ops = &s;
  ASSERT_NE(ops, nullptr);
  ASSERT_EQ(ops->size(), 5u);
  EXPECT_EQ(ops->start[1], 140);
  EXPECT_EQ(t.Str(ops->value[1]), "10");
  std::map<std::string, std::string> fields;
  ops->extras.ForEach(1, [&](const ExtraField& f) { fields[std::string(t.Str(f.name))] = t.Str(f.value); });
  EXPECT_EQ(fields, (std::map<std::string, std::string>{
                        {"communicator", "91"}, {"send_size", "32"}, {"recv_size", "0"}, {"root", "1"}}));
}

// Each header form Paraver's tools write: counts of applications, tasks,
// threads and communicators, with the nodes kept as written.
TEST(ParaverRecordKinds, HeaderForms) {
  struct Form {
    const char* header;
    std::string body;  // communicator lines
    size_t appls, tasks, threads, communicators;
    const char* nodes;
    uint64_t den;
  };
  const Form forms[] = {
      {"#Paraver (01/02/2024 at 10:11):100_ns:2(4,2):1:2(2:1,1:2)", "", 1, 2, 3, 0, "2(4,2)", 1000000000},
      {"#Paraver (01/02/24 at 10:11):100:0:1:2(1:0,1:0)", "", 1, 2, 2, 0, "0", 1000000},
      {"#Paraver (x):100_ms:3:1:3(1:1,1:2,1:3)", "", 1, 3, 3, 0, "3", 1000},
      {"#Paraver (x):100_us:1(2):2:1(1:1):1(1:1)", "", 2, 2, 2, 0, "1(2)", 1000000},
      // Extrae and Dimemas: ',' between applications, the count after the last one.
      {"#Paraver (x):100_ns:1(4):2:1(2:1),2(1:1,1:1),3", "c:1:1:1:1\nc:2:1:2:1:2\nc:2:2:1:-1\n", 2, 3, 4, 3, "1(4)",
       1000000000},
      // Our older writer: each application with its own count, ':' between them.
      {"#Paraver (x):100_ns:1(4):2:1(2:1),1:2(1:1,1:1),2", "c:1:1:1:1\nc:2:1:2:1:2\nc:2:2:1:-1\n", 2, 3, 4, 3, "1(4)",
       1000000000},
      {"#Paraver (x):100_ns:1(1):1:1(1:1),0", "", 1, 1, 1, 0, "1(1)", 1000000000},
  };
  for (const Form& f : forms) {
    Trace t;
    const std::string prv = std::string(f.header) + "\n" + f.body + "2:0:1:1:1:5:1:1\n";
    const ReadReport r = ReadParaverText(prv, "", "", "h.prv", t);
    EXPECT_EQ(ContainersOfType(t, "Application"), f.appls) << f.header;
    EXPECT_EQ(ContainersOfType(t, "Task"), f.tasks) << f.header;
    EXPECT_EQ(ContainersOfType(t, "Thread"), f.threads) << f.header;
    EXPECT_EQ(r.communicators, f.communicators) << f.header;
    EXPECT_EQ(Fields(t, t.container(kRootContainer).extras).at("nodes"), f.nodes) << f.header;
    EXPECT_EQ(t.time_base().den, f.den) << f.header;
  }
}

TEST(ParaverRecordKinds, StateEndingWithItsSuccessor) {
  // End -1: the state lasts until the thread's next state begins, or the trace ends.
  Trace t;
  ReadParaverText("#Paraver (x):1000_ns:0:1:1(1:0)\n"
                  "1:0:1:1:1:0:-1:1\n1:0:1:1:1:300:500:2\n1:0:1:1:1:500:-1:3\n1:0:1:1:1:600:800:4\n"
                  "1:0:1:1:1:800:-1:5\n",
                  "", "", "s.prv", t);
  const EntityStore* s = nullptr;
  for (const EntityStore& x : t.stores())
    if (x.kind == TypeKind::kState) s = &x;
  ASSERT_NE(s, nullptr);
  std::vector<std::string> got;
  for (size_t i = 0; i < s->size(); ++i)
    got.push_back(std::to_string(int(s->start[i])) + "-" + std::to_string(int(s->end[i])) + " " +
                  std::string(t.Str(s->value[i])));
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::string>{"0-300 1", "300-500 2", "500-600 3", "600-800 4", "800-1000 5"}));
}

TEST(ParaverRecordKinds, SignedValuesSizesAndTags) {
  // Paraver reads event values, sizes and tags as signed 64-bit integers;
  // Extrae writes addresses as unsigned ones.
  Trace t;
  const ReadReport r = ReadParaverText(
      "#Paraver (x):1000_ns:1(2):1:2(1:1,1:1)\n"
      "2:1:1:1:1:10:7:-3:7:18446744073709551615:7:0042\n"
      "3:1:1:1:1:20:21:2:1:2:1:30:31:-1:-9\n",
      "EVENT_TYPE\n0 7 Signed\nVALUES\n-3 Minus three\n42 Answer\n", "", "v.prv", t);
  EXPECT_EQ(r.events, 3u);
  std::vector<std::string> values;
  for (const EntityStore& s : t.stores())
    if (s.kind == TypeKind::kEvent)
      for (StringId v : s.value) values.emplace_back(t.Str(v));
  std::sort(values.begin(), values.end());
  EXPECT_EQ(values, (std::vector<std::string>{"18446744073709551615", "Answer", "Minus three"}));
  for (const EntityStore& s : t.stores())
    if (s.kind == TypeKind::kLink) {
      ASSERT_EQ(s.size(), 1u);
      EXPECT_EQ(t.Str(s.value[0]), "-9");
      std::map<std::string, std::string> fields;
      s.extras.ForEach(0, [&](const ExtraField& f) { fields[std::string(t.Str(f.name))] = t.Str(f.value); });
      EXPECT_EQ(fields.at("size"), "-1");
    }
}

// Clocks apart: a message received (physically) before it is sent, as in
// the kernel's cutter trace; receptions in another order than the records.
TEST(ParaverRecordKinds, SkewedAndCrossingCommunications) {
  Trace t;
  const ReadReport r = ReadParaverText("#Paraver (x):1000:0:1:3(1:0,1:0,1:0)\n"
                                       "3:0:1:1:1:100:120:0:1:2:1:110:115:4:1\n"    // received at 115, sent at 120
                                       "3:0:1:2:1:101:102:0:1:3:1:500:600:4:2\n"    // received last
                                       "3:0:1:3:1:103:104:0:1:1:1:105:110:4:3\n"    // received first
                                       "2:0:1:1:1:700:1:1\n",
                                       "", "", "x.prv", t);
  EXPECT_EQ(r.communications, 3u);
  std::map<std::string, std::pair<double, double>> links;  // tag -> start, end
  for (const EntityStore& s : t.stores())
    if (s.kind == TypeKind::kLink)
      for (size_t i = 0; i < s.size(); ++i) links[std::string(t.Str(s.value[i]))] = {s.start[i], s.end[i]};
  EXPECT_EQ(links, (std::map<std::string, std::pair<double, double>>{
                       {"1", {120, 115}}, {"2", {102, 600}}, {"3", {104, 110}}}));
}

TEST(ParaverRecordKinds, PcfSectionsAndRowLevels) {
  // Two types share a VALUES block; display sections (DEFAULT_*, GRADIENT_*) are skipped.
  const std::string pcf =
      "DEFAULT_OPTIONS\n\nLEVEL               THREAD\nUNITS               MICROSEC\nLOOK_BACK           100\n\n"
      "DEFAULT_SEMANTIC\n\nTHREAD_FUNC          Last Evt Val\n\n"
      "STATES\n0    Idle\n1    Running\n\nSTATES_COLOR\n0    {117,195,255}\n1    {0,0,255}\n\n"
      "EVENT_TYPE\n6    40000001    Application\n6    40000003    Flushing Traces\nVALUES\n1      Begin\n0      End\n\n"
      "EVENT_TYPE\n0  42000050 Instructions completed\n0  42000050 Instructions completed\n\n"
      "GRADIENT_COLOR\n0    {0,255,2}\n1    {0,244,13}\n\n"
      "GRADIENT_NAMES\n0    Gradient 0\n1    Grad. 1/MPI Events\n";
  const std::string row =
      "# names of everything\nLEVEL WORKLOAD SIZE 1\nrun 42\n\nLEVEL SYSTEM SIZE 1\ncluster\n\n"
      "LEVEL NODE SIZE 2\nnode-a\nnode-b\n\nLEVEL CPU SIZE 3\nnode-a.1\nnode-a.2\nnode-b.1\n\n"
      "LEVEL APPL SIZE 1\nsolver\n\nLEVEL TASK SIZE 2\nrank 0\nrank 1\n\nLEVEL THREAD SIZE 2\nmain 0\nmain 1\n";
  Trace t;
  ReadParaverText("#Paraver (x):100:2(2,1):1:2(1:1,1:2)\n"
                  "1:1:1:1:1:0:50:1\n2:1:1:1:1:10:40000001:1:40000003:0:42000050:1234\n",
                  pcf, row, "n.prv", t);
  std::map<std::string, std::vector<std::string>> events;  // type -> values
  for (const EntityStore& s : t.stores())
    if (s.kind == TypeKind::kEvent)
      for (StringId v : s.value) events[std::string(t.Str(t.type(s.type).name))].emplace_back(t.Str(v));
  EXPECT_EQ(events, (std::map<std::string, std::vector<std::string>>{
                        {"Application", {"Begin"}},
                        {"Flushing Traces", {"End"}},
                        {"Instructions completed", {"1234"}}}));
  ASSERT_NE(Named(t, "solver"), nullptr);
  ASSERT_NE(Named(t, "rank 1"), nullptr);
  ASSERT_NE(Named(t, "main 1"), nullptr);
  const auto root = Fields(t, t.container(kRootContainer).extras);
  EXPECT_EQ(root, (std::map<std::string, std::string>{{"date", "x"},
                                                      {"nodes", "2(2,1)"},
                                                      {"WORKLOAD 1", "run 42"},
                                                      {"SYSTEM 1", "cluster"},
                                                      {"NODE 1", "node-a"},
                                                      {"NODE 2", "node-b"},
                                                      {"CPU 1", "node-a.1"},
                                                      {"CPU 2", "node-a.2"},
                                                      {"CPU 3", "node-b.1"}}));
}

std::string Dump(const std::string& file) {
  auto r = Macroscope("dump -u " + file);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

// Read, written and read again: the same dump (global operations,
// communicators with -1, open-ended states, signed values, the .row's
// other levels); written again: the same files.
TEST(ParaverRecordKinds, RoundTripKeepsEveryKind) {
  TempDir dir;
  PrvBuilder b = CutterLike(3);
  b.Line("2:1:1:1:1:300:7:-3");
  b.Line("3:2:1:2:1:300:310:3:1:3:1:305:305:8:5");  // received before it is sent (clocks apart)
  b.State(2, 300, "-1", 2);
  WriteText(dir.path() + "/in.prv", b.text);
  WriteText(dir.path() + "/in.row", "LEVEL NODE SIZE 4\nn1\nn2\nn3\nn4\n\nLEVEL CPU SIZE 4\nc1\nc2\nc3\nc4\n");
  WriteText(dir.path() + "/in.pcf", "EVENT_TYPE\n0 7 Signed\nVALUES\n-3 Minus three\n");
  const std::string before = Dump(dir.path() + "/in.prv");
  ASSERT_NE(before.find("Global operation"), std::string::npos) << before;
  auto r = Macroscope("convert " + dir.path() + "/in.prv -o " + dir.path() + "/out.prv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Dump(dir.path() + "/out.prv"), before);
  const std::string prv = ReadText(dir.path() + "/out.prv");
  EXPECT_EQ(prv.substr(0, prv.find('\n')), "#Paraver (26/01/04 at 16:35):400_us:4:1:4(1:1,1:2,1:3,1:4),8");
  EXPECT_NE(prv.find("\nc:1:92:1:-1\n"), std::string::npos) << prv;
  EXPECT_NE(prv.find("\nc:1:95:0\n"), std::string::npos) << prv;
  EXPECT_NE(prv.find("\ni:1:98:91:1:96:3\n"), std::string::npos) << prv;
  EXPECT_NE(prv.find("\n4:1:1:1:1:40:91:32:0:10:1\n"), std::string::npos) << prv;
  ASSERT_EQ(Macroscope("convert " + dir.path() + "/out.prv -o " + dir.path() + "/again.prv").exit_code, 0);
  for (const char* ext : {".prv", ".pcf", ".row"})
    EXPECT_EQ(ReadText(dir.path() + "/out" + ext), ReadText(dir.path() + "/again" + ext)) << ext;
}

// Each record's CPU: by default its thread's, the next CPU of its task's
// node (as Paraver's tools lay threads out; none when the node has none
// left), kept as a user field "cpu" only when it is another (a thread that
// moved); the writer writes both back, with the nodes the trace was read with.
TEST(ParaverRecordKinds, RecordCpusAreKept) {
  TempDir dir;
  // Node 1 holds CPUs 1 and 2, node 2 CPU 3: thread 1.1.1 (node 2) runs on
  // CPU 3, thread 1.1.2 on none (0), thread 1.2.1 (node 1) on CPU 1, then 2.
  const std::string prv =
      "#Paraver (x):100_ns:2(2,1):1:2(2:2,1:1)\n"
      "1:3:1:1:1:0:10:1\n1:0:1:1:2:0:10:1\n1:1:1:2:1:0:10:1\n1:2:1:2:1:10:20:1\n";
  WriteText(dir.path() + "/in.prv", prv);
  Trace t;
  ReadParaverText(prv, "", "", "in.prv", t);
  std::vector<std::string> moved;  // "start cpu" of the states with a CPU field
  for (const EntityStore& s : t.stores())
    for (size_t i = 0; i < s.size(); ++i)
      s.extras.ForEach(i, [&](const ExtraField& f) {
        if (t.Str(f.name) == "cpu")
          moved.push_back(std::to_string(int(s.start[i])) + " " + std::string(t.Str(f.value)));
      });
  EXPECT_EQ(moved, (std::vector<std::string>{"10 2"}));
  ASSERT_EQ(Macroscope("convert " + dir.path() + "/in.prv -o " + dir.path() + "/out.prv").exit_code, 0);
  EXPECT_EQ(ReadText(dir.path() + "/out.prv"), prv);
}

// A larger trace of every kind: info's totals are the counts made while writing it.
TEST(ParaverRecordKinds, InfoCountsEveryKind) {
  TempDir dir;
  const PrvBuilder b = CutterLike(200);
  WriteText(dir.path() + "/big.prv", b.text);
  auto r = Macroscope("info --json " + dir.path() + "/big.prv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto totals = nlohmann::json::parse(r.out)["totals"];
  EXPECT_EQ(totals["state"], b.states);
  EXPECT_EQ(totals["event"], b.events + b.global_operations);
  EXPECT_EQ(totals["link"], b.communications);
}

}  // namespace
}  // namespace macroscope::paraver
