// The recordings the kernel_recorded and ftrace tests read: the workload
// (kr_workload.c) recorded by record_kernel_trace.sh into a scratch
// folder, once per test suite in a test process, and the peers' text of
// it (`perf script --ns`, `trace-cmd report -R -t`).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "test_support.h"

namespace macroscope::testing {

// A task of the workload, as it announced itself ("task NAME TID PID").
struct WorkloadTask {
  std::string name;
  int64_t tid = 0, pid = 0;
};

struct KernelRecording {
  TempDir dir;
  std::string skip;   // why tracing is not permitted here (the test skips)
  std::string error;  // the recording failed otherwise (the test fails)
  std::string trace;  // what macroscope reads: the CTF folder (perf) or the .dat (trace-cmd)
  std::string text;   // the peer's text of it: `perf script --ns` or `trace-cmd report -R -t`
  std::vector<WorkloadTask> tasks;
};

// Records with "perf", "trace-cmd", "perf-latency" or "trace-cmd-latency"
// (record_kernel_trace.sh's modes).
std::unique_ptr<KernelRecording> RecordWorkload(const std::string& mode);

// What perf's conversion says it lost or took out of order ("" when
// nothing, and for trace-cmd's recordings, which have no such log): on a
// loaded machine perf drops chunks of events, and the peers then pair
// entries with exits around the gaps each its own way (one syscall's mean
// was 0.6 ns apart out of 81726 after 4 lost chunks), so no row is the one
// answer.
std::string PerfLoss(const KernelRecording& r);

// After a failed test: copies the recording to a folder of its own under
// $TMPDIR (or /tmp), kept, and prints where, so that a failure seen once
// (a CI run) can be looked at.
void KeepRecordingOfFailure(const KernelRecording& recording);

// Skips the current test when tracing is not permitted; fails it when the
// recording failed. Use as a statement in SetUp().
#define MACROSCOPE_NEEDS_RECORDING(recording)                     \
  if (!(recording)->skip.empty()) GTEST_SKIP() << (recording)->skip; \
  ASSERT_TRUE((recording)->error.empty()) << (recording)->error

// A fixture holding one recording made in `kMode` ("perf" or "trace-cmd")
// for its whole test suite: each test skips when tracing is not permitted,
// fails when the recording failed, and keeps the recording when it fails.
template <const char* kMode, class Base = ::testing::Test>
class RecordingTest : public Base {
 protected:
  static void SetUpTestSuite() { recording_ = RecordWorkload(kMode); }
  static void TearDownTestSuite() { recording_.reset(); }
  void SetUp() override { MACROSCOPE_NEEDS_RECORDING(recording_); }
  void TearDown() override {
    if (::testing::Test::HasFailure() && recording_->skip.empty()) KeepRecordingOfFailure(*recording_);
  }
  static inline std::unique_ptr<KernelRecording> recording_;
};
inline constexpr char kPerfMode[] = "perf";
inline constexpr char kTraceCmdMode[] = "trace-cmd";
inline constexpr char kPerfLatencyMode[] = "perf-latency";
inline constexpr char kTraceCmdLatencyMode[] = "trace-cmd-latency";

// The rows of a CSV text with a header line, as column -> value (quoted
// fields as RFC 4180 writes them).
std::vector<std::map<std::string, std::string>> CsvRows(const std::string& text);

}  // namespace macroscope::testing
