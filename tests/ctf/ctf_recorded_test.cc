// The CTF reader and `macroscope info` on an LTTng-UST trace the suite
// records itself (fixture ctf.record_lttng_trace: record_lttng_trace.sh
// tracing lttng_workload.c), with babeltrace2 as the reference; and the
// broken-trace cases on copies of it, so they run without the shared data.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ctf_test_support.h"
#include "formats/ctf/ctf_reader.h"
#include "model/time_base.h"
#include "model/trace.h"

namespace macroscope::ctf {
namespace {

namespace fs = std::filesystem;
using testing::BabeltraceCount;
using testing::BabeltraceEvents;
using testing::CopyOf;
using testing::CountContainers;
using testing::CountsPerName;
using testing::ExpectRefused;
using testing::ExpectSameOutputsWithThreads;
using testing::ExpectSameWithThreads;
using testing::Info;
using testing::kThreadCounts;
using testing::Overwrite;
using testing::StateValues;
using testing::TempDir;
using testing::TypeByAlias;

// The constants of lttng_workload.c.
constexpr uint64_t kThreads = 3, kRounds = 4, kDepth = 2;
// main, and per worker: Worker and kDepth + 1 nested Nest calls per round.
constexpr uint64_t kFunctionCalls = 1 + kThreads * (1 + kRounds * (kDepth + 1));
constexpr uint64_t kTracefs = kThreads * kRounds + 1;

constexpr const char* kEntry = "lttng_ust_cyg_profile:func_entry";
constexpr const char* kExit = "lttng_ust_cyg_profile:func_exit";
constexpr const char* kTracef = "lttng_ust_tracef:event";
constexpr const char* kMalloc = "lttng_ust_libc:malloc";
constexpr const char* kFree = "lttng_ust_libc:free";

// The recording: an LTTng session folder (ust/uid/UID/64-bit/ below it).
std::string Recording() { return RECORDED_LTTNG_TRACE; }

// The trace directory in (a copy of) the recording: the one with `metadata`.
fs::path TraceDirectoryIn(const fs::path& root) {
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file() && e.path().filename() == "metadata") return e.path().parent_path();
  ADD_FAILURE() << "no metadata below " << root;
  return root;
}

// Replaces the trace's packetized metadata (as LTTng writes it) by the
// same metadata as text, which babeltrace2 prints.
void MakeTextMetadata(const fs::path& trace) {
  testing::CommandResult r = testing::RunCommand(std::string(BABELTRACE2_COMMAND) +
                                                 " --output-format=ctf-metadata " + testing::Quote(trace.string()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(r.out.rfind("/* CTF 1.8", 0), 0u) << r.out.substr(0, 100);
  testing::WriteText((trace / "metadata").string(), r.out);
}

// The user field `name` of entity i of `s` ("" without it).
std::string Field(const Trace& trace, const EntityStore& s, size_t i, std::string_view name) {
  std::string value;
  s.extras.ForEach(i, [&](const ExtraField& f) {
    if (value.empty() && trace.Str(f.name) == name) value = trace.Str(f.value);
  });
  return value;
}

class CtfRecorded : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fs::is_directory(Recording()))
        << "no recorded trace at " << Recording() << ": the CTest fixture ctf.record_lttng_trace makes it "
        << "(run through ctest, or run tests/ctf/record_lttng_trace.sh by hand)";
  }
};

// Total and per-name counts equal babeltrace2's; the program's own events
// are all there, exactly as many as it makes.
TEST_F(CtfRecorded, CountsAgreeWithBabeltrace2) {
  Trace trace;
  CtfReadStats stats = ReadCtf({Recording()}, trace);
  const std::vector<testing::BabeltraceEvent> reference = BabeltraceEvents(Recording());
  EXPECT_EQ(stats.traces, 1u);
  EXPECT_EQ(stats.events, reference.size());
  EXPECT_EQ(stats.events, BabeltraceCount(Recording()));
  EXPECT_EQ(stats.per_name, CountsPerName(reference));
  uint64_t sum = 0;
  for (const auto& [name, count] : stats.per_name) sum += count;
  EXPECT_EQ(sum, stats.events);

  EXPECT_EQ(stats.per_name[kTracef], kTracefs);
  EXPECT_EQ(stats.per_name[kEntry], kFunctionCalls);
  EXPECT_EQ(stats.per_name[kExit], kFunctionCalls);
  // The C library allocates too (threads, tracef's formatting): at least.
  EXPECT_GE(stats.per_name[kMalloc], kThreads * kRounds);
  EXPECT_GE(stats.per_name[kFree], kThreads * kRounds);
  EXPECT_GT(stats.per_name["lttng_ust_statedump:start"], 0u);
}

// Every event message lands at its babeltrace2 time, to the nanosecond:
// the punctual event times, function starts and function ends, as clock
// ticks of the trace's time base, are exactly babeltrace2's times; the span
// runs from the first to the last; the clock's seconds print as babeltrace2
// prints them.
TEST_F(CtfRecorded, TimesAreBabeltrace2Times) {
  Trace trace;
  CtfReadStats stats = ReadCtf({Recording()}, trace);
  ASSERT_EQ(stats.unmatched_exits, 0u);
  const TimeBase& base = trace.time_base();
  EXPECT_EQ(base.num, 1u);
  EXPECT_EQ(base.den, 1000000000u);
  const std::vector<testing::BabeltraceEvent> reference = BabeltraceEvents(Recording());
  ASSERT_FALSE(reference.empty());
  std::vector<int64_t> expected, actual;
  for (const testing::BabeltraceEvent& e : reference) expected.push_back(e.ns);
  for (const EntityStore& s : trace.stores()) {
    if (s.kind == TypeKind::kVariable) continue;  // the libc wrapper's Memory (docs/kernel.md)
    ASSERT_TRUE(s.kind == TypeKind::kEvent || s.kind == TypeKind::kState);
    for (size_t i = 0; i < s.size(); ++i) {
      actual.push_back(ClockTicks(base, s.start[i]));
      if (s.kind == TypeKind::kState) actual.push_back(ClockTicks(base, s.end[i]));
    }
  }
  std::sort(expected.begin(), expected.end());
  std::sort(actual.begin(), actual.end());
  EXPECT_EQ(actual, expected);
  EXPECT_EQ(ClockTicks(base, trace.start_time()), expected.front());
  EXPECT_EQ(ClockTicks(base, trace.end_time()), expected.back());
  // LTTng's clock counts from the Unix epoch: the model's origin has a date.
  EXPECT_EQ(base.epoch_ns, std::optional<int64_t>(expected.front()));
  // babeltrace2 prints in time order.
  for (const auto& [e, t] : {std::pair{reference.front(), trace.start_time()}, {reference.back(), trace.end_time()}}) {
    std::string printed;
    AppendClockSeconds(printed, base, t, 9);
    EXPECT_EQ(printed, e.clock_seconds);
  }
}

// func_entry / func_exit become nested states per thread (vtid), on the
// main thread and every worker, as for the shared cyg-profile traces.
TEST_F(CtfRecorded, CygProfileFunctionsPerThread) {
  Trace trace;
  CtfReadStats stats = ReadCtf({Recording()}, trace);
  EXPECT_EQ(CountContainers(trace, "ctf.trace"), 1u);
  const TypeId function = TypeByAlias(trace, "ctf.thread.function");
  ASSERT_NE(function, kNone);
  std::vector<std::string> functions = StateValues(trace, function);
  EXPECT_EQ(functions.size(), stats.per_name.at(kEntry));
  EXPECT_EQ(testing::CountWithPrefix(functions, "0x"), functions.size());
  EXPECT_EQ(stats.unmatched_exits, 0u);

  std::set<ContainerId> threads;
  uint16_t deepest = 0;
  for (const EntityStore& s : trace.stores()) {
    if (s.type != function) continue;
    threads.insert(s.container);
    EXPECT_EQ(trace.container(s.container).type, TypeByAlias(trace, "ctf.thread"));
    for (uint16_t level : s.level) deepest = std::max(deepest, level);
  }
  EXPECT_EQ(threads.size(), kThreads + 1);
  EXPECT_EQ(deepest, kDepth + 1);  // Worker > Nest > Nest > Nest
}

// One process (vpid) with its threads (vtid): each worker's allocations of
// its own sizes and its tracef messages are on one thread, the closing
// message on another (main).
TEST_F(CtfRecorded, EventsOnTheirThreadsWithTheirFields) {
  Trace trace;
  ReadCtf({Recording()}, trace);
  EXPECT_EQ(CountContainers(trace, "ctf.process"), 1u);
  EXPECT_GE(CountContainers(trace, "ctf.thread"), kThreads + 1);
  const TypeId malloc_type = TypeByAlias(trace, std::string("ctf.thread/") + kMalloc);
  const TypeId tracef_type = TypeByAlias(trace, std::string("ctf.thread/") + kTracef);
  ASSERT_NE(malloc_type, kNone);
  ASSERT_NE(tracef_type, kNone);
  std::map<ContainerId, std::set<std::string>> sizes, messages;
  for (const EntityStore& s : trace.stores()) {
    for (size_t i = 0; i < s.size(); ++i) {
      if (s.type == malloc_type) sizes[s.container].insert(Field(trace, s, i, "size"));
      if (s.type == tracef_type) messages[s.container].insert(Field(trace, s, i, "msg"));
    }
  }
  std::set<ContainerId> workers;
  for (uint64_t w = 0; w < kThreads; ++w) {
    ContainerId thread = kNone;
    for (const auto& [container, of_thread] : sizes)
      if (of_thread.count(std::to_string(1000 + 100 * w))) thread = container;
    ASSERT_NE(thread, kNone) << "no malloc of worker " << w;
    workers.insert(thread);
    for (uint64_t r = 0; r < kRounds; ++r) {
      EXPECT_EQ(sizes[thread].count(std::to_string(1000 + 100 * w + r)), 1u) << "worker " << w << " round " << r;
      std::string message = "worker " + std::to_string(w) + " round " + std::to_string(r) + " depth " +
                            std::to_string(kDepth + 1) + " " + static_cast<char>('a' + w);
      EXPECT_EQ(messages[thread].count(message), 1u) << message;
    }
  }
  EXPECT_EQ(workers.size(), kThreads);
  size_t done = 0;
  for (const auto& [container, of_thread] : messages)
    if (of_thread.count("done " + std::to_string(kThreads))) {
      ++done;
      EXPECT_EQ(workers.count(container), 0u);
    }
  EXPECT_EQ(done, 1u);
}

// `info --json` through the binary: babeltrace2's count, one state per
// function call, the containers, the span of the model.
TEST_F(CtfRecorded, InfoJson) {
  testing::CommandResult r = Info(Recording());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  nlohmann::json info = nlohmann::json::parse(r.out);
  const std::vector<testing::BabeltraceEvent> reference = BabeltraceEvents(Recording());
  ASSERT_FALSE(reference.empty());
  EXPECT_EQ(info["events"].get<uint64_t>(), reference.size());
  EXPECT_EQ(info["totals"]["state"].get<uint64_t>(), kFunctionCalls);
  // Every other message is a punctual event.
  EXPECT_EQ(info["totals"]["event"].get<uint64_t>(), reference.size() - 2 * kFunctionCalls);
  // The span ReadCtf gives the model.
  Trace trace;
  ReadCtf({Recording()}, trace);
  EXPECT_EQ(info["start"].get<double>(), trace.start_time());
  EXPECT_EQ(info["end"].get<double>(), trace.end_time());
  std::map<std::string, uint64_t> containers;
  for (const nlohmann::json& type : info["types"])
    if (type["kind"] == "container") containers[type["alias"].get<std::string>()] = type["containers"].get<uint64_t>();
  EXPECT_EQ(containers["ctf.trace"], 1u);
  EXPECT_EQ(containers["ctf.process"], 1u);
  EXPECT_GE(containers["ctf.thread"], kThreads + 1);
}

// babeltrace2's CTF writer re-writes the recording: same counts, states
// and events.
TEST_F(CtfRecorded, TraceWrittenByBabeltrace2) {
  TempDir out;
  testing::CommandResult r = testing::WriteCtfWithBabeltrace2(testing::Quote(Recording()), out.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Trace original_trace, rewritten_trace;
  CtfReadStats a = ReadCtf({Recording()}, original_trace);
  CtfReadStats b = ReadCtf({out.path()}, rewritten_trace);
  EXPECT_EQ(a.events, b.events);
  EXPECT_EQ(a.per_name, b.per_name);
  EXPECT_EQ(a.traces, b.traces);
  EXPECT_EQ(b.events, BabeltraceCount(out.path()));
  EXPECT_EQ(original_trace.CountEntities(TypeKind::kState), rewritten_trace.CountEntities(TypeKind::kState));
  EXPECT_EQ(original_trace.CountEntities(TypeKind::kEvent), rewritten_trace.CountEntities(TypeKind::kEvent));
}

// The same trace with its metadata as text instead of packets reads the same.
TEST_F(CtfRecorded, TextMetadataReadsTheSame) {
  TempDir dir;
  fs::path copy = CopyOf(dir, Recording());
  ASSERT_NO_FATAL_FAILURE(MakeTextMetadata(TraceDirectoryIn(copy)));
  Trace original_trace, text_trace;
  CtfReadStats a = ReadCtf({Recording()}, original_trace);
  CtfReadStats b = ReadCtf({copy.string()}, text_trace);
  EXPECT_EQ(a.events, b.events);
  EXPECT_EQ(a.per_name, b.per_name);
  EXPECT_EQ(original_trace.CountEntities(TypeKind::kState), text_trace.CountEntities(TypeKind::kState));
}

// Its streams (one per CPU) decoded on 2, 3 and 4 threads read as on one
// (stream_threads.h), and so does a folder of two copies (one UUID).
TEST_F(CtfRecorded, ThreadsReadTheSame) {
  ExpectSameOutputsWithThreads(Recording());
  TempDir dir;
  fs::path folder = fs::path(dir.path()) / "copies";
  fs::create_directory(folder);
  fs::copy(Recording(), folder / "a", fs::copy_options::recursive);
  fs::copy(Recording(), folder / "b", fs::copy_options::recursive);
  ExpectSameOutputsWithThreads(folder.string());
}

// --- broken copies of the recording: refused cleanly ----------------------

// `profile` of the recording is its cyg-profile events' (func_entry and
// func_exit as babeltrace2 prints them, paired by a stack per thread here):
// calls, inclusive time (Nest's recursion counted once: only its outermost
// calls) and exclusive time, to the nanosecond, per thread and function.
TEST_F(CtfRecorded, ProfileIsTheFunctionEventsOfBabeltrace2) {
  struct Sums {
    uint64_t calls = 0;
    int64_t inclusive = 0, exclusive = 0;
    bool operator==(const Sums&) const = default;
  };
  auto field = [](const std::string& fields, const std::string& name) {  // "{ vtid = 29304, …"
    const size_t at = fields.find(" " + name + " = ");
    if (at == std::string::npos) return std::string();
    const size_t begin = at + name.size() + 4;
    return fields.substr(begin, fields.find_first_of(", }", begin) - begin);
  };
  std::map<std::pair<std::string, std::string>, Sums> expected;  // (vtid, addr)
  struct Frame {
    std::string addr;
    int64_t start, callees;
  };
  std::map<std::string, std::vector<Frame>> stacks;
  for (const testing::BabeltraceEvent& e : BabeltraceEvents(Recording())) {
    if (e.name != kEntry && e.name != kExit) continue;
    const std::string vtid = field(e.fields, "vtid"), addr = field(e.fields, "addr");
    std::vector<Frame>& stack = stacks[vtid];
    if (e.name == kEntry) {
      stack.push_back({addr, e.ns, 0});
      continue;
    }
    ASSERT_FALSE(stack.empty());
    const Frame f = stack.back();
    stack.pop_back();
    ASSERT_EQ(f.addr, addr);
    const int64_t length = e.ns - f.start;
    Sums& sums = expected[{vtid, addr}];
    ++sums.calls;
    if (std::none_of(stack.begin(), stack.end(), [&](const Frame& g) { return g.addr == addr; }))
      sums.inclusive += length;
    sums.exclusive += length - f.callees;
    if (!stack.empty()) stack.back().callees += length;
  }
  ASSERT_EQ(expected.size(), 1 + 2 * kThreads);  // main; Worker and Nest per worker

  testing::CommandResult r = testing::Macroscope("profile --format json " + testing::Quote(Recording()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::pair<std::string, std::string>, Sums> got;
  for (const nlohmann::json& row : nlohmann::json::parse(r.out)) {
    const std::string container = row["container"];
    const std::string vtid = container.substr(container.rfind(' ') + 1);
    got[{vtid, row["function"]}] = {row["calls"], row["inclusive_ns"], row["exclusive_ns"]};
  }
  EXPECT_EQ(got, expected);
}

using CtfRecordedCli = CtfRecorded;

TEST_F(CtfRecordedCli, MetadataFileStandsForItsTrace) {
  fs::path metadata = TraceDirectoryIn(Recording()) / "metadata";
  testing::CommandResult r = Info(metadata.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"events\": " + std::to_string(BabeltraceCount(Recording()))), std::string::npos) << r.out;
}

TEST_F(CtfRecordedCli, TruncatedStreamFile) {
  TempDir dir;
  fs::path copy = CopyOf(dir, Recording());
  fs::path trace = TraceDirectoryIn(copy), stream;
  // The biggest stream file: the one with the program's events.
  for (const fs::directory_entry& e : fs::directory_iterator(trace))
    if (e.is_regular_file() && e.path().filename() != "metadata" &&
        (stream.empty() || e.file_size() > fs::file_size(stream)))
      stream = e.path();
  ASSERT_FALSE(stream.empty());
  fs::resize_file(stream, fs::file_size(stream) / 2 + 7);
  ExpectRefused(Info(copy.string()), copy.string());
  ExpectSameWithThreads("dump", copy.string(), kThreadCounts);  // the same refusal with threads
}

TEST_F(CtfRecordedCli, TruncatedTextMetadata) {
  TempDir dir;
  fs::path trace = TraceDirectoryIn(CopyOf(dir, Recording()));
  ASSERT_NO_FATAL_FAILURE(MakeTextMetadata(trace));
  fs::resize_file(trace / "metadata", fs::file_size(trace / "metadata") / 2);
  ExpectRefused(Info(trace.string()), trace.string());
}

TEST_F(CtfRecordedCli, TruncatedPacketizedMetadata) {
  TempDir dir;
  fs::path trace = TraceDirectoryIn(CopyOf(dir, Recording()));
  fs::resize_file(trace / "metadata", fs::file_size(trace / "metadata") / 2);
  ExpectRefused(Info(trace.string()), trace.string());
}

TEST_F(CtfRecordedCli, CorruptPacketizedMetadata) {
  TempDir dir;
  fs::path trace = TraceDirectoryIn(CopyOf(dir, Recording()));
  Overwrite(trace / "metadata", 300, std::string(64, '\xA5'));
  ExpectRefused(Info(trace.string()), trace.string());
}

TEST_F(CtfRecordedCli, CorruptMetadataMagic) {
  TempDir dir;
  fs::path trace = TraceDirectoryIn(CopyOf(dir, Recording()));
  Overwrite(trace / "metadata", 0, "\x01\x02\x03\x04");
  ExpectRefused(Info(trace.string()), trace.string());
}

}  // namespace
}  // namespace macroscope::ctf
