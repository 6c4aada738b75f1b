// Streaming Pajé reading (the simulator's drains, simulator_drain.cc): the
// entities a sink receives are the in-memory model's, whatever the drain
// interval, on the suite's edge-case traces, a trace written here with
// long-open and nested states, links pending across drains and user fields
// everywhere, and generated traces; and a long generated trace streams in
// memory bounded by the drain interval and what is open.
#include <filesystem>

#include "streaming_test_support.h"

namespace macroscope::streaming_test {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> EdgeCaseTraces() {
  std::vector<std::string> traces;
  for (const auto& e : fs::directory_iterator(std::string(MACROSCOPE_SOURCE_DIR) + "/tests/paje/traces"))
    if (e.path().extension() == ".trace") traces.push_back(e.path().string());
  std::sort(traces.begin(), traces.end());
  traces.push_back(std::string(MACROSCOPE_SOURCE_DIR) + "/examples/synthetic.trace");
  return traces;
}

TEST(StreamingPaje, EdgeCaseTracesGiveTheModelsEntities) {
  for (const std::string& trace : EdgeCaseTraces()) {
    SCOPED_TRACE(trace);
    for (size_t interval : {1, 2, 5, 65536}) {
      ExpectStreamedEqualsModel({trace}, interval);
      formats::ReadOptions interrupting;
      interrupting.paje.simulator.no_imbrication = true;  // -i: interrupted states stay on the stack
      ExpectStreamedEqualsModel({trace}, interval, interrupting);
    }
  }
}

// States open for the whole trace with nested states below, links whose
// halves are far apart (end first too), variables changed by additions at
// one instant, user fields on every kind and on both ends.
const char* kHeader = R"(%EventDef PajeDefineContainerType 0
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineStateType 1
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineEventType 2
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeDefineLinkType 3
% Alias string
% Type string
% StartContainerType string
% EndContainerType string
% Name string
%EndEventDef
%EventDef PajeDefineVariableType 4
% Alias string
% Type string
% Name string
%EndEventDef
%EventDef PajeCreateContainer 5
% Time date
% Alias string
% Type string
% Container string
% Name string
%EndEventDef
%EventDef PajePushState 6
% Time date
% Type string
% Container string
% Value string
% Note string
%EndEventDef
%EventDef PajePopState 7
% Time date
% Type string
% Container string
% Why string
%EndEventDef
%EventDef PajeNewEvent 8
% Time date
% Type string
% Container string
% Value string
% Tag string
%EndEventDef
%EventDef PajeStartLink 9
% Time date
% Type string
% Container string
% Value string
% StartContainer string
% Key string
% Size string
%EndEventDef
%EventDef PajeEndLink 10
% Time date
% Type string
% Container string
% Value string
% EndContainer string
% Key string
% Status string
%EndEventDef
%EventDef PajeSetVariable 11
% Time date
% Type string
% Container string
% Value double
% Unit string
%EndEventDef
%EventDef PajeAddVariable 12
% Time date
% Type string
% Container string
% Value double
% Unit string
%EndEventDef
%EventDef PajeSetState 13
% Time date
% Type string
% Container string
% Value string
% Reason string
%EndEventDef
%EventDef PajeDestroyContainer 14
% Time date
% Type string
% Name string
%EndEventDef
0 R 0 Root
0 P R Process
1 S P State
1 M P Mode
2 E P Event
3 L R P P Link
4 V P Variable
5 0 r R 0 root
5 0 p0 P r p0
5 0 p1 P r p1
6 0 S p0 main "the whole run"
6 0 S p1 main "the whole run"
)";

std::string FeatureTrace(int rounds) {
  std::string text = kHeader;
  auto add = [&](double t, const std::string& line) {
    char time[32];
    std::snprintf(time, sizeof time, "%g", t);
    text += line.substr(0, line.find(' ')) + " " + time + line.substr(line.find(' ')) + "\n";
  };
  for (int r = 0; r < rounds; ++r) {
    const double t = 1 + r * 10;
    const std::string k = std::to_string(r);
    add(t, "6 S p0 work" + k + " push" + k);
    add(t + 1, "6 S p0 inner note");
    add(t + 1, "13 M p1 busy" + k + " set" + k);
    add(t + 1.5, "8 E p0 tick tag" + k);
    add(t + 2, "9 L r msg p0 a" + k + " " + k + "00");
    add(t + 2, "10 L r msg p1 b" + k + " first");  // end first: waits for its start
    add(t + 3, "7 S p0 done");
    add(t + 3, "11 V p1 " + k + " MB");
    add(t + 3, "12 V p1 1 GB");  // the same instant: changes the value in place
    add(t + 4, "7 S p0 out" + k);
    add(t + 5, "9 L r msg p1 b" + k + " 7");
    add(t + 8, "10 L r msg p1 a" + k + " late");
    add(t + 9, "12 V p1 2 kB");
  }
  add(1 + rounds * 10, "14 P p1");
  return text;
}

TEST(StreamingPaje, OpenStatesPendingLinksAndUserFieldsSurviveDrains) {
  TempDir dir;
  const std::string path = dir.path() + "/features.trace";
  WriteText(path, FeatureTrace(20));
  for (size_t interval : {1, 2, 3, 7, 100}) {
    SCOPED_TRACE(interval);
    EXPECT_EQ(ExpectStreamedEqualsModel({path}, interval), 20u * 8 + 2);
  }
}

TEST(StreamingPaje, GeneratedTraceGivesTheModelsEntities) {
  TempDir dir;
  const std::string path = GenerateFullTrace(dir.path(), 2, 4, 20000);
  for (size_t interval : {1, 7, 1000, 65536}) {
    SCOPED_TRACE(interval);
    ExpectStreamedEqualsModel({path}, interval);
  }
}

// A few million entities: the trace never holds more than a drain
// interval's worth beside what is open (one state, one pushed state and one
// variable value per leaf), and its columns' capacity follows.
TEST(StreamingPaje, LongTraceStreamsInBoundedMemory) {
  TempDir dir;
  const std::string path = GenerateFullTrace(dir.path(), 3, 10, 3000000);

  constexpr size_t kInterval = 65536;
  RecordingSink sink;
  sink.record = false;
  sink.check_every = 500;
  formats::ReadOptions read;
  read.sink = &sink;
  read.paje.simulator.drain_interval = kInterval;
  Trace trace;
  formats::ReadTrace({path}, read, trace);

  EXPECT_GT(sink.entities, 2500000u);
  std::printf("%zu entities, at most %zu held, capacity %zu, %zu stores\n", sink.entities, sink.max_held,
              sink.max_capacity, trace.stores().size());
  const size_t leaves = 1000, open = 3 * leaves;
  EXPECT_GT(sink.max_held, 0u);
  EXPECT_LE(sink.max_held, kInterval + open);
  EXPECT_LE(sink.max_capacity, 3 * (kInterval + open) + 16 * trace.stores().size());
  for (const EntityStore& s : trace.stores()) {
    EXPECT_EQ(s.size(), 0u);
    EXPECT_EQ(s.start.capacity(), 0u) << "the last drain frees the columns";
  }
}

}  // namespace
}  // namespace macroscope::streaming_test
