// The suite's kernel-shaped trace (kernel_trace_fixture/, written by barectf
// at test time) proven before the kernel analyses use it: babeltrace2 reads
// it as an LTTng kernel trace, its events are the scenario's, and running
// time per thread computed from babeltrace2's text equals the scenario's
// ground truth. Also `macroscope info` reads it.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "kernel_test_support.h"

namespace macroscope::kernel {
namespace {

using namespace testing;

TEST(KernelTrace, Babeltrace2ReadsItAsAKernelTraceWithOneStreamPerCpu) {
  // What the CTF reader needs to call it a kernel trace (docs/ctf.md): the
  // environment's domain = "kernel" and a cpu_id on every event.
  CommandResult r = RunCommand(std::string(BABELTRACE2_COMMAND) + " --fields=trace:domain --names=all " +
                               Quote(KernelTraceDir()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  std::set<std::string> cpus;
  size_t n = 0;
  while (std::getline(lines, line)) {
    ++n;
    EXPECT_NE(line.find("trace:domain = kernel,"), std::string::npos) << line;
    size_t cpu = line.find("stream.packet.context = { cpu_id = ");
    ASSERT_NE(cpu, std::string::npos) << line;
    cpus.insert(line.substr(cpu + 35, line.find(' ', cpu + 35) - cpu - 35));
  }
  EXPECT_EQ(n, KernelGroundTruth().at("events").get<size_t>());
  EXPECT_EQ(cpus, (std::set<std::string>{"0", "1"}));
  // The rest of an LTTng kernel environment, as babeltrace2 reads it.
  CommandResult meta = RunCommand(std::string(BABELTRACE2_COMMAND) + " --output-format=ctf-metadata " +
                                  Quote(KernelTraceDir()));
  ASSERT_EQ(meta.exit_code, 0) << meta.err;
  EXPECT_NE(meta.out.find("tracer_name = \"lttng-modules\";"), std::string::npos);
  EXPECT_NE(meta.out.find("hostname = \"kernel-fixture\";"), std::string::npos);
}

TEST(KernelTrace, EventsAndCountsPerNameAreTheScenarios) {
  const nlohmann::json& truth = KernelGroundTruth();
  std::vector<BabeltraceEvent> events = BabeltraceEvents(KernelTraceDir());
  EXPECT_EQ(events.size(), truth.at("events").get<size_t>());
  EXPECT_EQ(BabeltraceCount(KernelTraceDir()), truth.at("events").get<uint64_t>());
  std::map<std::string, uint64_t, std::less<>> expected;
  for (const auto& [name, count] : truth.at("per_name").items()) expected[name] = count.get<uint64_t>();
  EXPECT_EQ(CountsPerName(events), expected);
  // Exact times: the first and last events where the script put them.
  ASSERT_FALSE(events.empty());
  int64_t first = truth.at("first_event_clock_ns").get<int64_t>();
  EXPECT_EQ(events.front().ns, first);
  EXPECT_EQ(events.back().ns - first, truth.at("last_event_ns").get<int64_t>());
}

TEST(KernelTrace, RunningNsPerThreadFromBabeltrace2EqualsTheGroundTruth) {
  const nlohmann::json& truth = KernelGroundTruth();
  std::map<int64_t, int64_t> running = RunningNsPerThread(KernelBabeltraceEvents(KernelTraceDir()));
  std::set<int64_t> truth_tids;
  int64_t total = 0;
  for (const nlohmann::json& t : truth.at("threads")) {
    int64_t tid = t.at("tid").get<int64_t>();
    truth_tids.insert(tid);
    auto it = running.find(tid);
    EXPECT_EQ(it == running.end() ? 0 : it->second, t.at("running_ns").get<int64_t>()) << "tid " << tid;
    EXPECT_EQ(t.at("running_ns").get<int64_t>(), t.at("user_ns").get<int64_t>() + t.at("kernel_ns").get<int64_t>() +
                                                     t.at("interrupted_ns").get<int64_t>() +
                                                     t.at("exiting_ns").get<int64_t>())
        << "tid " << tid;
    total += t.at("running_ns").get<int64_t>();
  }
  for (const auto& [tid, ns] : running) EXPECT_TRUE(truth_tids.count(tid)) << "tid " << tid << " not in the truth";
  EXPECT_GT(total, 0);
  // Not a trivial scenario: every worker of bench ran, blocked or was
  // preempted, and one was interrupted.
  EXPECT_GT(TruthThread(104).at("interrupted_ns").get<int64_t>(), 0);
  EXPECT_GT(TruthThread(103).at("waiting_ns").get<int64_t>(), 0);
  EXPECT_GT(TruthThread(102).at("runnable_ns").get<int64_t>(), 0);
  EXPECT_EQ(TruthThread(101).at("names"), (nlohmann::json{"bash", "bench"}));
  EXPECT_EQ(TruthThread(105).at("pid").get<int64_t>(), 102);
}

TEST(KernelTrace, ForksAndExitsAreWhereTheGroundTruthStartsAndEndsThreads) {
  const nlohmann::json& truth = KernelGroundTruth();
  int64_t first = truth.at("first_event_clock_ns").get<int64_t>();
  size_t forks = 0, exits = 0;
  const std::vector<KernelEvent> events = KernelBabeltraceEvents(KernelTraceDir());
  const std::map<size_t, int64_t> exit_ends = EndsOfExits(events);
  for (size_t i = 0; i < events.size(); ++i) {
    const KernelEvent& e = events[i];
    if (e.name == "sched_process_fork") {
      ++forks;
      nlohmann::json child = TruthThread(e.Int("child_tid"));
      ASSERT_FALSE(child.is_null()) << e.Int("child_tid");
      EXPECT_EQ(child.at("start").get<int64_t>(), e.ns - first);
      EXPECT_EQ(child.at("pid").get<int64_t>(), e.Int("child_pid"));
      EXPECT_EQ(child.at("names").front(), e.fields.at("child_comm"));
    }
    if (e.name == "sched_process_exit") {
      ++exits;
      nlohmann::json thread = TruthThread(e.Int("tid"));
      ASSERT_FALSE(thread.is_null()) << e.Int("tid");
      EXPECT_EQ(thread.at("end").get<int64_t>(), exit_ends.at(i) - first);  // the dead task's last switch
      EXPECT_TRUE(thread.at("exited").get<bool>());
    }
  }
  EXPECT_EQ(forks, 5u);
  EXPECT_EQ(exits, 5u);
}

TEST(KernelTrace, MacroscopeInfoReadsItAsAKernelTrace) {
  CommandResult r = Info(KernelTraceDir());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json& truth = KernelGroundTruth();
  nlohmann::json info = nlohmann::json::parse(r.out);
  EXPECT_EQ(info.at("events").get<uint64_t>(), truth.at("events").get<uint64_t>());
  EXPECT_EQ(info.at("start").get<double>(), 0.0);
  EXPECT_EQ(info.at("end").get<double>(), truth.at("last_event_ns").get<double>());
  EXPECT_EQ(info.at("time").at("clock_start"), "1700000002.500000000");
  // A kernel trace to the CTF reader: CPUs, and a thread per tid but 0.
  std::map<std::string, int64_t> containers;
  for (const nlohmann::json& type : info.at("types"))
    if (type.at("kind") == "container") containers[type.at("alias")] = type.at("containers").get<int64_t>();
  std::set<int64_t> pids;
  for (const nlohmann::json& t : truth.at("threads")) pids.insert(t.at("pid").get<int64_t>());
  EXPECT_EQ(containers["ctf.cpu"], 2);
  EXPECT_EQ(containers["ctf.thread"], static_cast<int64_t>(truth.at("threads").size()));
  EXPECT_EQ(containers["ctf.process"], static_cast<int64_t>(pids.size()));
}

}  // namespace
}  // namespace macroscope::kernel
