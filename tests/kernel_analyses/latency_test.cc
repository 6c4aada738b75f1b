// Kernel latencies (`kernel latency`, analysis/kernel/latency.h): the
// statistics by their definitions on small lists; on ../shared/testdata's
// LTTng kernel trace bug446190 (skipped without it) every row of every
// kind against the latencies the test computes from babeltrace2's text
// (tests/kernel/latency_reference.h), and the histogram against its
// definition, and its store's rows are the trace's; bad input refused
// with one line and exit 1.
#include "analysis/kernel/latency.h"

#include <nlohmann/json.hpp>

#include "../kernel/kernel_test_support.h"
#include "../kernel/latency_reference.h"
#include "ctf_test_support.h"

namespace macroscope::kernel_analyses::testing {
namespace {

using namespace ::macroscope::testing;
using analysis::kernel::LatencyStatistics;
using analysis::kernel::Summarize;

TEST(KernelLatencyStatistics, NearestRankAndExactMoments) {
  // 1..10: ranks ceil(0.5 * 10) = 5, ceil(0.9 * 10) = 9, ceil(0.99 * 10) = 10.
  const LatencyStatistics s = Summarize({1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  EXPECT_EQ(s.count, 10);
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 10);
  EXPECT_EQ(s.p50, 5);
  EXPECT_EQ(s.p90, 9);
  EXPECT_EQ(s.p99, 10);
  EXPECT_EQ(s.mean, 5.5);
  EXPECT_EQ(s.stddev, std::sqrt(8.25));  // population: sum (x - 5.5)^2 / 10 = 82.5 / 10
  // One value: every percentile is it; no spread.
  const LatencyStatistics one = Summarize({7});
  EXPECT_EQ(one.p50, 7);
  EXPECT_EQ(one.p99, 7);
  EXPECT_EQ(one.stddev, 0);
  // Large durations stay exact: 2^52 + 1 and 2^52 + 3.
  const int64_t big = int64_t{1} << 52;
  const LatencyStatistics wide = Summarize({big + 1, big + 3});
  EXPECT_EQ(wide.mean, static_cast<double>(big + 2));
  EXPECT_EQ(wide.stddev, 1.0);
  EXPECT_EQ(wide.p50, big + 1);
}

nlohmann::json Latency(const std::string& trace, const std::string& options) {
  CommandResult r = Macroscope("kernel latency " + Quote(trace) + " " + options + " --format json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::array();
}

std::vector<LatencyEvent> FromBabeltrace(const std::string& dir) {
  std::vector<LatencyEvent> events;
  for (const kernel::testing::KernelEvent& k : kernel::testing::KernelBabeltraceEvents(dir)) {
    LatencyEvent& e = events.emplace_back();
    e.ns = k.ns;
    e.cpu = k.cpu;
    e.base = k.base;
    e.fields.insert(k.fields.begin(), k.fields.end());
  }
  return events;
}

TEST(KernelLatencyLttng, EveryRowIsBabeltrace2s) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const std::string dir = ctf::testing::SharedTrace("ctf/bug446190");
  const ReferenceLatencies expected = ComputeLatencies(FromBabeltrace(dir), false);
  ASSERT_FALSE(expected.syscall.empty());
  ASSERT_FALSE(expected.irq.empty());
  ASSERT_FALSE(expected.sched.empty());
  EXPECT_FALSE(expected.used_waking);  // LTTng 2.5's kernel has sched_wakeup only
  ExpectLatencyRows(Latency(dir, "--kind syscall"), expected.syscall, "syscall");
  ExpectLatencyRows(Latency(dir, "--kind irq"), expected.irq, "irq");
  ExpectLatencyRows(Latency(dir, "--kind sched"), expected.sched, "sched");
}

// The histogram by its definition: bins of width ceil((max - min + 1) / N)
// from the least duration, every duration in one.
void ExpectHistogram(const nlohmann::json& bins, std::vector<int64_t> d, int64_t n) {
  ASSERT_EQ(static_cast<int64_t>(bins.size()), n);
  std::sort(d.begin(), d.end());
  const int64_t width = (d.back() - d.front() + n) / n;
  int64_t total = 0;
  for (int64_t b = 0; b < n; ++b) {
    const nlohmann::json& bin = bins[static_cast<size_t>(b)];
    const int64_t start = d.front() + b * width, end = start + width;
    EXPECT_EQ(bin["bin_start"], start);
    EXPECT_EQ(bin["bin_end"], end);
    EXPECT_EQ(bin["count"], std::count_if(d.begin(), d.end(), [&](int64_t x) { return x >= start && x < end; }));
    total += bin["count"].get<int64_t>();
  }
  EXPECT_EQ(total, static_cast<int64_t>(d.size()));
}

TEST(KernelLatencyLttng, HistogramOfAllAndOfOneName) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const std::string dir = ctf::testing::SharedTrace("ctf/bug446190");
  const ReferenceLatencies expected = ComputeLatencies(FromBabeltrace(dir), false);
  std::vector<int64_t> all, ioctl;
  for (const auto& [key, d] : expected.syscall) {
    all.insert(all.end(), d.begin(), d.end());
    if (std::get<1>(key) == "ioctl") ioctl = d;
  }
  ASSERT_FALSE(ioctl.empty());
  ExpectHistogram(Latency(dir, "--kind syscall --histogram"), all, 20);
  ExpectHistogram(Latency(dir, "--kind syscall --histogram --bins 7 --name ioctl"), ioctl, 7);
}

// A store keeps a state's start and end fields as one list: its rows are
// the trace's (the exit told apart by its fields all the same).
TEST(KernelLatencyLttng, AStoreGivesTheTracesRows) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const std::string dir = ctf::testing::SharedTrace("ctf/bug446190");
  TempDir tmp;
  const std::string store = tmp.path() + "/bug446190.mstore";
  CommandResult imported = Macroscope("import " + Quote(dir) + " -o " + Quote(store));
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  for (const char* kind : {"syscall", "irq", "sched"}) {
    const nlohmann::json rows = Latency(dir, std::string("--kind ") + kind);
    EXPECT_GT(rows.size(), 5u) << kind;
    EXPECT_EQ(Latency(store, std::string("--kind ") + kind), rows) << kind;
  }
}

TEST(KernelLatencyBadInput, UnknownKindNonKernelTraceBadBinsAndName) {
  auto refused = [](const std::string& args, const std::string& says) {
    CommandResult r = Macroscope("kernel latency " + args);
    EXPECT_EQ(r.exit_code, 1) << args;
    EXPECT_TRUE(r.out.empty()) << args;
    EXPECT_NE(r.err.find(says), std::string::npos) << args << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  };
  const std::string example = Quote(std::string(MACROSCOPE_SOURCE_DIR) + "/examples/synthetic.trace");
  refused(example + " --kind disk", "--kind: syscall, irq or sched, not 'disk'");
  refused(example + " --kind syscall", "synthetic.trace: not a kernel trace: it has no CPU");
  refused(example + " --kind irq --histogram --bins 0", "--bins: from 1 to 100000, not 0");
  refused(example + " --kind irq --bins 5", "--bins and --name go with --histogram");
  if (HaveSharedTestData())
    refused(Quote(ctf::testing::SharedTrace("ctf/bug446190")) + " --kind syscall --histogram --name nosuchcall",
            "name: no syscall row named 'nosuchcall'");
}

}  // namespace
}  // namespace macroscope::kernel_analyses::testing
