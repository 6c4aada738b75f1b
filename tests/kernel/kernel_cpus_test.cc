// `macroscope kernel processes --cpus`: a CPU's time is always someone's.
// On every kernel trace the suite has (its own kernel-shaped trace; the
// shared LTTng and perf traces, skipped without them): per CPU, its
// threads' running time + idle + unknown equals the trace's span to the
// nanosecond; per CPU and thread, the figures equal sched_switch accounting
// computed here from babeltrace2's text; per thread, the CPUs' figures add
// up to the thread's running_ns of `kernel processes` (the Thread states),
// so no CPU time belongs to no one.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kernel_test_support.h"

namespace macroscope::kernel::testing {
namespace {

nlohmann::json Json(const std::string& args) {
  CommandResult r = Macroscope(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::array();
}

void ExpectCpuTimeAddsUp(const std::string& dir) {
  std::vector<KernelEvent> events = KernelBabeltraceEvents(dir);
  ASSERT_FALSE(events.empty());
  const int64_t first = events.front().ns, span = events.back().ns - first;
  const std::map<int, CpuTime> expected = TimePerCpu(events);
  ASSERT_FALSE(expected.empty()) << "no sched_switch in " << dir;

  const nlohmann::json cpus = Json("kernel processes --cpus --format json " + Quote(dir));
  const nlohmann::json threads = Json("kernel processes --format json " + Quote(dir));
  struct Figures {
    int64_t running = 0, idle = -1, unknown = -1, span = -1;
    std::map<int64_t, int64_t> threads;
  };
  std::map<std::string, Figures> got;
  std::map<int64_t, int64_t> per_tid;  // summed over the CPUs
  for (const nlohmann::json& row : cpus) {
    Figures& f = got[row["cpu"].get<std::string>()];
    const std::string kind = row["kind"];
    const int64_t ns = row["ns"];
    if (kind == "thread") {
      f.running += ns;
      f.threads[row["tid"].get<int64_t>()] = ns;
      per_tid[row["tid"].get<int64_t>()] += ns;
    } else if (kind == "idle") {
      f.idle = ns;
    } else if (kind == "unknown") {
      f.unknown = ns;
    } else {
      ASSERT_EQ(kind, "span");
      f.span = ns;
    }
  }

  // Conservation, and each CPU's figures against the accounting done here.
  for (const auto& [number, want] : expected) {
    const std::string cpu = "cpu" + std::to_string(number);
    ASSERT_TRUE(got.contains(cpu)) << cpu << " of " << dir;
    const Figures& f = got[cpu];
    EXPECT_EQ(f.span, span) << cpu;
    EXPECT_EQ(f.running + f.idle + f.unknown, f.span) << cpu << " of " << dir;
    EXPECT_EQ(f.idle, want.idle) << cpu;
    EXPECT_EQ(f.unknown, want.first_switch - first) << cpu;
    for (const auto& [tid, ns] : want.running) {
      EXPECT_EQ(f.threads.contains(tid) ? f.threads.at(tid) : 0, ns) << cpu << " tid " << tid;
    }
    for (const auto& [tid, ns] : f.threads) {
      EXPECT_TRUE(want.running.contains(tid)) << cpu << " tid " << tid;
    }
  }
  for (const auto& [cpu, f] : got) {  // a CPU with no switch: all of it unknown
    if (f.threads.empty() && f.idle == 0) {
      EXPECT_EQ(f.unknown, span) << cpu;
    }
  }

  // The CPUs' view and the threads' agree: every tid's running time is
  // the same both ways (its incarnations summed).
  std::map<int64_t, int64_t> rows;
  for (const nlohmann::json& r : threads) rows[r["tid"].get<int64_t>()] += r["running_ns"].get<int64_t>();
  for (const auto& [tid, ns] : per_tid) {
    EXPECT_EQ(rows[tid], ns) << "tid " << tid << " of " << dir;
  }
  for (const auto& [tid, ns] : rows)
    if (!per_tid.contains(tid)) {
      EXPECT_EQ(ns, 0) << "tid " << tid << " runs on no CPU";
    }
}

TEST(KernelCpus, SuiteTraceAddsUp) { ExpectCpuTimeAddsUp(KernelTraceDir()); }

class KernelCpusTestdata : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { MACROSCOPE_NEEDS_SHARED_TESTDATA(); }
};

TEST_P(KernelCpusTestdata, AddsUp) { ExpectCpuTimeAddsUp(SharedTrace(GetParam())); }

// Every kernel trace of the shared data: LTTng (bug446190,
// flipping-endianness) and perf's CTF conversion (perf-taskset2).
INSTANTIATE_TEST_SUITE_P(Traces, KernelCpusTestdata,
                         ::testing::Values("ctf/bug446190", "ctf/flipping-endianness", "ctf/perf-taskset2"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string n = info.param.substr(4);
                           for (char& c : n)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

}  // namespace
}  // namespace macroscope::kernel::testing
