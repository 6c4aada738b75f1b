// The Chrome reader on real traces (catapult's test data) and on small
// hand-written cases.
#include <filesystem>
#include <algorithm>
#include <map>
#include <set>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

#include "formats/chrome/chrome_reader.h"
#include "model/time_base.h"
#include "test_helpers.h"

namespace macroscope::chrome {
namespace {

using testing::ChromeTestData;
using testing::Macroscope;
using testing::ReadText;
using testing::Scratch;

// ---- helpers on the model --------------------------------------------------

ContainerId ByName(const Trace& t, std::string_view name) {
  for (ContainerId c = 0; c < t.containers().size(); ++c)
    if (t.Str(t.container(c).name) == name) return c;
  ADD_FAILURE() << "no container " << name;
  return 0;
}

const EntityStore* StoreOf(const Trace& t, std::string_view container, std::string_view type) {
  ContainerId c = ByName(t, container);
  for (auto& [ty, si] : t.container(c).stores)
    if (t.Str(t.type(ty).name) == type) return &t.stores()[si];
  return nullptr;
}

// A model time (whole ns from the first time read) as the file's
// microseconds: the clock's ns / 1000 (exact for these small cases).
double Micros(const Trace& t, double model) { return static_cast<double>(ClockTicks(t.time_base(), model)) / 1000; }

// start, end (the file's microseconds), level, value
using StateRow = std::tuple<double, double, int, std::string>;
std::vector<StateRow> States(const Trace& t, std::string_view container) {
  std::vector<StateRow> rows;
  if (const EntityStore* s = StoreOf(t, container, "Slice"))
    for (size_t i = 0; i < s->size(); ++i)
      rows.emplace_back(Micros(t, s->start[i]), Micros(t, s->end[i]), s->level[i], std::string(t.Str(s->value[i])));
  std::sort(rows.begin(), rows.end());
  return rows;
}

ReadReport Read(const std::string& json, Trace& trace) { return ReadChromeText(json, "case.json", trace); }

// ---- real traces -------------------------------------------------------------

// A trace and the events per phase its writer counted: the suite's own
// ("suite") or one of catapult's from the shared test data (expected-counts.tsv).
class ChromeCounts : public ::testing::TestWithParam<const char*> {
 protected:
  std::string File(std::map<std::string, uint64_t>& phases) {
    const std::string name = GetParam();
    if (name == "suite") {
      const std::string file = Scratch("counts") + "/suite.json";
      phases = testing::WriteSuiteTrace(file);
      return file;
    }
    // "total events" -> "total", "ph B" -> "B".
    for (const auto& [key, n] : macroscope::testing::ExpectedCounts("chrome", "chrome/" + name)) {
      const std::string k = key.substr(key.find(' ') + 1);
      phases[k == "events" ? "total" : k] = n;
    }
    return ChromeTestData() + "/" + name;
  }
};

TEST_P(ChromeCounts, AgreeWithTheWriter) {
  if (std::string(GetParam()) != "suite") MACROSCOPE_NEEDS_SHARED_TESTDATA();
  std::map<std::string, uint64_t> expected;
  const std::string file = File(expected);
  ASSERT_FALSE(expected.empty());
  Trace trace;
  ReadReport r = ReadChrome({file}, trace);
  auto ph = [&](const char* p) { return expected.count(p) ? expected[p] : 0; };
  EXPECT_EQ(r.events, expected["total"]);
  for (auto& [p, n] : expected) {
    if (p == "total") continue;
    EXPECT_EQ(r.phases[p], n) << "phase " << p;
  }
  // B/E pairs (and B left open) and X -> states.
  EXPECT_EQ(trace.CountEntities(TypeKind::kState), ph("B") + ph("X"));
  EXPECT_EQ(r.slices, ph("B") + ph("X"));
  EXPECT_EQ(r.unclosed_slices, ph("B") - ph("E"));
  // i -> instants; async S/T/F and objects N/D -> punctual events too.
  EXPECT_EQ(r.instants, ph("i") + ph("I"));
  EXPECT_EQ(trace.CountEntities(TypeKind::kEvent), ph("i") + ph("S") + ph("T") + ph("F") + ph("N") + ph("D"));
  // C (one numeric arg each in these traces) -> variable changes.
  EXPECT_EQ(trace.CountEntities(TypeKind::kVariable), ph("C"));
  // s/f -> links; the unmatched ones are counted, never silently lost.
  EXPECT_EQ(trace.CountEntities(TypeKind::kLink), r.flows);
  EXPECT_EQ(r.flows, ph("s") - r.unmatched_flow_starts);
  EXPECT_EQ(r.flows, ph("f") - r.unmatched_flow_ends);
  // M -> names (or counted as ignored).
  EXPECT_EQ(r.names + r.ignored_metadata, ph("M"));
  EXPECT_EQ(r.skipped, 0u);
  EXPECT_EQ(r.truncated_slices, 0u);
}

INSTANTIATE_TEST_SUITE_P(Traces, ChromeCounts,
                         ::testing::Values("suite", "big_trace.json", "x_event_trace.json", "flow.json",
                                           "v8_runtime_call_stats.json"),
                         [](const auto& info) {
                           std::string n = info.param;
                           return n.substr(0, n.find('.'));
                         });

// The details of catapult's traces, as the shared data's README gives them.
class ChromeRealTraces : public ::testing::Test {
 protected:
  void SetUp() override { MACROSCOPE_NEEDS_SHARED_TESTDATA(); }
};

TEST_F(ChromeRealTraces, FlowTraceDetails) {
  Trace trace;
  ReadReport r = ReadChrome({ChromeTestData() + "/flow.json"}, trace);
  // README §3: 3 B without E; more f (886) than s (866). Flows of one
  // (cat, id) pair oldest-first: 846 links, 20 starts and 40 ends unmatched.
  EXPECT_EQ(r.unclosed_slices, 3u);
  EXPECT_EQ(r.flows, 846u);
  EXPECT_EQ(r.unmatched_flow_starts, 20u);
  EXPECT_EQ(r.unmatched_flow_ends, 40u);
  // Names from M metadata; unclosed slices end at the trace end.
  EXPECT_EQ(trace.Str(trace.container(trace.container(ByName(trace, "CrBrowserMain")).parent).name), "Browser");
  size_t open_to_end = 0;
  for (const EntityStore& s : trace.stores())
    if (s.kind == TypeKind::kState)
      for (size_t i = 0; i < s.size(); ++i) open_to_end += s.end[i] == trace.end_time();
  EXPECT_GE(open_to_end, 3u);
}

TEST_F(ChromeRealTraces, InfoJsonThroughTheFrontDoor) {
  auto r = Macroscope("info --json " + ChromeTestData() + "/x_event_trace.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["events"], 4027);
  EXPECT_EQ(j["totals"]["state"], 2799 + 442);
  EXPECT_EQ(j["totals"]["event"], 59 + 124 + 53 + 53 + 2 + 2);
  EXPECT_EQ(j["totals"]["variable"], 42);
  auto f = Macroscope("info " + ChromeTestData() + "/flow.json");
  ASSERT_EQ(f.exit_code, 0);
  EXPECT_NE(f.err.find("3 slice(s) begun (B) and never ended"), std::string::npos) << f.err;
  EXPECT_NE(f.err.find("40 flow end(s)"), std::string::npos) << f.err;
}

// ---- hand-written cases ----------------------------------------------------------

TEST(ChromeCases, NestingOfBEAndX) {
  Trace t;
  ReadReport r = Read(R"([
{"ph":"X","pid":1,"tid":1,"ts":0,"dur":10,"name":"parent"},
{"ph":"B","pid":1,"tid":1,"ts":2,"name":"be"},
{"ph":"E","pid":1,"tid":1,"ts":5},
{"ph":"X","pid":1,"tid":1,"ts":5,"dur":3,"name":"x"},
{"ph":"X","pid":1,"tid":1,"ts":6,"dur":1,"name":"grandchild"}
])", t);
  EXPECT_EQ(r.slices, 4u);
  EXPECT_EQ(r.truncated_slices, 0u);
  std::vector<StateRow> expected{{0, 10, 0, "parent"}, {2, 5, 1, "be"}, {5, 8, 1, "x"},
                                 {6, 7, 2, "grandchild"}};
  EXPECT_EQ(States(t, "Thread 1"), expected);
}

TEST(ChromeCases, EqualTimestampsPopBeforePush) {
  Trace t;
  // a ends at 5 where b begins (X, listed in reverse); zero-length B/E at 5.
  Read(R"({"traceEvents":[
{"ph":"X","pid":1,"tid":1,"ts":5,"dur":5,"name":"b"},
{"ph":"X","pid":1,"tid":1,"ts":0,"dur":5,"name":"a"},
{"ph":"B","pid":1,"tid":1,"ts":10,"name":"z"},
{"ph":"E","pid":1,"tid":1,"ts":10}
]})", t);
  std::vector<StateRow> expected{{0, 5, 0, "a"}, {5, 10, 0, "b"}, {10, 10, 0, "z"}};
  EXPECT_EQ(States(t, "Thread 1"), expected);
}

TEST(ChromeCases, OverlappingSliceIsCutAndCounted) {
  Trace t;
  ReadReport r = Read(R"([{"ph":"X","pid":1,"tid":1,"ts":0,"dur":10,"name":"p"},
                         {"ph":"X","pid":1,"tid":1,"ts":5,"dur":10,"name":"c"}])", t);
  EXPECT_EQ(r.truncated_slices, 1u);
  std::vector<StateRow> expected{{0, 10, 0, "p"}, {5, 10, 1, "c"}};
  EXPECT_EQ(States(t, "Thread 1"), expected);
}

TEST(ChromeCases, UnclosedBEndsAtTheTraceEnd) {
  Trace t;
  ReadReport r = Read(R"([{"ph":"B","pid":1,"tid":1,"ts":1,"name":"open"},
                         {"ph":"X","pid":1,"tid":2,"ts":0,"dur":20,"name":"long"}])", t);
  EXPECT_EQ(r.unclosed_slices, 1u);
  std::vector<StateRow> expected{{1, 20, 0, "open"}};
  EXPECT_EQ(States(t, "Thread 1"), expected);
  EXPECT_EQ(Micros(t, t.start_time()), 0);
  EXPECT_EQ(Micros(t, t.end_time()), 20);
}

TEST(ChromeCases, InstantScopes) {
  Trace t;
  ReadReport r = Read(R"([
{"ph":"M","pid":7,"tid":0,"name":"process_name","args":{"name":"proc"}},
{"ph":"M","pid":7,"tid":3,"name":"thread_name","args":{"name":"worker"}},
{"ph":"i","pid":7,"tid":3,"ts":1,"name":"on thread","s":"t"},
{"ph":"I","pid":7,"tid":3,"ts":2,"name":"default scope"},
{"ph":"i","pid":7,"tid":3,"ts":3,"name":"on process","s":"p"},
{"ph":"i","pid":7,"tid":3,"ts":4,"name":"global","s":"g","cat":"c","args":{"k":1}}
])", t);
  EXPECT_EQ(r.instants, 4u);
  EXPECT_EQ(r.names, 2u);
  EXPECT_EQ(StoreOf(t, "worker", "Instant")->size(), 2u);
  EXPECT_EQ(StoreOf(t, "proc", "Instant")->size(), 1u);
  const EntityStore* global = StoreOf(t, "0", "Instant");
  ASSERT_NE(global, nullptr);
  ASSERT_EQ(global->size(), 1u);
  std::vector<std::string> fields;
  global->extras.ForEach(0, [&](const ExtraField& f) { fields.push_back(std::string(t.Str(f.name)) + "=" + std::string(t.Str(f.value))); });
  EXPECT_EQ(fields, (std::vector<std::string>{"cat=c", R"(args={"k":1})"}));
}

TEST(ChromeCases, CountersWithSeveralArgs) {
  Trace t;
  ReadReport r = Read(R"([
{"ph":"C","pid":1,"ts":0,"name":"mem","args":{"heap":10,"stack":"2.5","note":"high"}},
{"ph":"C","pid":1,"ts":1,"name":"mem","args":{"heap":12,"stack":3}},
{"ph":"C","pid":1,"ts":1,"name":"ctr","id":"7","args":{"value":1}}
])", t);
  EXPECT_EQ(r.counter_values, 5u);
  EXPECT_EQ(r.ignored_counter_args, 1u);
  const EntityStore* heap = StoreOf(t, "Process 1", "mem heap");
  ASSERT_NE(heap, nullptr);
  EXPECT_EQ(heap->number, (std::vector<double>{10, 12}));
  ASSERT_NE(StoreOf(t, "Process 1", "mem stack"), nullptr);
  EXPECT_EQ(StoreOf(t, "Process 1", "mem stack")->number, (std::vector<double>{2.5, 3}));
  EXPECT_NE(StoreOf(t, "Process 1", "ctr[7] value"), nullptr);
}

TEST(ChromeCases, FlowsWithSteps) {
  Trace t;
  ReadReport r = Read(R"([
{"ph":"s","pid":1,"tid":1,"ts":1,"name":"post","cat":"task","id":"0x1"},
{"ph":"t","pid":1,"tid":2,"ts":2,"name":"post","cat":"task","id":"0x1"},
{"ph":"f","pid":2,"tid":3,"ts":3,"name":"post","cat":"task","id":"0x1","bp":"e"},
{"ph":"f","pid":2,"tid":3,"ts":4,"name":"post","cat":"other","id":"0x1"},
{"ph":"X","pid":1,"tid":1,"ts":0,"dur":5,"name":"a","bind_id":"9","flow_out":true},
{"ph":"X","pid":2,"tid":3,"ts":4,"dur":1,"name":"b","bind_id":"9","flow_in":true}
])", t);
  EXPECT_EQ(r.flows, 3u);
  EXPECT_EQ(r.unmatched_flow_ends, 1u);  // other category: not the same flow
  const EntityStore* links = StoreOf(t, "0", "Flow");
  ASSERT_NE(links, nullptr);
  std::multiset<std::tuple<double, double, std::string, std::string>> got;
  for (size_t i = 0; i < links->size(); ++i)
    got.emplace(Micros(t, links->start[i]), Micros(t, links->end[i]), t.Str(t.container(links->peer_start[i]).name),
                t.Str(t.container(links->peer_end[i]).name));
  std::multiset<std::tuple<double, double, std::string, std::string>> expected{
      {1, 2, "Thread 1", "Thread 2"}, {2, 3, "Thread 2", "Thread 3"}, {0, 4, "Thread 1", "Thread 3"}};
  EXPECT_EQ(got, expected);
}

TEST(ChromeCases, BothTopLevelFormsGiveTheSameTrace) {
  const std::string events = R"([{"ph":"B","pid":1,"tid":1,"ts":1,"name":"a","args":{"x":[1,2]}},
    {"ph":"E","pid":1,"tid":1,"ts":3},{"ph":"i","pid":1,"tid":1,"ts":2,"name":"e"}])";
  Trace bare, object;
  Read(events, bare);
  Read(R"({"otherData":{},"traceEvents":)" + events + R"(,"metadata":{"traceEvents":"not this one"}})", object);
  EXPECT_EQ(States(bare, "Thread 1"), States(object, "Thread 1"));
  EXPECT_EQ(bare.CountEntities(TypeKind::kEvent), 1u);
  EXPECT_EQ(object.CountEntities(TypeKind::kEvent), 1u);
}

TEST(ChromeCases, AsyncObjectsAndUnknownPhasesAreCounted) {
  const std::string text = R"([
{"ph":"b","pid":1,"tid":1,"ts":1,"name":"req","id":"5","cat":"net"},
{"ph":"e","pid":1,"tid":1,"ts":2,"name":"req","id":"5","cat":"net"},
{"ph":"N","pid":1,"tid":1,"ts":1,"name":"obj","id":"0x9"},
{"ph":"P","pid":1,"tid":1,"ts":1,"name":"sample"},
{"ph":"M","pid":1,"tid":1,"name":"num_cpus","args":{"number":4}}
])";
  Trace t;
  ReadReport r = Read(text, t);
  EXPECT_EQ(r.async_events, 2u);
  EXPECT_EQ(r.object_events, 1u);
  EXPECT_EQ(r.Skipped("of unknown phase \"P\""), 1u);
  EXPECT_EQ(r.ignored_metadata, 1u);
  EXPECT_EQ(StoreOf(t, "Process 1", "Async")->size(), 2u);
  auto w = r.Warnings();
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0], "1 event skipped: 1 of unknown phase \"P\" (byte " + std::to_string(text.find(R"({"ph":"P")")) + ")");
  EXPECT_NE(w[1].find("metadata event(s) other than names"), std::string::npos) << w[1];
}

TEST(ChromeCases, SniffsBothForms) {
  EXPECT_TRUE(LooksLikeChrome(R"(  [{"ph":"X"}])"));
  EXPECT_TRUE(LooksLikeChrome("\n{\"traceEvents\": []}"));
  EXPECT_FALSE(LooksLikeChrome(R"({"name": 1})"));
  EXPECT_FALSE(LooksLikeChrome("%EventDef PajeDefineContainerType 0 \"ph\""));
}

}  // namespace
}  // namespace macroscope::chrome
