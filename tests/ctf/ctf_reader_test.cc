// The CTF reader against babeltrace2 and expected-counts.tsv on every CTF
// trace of the shared test data, plus the states of kernel traces.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "ctf_test_support.h"
#include "formats/ctf/ctf_reader.h"
#include "model/trace.h"

namespace macroscope::ctf {
namespace {

using testing::BabeltraceCount;
using testing::ExpectedCounts;
using testing::TestdataDir;

TypeId TypeByAlias(const Trace& trace, std::string_view alias) {
  for (TypeId id = 0; id < trace.types().size(); ++id)
    if (trace.Str(trace.type(id).alias) == alias) return id;
  return kNone;
}

// Every state of `type` over all containers: values, and nesting checked.
std::vector<std::string> StateValues(const Trace& trace, TypeId type) {
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

size_t CountWithPrefix(const std::vector<std::string>& values, std::string_view prefix) {
  return static_cast<size_t>(std::count_if(values.begin(), values.end(),
                                           [&](const std::string& v) { return v.rfind(prefix, 0) == 0; }));
}

class CtfTestdata : public ::testing::TestWithParam<std::string> {};

// Counts agree with expected-counts.tsv and with `babeltrace2 DIR | wc -l`.
TEST_P(CtfTestdata, CountsAgreeWithBabeltrace2) {
  const std::string name = GetParam();
  const std::string dir = TestdataDir() + "/" + name;
  auto expected_all = ExpectedCounts();
  ASSERT_TRUE(expected_all.count(name)) << name << " has no row in expected-counts.tsv";
  const testing::Expected& expected = expected_all.at(name);

  Trace trace;
  CtfReadStats stats = ReadCtf({dir}, trace);
  EXPECT_EQ(stats.events, expected.events);
  EXPECT_EQ(stats.events, BabeltraceCount(dir));
  EXPECT_EQ(stats.per_name, expected.per_name);
  uint64_t sum = 0;
  for (const auto& [event, count] : stats.per_name) sum += count;
  EXPECT_EQ(sum, stats.events);

  EXPECT_LT(trace.start_time(), trace.end_time());
  EXPECT_GT(trace.containers().size(), 2u);
  // Every event message is a punctual event or a state change: at least as
  // many state boundaries plus events as messages that were not skipped.
  size_t entities = trace.CountEntities(TypeKind::kEvent) + trace.CountEntities(TypeKind::kState);
  EXPECT_GT(entities, 0u);
}

INSTANTIATE_TEST_SUITE_P(Traces, CtfTestdata,
                         ::testing::Values("ctf/mpi_allreduce", "ctf/mpi_ssend_irecv", "ctf/flipping-endianness",
                                           "ctf/bug446190", "ctf/cyg-profile", "ctf/cyg-profile/glxgears-cyg-profile",
                                           "ctf/cyg-profile/glxgears-cyg-profile-fast", "ctf/perf-taskset2"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string n = info.param.substr(4);
                           for (char& c : n)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

// A non-kernel trace has no CPU states: every event is punctual (barectf).
TEST(CtfReader, BarectfEventsArePunctualWithUserFields) {
  Trace trace;
  CtfReadStats stats = ReadCtf({TestdataDir() + "/ctf/mpi_allreduce"}, trace);
  EXPECT_EQ(trace.CountEntities(TypeKind::kEvent), stats.events);
  EXPECT_EQ(trace.CountEntities(TypeKind::kState), 0u);
  // One stream container per stream file (8 ranks and global_def).
  TypeId stream = TypeByAlias(trace, "ctf.stream");
  ASSERT_NE(stream, kNone);
  size_t streams = 0;
  bool fields = false;
  for (const Container& c : trace.containers()) streams += c.type == stream;
  for (const EntityStore& s : trace.stores())
    if (s.kind == TypeKind::kEvent && !s.extras.empty()) fields = true;
  EXPECT_EQ(streams, 9u);
  EXPECT_TRUE(fields);
}

// bug446190: LTTng kernel trace, 4 CPUs: CPU, thread, syscall and
// interrupt states exist and nest.
TEST(CtfReader, KernelStatesOfBug446190) {
  Trace trace;
  CtfReadStats stats = ReadCtf({TestdataDir() + "/ctf/bug446190"}, trace);
  TypeId cpu = TypeByAlias(trace, "ctf.cpu");
  ASSERT_NE(cpu, kNone);
  size_t cpus = 0;
  for (const Container& c : trace.containers()) cpus += c.type == cpu;
  EXPECT_EQ(cpus, 4u);

  std::vector<std::string> running = StateValues(trace, TypeByAlias(trace, "ctf.cpu.running"));
  EXPECT_EQ(running.size(), stats.per_name.at("sched_switch"));
  EXPECT_GT(std::count(running.begin(), running.end(), "idle"), 0);

  std::vector<std::string> interrupts = StateValues(trace, TypeByAlias(trace, "ctf.cpu.interrupt"));
  EXPECT_GT(CountWithPrefix(interrupts, "irq:"), 0u);
  EXPECT_GT(CountWithPrefix(interrupts, "softirq:"), 0u);
  EXPECT_LE(CountWithPrefix(interrupts, "irq:"), stats.per_name.at("irq_handler_entry"));
  EXPECT_EQ(CountWithPrefix(interrupts, "softirq:"), stats.per_name.at("softirq_entry"));

  std::vector<std::string> threads = StateValues(trace, TypeByAlias(trace, "ctf.thread.state"));
  EXPECT_GT(std::count(threads.begin(), threads.end(), "running"), 0);
  for (const std::string& v : threads) EXPECT_TRUE(v == "running" || v == "runnable" || v == "waiting") << v;

  std::vector<std::string> syscalls = StateValues(trace, TypeByAlias(trace, "ctf.thread.syscall"));
  EXPECT_GT(CountWithPrefix(syscalls, "syscall:"), 0u);
  std::vector<std::string> cpu_syscalls = StateValues(trace, TypeByAlias(trace, "ctf.cpu.syscall"));
  // Pushes: one per entry event; exits pop them or are counted as unmatched.
  uint64_t entries = 0;
  for (const auto& [name, count] : stats.per_name)
    if (name.rfind("sys_", 0) == 0 || name.rfind("syscall_entry_", 0) == 0) entries += count;
  EXPECT_EQ(syscalls.size() + cpu_syscalls.size(), entries);
  EXPECT_EQ(entries + stats.unmatched_exits >= stats.per_name.at("exit_syscall"), true);

  // Every message that is no state change is a punctual event.
  uint64_t state_changes = 0;
  for (const auto& [name, count] : stats.per_name)
    if (name == "sched_switch" || name.rfind("sys_", 0) == 0 || name.rfind("syscall_", 0) == 0 ||
        name == "exit_syscall" || name.rfind("irq_handler_", 0) == 0 || name == "softirq_entry" ||
        name == "softirq_exit")
      state_changes += count;
  EXPECT_EQ(trace.CountEntities(TypeKind::kEvent) + state_changes, stats.events);
}

// flipping-endianness: big-endian LTTng kernel trace with interrupts.
TEST(CtfReader, BigEndianKernelTrace) {
  Trace trace;
  CtfReadStats stats = ReadCtf({TestdataDir() + "/ctf/flipping-endianness"}, trace);
  std::vector<std::string> interrupts = StateValues(trace, TypeByAlias(trace, "ctf.cpu.interrupt"));
  EXPECT_EQ(interrupts.size(), stats.per_name.at("irq_handler_entry"));
  EXPECT_EQ(StateValues(trace, TypeByAlias(trace, "ctf.cpu.running")).size(), stats.per_name.at("sched_switch"));
  // lttng_statedump_process_state names the processes.
  TypeId process = TypeByAlias(trace, "ctf.process");
  ASSERT_NE(process, kNone);
  bool systemd = false;
  for (const Container& c : trace.containers())
    if (c.type == process && trace.Str(c.name) == "systemd 1") systemd = true;
  EXPECT_TRUE(systemd);
}

// perf-taskset2: perf's "sched:sched_switch" with perf_cpu in the context.
TEST(CtfReader, PerfTraceHasCpuStates) {
  Trace trace;
  CtfReadStats stats = ReadCtf({TestdataDir() + "/ctf/perf-taskset2"}, trace);
  EXPECT_EQ(StateValues(trace, TypeByAlias(trace, "ctf.cpu.running")).size(),
            stats.per_name.at("sched:sched_switch"));
  EXPECT_GT(StateValues(trace, TypeByAlias(trace, "ctf.thread.state")).size(), 0u);
}

// cyg-profile: two LTTng-UST traces in one folder; function entries and
// exits become nested states per thread (vtid).
TEST(CtfReader, CygProfileFunctionsPerThread) {
  Trace trace;
  CtfReadStats stats = ReadCtf({TestdataDir() + "/ctf/cyg-profile"}, trace);
  EXPECT_EQ(stats.traces, 2u);
  TypeId root = TypeByAlias(trace, "ctf.trace");
  size_t roots = 0;
  for (const Container& c : trace.containers()) roots += c.type == root;
  EXPECT_EQ(roots, 2u);
  std::vector<std::string> functions = StateValues(trace, TypeByAlias(trace, "ctf.thread.function"));
  EXPECT_EQ(functions.size(), stats.per_name.at("lttng_ust_cyg_profile:func_entry") +
                                  stats.per_name.at("lttng_ust_cyg_profile_fast:func_entry"));
  EXPECT_EQ(CountWithPrefix(functions, "0x"), functions.size());
  EXPECT_EQ(stats.unmatched_exits, 0u);
}

// A trace re-written by babeltrace2's own CTF writer (sink.ctf.fs) reads
// with the same counts as the original.
TEST(CtfReader, TraceWrittenByBabeltrace2) {
  for (std::string name : {"ctf/flipping-endianness", "ctf/cyg-profile"}) {
    testing::TempDir out;
    std::string original = TestdataDir() + "/" + name;
    testing::Run r = testing::RunCommand(std::string(BABELTRACE2_COMMAND) + " " + testing::Quote(original) +
                                         " --component=sink.ctf.fs --params=" +
                                         testing::Quote("path=\"" + out.path.string() + "\""));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    Trace original_trace, rewritten_trace;
    CtfReadStats a = ReadCtf({original}, original_trace);
    CtfReadStats b = ReadCtf({out.path.string()}, rewritten_trace);
    EXPECT_EQ(a.events, b.events) << name;
    EXPECT_EQ(a.per_name, b.per_name) << name;
    EXPECT_EQ(a.traces, b.traces) << name;
    EXPECT_EQ(b.events, BabeltraceCount(out.path.string())) << name;
    EXPECT_EQ(original_trace.CountEntities(TypeKind::kState), rewritten_trace.CountEntities(TypeKind::kState));
    EXPECT_EQ(original_trace.CountEntities(TypeKind::kEvent), rewritten_trace.CountEntities(TypeKind::kEvent));
  }
}

}  // namespace
}  // namespace macroscope::ctf
