// Kernel subsystems: the prefix table, and on real traces (the LTTng-UST
// trace the suite records; ../shared/testdata's LTTng kernel trace) the
// counts per class against babeltrace2's per-name counts grouped by the
// table, the interrupt and syscall states against babeltrace2's entries.
#include "analysis/kernel/subsystems.h"

#include <array>
#include <filesystem>
#include <map>

#include "../kernel/kernel_test_support.h"
#include "analyses_test_support.h"
#include "ctf_test_support.h"

namespace macroscope::kernel_analyses::testing {
namespace {

using analysis::kernel::Subsystem;
using analysis::kernel::SubsystemName;
using analysis::kernel::SubsystemOfEvent;

TEST(SubsystemsTable, PrefixesAsTheSeedListsThem) {
  const std::map<std::string, Subsystem> expected = {
      {"timer_start", Subsystem::kProcessor},
      {"hrtimer_cancel", Subsystem::kProcessor},
      {"itimer_state", Subsystem::kProcessor},
      {"power_cpu_idle", Subsystem::kProcessor},
      {"irq_handler_entry", Subsystem::kProcessor},
      {"softirq_raise", Subsystem::kProcessor},
      {"kmem_kfree", Subsystem::kMemory},
      {"mm_page_alloc", Subsystem::kMemory},
      {"sched_switch", Subsystem::kSystem},
      {"sched:sched_switch", Subsystem::kSystem},
      {"workqueue_queue_work", Subsystem::kSystem},
      {"rcu_utilization", Subsystem::kSystem},
      {"lttng_statedump_start", Subsystem::kSystem},
      {"gpio_value", Subsystem::kSystem},
      {"v4l2_dqbuf", Subsystem::kGraphics},
      {"snd_soc_reg_write", Subsystem::kGraphics},
      {"block_rq_issue", Subsystem::kDisk},
      {"jbd2_commit_flushing", Subsystem::kDisk},
      {"scsi_dispatch_cmd_start", Subsystem::kDisk},
      {"netif_receive_skb", Subsystem::kNetwork},
      {"napi_poll", Subsystem::kNetwork},
      {"skb_kfree", Subsystem::kNetwork},
      {"net_dev_xmit", Subsystem::kNetwork},
      {"syscall_entry_read", Subsystem::kSyscall},
      {"syscall_exit_read", Subsystem::kSyscall},
      {"compat_syscall_entry_open", Subsystem::kSyscall},
      {"sys_open", Subsystem::kSyscall},
      {"exit_syscall", Subsystem::kSyscall},
      {"syscalls:sys_enter_read", Subsystem::kSyscall},
      {"lttng_ust_libc:malloc", Subsystem::kOther},
      {"lttng_ust_tracef:event", Subsystem::kOther},
      {"func_entry", Subsystem::kOther},
      {"timerfd", Subsystem::kOther},
  };
  for (const auto& [name, subsystem] : expected)
    EXPECT_EQ(SubsystemName(SubsystemOfEvent(name)), SubsystemName(subsystem)) << name;
}

// What a trace's subsystems must be, from babeltrace2's text.
struct Reference {
  std::map<std::string, uint64_t> events;  // per class
  uint64_t interrupt_entries = 0, syscall_entries = 0;
};

Reference FromBabeltrace(const std::string& dir) {
  Reference ref;
  for (const auto& [name, count] : ctf::testing::CountsPerName(ctf::testing::BabeltraceEvents(dir))) {
    ref.events[std::string(SubsystemName(SubsystemOfEvent(name)))] += count;
    if (name == "irq_handler_entry" || name == "softirq_entry") ref.interrupt_entries += count;
    for (const char* entry : {"syscall_entry_", "compat_syscall_entry_", "sys_"})
      if (name.rfind(entry, 0) == 0) ref.syscall_entries += count;
  }
  return ref;
}

// `kernel subsystems --format json`'s rows: the overall ones (owner_type
// "all") in "overall", the owners' in "owners".
nlohmann::json Subsystems(const std::string& dir) {
  nlohmann::json out = {{"overall", nlohmann::json::array()}, {"owners", nlohmann::json::array()}};
  for (const nlohmann::json& row : JsonOf(Macroscope("kernel subsystems --format json " + Quote(dir))))
    out[row["owner_type"] == "all" ? "overall" : "owners"].push_back(row);
  return out;
}

void ExpectSubsystemsOf(const std::string& dir) {
  const Reference ref = FromBabeltrace(dir);
  nlohmann::json out = Subsystems(dir);
  ASSERT_EQ(out["overall"].size(), analysis::kernel::kSubsystemCount) << out.dump(1);
  std::map<std::string, nlohmann::json> overall;
  for (const nlohmann::json& row : out["overall"]) overall[row["subsystem"]] = row;
  uint64_t total = 0;
  for (const auto& [subsystem, row] : overall) {
    const auto it = ref.events.find(subsystem);
    EXPECT_EQ(row["events"].get<uint64_t>(), it == ref.events.end() ? 0 : it->second) << subsystem;
    total += row["events"].get<uint64_t>();
  }
  EXPECT_EQ(total, ctf::testing::BabeltraceCount(dir));
  // Each interrupt and syscall entry opens one state of its class.
  EXPECT_EQ(overall["processor"]["states"], ref.interrupt_entries);
  EXPECT_EQ(overall["syscall"]["states"], ref.syscall_entries);
  for (const char* other : {"memory", "system", "graphics", "disk", "network", "other"})
    EXPECT_EQ(overall[other]["time_ns"], 0) << other;
  // The owners share the model's states and time out exactly.
  std::map<std::string, std::array<int64_t, 2>> per_owner_sum;
  for (const nlohmann::json& row : out["owners"]) {
    per_owner_sum[row["subsystem"]][0] += row["states"].get<int64_t>();
    per_owner_sum[row["subsystem"]][1] += row["time_ns"].get<int64_t>();
    EXPECT_FALSE(row["owner"].get<std::string>().empty());
  }
  for (const auto& [subsystem, row] : overall) {
    EXPECT_EQ(per_owner_sum[subsystem][0], row["states"].get<int64_t>()) << subsystem;
    EXPECT_EQ(per_owner_sum[subsystem][1], row["time_ns"].get<int64_t>()) << subsystem;
  }
  // The module on babeltrace2's events (read with events: true) counts the same.
  pipeline::RowBatch rows =
      ReadInto({{"input", dir}, {"events", true}}, pipeline::KernelSubsystemsModule(), nlohmann::json::object());
  ASSERT_GE(rows.rows(), analysis::kernel::kSubsystemCount);
  for (size_t r = 0; r < analysis::kernel::kSubsystemCount; ++r) {
    EXPECT_EQ(Cell(rows, r, "owner_type"), "all");
    EXPECT_EQ(Cell(rows, r, "events"), std::to_string(overall[Cell(rows, r, "subsystem")]["events"].get<uint64_t>()));
  }
  // On the model it gives the command's states and times.
  pipeline::RowBatch model = ReadInto({{"input", dir}}, pipeline::KernelSubsystemsModule(), nlohmann::json::object());
  for (size_t r = 0; r < analysis::kernel::kSubsystemCount; ++r) {
    const nlohmann::json& row = overall[Cell(model, r, "subsystem")];
    EXPECT_EQ(Cell(model, r, "states"), std::to_string(row["states"].get<uint64_t>()));
    EXPECT_EQ(Cell(model, r, "time_ns"), std::to_string(row["time_ns"].get<int64_t>()));
  }
}

TEST(SubsystemsRecorded, LttngUstTraceCountsAsBabeltrace2) {
  ASSERT_TRUE(std::filesystem::exists(RECORDED_LTTNG_TRACE)) << "the fixture ctf.record_lttng_trace did not run";
  ExpectSubsystemsOf(RECORDED_LTTNG_TRACE);
}

TEST(SubsystemsTestdata, KernelTraceCountsAsBabeltrace2) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const std::string dir = SharedTestData() + "/ctf/bug446190";
  ExpectSubsystemsOf(dir);
  // Syscalls run on threads, so processes own syscall time; interrupts run
  // on CPUs, which own the processor time.
  nlohmann::json out = Subsystems(dir);
  int64_t process_syscall_ns = 0, cpu_processor_ns = 0;
  for (const nlohmann::json& row : out["owners"]) {
    if (row["owner_type"] == "Process" && row["subsystem"] == "syscall")
      process_syscall_ns += row["time_ns"].get<int64_t>();
    if (row["owner_type"] == "CPU" && row["subsystem"] == "processor")
      cpu_processor_ns += row["time_ns"].get<int64_t>();
  }
  EXPECT_GT(process_syscall_ns, 0);
  EXPECT_GT(cpu_processor_ns, 0);
  // CSV: a header, eight overall rows first.
  CommandResult csv = Macroscope("kernel subsystems --format csv " + Quote(dir));
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.rfind("owner,owner_type,subsystem,events,states,time_ns\n,all,processor,", 0), 0u) << csv.out;
}

TEST(SubsystemsKernelTrace, CountsAsBabeltrace2AndTheGroundTruth) {
  const std::string dir = kernel::testing::KernelTraceDir();
  ASSERT_TRUE(std::filesystem::exists(dir)) << "the fixture kernel.make_kernel_trace did not run";
  ExpectSubsystemsOf(dir);
  // The scenario's own count per class, kept as it wrote the events; it has
  // no syscall class (the seed's table), so its "other" is ours plus syscall.
  const nlohmann::json& truth = kernel::testing::KernelGroundTruth().at("per_subsystem");
  nlohmann::json out = Subsystems(dir);
  std::map<std::string, uint64_t> ours;
  for (const nlohmann::json& row : out["overall"]) {
    const std::string subsystem = row["subsystem"];
    ours[subsystem == "syscall" ? "other" : subsystem] += row["events"].get<uint64_t>();
  }
  for (const auto& [subsystem, count] : truth.items()) EXPECT_EQ(ours[subsystem], count.get<uint64_t>()) << subsystem;
  EXPECT_EQ(ours.size(), truth.size());
}

TEST(SubsystemsCommand, RefusesWhatIsNoTrace) {
  TempDir dir;
  WriteText(dir.path() + "/x.txt", "hello\n");
  CommandResult r = Macroscope("kernel subsystems " + Quote(dir.path() + "/x.txt"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("x.txt"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace macroscope::kernel_analyses::testing
