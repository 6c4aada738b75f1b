// The trace-cmd .dat reader (src/formats/ftrace) against trace-cmd itself:
// its records, in their order, with their times, CPUs, names and fields,
// are what `trace-cmd report -R -t` prints of a recording the test makes;
// damaged files are refused with one line naming the file, exit 1 and
// nothing written.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "formats/ftrace/trace_cmd_records.h"
#include "kernel_recording.h"
#include "switch_accounting.h"
#include "test_support.h"

namespace macroscope::testing {
namespace {

class FtraceRecording : public RecordingTest<kTraceCmdMode> {};

TEST_F(FtraceRecording, RecordsAreTraceCmdReportsInItsOrder) {
  const std::vector<TextEvent> expected = ParseEventLines(recording_->text);
  ASSERT_GT(expected.size(), 100u);
  size_t i = 0, mismatches = 0;
  ftrace::TraceCmdRecordStats stats = ftrace::ForEachTraceCmdRecord({recording_->trace}, [&](const ctf::CtfEvent& e) {
    if (i < expected.size() && mismatches < 5) {
      const TextEvent& x = expected[i];
      bool same = e.time_ns == x.time_ns && e.cpu_id == x.cpu && e.name == x.name && e.Integer("common_pid") == x.tid;
      if (x.prev_pid) same = same && e.Integer("prev_pid") == x.prev_pid && e.Integer("next_pid") == x.next_pid;
      EXPECT_TRUE(same) << "record " << i << ": " << e.name << " at " << e.time_ns.value_or(-1) << " on CPU "
                        << e.cpu_id.value_or(-1) << "; trace-cmd report: " << x.name << " at " << x.time_ns
                        << " on CPU " << x.cpu << " by " << x.tid;
      mismatches += same ? 0 : 1;
      EXPECT_EQ(e.trace->domain, "kernel");
      EXPECT_EQ(e.stream_name, "cpu" + std::to_string(x.cpu));
    }
    ++i;
  });
  EXPECT_EQ(i, expected.size());
  EXPECT_EQ(stats.records, expected.size());
  EXPECT_EQ(stats.bytes, std::filesystem::file_size(recording_->trace));
}

// Fields are the event format's, common ones first; strings are text,
// integers numbers (signed ones sign-extended) with their decimal text.
TEST_F(FtraceRecording, SchedSwitchFieldsAreTheFormats) {
  bool seen = false;
  ftrace::ForEachTraceCmdRecord({recording_->trace}, [&](const ctf::CtfEvent& e) {
    if (seen || e.name != "sched_switch") return;
    seen = true;
    std::vector<std::string> names;
    for (const ctf::CtfField& f : e.fields) names.push_back(f.name);
    EXPECT_EQ(names, (std::vector<std::string>{"common_type", "common_flags", "common_preempt_count", "common_pid",
                                               "prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm",
                                               "next_pid", "next_prio"}));
    EXPECT_FALSE(e.Field("prev_comm")->integer);
    EXPECT_FALSE(e.Field("prev_comm")->text.empty());
    EXPECT_EQ(e.Field("next_pid")->text, std::to_string(*e.Integer("next_pid")));
  });
  EXPECT_TRUE(seen);
}

// `macroscope convert IN -o OUT`: exit 1, one line "macroscope: FILE: ...",
// OUT not written.
void ExpectRefused(const std::string& file, const std::string& what) {
  TempDir out;
  const std::string json = out.path() + "/out.json";
  CommandResult r = Macroscope("convert " + Quote(file) + " -o " + Quote(json));
  EXPECT_EQ(r.exit_code, 1) << what << ": " << r.err;
  EXPECT_EQ(r.err.rfind("macroscope: " + file + ": ", 0), 0u) << what << ": " << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << what << ": " << r.err;
  EXPECT_FALSE(std::filesystem::exists(json)) << what;
}

TEST_F(FtraceRecording, TruncatedCopiesAreRefused) {
  const std::string whole = ReadText(recording_->trace);
  TempDir dir;
  for (size_t size : {size_t{12}, size_t{200}, whole.size() / 2, whole.size() - 2000}) {
    const std::string cut = dir.path() + "/cut-" + std::to_string(size) + ".dat";
    WriteText(cut, whole.substr(0, size));
    ExpectRefused(cut, "cut at " + std::to_string(size) + " of " + std::to_string(whole.size()) + " bytes");
  }
}

// trace-cmd's own conversion to version 6, uncompressed: the same records;
// cut short in its CPU data (where libtracecmd 3.1 itself crashes on
// opening it) it is refused like any damaged file.
TEST_F(FtraceRecording, Version6CopyReadsTheSameAndCutIsRefused) {
  TempDir dir;
  const std::string v6 = dir.path() + "/v6.dat";
  CommandResult convert = RunCommand("trace-cmd convert --file-version 6 --compression none -i " +
                                     Quote(recording_->trace) + " -o " + Quote(v6));
  ASSERT_EQ(convert.exit_code, 0) << convert.err;
  uint64_t records = 0;
  ftrace::ForEachTraceCmdRecord({v6}, [&](const ctf::CtfEvent&) { ++records; });
  EXPECT_EQ(records, ParseEventLines(recording_->text).size());
  const std::string whole = ReadText(v6);
  for (size_t cut : {size_t{100}, size_t{5000}}) {
    const std::string path = dir.path() + "/v6-cut-" + std::to_string(cut) + ".dat";
    WriteText(path, whole.substr(0, whole.size() - cut));
    ExpectRefused(path, "version 6 less its last " + std::to_string(cut) + " bytes");
  }
}

TEST_F(FtraceRecording, KernelProcessesReadsIt) {
  CommandResult r = Macroscope("kernel processes --format csv " + Quote(recording_->trace));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("tid,", 0), 0u) << r.out;
  CommandResult info = Macroscope("info --json " + Quote(recording_->trace));
  ASSERT_EQ(info.exit_code, 0) << info.err;
}

// What needs no recording: the magic followed by nothing or by garbage.
TEST(FtraceBadInput, MagicWithoutATraceIsRefused) {
  TempDir dir;
  const std::string magic("\x17\x08\x44tracing", 10);
  const std::pair<const char*, std::string> cases[] = {
      {"magic-only.dat", magic},
      {"version-only.dat", magic + std::string("6\0", 2)},
      {"garbage.dat", magic + std::string("7\0", 2) + std::string(3000, '\x5a')},
      {"zeros.dat", magic + std::string("6\0", 2) + std::string(5000, '\0')},
  };
  for (const auto& [name, bytes] : cases) {
    const std::string path = dir.path() + "/" + name;
    WriteText(path, bytes);
    ExpectRefused(path, name);
  }
}

TEST(FtraceBadInput, FormatsListsIt) {
  CommandResult r = Macroscope("formats");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("ftrace"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace macroscope::testing
