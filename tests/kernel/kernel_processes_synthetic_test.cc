// The process reconstruction and `kernel processes` rows on small event
// sequences whose figures are worked out by hand in the comments: fork,
// exec, exit, free and tid reuse, syscalls, interrupts, preemption and
// blocking, perf counter deltas; the workflow module gives the same rows.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "analysis/kernel/cpu_table.h"
#include "analysis/kernel/process_table.h"
#include "kernel_event_sequence.h"
#include "model/entity_chunk.h"
#include "pipeline/module.h"
#include "pipeline/modules/modules.h"
#include "pipeline/registry.h"
#include "pipeline/workflow.h"

namespace macroscope {
namespace {

using analysis::kernel::ProcessTable;
using analysis::kernel::ProcessTableRows;
using analysis::kernel::ThreadRow;
using kernel::testing::Ev;
using kernel::testing::Fork;
using kernel::testing::Kernel;
using kernel::testing::Switch;

// bash (100) forks 200, which execs ls and exits; kworker 300 preempts
// bash and runs to the end, then forks a new 200 (the tid used again).
std::vector<Ev> Scenario() {
  return {
      {100, 0, "lttng_statedump_process_state", {{"tid", "100"}, {"pid", "100"}, {"ppid", "1"}, {"name", "bash"}}},
      Switch(1000, 0, 0, "swapper/0", 0, 100, "bash"),
      {1500, 0, "sys_clone", {}},
      Fork(1600, 0, 100, "bash", 200, 200),
      {1700, 0, "exit_syscall", {{"ret", "200"}}},
      Switch(2000, 1, 0, "swapper/1", 0, 200, "bash"),
      {2100, 1, "sched_process_exec", {{"filename", "/bin/ls"}, {"tid", "200"}, {"old_tid", "200"}}},
      {2200, 0, "irq_handler_entry", {{"irq", "19"}, {"name", "eth0"}}},
      {2300, 0, "irq_handler_exit", {{"irq", "19"}, {"ret", "1"}}},
      Switch(2500, 0, 100, "bash", 1, 0, "swapper/0"),
      {3000, 1, "sys_exit_group", {{"error_code", "0"}}},
      {3100, 1, "sched_process_exit", {{"comm", "ls"}, {"tid", "200"}, {"prio", "20"}}},
      Switch(3200, 1, 200, "ls", 64, 0, "swapper/1"),  // the dead task's last switch: its end
      Switch(3300, 0, 0, "swapper/0", 0, 100, "bash"),
      Switch(3500, 0, 100, "bash", 1024, 300, "kworker/0:1"),  // preempted (3.x TASK_STATE_MAX)
      {4000, 1, "sched_process_free", {{"comm", "ls"}, {"tid", "200"}, {"prio", "20"}}},
      Fork(4500, 0, 300, "kworker/0:1", 200, 200),
      {5000, 1, "rcu_utilization", {{"s", "Start context switch"}}},
  };
}

const ThreadRow* Find(const ProcessTableRows& t, int64_t tid, int64_t start) {
  for (const ThreadRow& r : t.rows)
    if (r.tid == tid && r.start == start) return &r;
  return nullptr;
}

TEST(KernelProcessesSynthetic, FiguresWorkedOutByHand) {
  Kernel k;
  k.Read(Scenario());
  ProcessTableRows t = k.Rows();
  ASSERT_EQ(t.rows.size(), 4u);

  // bash: on CPU 0 [1000,2500] with clone [1500,1700] and an irq
  // [2200,2300], and [3300,3500]; blocked [2500,3300]; preempted from
  // 3500 to the end (5000). Last sight: its switch-out at 3500.
  const ThreadRow* bash = Find(t, 100, 100);
  ASSERT_NE(bash, nullptr);
  EXPECT_EQ(bash->pid, 100);
  EXPECT_EQ(bash->ppid, 1);
  EXPECT_EQ(bash->names, std::vector<std::string>{"bash"});
  EXPECT_EQ(bash->end, 3500);
  EXPECT_EQ(bash->kernel_ns, 200);
  EXPECT_EQ(bash->interrupted_ns, 100);
  EXPECT_EQ(bash->user_ns, 1500 - 200 - 100 + 200);
  EXPECT_EQ(bash->running_ns(), 1700);
  EXPECT_EQ(bash->waiting_ns, 800);
  EXPECT_EQ(bash->runnable_ns, 1500);
  EXPECT_EQ(bash->syscalls, 1);

  // The child: runnable from its fork (1600) to its first run (2000), user
  // until exit_group (3000), kernel until its exit (3100), exiting until
  // the dead task switches out (3200): nothing after.
  const ThreadRow* ls = Find(t, 200, 1600);
  ASSERT_NE(ls, nullptr);
  EXPECT_EQ(ls->pid, 200);
  EXPECT_EQ(ls->ppid, 100);
  EXPECT_EQ(ls->names, (std::vector<std::string>{"bash", "ls"}));
  EXPECT_EQ(ls->name(), "ls");
  EXPECT_EQ(ls->end, 3200);
  EXPECT_EQ(ls->runnable_ns, 400);
  EXPECT_EQ(ls->user_ns, 1000);
  EXPECT_EQ(ls->kernel_ns, 100);
  EXPECT_EQ(ls->exiting_ns, 100);
  EXPECT_EQ(ls->running_ns(), 1200);
  EXPECT_EQ(ls->waiting_ns, 0);
  EXPECT_EQ(ls->syscalls, 1);

  // kworker: first seen switching in at 3500, running to the trace's end.
  const ThreadRow* kworker = Find(t, 300, 3500);
  ASSERT_NE(kworker, nullptr);
  EXPECT_EQ(kworker->running_ns(), 1500);
  EXPECT_EQ(kworker->end, 5000);
  EXPECT_FALSE(kworker->ppid.has_value());

  // tid 200 again, after the free: a new thread, child of 300.
  const ThreadRow* again = Find(t, 200, 4500);
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(again->ppid, 300);
  EXPECT_EQ(again->runnable_ns, 500);
  EXPECT_EQ(again->running_ns(), 0);

  // Longest running first.
  EXPECT_EQ(t.rows[0].tid, 100);
  EXPECT_EQ(t.rows[1].tid, 300);
  EXPECT_EQ(t.rows[2].tid, 200);
  EXPECT_EQ(t.rows[2].start, 1600);
}

// Per CPU: CPU 0 is unknown until its first switch (1000), runs bash
// [1000,2500] and [3300,3500], idles [2500,3300], runs kworker to the end
// (5000); CPU 1 runs 200 from 2000 until the dead task switches out (3200),
// then idles. Each adds up to the span; each thread's CPU time is its row's.
TEST(KernelProcessesSynthetic, CpuTimeAddsUp) {
  Kernel k;
  k.Read(Scenario());
  std::vector<analysis::kernel::CpuRow> cpus = k.CpuRows();
  ASSERT_EQ(cpus.size(), 2u);
  const int64_t start = static_cast<int64_t>(k.trace().start_time());
  EXPECT_EQ(cpus[0].cpu, "cpu0");
  EXPECT_EQ(cpus[0].span_ns, 5000 - start);
  EXPECT_EQ(cpus[0].unknown_ns, 1000 - start);
  EXPECT_EQ(cpus[0].idle_ns, 800);
  ASSERT_EQ(cpus[0].threads.size(), 2u);
  EXPECT_EQ(cpus[0].threads[0].tid, 100);
  EXPECT_EQ(cpus[0].threads[0].running_ns, 1700);
  EXPECT_EQ(cpus[0].threads[1].tid, 300);
  EXPECT_EQ(cpus[0].threads[1].running_ns, 1500);
  EXPECT_EQ(cpus[1].unknown_ns, 2000 - start);
  EXPECT_EQ(cpus[1].idle_ns, 1800);
  ASSERT_EQ(cpus[1].threads.size(), 1u);
  EXPECT_EQ(cpus[1].threads[0].tid, 200);
  EXPECT_EQ(cpus[1].threads[0].running_ns, 1200);
  for (const auto& cpu : cpus) EXPECT_EQ(cpu.running_ns() + cpu.idle_ns + cpu.unknown_ns, cpu.span_ns) << cpu.cpu;

  // The table `--cpus` prints: threads named by their rows, then idle, unknown, span.
  const analysis::Table cells = k.Cpus().ToTable(k.trace(), k.Rows());
  EXPECT_EQ(cells.columns, (std::vector<std::string>{"cpu", "kind", "tid", "pid", "name", "ns"}));
  ASSERT_EQ(cells.rows(), 2u + 3u + 1u + 3u);
  EXPECT_EQ(std::get<std::string>(cells.at(0, 1)), "thread");
  EXPECT_EQ(std::get<std::string>(cells.at(0, 4)), "bash");
  EXPECT_EQ(std::get<std::string>(cells.at(4, 1)), "span");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(cells.at(4, 2)));
  EXPECT_EQ(std::get<int64_t>(cells.at(4, 5)), 5000 - start);
}

// Lost events: CPU 0 switched 10 in, but its next switch names 20 as the
// one leaving. 10 still leaves there (the CPU ran it until then), so the
// CPU's time and the threads' agree; 20, never seen running, runs 0.
TEST(KernelProcessesSynthetic, ALostSwitchLeavesNoGap) {
  Kernel k;
  k.Read({
      Switch(1000, 0, 0, "swapper/0", 0, 10, "a"),
      Switch(2000, 0, 20, "b", 1, 30, "c"),
      {3000, 0, "rcu_utilization", {{"s", "End context switch"}}},
  });
  ProcessTableRows t = k.Rows();
  std::map<int64_t, int64_t> running;
  for (const ThreadRow& r : t.rows) running[r.tid] = r.running_ns();
  EXPECT_EQ(running[10], 1000);
  EXPECT_EQ(running[20], 0);
  EXPECT_EQ(running[30], 1000);
  std::vector<analysis::kernel::CpuRow> cpus = k.CpuRows();
  ASSERT_EQ(cpus.size(), 1u);
  ASSERT_EQ(cpus[0].threads.size(), 2u);
  EXPECT_EQ(cpus[0].threads[0].running_ns + cpus[0].threads[1].running_ns, 2000);
  EXPECT_EQ(cpus[0].unknown_ns, 1000 - static_cast<int64_t>(k.trace().start_time()));
}

// perf's and ftrace's syscall tracepoints: sys_enter_X / sys_exit_X, and
// raw_syscalls' sys_enter / sys_exit with an id; 10 is in openat for 200 ns
// and in syscall 0 for 100 ns.
TEST(KernelProcessesSynthetic, TracepointSyscalls) {
  Kernel k("perf");
  k.Read({
      Switch(1000, 0, 0, "swapper/0", 0, 10, "a"),
      {1100, 0, "syscalls:sys_enter_openat", {{"dfd", "-100"}}},
      {1300, 0, "syscalls:sys_exit_openat", {{"ret", "3"}}},
      {1400, 0, "raw_syscalls:sys_enter", {{"id", "0"}}},
      {1500, 0, "raw_syscalls:sys_exit", {{"id", "0"}, {"ret", "0"}}},
      {2000, 0, "rcu_utilization", {{"s", "Start context switch"}}},
  });
  ProcessTableRows t = k.Rows();
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.rows[0].kernel_ns, 300);
  EXPECT_EQ(t.rows[0].user_ns, 700);
  EXPECT_EQ(t.rows[0].syscalls, 2);
  std::vector<std::string> values;
  const Trace& trace = k.trace();
  for (const EntityStore& store : trace.stores())
    if (trace.Str(trace.type(store.type).alias) == "ctf.thread.syscall")
      for (StringId v : store.value) values.emplace_back(trace.Str(v));
  EXPECT_EQ(values, (std::vector<std::string>{"syscall:openat", "syscall:id 0"}));
}

// An exit whose switch-in was lost (CPU 0 runs 10 when 20 exits there):
// 20 is off CPU until it is switched in (1200), exiting until it switches
// out dead (1500); a dying task preempted (1300) comes back exiting.
TEST(KernelProcessesSynthetic, AnExitingTaskRunsUntilItSwitchesOutDead) {
  Kernel k;
  k.Read({
      Switch(1000, 0, 0, "swapper/0", 0, 10, "a"),
      {1050, 0, "sched_wakeup", {{"tid", "20"}}},
      {1100, 0, "sched_process_exit", {{"comm", "b"}, {"tid", "20"}, {"prio", "20"}}},
      Switch(1200, 0, 10, "a", 0, 20, "b"),
      Switch(1300, 0, 20, "b", 0, 10, "a"),
      Switch(1400, 0, 10, "a", 1, 20, "b"),
      Switch(1500, 0, 20, "b", 64, 0, "swapper/0"),
      {2000, 0, "rcu_utilization", {{"s", "Start context switch"}}},
  });
  ProcessTableRows t = k.Rows();
  std::map<int64_t, const ThreadRow*> rows;
  for (const ThreadRow& r : t.rows) rows[r.tid] = &r;
  ASSERT_TRUE(rows.contains(20));
  EXPECT_EQ(rows[20]->exiting_ns, 200);
  EXPECT_EQ(rows[20]->running_ns(), 200);
  EXPECT_EQ(rows[20]->runnable_ns, 100);  // preempted while exiting
  EXPECT_EQ(rows[20]->end, 1500);
  EXPECT_EQ(rows[10]->running_ns(), 300);
  std::vector<analysis::kernel::CpuRow> cpus = k.CpuRows();
  ASSERT_EQ(cpus.size(), 1u);
  EXPECT_EQ(cpus[0].idle_ns, 500);
  EXPECT_EQ(cpus[0].running_ns() + cpus[0].idle_ns + cpus[0].unknown_ns, cpus[0].span_ns);
}

// The model: the exited thread's container ends at its last switch with
// every state inside; a process goes with its last thread.
TEST(KernelProcessesSynthetic, ContainersEndAtTheLastSwitch) {
  Kernel k;
  k.Read(Scenario());
  Trace& trace = k.trace();
  bool found = false;
  for (ContainerId id = 0; id < trace.containers().size(); ++id) {
    const Container& c = trace.container(id);
    if (trace.Str(c.alias) != "t0.tid:200") continue;
    found = true;
    EXPECT_EQ(trace.Str(c.name), "bash 200");  // its first name: streamed entities carry it
    EXPECT_EQ(c.start, 1600);
    EXPECT_EQ(c.end, 3200);
    for (auto [type, store] : c.stores) {
      const EntityStore& s = trace.store(store);
      for (size_t i = 0; i < s.size(); ++i) EXPECT_LE(s.End(i), 3200) << trace.Str(s.value[i]);
    }
    const Container& process = trace.container(c.parent);
    EXPECT_EQ(trace.Str(process.alias), "t0.pid:200");
    EXPECT_EQ(process.end, 3200);
  }
  EXPECT_TRUE(found);
  bool reused = false;
  for (const Container& c : trace.containers()) reused |= trace.Str(c.alias) == "t0.tid:200#2";
  EXPECT_TRUE(reused);
}

TEST(KernelProcessesSynthetic, SubtreeKeepsDescendants) {
  Kernel k;
  k.Read(Scenario());
  ProcessTableRows t = k.Rows(100);
  ASSERT_EQ(t.rows.size(), 2u);  // bash and its child ls
  EXPECT_EQ(t.rows[0].tid, 100);
  EXPECT_EQ(t.rows[1].tid, 200);
  EXPECT_TRUE(k.Rows(1).rows.size() == 2u);  // 1 is bash's parent: bash, ls
  EXPECT_EQ(k.Rows(300).rows.size(), 2u);    // kworker and its child
}

// Perf counter contexts: a CPU counter's delta between two switches of the
// CPU goes to the outgoing thread; a thread counter's delta between two of
// its own switch-outs too. compute_instructions = instructions - (L1
// loads + L1 stores).
TEST(KernelProcessesSynthetic, PerfCounterDeltas) {
  auto counters = [](int64_t instructions, int64_t loads, int64_t stores, int64_t cycles) {
    return std::vector<std::pair<std::string, std::string>>{
        {"perf_thread_instructions", std::to_string(instructions)},
        {"perf_thread_L1_dcache_loads", std::to_string(loads)},
        {"perf_thread_L1_dcache_stores", std::to_string(stores)},
        {"perf_cpu_cpu_cycles", std::to_string(cycles)}};
  };
  Kernel k;
  k.Read({
      Switch(0, 0, 0, "swapper/0", 0, 10, "a", counters(0, 0, 0, 1000)),
      Switch(100, 0, 10, "a", 0, 20, "b", counters(500, 50, 20, 1400)),    // a: first switch-out; cycles +400
      Switch(200, 0, 20, "b", 0, 10, "a", counters(800, 100, 100, 1700)),  // b: cycles +300
      Switch(300, 0, 10, "a", 0, 20, "b", counters(1500, 150, 50, 2000)),  // a: +1000 instr, +100 loads, +30 stores; +300
      Switch(400, 0, 20, "b", 1, 0, "swapper/0", counters(1800, 110, 160, 2600)),  // b: +1000, +10, +60; +600
  });
  ProcessTableRows t = k.Rows();
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.counter_columns,
            (std::vector<std::string>{"perf_cpu_cpu_cycles", "perf_thread_L1_dcache_loads",
                                      "perf_thread_L1_dcache_stores", "perf_thread_instructions",
                                      "compute_instructions"}));
  const ThreadRow* a = Find(t, 10, 0);
  const ThreadRow* b = Find(t, 20, 100);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->counters.at("perf_cpu_cpu_cycles"), 700);
  EXPECT_EQ(a->counters.at("perf_thread_instructions"), 1000);
  EXPECT_EQ(a->counters.at("compute_instructions"), 1000 - (100 + 30));
  EXPECT_EQ(b->counters.at("perf_cpu_cpu_cycles"), 900);
  EXPECT_EQ(b->counters.at("compute_instructions"), 1000 - (10 + 60));
}

// A thread seen before its CPU's first sched_switch is not counted; a
// syscall then goes to the CPU.
TEST(KernelProcessesSynthetic, UnknownBeforeFirstSwitch) {
  Kernel k;
  k.Read({
      {0, 0, "sys_read", {}},
      {50, 0, "exit_syscall", {}},
      Switch(100, 0, 42, "x", 0, 0, "swapper/0"),
      {200, 0, "rcu_utilization", {}},
  });
  ProcessTableRows t = k.Rows();
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.rows[0].running_ns(), 0);
  EXPECT_EQ(t.rows[0].runnable_ns, 100);
  EXPECT_EQ(t.rows[0].syscalls, 0);
}

// The workflow module makes the same rows from the streamed entities.
TEST(KernelProcessesSynthetic, ModuleRowsEqualTheTable) {
  auto k = std::make_shared<Kernel>();
  k->Read(Scenario());
  ProcessTableRows expected = k->Rows();

  // The model's entities as one batch (the trace shared, as a reader's).
  std::shared_ptr<const Trace> trace(k, &k->trace());
  pipeline::EntityBatch batch;
  batch.trace = trace;
  for (const EntityStore& s : trace->stores()) batch.Append(EntityChunk::Of(*trace, s));

  class Source : public pipeline::Module {
   public:
    Source(pipeline::EntityBatch b) : Module("source"), b_(std::move(b)) { out_ = &AddOutput<pipeline::EntityBatch>("out"); }
    void Run() override {
      out_->Claim() = b_;
      out_->Publish();
    }
    pipeline::EntityBatch b_;
    pipeline::Output<pipeline::EntityBatch>* out_;
  };
  class Sink : public pipeline::Module {
   public:
    Sink() : Module("sink") { in_ = &AddInput<pipeline::RowBatch>("in"); }
    void Run() override {
      while (const pipeline::RowBatch* b = in_->Next()) {
        rows.columns = b->columns;
        rows.cells.insert(rows.cells.end(), b->cells.begin(), b->cells.end());
      }
    }
    pipeline::RowBatch rows;
    pipeline::Input<pipeline::RowBatch>* in_;
  };
  pipeline::Workflow w;
  w.Add(std::make_unique<Source>(batch));
  w.Add(pipeline::KernelProcessesModule().make("m", pipeline::Params()));
  auto& sink = static_cast<Sink&>(w.Add(std::make_unique<Sink>()));
  w.Link("source", "out", "m", "in");
  w.Link("m", "rows", "sink", "in");
  w.Run();

  const analysis::Table table = analysis::kernel::ProcessesTable(expected);
  EXPECT_EQ(sink.rows.columns, table.columns);
  ASSERT_EQ(sink.rows.rows(), expected.rows.size());
  ASSERT_EQ(table.rows(), expected.rows.size());
  for (size_t r = 0; r < table.rows(); ++r)
    for (size_t c = 0; c < table.columns.size(); ++c)
      EXPECT_TRUE(sink.rows.at(r, c) == table.at(r, c)) << r << "," << c << ": " << analysis::CellText(table.at(r, c));
}

}  // namespace
}  // namespace macroscope
