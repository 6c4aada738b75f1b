// Helpers of the CTF tests only: babeltrace2 as the reference (event
// counts, names and times from its text output), the states of a read
// trace, and `macroscope info` on good and broken traces. Scratch folders,
// commands and the shared test data come from tests/support.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "formats/ctf/ctf_reader.h"
#include "model/trace.h"
#include "test_support.h"

namespace macroscope::ctf::testing {

// `testing::TempDir`, `testing::RunCommand`... in the CTF tests (which live
// in macroscope::ctf) name the shared helpers too.
using namespace ::macroscope::testing;

// A trace of the shared test data, e.g. "ctf/bug446190".
inline std::string SharedTrace(const std::string& name) { return SharedTestData() + "/" + name; }

// expected-counts.tsv's rows for a CTF trace of the shared data: the total
// and the per-event-name counts, as ReadCtf reports them.
struct Expected {
  uint64_t events = 0;
  std::map<std::string, uint64_t, std::less<>> per_name;
};
inline Expected ExpectedCtfCounts(const std::string& trace) {
  Expected e;
  for (const auto& [kind_key, count] : ExpectedCounts("ctf", trace)) {
    if (kind_key == "total events") e.events = count;
    if (kind_key.rfind("event ", 0) == 0) e.per_name[kind_key.substr(6)] = count;
  }
  return e;
}

// `babeltrace2 DIR | wc -l`: the reference event count.
inline uint64_t BabeltraceCount(const std::string& dir) {
  CommandResult r = RunCommand(std::string(BABELTRACE2_COMMAND) + " " + Quote(dir) + " | wc -l");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out.empty() ? 0 : std::stoull(r.out);
}

// `babeltrace2 SOURCE_ARGS` with its CTF writer (sink.ctf.fs) as the sink:
// writes the trace(s) into folders below `out_dir`. SOURCE_ARGS is shell
// text: a quoted trace path, or a --component with its --params.
inline CommandResult WriteCtfWithBabeltrace2(const std::string& source_args, const std::string& out_dir) {
  return RunCommand(std::string(BABELTRACE2_COMMAND) + " " + source_args +
                    " --component=sink.ctf.fs --params=" + Quote("path=\"" + out_dir + "\""));
}

// One event as `babeltrace2 --clock-seconds --no-delta DIR` prints it:
// "[SEC.NANOSEC] HOST NAME: { fields }" (no HOST without a hostname).
struct BabeltraceEvent {
  std::string name;
  int64_t ns = 0;             // from the clock's origin, exactly as printed
  std::string clock_seconds;  // as printed: "1795474792.219436115"
  std::string fields;         // as printed after "NAME: ", e.g. "{ cpu_id = 0 }, { ret = 5 }"
};

inline std::vector<BabeltraceEvent> BabeltraceEvents(const std::string& dir) {
  CommandResult r = RunCommand(std::string(BABELTRACE2_COMMAND) + " --clock-seconds --no-delta " + Quote(dir));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<BabeltraceEvent> events;
  size_t line_start = 0;
  while (line_start < r.out.size()) {
    size_t line_end = r.out.find('\n', line_start);
    if (line_end == std::string::npos) line_end = r.out.size();
    std::string_view line(r.out.data() + line_start, line_end - line_start);
    line_start = line_end + 1;
    size_t close = line.find("] ");
    EXPECT_TRUE(line.size() > 1 && line[0] == '[' && close != std::string_view::npos) << line;
    if (line.empty() || line[0] != '[' || close == std::string_view::npos) continue;
    BabeltraceEvent e;
    // The time: [-]SEC.NANOSEC, read as integers so nothing is rounded.
    std::string_view time = line.substr(1, close - 1);
    e.clock_seconds = std::string(time);
    bool negative = !time.empty() && time[0] == '-';
    if (negative) time.remove_prefix(1);
    size_t dot = time.find('.');
    EXPECT_TRUE(dot != std::string_view::npos && time.size() - dot - 1 == 9) << line;
    if (dot == std::string_view::npos) continue;
    e.ns = std::stoll(std::string(time.substr(0, dot))) * 1000000000 + std::stoll(std::string(time.substr(dot + 1)));
    if (negative) e.ns = -e.ns;
    // The name: before the fields' ": {" (or the final ':' of an event
    // without fields), after the host if there is one.
    std::string_view rest = line.substr(close + 2);
    size_t fields = rest.find(": {");
    std::string_view head = fields != std::string_view::npos ? rest.substr(0, fields) : rest;
    if (fields == std::string_view::npos && !head.empty() && head.back() == ':') head.remove_suffix(1);
    size_t space = head.rfind(' ');
    e.name = std::string(space == std::string_view::npos ? head : head.substr(space + 1));
    if (fields != std::string_view::npos) e.fields = std::string(rest.substr(fields + 2));
    events.push_back(std::move(e));
  }
  return events;
}

inline std::map<std::string, uint64_t, std::less<>> CountsPerName(const std::vector<BabeltraceEvent>& events) {
  std::map<std::string, uint64_t, std::less<>> counts;
  for (const BabeltraceEvent& e : events) ++counts[e.name];
  return counts;
}

// --- the model a reader filled -------------------------------------------

inline TypeId TypeByAlias(const Trace& trace, std::string_view alias) {
  for (TypeId id = 0; id < trace.types().size(); ++id)
    if (trace.Str(trace.type(id).alias) == alias) return id;
  return kNone;
}

inline size_t CountContainers(const Trace& trace, std::string_view type_alias) {
  TypeId type = TypeByAlias(trace, type_alias);
  return static_cast<size_t>(std::count_if(trace.containers().begin(), trace.containers().end(),
                                           [&](const Container& c) { return c.type == type; }));
}

// Every state of `type` over all containers: values, and nesting checked.
inline std::vector<std::string> StateValues(const Trace& trace, TypeId type) {
  std::vector<std::string> values;
  for (const EntityStore& s : trace.stores()) {
    if (s.type != type) continue;
    // Nesting: a state of level L > 0 lies inside the latest state of level
    // L - 1 that started before it.
    std::vector<size_t> order(s.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return s.start[a] < s.start[b]; });
    std::vector<size_t> latest_at_level;
    for (size_t i : order) {
      EXPECT_LE(s.start[i], s.end[i]) << "state " << trace.Str(s.value[i]) << " ends before it starts";
      uint16_t level = s.level[i];
      if (level > 0) {
        EXPECT_GE(latest_at_level.size(), level) << "level " << level << " without a parent";
        if (latest_at_level.size() >= level) {
          size_t parent = latest_at_level[level - 1];
          EXPECT_LE(s.start[parent], s.start[i]);
          EXPECT_GE(s.end[parent], s.end[i]) << trace.Str(s.value[i]) << " outlives " << trace.Str(s.value[parent]);
        }
      }
      if (latest_at_level.size() <= level) latest_at_level.resize(level + 1);
      latest_at_level[level] = i;
      values.emplace_back(trace.Str(s.value[i]));
    }
  }
  return values;
}

inline size_t CountWithPrefix(const std::vector<std::string>& values, std::string_view prefix) {
  return static_cast<size_t>(std::count_if(values.begin(), values.end(),
                                           [&](const std::string& v) { return v.rfind(prefix, 0) == 0; }));
}

// --- the command ---------------------------------------------------------

inline CommandResult Info(const std::string& path) { return Macroscope("info --json " + Quote(path)); }

// Bad input: exit 1, nothing on stdout, one line naming the path on stderr.
inline void ExpectRefused(const CommandResult& r, const std::string& path) {
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// --- threads (stream_threads.h) ---------------------------------------------

inline const std::vector<int> kThreadCounts = {2, 3, 4};

// `dump -u` (events with their fields), `stats` and the store `import`
// writes with 2, 3 and 4 threads equal 1 thread's, byte for byte.
inline void ExpectSameOutputsWithThreads(const std::string& trace) {
  for (const std::string command : {"dump -u", "stats --format csv"}) {
    CommandResult one = ExpectSameWithThreads(command, trace, kThreadCounts);
    EXPECT_EQ(one.exit_code, 0) << command << ": " << one.err;
    EXPECT_FALSE(one.out.empty()) << command;
  }
  TempDir scratch;
  auto import = [&](int threads) {
    std::string store = scratch.path() + "/" + std::to_string(threads) + ".mstore";
    CommandResult r =
        Macroscope("import -q --threads " + std::to_string(threads) + " -o " + Quote(store) + " " + Quote(trace));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return ReadText(store);
  };
  const std::string one = import(1);
  for (int threads : kThreadCounts)
    EXPECT_TRUE(import(threads) == one) << "import --threads " << threads << " on " << trace;
}

// A copy of the trace (or folder of traces) at `source` inside `dir`, for a
// test to break.
inline std::filesystem::path CopyOf(const TempDir& dir, const std::string& source) {
  std::filesystem::path target = std::filesystem::path(dir.path()) / std::filesystem::path(source).filename();
  std::filesystem::copy(source, target, std::filesystem::copy_options::recursive);
  return target;
}

// Writes `bytes` over `file` at `offset` (a copy of a trace being broken).
inline void Overwrite(const std::filesystem::path& file, std::streamoff offset, const std::string& bytes) {
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(offset);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace macroscope::ctf::testing
