// Memory figures on a trace the suite records (kernel.record_alloc_trace):
// alloc_workload.c under LTTng-UST with the libc wrapper preloaded.
//
// Method: the C runtime and LTTng-UST allocate in the traced process too
// (before main, in tracef, at exit), in amounts that vary with their
// versions. The program brackets its measured section with two marker
// blocks of sizes nothing else asks for (1234567 and 7654321 bytes, each
// freed at once); babeltrace2's trimmer cuts the trace from the begin
// marker's malloc to the end marker's free, and on that cut every figure
// is the program's, known exactly (alloc_workload.c's comments). On the
// whole trace, counts equal babeltrace2's events of the process, and the
// bytes in use between the markers are the section's plus what the process
// held before it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "../pipeline/module_testing.h"
#include "formats/format.h"
#include "model/trace.h"
#include "pipeline/modules/modules.h"
#include "pipeline/workflow.h"
#include "test_support.h"

namespace macroscope::kernel_memory {
namespace {

using namespace ::macroscope::testing;
using nlohmann::json;

constexpr int64_t kBeginMarker = 1234567, kEndMarker = 7654321;

// Bytes in use after each change of alloc_workload.c's section, from its
// comments: 100 blocks of 16 + 8 i bytes, calloc(10, 32), realloc(NULL,
// 500), shrunk in place to 200, two blocks of 64 and the first moved to
// 4096, memalign 256, posix_memalign 384 (peak 46520); then blocks 0..89
// freed, realloc(calloc'd, 0), frees of the moved block, the guard, the
// aligned blocks. free(NULL) twice and the free of aligned_alloc's block
// (which the wrapper does not see allocated) change nothing.
std::vector<int64_t> SectionBytes() {
  std::vector<int64_t> bytes;
  int64_t now = 0;
  for (int i = 0; i < 100; ++i) bytes.push_back(now += 16 + 8 * i);
  for (int64_t b : {41520, 42020, 41720, 41784, 41848, 45880, 46136, 46520}) bytes.push_back(now = b);
  for (int i = 0; i < 90; ++i) bytes.push_back(now -= 16 + 8 * i);
  for (int64_t b : {12720, 8624, 8560, 8304, 7920}) bytes.push_back(now = b);
  return bytes;
}
constexpr int64_t kSectionFinal = 7920;  // blocks 90..99 and the shrunk one

// The trimmed trace: markers included.
std::vector<int64_t> TrimmedBytes() {
  std::vector<int64_t> bytes = {kBeginMarker, 0};
  for (int64_t b : SectionBytes()) bytes.push_back(b);
  bytes.push_back(kSectionFinal + kEndMarker);
  bytes.push_back(kSectionFinal);
  return bytes;
}

// One lttng_ust_libc event as babeltrace2 --clock-seconds prints it.
struct LibcLine {
  std::string clock_seconds, call;  // "malloc", "free", ...
  std::map<std::string, std::string> fields;
  uint64_t Number(const std::string& name) const { return std::stoull(fields.at(name), nullptr, 0); }
};

std::vector<LibcLine> LibcLines(const std::string& dir) {
  CommandResult r = RunCommand(std::string(BABELTRACE2_COMMAND) + " --clock-seconds --no-delta " + Quote(dir));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  static const std::regex line_re(R"(^\[([0-9.]+)\] .*lttng_ust_libc:(\w+): (.*)$)");
  static const std::regex field_re(R"((\w+) = ("[^"]*"|[^,} ]+))");
  std::vector<LibcLine> lines;
  std::istringstream in(r.out);
  for (std::string text; std::getline(in, text);) {
    std::smatch m;
    if (!std::regex_match(text, m, line_re)) continue;
    LibcLine line{m[1], m[2], {}};
    std::string rest = m[3];
    for (auto it = std::sregex_iterator(rest.begin(), rest.end(), field_re); it != std::sregex_iterator(); ++it)
      line.fields[(*it)[1]] = (*it)[2];
    lines.push_back(std::move(line));
  }
  return lines;
}

// The recorded trace, the workload's vpid and the trace cut to its section.
class MemoryRecorded : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    trace_ = ALLOC_TRACE;
    ASSERT_TRUE(std::filesystem::exists(trace_)) << "no recorded trace at " << trace_ << " (fixture failed?)";
    lines_ = LibcLines(trace_);
    std::string begin, end, end_ptr;
    for (const LibcLine& l : lines_) {
      if (l.call == "malloc" && l.Number("size") == kBeginMarker) {
        begin = l.clock_seconds;
        vpid_ = static_cast<int64_t>(l.Number("vpid"));
      }
      if (l.call == "malloc" && l.Number("size") == kEndMarker) end_ptr = l.fields.at("ptr");
      if (l.call == "free" && !end_ptr.empty() && end.empty() && l.fields.at("ptr") == end_ptr) end = l.clock_seconds;
    }
    ASSERT_FALSE(begin.empty() || end.empty()) << "no marker blocks in " << trace_;
    section_dir_ = std::make_unique<TempDir>();
    section_ = section_dir_->path() + "/section";
    CommandResult r = RunCommand(std::string(BABELTRACE2_COMMAND) + " " + Quote(trace_) + " --begin=" + begin +
                                 " --end=" + end + " -o ctf -w " + Quote(section_));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  static void TearDownTestSuite() { section_dir_.reset(); }

  // `kernel memory --format json`'s rows: the processes' in "processes",
  // the last one (all processes: pid null, name "(all)") as "all".
  static json Figures(const std::string& trace) {
    CommandResult r = Macroscope("kernel memory --format json " + Quote(trace));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    json rows = r.exit_code == 0 ? json::parse(r.out) : json::array();
    json out = {{"processes", json::array()}, {"all", json::object()}};
    for (const json& row : rows) {
      if (row["pid"].is_null()) {
        EXPECT_EQ(row["name"], "(all)");
        EXPECT_EQ(&row, &rows.back()) << "the row of all processes comes last";
        out["all"] = row;
      } else {
        out["processes"].push_back(row);
      }
    }
    return out;
  }
  static json Process(const json& figures) {
    for (const json& p : figures["processes"])
      if (p["pid"] == vpid_) return p;
    ADD_FAILURE() << "no process " << vpid_ << " in " << figures.dump();
    return json::object();
  }
  // (pid, bytes) of `kernel memory --series --format csv`.
  static std::vector<std::pair<int64_t, int64_t>> Series(const std::string& trace) {
    CommandResult r = Macroscope("kernel memory --series --format csv " + Quote(trace));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::istringstream in(r.out);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "time_ns,pid,bytes");
    std::vector<std::pair<int64_t, int64_t>> out;
    int64_t last_time = -1;
    while (std::getline(in, line)) {
      int64_t time = 0, pid = 0, bytes = 0;
      EXPECT_EQ(std::sscanf(line.c_str(), "%ld,%ld,%ld", &time, &pid, &bytes), 3) << line;
      EXPECT_GE(time, last_time) << "series out of time order";
      last_time = time;
      out.emplace_back(pid, bytes);
    }
    return out;
  }

  static inline std::string trace_, section_;
  static inline int64_t vpid_ = -1;
  static inline std::vector<LibcLine> lines_;
  static inline std::unique_ptr<TempDir> section_dir_;
};

TEST_F(MemoryRecorded, TheSectionsFiguresAreTheProgramsAllocations) {
  json figures = Figures(section_);
  ASSERT_EQ(figures["processes"].size(), 1u) << figures.dump();
  json p = Process(figures);
  // Markers 2 + 100 blocks + calloc + realloc(NULL) + 2 of 64 + memalign + posix_memalign.
  EXPECT_EQ(p["allocations"], 108);
  // Markers 2 + 90 blocks + realloc(p, 0) + 4 + the aligned_alloc block.
  EXPECT_EQ(p["frees"], 98);
  EXPECT_EQ(p["reallocs"], 2);  // shrunk in place, grown and moved
  EXPECT_EQ(p["moves"], 1);
  EXPECT_EQ(p["free_null"], 2);
  EXPECT_EQ(p["unknown_frees"], 1);  // aligned_alloc's block
  EXPECT_EQ(p["peak_bytes"], kSectionFinal + kEndMarker);
  EXPECT_EQ(p["final_bytes"], kSectionFinal);
  EXPECT_EQ(p["name"].get<std::string>().rfind("mcw", 0), 0u) << p.dump();  // the recording script's name
  json all = figures["all"];
  for (const char* key : {"allocations", "frees", "free_null", "unknown_frees", "peak_bytes", "final_bytes"})
    EXPECT_EQ(all[key], p[key]) << key;
}

TEST_F(MemoryRecorded, BytesInUseOverTimeFollowTheProgram) {
  std::vector<int64_t> bytes;
  for (auto [pid, b] : Series(section_)) {
    EXPECT_EQ(pid, vpid_);
    bytes.push_back(b);
  }
  EXPECT_EQ(bytes, TrimmedBytes());
  const std::vector<int64_t> section = SectionBytes();
  EXPECT_EQ(*std::max_element(section.begin(), section.end()), 46520);
}

TEST_F(MemoryRecorded, TheCtfReaderShowsThemAsTheProcesssMemoryVariable) {
  Trace trace;
  formats::ReadTrace({section_}, {}, trace);
  std::vector<int64_t> values;
  std::string container;
  for (const EntityStore& s : trace.stores()) {
    if (trace.Str(trace.type(s.type).alias) != "ctf.process.memory") continue;
    container = trace.Str(trace.container(s.container).name);
    for (double v : s.number) values.push_back(static_cast<int64_t>(v));
  }
  EXPECT_EQ(values, TrimmedBytes());
  EXPECT_NE(container.find(std::to_string(vpid_)), std::string::npos) << container;
}

TEST_F(MemoryRecorded, TheModuleGivesTheSameFiguresFromEitherReadMode) {
  using namespace pipeline;
  using namespace pipeline::testing;
  for (bool events : {true, false}) {
    Workflow w;
    w.Add(Make(ReadModule(), "read", {{"input", section_}, {"events", events}}));
    w.Add(Make(KernelMemoryModule(), "memory", json::object()));
    auto& rows = static_cast<RowCollector&>(w.Add(std::make_unique<RowCollector>("rows")));
    auto& series = static_cast<RowCollector&>(w.Add(std::make_unique<RowCollector>("series")));
    w.Link("read", "out", "memory", "in");
    w.Link("memory", "rows", "rows", "in");
    w.Link("memory", "series", "series", "in");
    w.Run();
    ASSERT_EQ(rows.all.columns,
              (std::vector<std::string>{"pid", "name", "allocations", "frees", "reallocs", "moves", "free_null",
                                        "unknown_frees", "peak_bytes", "peak_time_ns", "final_bytes"}));
    std::vector<std::vector<std::string>> texts = Texts(rows.all);
    ASSERT_EQ(texts.size(), 2u);
    std::vector<std::string> expected = {std::to_string(vpid_), texts[0][1], "108", "98", "2", "1", "2", "1",
                                         std::to_string(kSectionFinal + kEndMarker), texts[0][9],
                                         std::to_string(kSectionFinal)};
    EXPECT_EQ(texts[0], expected) << "events: " << events;
    expected[0] = "";
    expected[1] = "(all)";
    EXPECT_EQ(texts[1], expected);
    std::vector<int64_t> bytes;
    for (size_t r = 0; r < series.all.rows(); ++r) bytes.push_back(std::get<int64_t>(series.all.at(r, 2)));
    EXPECT_EQ(bytes, TrimmedBytes());
  }
}

TEST_F(MemoryRecorded, OnTheWholeTraceCountsAreBabeltrace2sAndTheSectionSitsOnWhatCameBefore) {
  // Counted from babeltrace2's text, event by event (no pointer map).
  uint64_t allocations = 0, frees = 0, free_null = 0, reallocs = 0, moves = 0;
  for (const LibcLine& l : lines_) {
    if (static_cast<int64_t>(l.Number("vpid")) != vpid_) continue;
    if (l.call == "free") {
      ++(l.Number("ptr") == 0 ? free_null : frees);
    } else if (l.call == "realloc") {
      uint64_t in = l.Number("in_ptr"), out = l.Number("ptr");
      if (in == 0 && out != 0) ++allocations;
      if (in != 0 && out != 0) {
        ++reallocs;
        moves += in != out;
      }
      if (in != 0 && out == 0 && l.Number("size") == 0) ++frees;
    } else if (l.call == "posix_memalign") {
      allocations += l.Number("result") == 0;
    } else {
      allocations += l.Number("ptr") != 0;
    }
  }
  json p = Process(Figures(trace_));
  EXPECT_EQ(p["allocations"], allocations);
  EXPECT_EQ(p["frees"], frees);
  EXPECT_EQ(p["free_null"], free_null);
  EXPECT_EQ(p["reallocs"], reallocs);
  EXPECT_EQ(p["moves"], moves);
  EXPECT_GE(p["unknown_frees"].get<uint64_t>(), 1u);

  // Between the markers, the section's bytes on top of what the process
  // held before it (base).
  std::vector<int64_t> bytes;
  for (auto [pid, b] : Series(trace_))
    if (pid == vpid_) bytes.push_back(b);
  std::vector<int64_t> trimmed = TrimmedBytes();
  size_t begin = 1;
  while (begin < bytes.size() && bytes[begin] - bytes[begin - 1] != kBeginMarker) ++begin;
  ASSERT_LE(begin + trimmed.size(), bytes.size()) << "no begin marker in the series";
  const int64_t base = bytes[begin - 1];
  std::vector<int64_t> section;
  for (size_t i = 0; i < trimmed.size(); ++i) section.push_back(bytes[begin + i] - base);
  EXPECT_EQ(section, trimmed);
  // The end marker dwarfs the rest: the peak is there.
  EXPECT_EQ(p["peak_bytes"], base + kSectionFinal + kEndMarker);
}

TEST_F(MemoryRecorded, RefusesWhatIsNoTrace) {
  TempDir dir;
  WriteText(dir.path() + "/notes.txt", "no trace here\n");
  for (const std::string& path : {dir.path() + "/missing", dir.path() + "/notes.txt"}) {
    CommandResult r = Macroscope("kernel memory " + Quote(path));
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace macroscope::kernel_memory
