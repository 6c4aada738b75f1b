// `macroscope kernel processes` on real LTTng kernel traces (the shared
// test data: bug446190, flipping-endianness; skipped without it) and on the
// suite's own kernel-shaped trace, against babeltrace2's text output:
// running ns per thread computed here from sched_switch lines (a dead task
// runs until its CPU's next switch), the process tree from the fork lines,
// names from the exec lines; and the model: no thread state after its end.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "kernel_test_support.h"

namespace macroscope::kernel::testing {
namespace {

// The rows of `kernel processes --format json`.
nlohmann::json Processes(const std::string& dir, const std::string& options = "") {
  CommandResult r = Macroscope("kernel processes --format json " + options + " " + Quote(dir));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::array();
}

// Running ns per tid (incarnations of a tid summed) from the rows.
std::map<int64_t, int64_t> RunningOfRows(const nlohmann::json& rows) {
  std::map<int64_t, int64_t> running;
  for (const nlohmann::json& r : rows) running[r["tid"].get<int64_t>()] += r["running_ns"].get<int64_t>();
  return running;
}

void ExpectAgreesWithBabeltrace2(const std::string& dir) {
  std::vector<KernelEvent> events = KernelBabeltraceEvents(dir);
  ASSERT_FALSE(events.empty());
  const int64_t origin = events.front().ns;
  nlohmann::json rows = Processes(dir);
  ASSERT_GT(rows.size(), 0u);

  // Running time per thread, to the nanosecond; every switched-in thread has a row.
  std::map<int64_t, int64_t> expected = RunningNsPerThread(events);
  std::map<int64_t, int64_t> got = RunningOfRows(rows);
  for (const auto& [tid, ns] : expected) {
    EXPECT_TRUE(got.contains(tid)) << "no row for tid " << tid;
    EXPECT_EQ(got[tid], ns) << "tid " << tid;
  }
  for (const auto& [tid, ns] : got)
    if (!expected.contains(tid)) {
      EXPECT_EQ(ns, 0) << "tid " << tid << " never switched in";
    }

  // The states of a thread add up: running = user + kernel + interrupted + exiting;
  // its life holds all its states; sorted by running time.
  int64_t previous = INT64_MAX;
  for (const nlohmann::json& r : rows) {
    int64_t running = r["running_ns"];
    EXPECT_EQ(running, r["user_ns"].get<int64_t>() + r["kernel_ns"].get<int64_t>() +
                           r["interrupted_ns"].get<int64_t>() + r["exiting_ns"].get<int64_t>());
    EXPECT_LE(running, previous);
    previous = running;
    EXPECT_LE(r["start"].get<int64_t>(), r["end"].get<int64_t>()) << r.dump();
  }

  // Exits: the row ends at the dead task's last switch; forks: the child's
  // process and parent; execs: the name after it is the file's.
  const std::map<size_t, int64_t> exit_ends = EndsOfExits(events);
  for (size_t i = 0; i < events.size(); ++i) {
    const KernelEvent& e = events[i];
    auto row_of = [&](int64_t tid, int64_t at) -> const nlohmann::json* {
      const nlohmann::json* found = nullptr;  // the incarnation alive at `at`
      for (const nlohmann::json& r : rows)
        if (r["tid"] == tid && r["start"].get<int64_t>() <= at && at <= r["end"].get<int64_t>()) found = &r;
      return found;
    };
    int64_t at = e.ns - origin;
    if (e.name == "sched_process_exit") {
      const nlohmann::json* r = row_of(e.Int("tid"), at);
      ASSERT_NE(r, nullptr) << "exit of " << e.Int("tid");
      if (auto end = exit_ends.find(i); end != exit_ends.end()) {
        EXPECT_EQ((*r)["end"], end->second - origin) << "exit of " << e.Int("tid") << " at " << at;
      }
    } else if (e.name == "sched_process_fork") {
      const nlohmann::json* r = row_of(e.Int("child_tid"), at);
      ASSERT_NE(r, nullptr) << "fork of " << e.Int("child_tid");
      EXPECT_EQ((*r)["start"], at);
      EXPECT_EQ((*r)["pid"], e.Int("child_pid"));
      if (e.Int("child_pid") == e.Int("child_tid")) {
        EXPECT_EQ((*r)["ppid"], e.Int("parent_pid"));
      }
    } else if (e.name == "sched_process_exec") {
      const nlohmann::json* r = row_of(e.Int("tid"), at);
      ASSERT_NE(r, nullptr) << "exec of " << e.Int("tid");
      std::string file = e.fields.at("filename");
      std::string base = file.substr(file.rfind('/') + 1);
      EXPECT_EQ((*r)["name"], base);
      std::string names = (*r)["names"];
      EXPECT_EQ(names.substr(names.size() - base.size()), base);
    } else if (e.name == "lttng_statedump_process_state" && e.Int("tid") != 0) {
      const nlohmann::json* r = row_of(e.Int("tid"), at);
      ASSERT_NE(r, nullptr) << "statedump of " << e.Int("tid");
      EXPECT_EQ((*r)["pid"], e.Int("pid"));
      EXPECT_EQ((*r)["ppid"], e.Int("ppid"));
    }
  }
}

// No thread has a state after its exit: in the model, every state of a
// thread container lies within the container's life.
void ExpectNoStateAfterExit(const std::string& dir) {
  Trace trace;
  ctf::ReadCtf({dir}, trace);
  TypeId thread = TypeByAlias(trace, "ctf.thread");
  size_t threads = 0;
  for (const Container& c : trace.containers()) {
    if (c.type != thread) continue;
    ++threads;
    for (auto [type, store] : c.stores) {
      const EntityStore& s = trace.store(store);
      for (size_t i = 0; i < s.size(); ++i) {
        EXPECT_GE(s.start[i], c.start) << trace.Str(c.name);
        EXPECT_LE(s.End(i), c.end) << trace.Str(c.name) << " " << trace.Str(s.value[i]);
      }
    }
  }
  EXPECT_GT(threads, 0u);
}

class KernelProcessesTestdata : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { MACROSCOPE_NEEDS_SHARED_TESTDATA(); }
};

TEST_P(KernelProcessesTestdata, RunningTimeAndTreeAgreeWithBabeltrace2) {
  ExpectAgreesWithBabeltrace2(SharedTrace(GetParam()));
}

TEST_P(KernelProcessesTestdata, NoStateAfterExit) { ExpectNoStateAfterExit(SharedTrace(GetParam())); }

INSTANTIATE_TEST_SUITE_P(Traces, KernelProcessesTestdata,
                         ::testing::Values("ctf/bug446190", "ctf/flipping-endianness"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string n = info.param.substr(4);
                           for (char& c : n)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

// bug446190: sh (407) forks 525, which execs /bin/ls and exits; `--subtree
// 407` keeps sh and its children; CSV and text have the same rows.
TEST(KernelProcesses, SubtreeAndFormatsOnBug446190) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const std::string dir = SharedTrace("ctf/bug446190");
  nlohmann::json all = Processes(dir);
  nlohmann::json sub = Processes(dir, "--subtree 407");
  std::set<int64_t> tids;
  for (const nlohmann::json& r : sub) tids.insert(r["tid"].get<int64_t>());
  EXPECT_TRUE(tids.contains(407));
  EXPECT_TRUE(tids.contains(525));
  EXPECT_TRUE(tids.contains(526));
  for (const nlohmann::json& r : sub)
    EXPECT_TRUE(r["pid"] == 407 || r["ppid"] == 407 || tids.contains(r["ppid"].get<int64_t>())) << r.dump();
  for (const nlohmann::json& r : all)
    if (r["tid"] == 525) {
      EXPECT_EQ(r["names"], "sh|ls");
    }

  CommandResult csv = Macroscope("kernel processes --format csv " + Quote(dir));
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.substr(0, csv.out.find('\n')),
            "tid,pid,ppid,name,names,start,end,running_ns,user_ns,kernel_ns,interrupted_ns,exiting_ns,waiting_ns,"
            "runnable_ns,syscalls");
  EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), static_cast<long>(all.size()) + 1);
  CommandResult text = Macroscope("kernel processes " + Quote(dir));
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(std::count(text.out.begin(), text.out.end(), '\n'), static_cast<long>(all.size()) + 1);
}

TEST(KernelProcesses, BadInputIsAUserError) {
  CommandResult r = Macroscope("kernel processes /nonexistent/trace");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("/nonexistent/trace"), std::string::npos) << r.err;
}

// The suite's own kernel-shaped trace: babeltrace2's running time and the
// scenario's ground truth, thread by thread.
TEST(KernelProcesses, SuiteTraceAgreesWithBabeltrace2AndGroundTruth) {
  const std::string dir = KernelTraceDir();
  ExpectAgreesWithBabeltrace2(dir);
  ExpectNoStateAfterExit(dir);
  nlohmann::json rows = Processes(dir);
  for (const nlohmann::json& truth : KernelGroundTruth().at("threads")) {
    const nlohmann::json* row = nullptr;
    for (const nlohmann::json& r : rows)
      if (r["tid"] == truth["tid"] && r["start"] == truth["start"]) row = &r;
    ASSERT_NE(row, nullptr) << truth.dump();
    for (const char* column : {"pid", "end", "running_ns", "user_ns", "kernel_ns", "interrupted_ns", "exiting_ns",
                               "waiting_ns", "runnable_ns", "syscalls", "name"})
      EXPECT_EQ((*row)[column], truth[column]) << "tid " << truth["tid"] << " " << column;
  }
}

}  // namespace
}  // namespace macroscope::kernel::testing
