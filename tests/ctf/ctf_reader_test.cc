// The CTF reader against babeltrace2 and expected-counts.tsv on every CTF
// trace of the shared test data (skipped without it), plus the states of
// kernel traces; and traces babeltrace2's CTF writer makes at test time.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "ctf_test_support.h"
#include "formats/ctf/ctf_reader.h"
#include "model/time_base.h"
#include "model/trace.h"

namespace macroscope::ctf {
namespace {

using testing::BabeltraceCount;
using testing::CountWithPrefix;
using testing::SharedTrace;
using testing::StateValues;
using testing::TypeByAlias;

class CtfTestdata : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { MACROSCOPE_NEEDS_SHARED_TESTDATA(); }
};

// Counts agree with expected-counts.tsv and with `babeltrace2 DIR | wc -l`.
TEST_P(CtfTestdata, CountsAgreeWithBabeltrace2) {
  const std::string name = GetParam();
  const std::string dir = SharedTrace(name);
  const testing::Expected expected = testing::ExpectedCtfCounts(name);
  ASSERT_GT(expected.events, 0u) << name << " has no total in expected-counts.tsv";

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
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  Trace trace;
  CtfReadStats stats = ReadCtf({SharedTrace("ctf/mpi_allreduce")}, trace);
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
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  Trace trace;
  CtfReadStats stats = ReadCtf({SharedTrace("ctf/bug446190")}, trace);
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

  // One exclusive state per thread: on a CPU user, kernel (in a syscall),
  // interrupted or exiting (after sched_process_exit, until it switches out
  // dead); off it waiting or runnable (docs/ctf.md).
  std::vector<std::string> threads = StateValues(trace, TypeByAlias(trace, "ctf.thread.state"));
  for (std::string_view v : {"user", "kernel", "interrupted", "waiting", "runnable"})
    EXPECT_GT(std::count(threads.begin(), threads.end(), v), 0) << v;
  for (const std::string& v : threads)
    EXPECT_TRUE(v == "user" || v == "kernel" || v == "interrupted" || v == "exiting" || v == "runnable" ||
                v == "waiting")
        << v;

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
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  Trace trace;
  CtfReadStats stats = ReadCtf({SharedTrace("ctf/flipping-endianness")}, trace);
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
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  Trace trace;
  CtfReadStats stats = ReadCtf({SharedTrace("ctf/perf-taskset2")}, trace);
  EXPECT_EQ(StateValues(trace, TypeByAlias(trace, "ctf.cpu.running")).size(),
            stats.per_name.at("sched:sched_switch"));
  EXPECT_GT(StateValues(trace, TypeByAlias(trace, "ctf.thread.state")).size(), 0u);
}

// cyg-profile: two LTTng-UST traces in one folder; function entries and
// exits become nested states per thread (vtid).
TEST(CtfReader, CygProfileFunctionsPerThread) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  Trace trace;
  CtfReadStats stats = ReadCtf({SharedTrace("ctf/cyg-profile")}, trace);
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
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  for (std::string name : {"ctf/flipping-endianness", "ctf/cyg-profile"}) {
    testing::TempDir out;
    std::string original = SharedTrace(name);
    testing::CommandResult r = testing::WriteCtfWithBabeltrace2(testing::Quote(original), out.path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    Trace original_trace, rewritten_trace;
    CtfReadStats a = ReadCtf({original}, original_trace);
    CtfReadStats b = ReadCtf({out.path()}, rewritten_trace);
    EXPECT_EQ(a.events, b.events) << name;
    EXPECT_EQ(a.per_name, b.per_name) << name;
    EXPECT_EQ(a.traces, b.traces) << name;
    EXPECT_EQ(b.events, BabeltraceCount(out.path())) << name;
    EXPECT_EQ(original_trace.CountEntities(TypeKind::kState), rewritten_trace.CountEntities(TypeKind::kState));
    EXPECT_EQ(original_trace.CountEntities(TypeKind::kEvent), rewritten_trace.CountEntities(TypeKind::kEvent));
  }
}

// A trace babeltrace2's CTF writer makes from a kernel ring buffer text
// (dmesg(1) lines) the test writes: no shared data needed. One stream, one
// event class ("string", the line in `str`), a clock that is not the epoch.
TEST(CtfReader, TraceWrittenByBabeltrace2FromDmesgText) {
  testing::TempDir dir;
  const std::vector<std::string> lines = {
      "Linux version 6.1.0-test (gcc 12) #1 SMP PREEMPT_DYNAMIC",
      "Command line: BOOT_IMAGE=/vmlinuz root=UUID=0 ro quiet",
      "x86/fpu: Supporting XSAVE feature 0x001: 'x87 floating point registers'",
      "smpboot: CPU0: Intel(R) Xeon(R) CPU @ 2.20GHz (family: 0x6, model: 0x4f)",
      "usb 1-1: new high-speed USB device number 2 using ehci-pci",
      "usb 1-1: New USB device found, idVendor=0627, idProduct=0001",
      "EXT4-fs (sda1): mounted filesystem with ordered data mode { braces: here }",
  };
  // Times in microseconds; two lines share one (same-time events keep their order).
  const std::vector<int64_t> us = {0, 1234, 56789, 56789, 1500000, 1500001, 2000000};
  std::string text;
  for (size_t i = 0; i < lines.size(); ++i) {
    char stamp[32];
    std::snprintf(stamp, sizeof stamp, "[%5lld.%06lld] ", static_cast<long long>(us[i] / 1000000),
                  static_cast<long long>(us[i] % 1000000));
    text += stamp + lines[i] + "\n";
  }
  const std::string input = dir.path() + "/dmesg.txt", out = dir.path() + "/ctf";
  testing::WriteText(input, text);
  testing::CommandResult r = testing::WriteCtfWithBabeltrace2(
      "--component=source.text.dmesg --params=" + testing::Quote("path=\"" + input + "\""), out);
  ASSERT_EQ(r.exit_code, 0) << r.err;

  const std::vector<testing::BabeltraceEvent> reference = testing::BabeltraceEvents(out);
  ASSERT_EQ(reference.size(), lines.size());
  Trace trace;
  CtfReadStats stats = ReadCtf({out}, trace);
  EXPECT_EQ(stats.traces, 1u);
  EXPECT_EQ(stats.events, lines.size());
  EXPECT_EQ(stats.events, BabeltraceCount(out));
  EXPECT_EQ(stats.per_name, testing::CountsPerName(reference));
  EXPECT_EQ(stats.per_name.count("string"), 1u);

  // No CPU and no vtid: one stream container holds every line as a punctual
  // event, in order, at the line's time, with the line as its `str` field.
  EXPECT_EQ(testing::CountContainers(trace, "ctf.stream"), 1u);
  EXPECT_EQ(trace.CountEntities(TypeKind::kEvent), lines.size());
  EXPECT_EQ(trace.CountEntities(TypeKind::kState), 0u);
  for (const EntityStore& s : trace.stores()) {
    ASSERT_EQ(s.size(), lines.size());
    for (size_t i = 0; i < s.size(); ++i) {
      EXPECT_EQ(reference[i].ns, us[i] * 1000);
      EXPECT_EQ(ClockTicks(trace.time_base(), s.start[i]), us[i] * 1000) << lines[i];
      std::string str;
      s.extras.ForEach(i, [&](const ExtraField& f) {
        if (trace.Str(f.name) == "str") str = trace.Str(f.value);
      });
      EXPECT_EQ(str, lines[i]);
    }
  }
  EXPECT_EQ(ClockTicks(trace.time_base(), trace.start_time()), 0);
  EXPECT_EQ(ClockTicks(trace.time_base(), trace.end_time()), 2000000000);
  // The dmesg clock is not a wall clock.
  EXPECT_FALSE(trace.time_base().epoch_ns.has_value());

  testing::CommandResult info = testing::Info(out);
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.out.find("\"events\": " + std::to_string(lines.size())), std::string::npos) << info.out;
}

}  // namespace
}  // namespace macroscope::ctf
