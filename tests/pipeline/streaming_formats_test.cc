// Streaming OTF2, CTF and Chrome reading: the entities a sink receives are
// the in-memory model's, with a drain at every entity and with the default
// interval, on traces the suite makes (an OTF2 archive written with the
// library, the committed CTF trace of fuzz/, a Chrome JSON written here)
// and on the shared test data when it is there. CTF's events-only mode
// gives babeltrace2's counts per event name.
#include <filesystem>
#include <map>

#include "ctf_test_support.h"
#include "sample_archive.h"
#include "streaming_test_support.h"

namespace macroscope::streaming_test {
namespace {

namespace fs = std::filesystem;

std::string CommittedCtfTrace() { return std::string(MACROSCOPE_SOURCE_DIR) + "/fuzz/ctf_trace"; }

TEST(StreamingOtf2, SampleArchiveGivesTheModelsEntities) {
  TempDir dir;
  const std::string anchor = otf2::testing::WriteSampleArchive(dir.path());
  for (size_t interval : {1, 3, 65536}) {
    SCOPED_TRACE(interval);
    EXPECT_GT(ExpectStreamedEqualsModel({anchor}, interval), 10u);
  }
}

TEST(StreamingOtf2, TimeBaseIsKnownFromTheFirstHandOver) {
  TempDir dir;
  const std::string anchor = otf2::testing::WriteSampleArchive(dir.path());
  Trace model;
  formats::ReadTrace({anchor}, {}, model);
  struct BaseSink : EntitySink {
    void Completed(const Trace& trace, const EntityChunk&) override {
      bases.push_back(trace.time_base());
    }
    std::vector<TimeBase> bases;
  } sink;
  formats::ReadOptions options;
  options.sink = &sink;
  options.paje.simulator.drain_interval = 1;
  Trace streamed;
  formats::ReadTrace({anchor}, options, streamed);
  ASSERT_FALSE(sink.bases.empty());
  for (const TimeBase& base : sink.bases) EXPECT_EQ(base, model.time_base());
}

TEST(StreamingCtf, CommittedTraceGivesTheModelsEntities) {
  for (bool events_only : {false, true}) {
    SCOPED_TRACE(events_only);
    formats::ReadOptions options;
    options.events_only = events_only;
    for (size_t interval : {1, 2, 65536})
      EXPECT_GT(ExpectStreamedEqualsModel({CommittedCtfTrace()}, interval, options), 0u);
  }
}

// One entity per event message, named as babeltrace2 names it.
std::map<std::string, uint64_t, std::less<>> RawEventCounts(const std::string& dir, uint64_t& other) {
  RecordingSink sink;
  formats::ReadOptions options;
  options.events_only = true;
  options.sink = &sink;
  Trace trace;
  formats::ReadTrace({dir}, options, trace);
  std::map<std::string, uint64_t, std::less<>> counts;
  other = 0;
  for (const auto& [store, lines] : sink.lines)
    for (const std::string& line : lines) {
      if (line.rfind("event|event|", 0) != 0) {
        ++other;
        continue;
      }
      const size_t v = line.find("|v=") + 3;
      ++counts[line.substr(v, line.find('|', v) - v)];
    }
  return counts;
}

TEST(StreamingCtf, EventsOnlyCountsPerNameAreBabeltraces) {
  uint64_t other = 0;
  auto counts = RawEventCounts(CommittedCtfTrace(), other);
  EXPECT_EQ(other, 0u) << "events only: nothing but events";
  EXPECT_EQ(counts, ctf::testing::CountsPerName(ctf::testing::BabeltraceEvents(CommittedCtfTrace())));
}

TEST(StreamingCtf, EventsOnlyOnTheSharedTraces) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  for (const char* name : {"bug446190", "cyg-profile", "perf-taskset2", "mpi_allreduce"}) {
    SCOPED_TRACE(name);
    const std::string dir = SharedTestData() + "/ctf/" + name;
    uint64_t other = 0;
    EXPECT_EQ(RawEventCounts(dir, other), ctf::testing::CountsPerName(ctf::testing::BabeltraceEvents(dir)));
    formats::ReadOptions options;
    ExpectStreamedEqualsModel({dir}, 1000, options);
  }
}

// Out of time order on purpose; nested B/E with an unclosed B, X inside
// and across, instants of every scope, counters, flows (v1 with a step,
// v2 by bind_id), async and object events, names, args everywhere.
const char* kChrome = R"({"traceEvents": [
{"ph":"M","pid":1,"tid":0,"name":"process_name","args":{"name":"app"}},
{"ph":"M","pid":1,"tid":1,"name":"thread_name","args":{"name":"main"}},
{"ph":"B","pid":1,"tid":1,"ts":10,"name":"run","cat":"top","args":{"n":1}},
{"ph":"X","pid":1,"tid":1,"ts":12,"dur":5,"name":"parse","args":{"file":"a"}},
{"ph":"B","pid":1,"tid":1,"ts":20,"name":"compute","bind_id":"f1","flow_out":true},
{"ph":"i","pid":1,"tid":1,"ts":21,"name":"mark","s":"t","args":{"k":"v"}},
{"ph":"E","pid":1,"tid":1,"ts":30,"args":{"result":42}},
{"ph":"C","pid":1,"ts":5,"name":"queue","args":{"length":3,"bytes":"12"}},
{"ph":"C","pid":1,"ts":25,"name":"queue","args":{"length":7,"bytes":"40"}},
{"ph":"s","pid":1,"tid":1,"ts":22,"name":"msg","cat":"c","id":7},
{"ph":"t","pid":2,"tid":5,"ts":26,"name":"msg","cat":"c","id":7},
{"ph":"f","pid":1,"tid":1,"ts":40,"name":"msg","cat":"c","id":7,"bp":"e"},
{"ph":"X","pid":2,"tid":5,"ts":24,"dur":10,"name":"serve","bind_id":"f1","flow_in":true},
{"ph":"i","pid":2,"ts":27,"name":"gc","s":"p"},
{"ph":"i","ts":28,"name":"frame","s":"g"},
{"ph":"b","pid":2,"ts":23,"name":"load","cat":"net","id":"0x1"},
{"ph":"e","pid":2,"ts":33,"name":"load","cat":"net","id":"0x1"},
{"ph":"N","pid":2,"ts":23,"name":"obj","id":"0x2"},
{"ph":"E","pid":1,"tid":1,"ts":50},
{"ph":"B","pid":2,"tid":6,"ts":31,"name":"never ends"},
{"ph":"X","pid":2,"tid":6,"ts":32,"dur":3,"name":"inside"},
{"ph":"X","pid":2,"tid":6,"ts":32,"dur":6,"name":"longer first"}
]})";

TEST(StreamingChrome, WrittenTraceGivesTheModelsEntities) {
  TempDir dir;
  const std::string path = dir.path() + "/trace.json";
  WriteText(path, kChrome);
  for (size_t interval : {1, 2, 65536}) {
    SCOPED_TRACE(interval);
    EXPECT_GT(ExpectStreamedEqualsModel({path}, interval), 15u);
  }
}

TEST(StreamingChrome, SharedTracesGiveTheModelsEntities) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  for (const auto& e : fs::directory_iterator(SharedTestData() + "/chrome")) {
    SCOPED_TRACE(e.path().string());
    ExpectStreamedEqualsModel({e.path().string()}, 1000);
  }
}

TEST(StreamingOtf2, SharedArchivesGiveTheModelsEntities) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  for (const char* name : {"ping-pong-otf2", "ping-pong-otf2-papi"}) {
    SCOPED_TRACE(name);
    ExpectStreamedEqualsModel({SharedTestData() + "/otf2/" + name}, 100);
  }
}

}  // namespace
}  // namespace macroscope::streaming_test
