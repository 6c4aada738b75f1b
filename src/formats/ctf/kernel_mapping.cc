// EventMapper's rules for kernel traces: the process reconstruction of
// docs/ctf.md ("Kernel traces"). Who runs on each CPU comes from
// sched_switch; threads and processes from the statedump, fork, exec, exit
// and free; each thread has one exclusive Thread state (user, kernel,
// interrupted, exiting, waiting, runnable) from which `kernel processes`
// sums times. A CPU's current thread is the one its last sched_switch
// switched in, exited or not, so that a CPU's time is always someone's:
// its threads', idle, or unknown before its first switch. An exited
// thread ends when it switches out dead (it may be preempted or block,
// and run again, while it exits).
#include <array>

#include "formats/ctf/event_mapper.h"

namespace macroscope::ctf {

namespace {

using types::kCpu;
using types::kCpuInterrupt;
using types::kCpuRunning;
using types::kCpuSyscall;
using types::kProcess;
using types::kThread;
using types::kThreadState;
using types::kThreadSyscall;
using types::kTrace;

// The Thread state's values.
constexpr std::string_view kUser = "user", kKernel = "kernel", kInterrupted = "interrupted",
                           kExiting = "exiting", kWaiting = "waiting", kRunnable = "runnable";

// Linux softirq vectors, by number (include/linux/interrupt.h).
constexpr std::array<std::string_view, 10> kSoftirqNames = {"HI",      "TIMER", "NET_TX",  "NET_RX",  "BLOCK",
                                                            "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU"};

bool StartsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// The kernel's own tracepoints (perf, ftrace) name syscalls
// `sys_enter_X` / `sys_exit_X` (syscalls:) or `sys_enter` / `sys_exit` with
// an `id` (raw_syscalls:); LTTng `syscall_entry_X` / `syscall_exit_X`, and
// older LTTng `sys_X` / `exit_syscall` (where `sys_exit` is exit()'s entry).
bool NamesTracepoints(const CtfEvent& e) {
  return e.trace->tracer_name == "perf" || e.trace->tracer_name == "trace-cmd";
}

// The syscall an entry event names, or empty when it is not one.
std::string SyscallEntry(const CtfEvent& e, std::string_view base) {
  if (NamesTracepoints(e)) {
    if (base == "sys_enter") return "id " + std::to_string(e.Integer("id").value_or(-1));
    return StartsWith(base, "sys_enter_") && base.size() > 10 ? std::string(base.substr(10)) : std::string();
  }
  for (std::string_view prefix : {"syscall_entry_", "compat_syscall_entry_", "sys_"})
    if (StartsWith(base, prefix) && base.size() > prefix.size()) return std::string(base.substr(prefix.size()));
  return {};
}

bool IsSyscallExit(const CtfEvent& e, std::string_view base) {
  if (NamesTracepoints(e)) return base == "sys_exit" || StartsWith(base, "sys_exit_");
  return base == "exit_syscall" || StartsWith(base, "syscall_exit_") || StartsWith(base, "compat_syscall_exit_");
}

std::optional<int64_t> FirstInteger(const CtfEvent& e, std::string_view a, std::string_view b) {
  auto v = e.Integer(a);
  return v ? v : e.Integer(b);
}

// A tid and its pid from fields named like LTTng's (`child_tid`,
// `child_pid`) or perf's (`child_pid` only, which is then the tid).
std::pair<std::optional<int64_t>, std::optional<int64_t>> TidAndPid(const CtfEvent& e, const std::string& who) {
  auto tid = e.Integer(who + "_tid");
  if (tid) return {tid, e.Integer(who + "_pid")};
  return {e.Integer(who + "_pid"), std::nullopt};
}

std::string Label(std::string_view comm, std::string_view fallback, int64_t id) {
  return std::string(comm.empty() ? fallback : comm) + " " + std::to_string(id);
}

std::string Incarnation(std::string_view kind, int64_t id, int n) {
  std::string alias = std::string(kind) + std::to_string(id);
  if (n > 1) alias += "#" + std::to_string(n);  // a tid or pid used again after an exit
  return alias;
}

}  // namespace

KernelCpu& EventMapper::Cpu(TraceState& t, int64_t cpu, double time) {
  auto [it, inserted] = t.kernel_tables.cpus.try_emplace(cpu);
  if (inserted) {
    StringPool& s = trace_.strings();
    StringId type = Type(TypeKind::kContainer, kTrace, "CPU", kCpu);
    it->second.alias = s.Intern(t.prefix + "cpu:" + std::to_string(cpu));
    sim_.CreateContainer(time, type, t.root, s.Intern("cpu" + std::to_string(cpu)), it->second.alias, {});
  }
  return it->second;
}

size_t EventMapper::KernelProcessOf(TraceState& t, int64_t pid, std::string_view comm, double time) {
  KernelTables& k = t.kernel_tables;
  if (auto it = k.process_by_pid.find(pid); it != k.process_by_pid.end() && !k.processes[it->second].ended)
    return it->second;
  StringPool& s = trace_.strings();
  KernelProcess& p = k.processes.emplace_back();
  p.pid = pid;
  p.alias = s.Intern(t.prefix + Incarnation("pid:", pid, ++k.pid_incarnations[pid]));
  sim_.CreateContainer(time, Type(TypeKind::kContainer, kTrace, "Process", kProcess), t.root,
                       s.Intern(Label(comm, "pid", pid)), p.alias, {});
  p.id = static_cast<ContainerId>(trace_.containers().size() - 1);
  k.process_by_pid[pid] = k.processes.size() - 1;
  return k.processes.size() - 1;
}

KernelThread& EventMapper::NewThread(TraceState& t, int64_t tid, std::optional<int64_t> pid, std::string_view comm,
                                     double time) {
  KernelTables& k = t.kernel_tables;
  // A thread seen before its process is known is taken for the main
  // thread of a process of the same number (docs/ctf.md).
  int64_t p = pid.value_or(tid);
  size_t process = KernelProcessOf(t, p, comm, time);
  StringPool& s = trace_.strings();
  KernelThread& th = k.threads.emplace_back();
  th.tid = tid;
  th.pid = p;
  if (!comm.empty()) th.names.emplace_back(comm);
  th.process = process;
  th.last_seen = time;
  th.alias = s.Intern(t.prefix + Incarnation("tid:", tid, ++k.tid_incarnations[tid]));
  sim_.CreateContainer(time, Type(TypeKind::kContainer, kProcess, "Thread", kThread), k.processes[process].alias,
                       s.Intern(Label(comm, "tid", tid)), th.alias, {});
  th.id = static_cast<ContainerId>(trace_.containers().size() - 1);
  ++k.processes[process].living_threads;
  k.thread_by_tid[tid] = k.threads.size() - 1;
  return th;
}

KernelThread* EventMapper::Sighting(TraceState& t, int64_t tid, std::optional<int64_t> pid, std::string_view comm,
                                    double time) {
  if (tid == 0) return nullptr;  // the idle task: a CPU state, no thread
  KernelThread* th = t.kernel_tables.Latest(tid);
  if (th == nullptr || th->freed) return &NewThread(t, tid, pid, comm, time);
  if (th->ended) return nullptr;
  th->last_seen = time;
  // The row's pid is right even when the container sits in a guessed process.
  if (pid) th->pid = *pid;
  Rename(*th, comm);
  return th;
}

void EventMapper::Rename(KernelThread& th, std::string_view comm) {
  if (comm.empty() || (!th.names.empty() && th.names.back() == comm)) return;
  // The container keeps its first name: streamed entities carry it, and a
  // rename would split one thread in two for a consumer keyed by name. The
  // `names` field and the rows give every name.
  th.names.emplace_back(comm);
}

void EventMapper::Refresh(TraceState& t, KernelThread& th, double time) {
  if (th.ended) return;
  std::string_view value = th.off_cpu;
  if (th.cpu && th.exited) {
    value = kExiting;  // a dead task still on its CPU until it switches out
  } else if (th.cpu) {
    auto cpu = t.kernel_tables.cpus.find(*th.cpu);
    bool interrupted = cpu != t.kernel_tables.cpus.end() && !cpu->second.interrupts.empty();
    value = interrupted ? kInterrupted : th.syscall_depth > 0 ? kKernel : kUser;
  }
  if (value.empty() || value == th.state) return;
  th.state = value;
  sim_.SetState(time, Type(TypeKind::kState, kThread, "Thread", kThreadState), th.alias,
                trace_.strings().Intern(value), extras_);
}

void EventMapper::EndThread(TraceState& t, KernelThread& th, double time) {
  if (th.ended) return;
  th.ended = true;
  th.last_seen = time;
  StringPool& s = trace_.strings();
  sim_.DestroyContainer(time, s.Intern(kThread), th.alias);
  KernelProcess& p = t.kernel_tables.processes[th.process];
  if (--p.living_threads == 0 && !p.ended) {
    p.ended = true;
    sim_.DestroyContainer(time, s.Intern(kProcess), p.alias);
  }
}

KernelThread* EventMapper::Current(TraceState& t, const KernelCpu& cpu) {
  if (!cpu.current_tid || *cpu.current_tid == 0) return nullptr;
  KernelThread* th = t.kernel_tables.Latest(*cpu.current_tid);
  return th != nullptr && !th->ended ? th : nullptr;
}

void EventMapper::MapKernel(TraceState& t, const CtfEvent& e, std::string_view base, double time) {
  KernelCpu& cpu = Cpu(t, *e.cpu_id, time);
  // The CPU state's type comes first among a CPU's types (the order views list them in).
  Type(TypeKind::kState, kCpu, "CPU", kCpuRunning);
  Extras(e);
  if (KernelThread* current = Current(t, cpu)) current->last_seen = time;
  if (base == "sched_switch") {
    MapSwitch(t, cpu, e, time);
    return;
  }
  const std::string syscall = SyscallEntry(e, base);
  if (!syscall.empty() || IsSyscallExit(e, base)) {
    KernelThread* th = Current(t, cpu);
    StringId type = th ? Type(TypeKind::kState, kThread, "Syscall", kThreadSyscall)
                       : Type(TypeKind::kState, kCpu, "Syscall", kCpuSyscall);
    StringId container = th ? th->alias : cpu.alias;
    int& depth = th ? th->syscall_depth : cpu.syscall_depth;
    if (!syscall.empty())
      Push(type, container, "syscall:" + syscall, depth, time);
    else
      Pop(type, container, depth, time);
    if (th) Refresh(t, *th, time);
    return;
  }
  bool irq_entry = base == "irq_handler_entry", softirq_entry = base == "softirq_entry";
  bool irq_exit = base == "irq_handler_exit", softirq_exit = base == "softirq_exit";
  if (irq_entry || softirq_entry || irq_exit || softirq_exit) {
    StringId type = Type(TypeKind::kState, kCpu, "Interrupt", kCpuInterrupt);
    char kind = irq_entry || irq_exit ? 'i' : 's';
    if (irq_entry || softirq_entry) {
      std::string value;
      if (irq_entry) {
        std::string_view name = FieldText(e, "name");
        value = "irq:" + (name.empty() ? std::to_string(e.Integer("irq").value_or(-1)) : std::string(name));
      } else {
        int64_t vec = e.Integer("vec").value_or(-1);
        value = "softirq:" + (vec >= 0 && vec < static_cast<int64_t>(kSoftirqNames.size())
                                  ? std::string(kSoftirqNames[static_cast<size_t>(vec)])
                                  : std::to_string(vec));
      }
      int depth = static_cast<int>(cpu.interrupts.size());
      Push(type, cpu.alias, value, depth, time);
      cpu.interrupts.push_back(kind);
    } else {
      // Only the innermost open interrupt of the same kind can end.
      bool open = !cpu.interrupts.empty() && cpu.interrupts.back() == kind;
      int depth = open ? 1 : 0;
      Pop(type, cpu.alias, depth, time);
      if (open) cpu.interrupts.pop_back();
    }
    if (KernelThread* th = Current(t, cpu)) Refresh(t, *th, time);
    return;
  }
  // Events that tell who is who: they change the tables, and are punctual events too.
  MapLifecycle(t, e, base, time);
  Punctual(e, kCpu, cpu.alias, time);
}

void EventMapper::MapSwitch(TraceState& t, KernelCpu& cpu, const CtfEvent& e, double time) {
  auto prev = FirstInteger(e, "prev_tid", "prev_pid");
  auto next = FirstInteger(e, "next_tid", "next_pid");
  // Syscalls pushed on the CPU before any thread was known were the
  // outgoing thread's: they end here.
  while (cpu.syscall_depth > 0)
    Pop(Type(TypeKind::kState, kCpu, "Syscall", kCpuSyscall), cpu.alias, cpu.syscall_depth, time);
  std::string_view next_comm = FieldText(e, "next_comm");
  sim_.SetState(time, Type(TypeKind::kState, kCpu, "CPU", kCpuRunning), cpu.alias,
                trace_.strings().Intern(next.value_or(0) == 0 ? "idle" : next_comm), extras_);

  // Counters: a CPU's count since its previous switch is the outgoing
  // thread's; a thread's own count since its previous switch-out too.
  CounterValues cpu_counters = CountersOf(e, "perf_cpu_");
  const int64_t here = *e.cpu_id;
  // A CPU's running thread is the one its last switch made current, until
  // this switch, whatever the event says it switches out: when events were
  // lost, the one the CPU ran still leaves it here (preempted, as far as
  // anyone knows), so that the CPU's time and its threads' agree.
  if (cpu.current_tid && *cpu.current_tid != prev.value_or(0))
    if (KernelThread* lost = Current(t, cpu); lost != nullptr && lost->cpu == here)
      SwitchOut(t, *lost, kRunnable, false, time);
  KernelThread* outgoing = prev ? Sighting(t, *prev, std::nullopt, FieldText(e, "prev_comm"), time) : nullptr;
  // One current elsewhere (that CPU's switch-out was lost) stays there.
  if (outgoing != nullptr && (!outgoing->cpu || outgoing->cpu == here)) {
    AddDeltas(cpu.counters_at_switch, cpu_counters, outgoing->counter_totals);
    CounterValues own = CountersOf(e, "perf_thread_");
    AddDeltas(outgoing->counters_at_switch, own, outgoing->counter_totals);
    outgoing->counters_at_switch = std::move(own);
    const int64_t prev_state = e.Integer("prev_state").value_or(0);
    SwitchOut(t, *outgoing, IsPreempted(prev_state) ? kRunnable : kWaiting, IsDead(prev_state), time);
  }
  cpu.counters_at_switch = std::move(cpu_counters);
  if (KernelThread* th = next ? Sighting(t, *next, std::nullopt, next_comm, time) : nullptr) {
    th->cpu = here;
    Refresh(t, *th, time);
  }
  cpu.current_tid = next;
}

void EventMapper::SwitchOut(TraceState& t, KernelThread& th, std::string_view off_cpu, bool dead, double time) {
  th.cpu.reset();
  if (th.exited && dead) {
    EndThread(t, th, time);  // the dead task's last switch: its thread ends here
    return;
  }
  th.off_cpu = off_cpu;
  Refresh(t, th, time);
}

void EventMapper::MapLifecycle(TraceState& t, const CtfEvent& e, std::string_view base, double time) {
  KernelTables& k = t.kernel_tables;
  if (base == "sched_process_fork") {
    auto [parent_tid, parent_pid] = TidAndPid(e, "parent");
    auto [child_tid, child_pid] = TidAndPid(e, "child");
    KernelThread* parent = parent_tid ? Sighting(t, *parent_tid, parent_pid, FieldText(e, "parent_comm"), time)
                                      : nullptr;
    if (!child_tid || *child_tid == 0) return;
    bool new_process = !child_pid || *child_pid == *child_tid;
    if (!child_pid && parent && !new_process) child_pid = parent->pid;
    // A statedump may list the child just before its fork event (it is in
    // the task list first): that thread, not yet run, is this child. Any
    // other living thread of that tid missed its exit (the tid is used
    // again, possibly before the old task's free).
    KernelThread* old = k.Latest(*child_tid);
    bool same = old != nullptr && !old->ended && old->state.empty();
    if (old != nullptr && !same) EndThread(t, *old, time);
    KernelThread& child = same ? *old : NewThread(t, *child_tid, child_pid, FieldText(e, "child_comm"), time);
    KernelProcess& process = k.processes[child.process];
    if (new_process) {
      if (auto ppid = parent_pid ? parent_pid : parent ? std::optional<int64_t>(parent->pid) : std::nullopt)
        process.ppid = ppid;
    } else if (parent && !process.ppid) {
      process.ppid = parent->ppid;
    }
    child.ppid = process.ppid;
    child.off_cpu = kRunnable;  // a new task waits for its first run
    Refresh(t, child, time);
  } else if (base == "lttng_statedump_process_state") {
    auto tid = e.Integer("tid");
    KernelThread* th = tid ? Sighting(t, *tid, e.Integer("pid"), FieldText(e, "name"), time) : nullptr;
    if (th == nullptr) return;
    if (auto ppid = e.Integer("ppid")) {
      th->ppid = ppid;
      KernelProcess& p = k.processes[th->process];
      if (!p.ppid && p.pid == th->pid) p.ppid = ppid;
    }
  } else if (base == "sched_process_exec") {
    auto tid = FirstInteger(e, "tid", "pid");
    if (KernelThread* th = tid ? Sighting(t, *tid, std::nullopt, {}, time) : nullptr)
      Rename(*th, CommAfterExec(FieldText(e, "filename")));
  } else if (base == "sched_process_exit") {
    auto tid = FirstInteger(e, "tid", "pid");
    KernelThread* th = tid ? Sighting(t, *tid, std::nullopt, FieldText(e, "comm"), time) : nullptr;
    if (th == nullptr || th->exited) return;
    th->exited = true;
    // The exit_group (or exit) call never returns: it ends here.
    while (th->syscall_depth > 0)
      Pop(Type(TypeKind::kState, kThread, "Syscall", kThreadSyscall), th->alias, th->syscall_depth, time);
    // The task runs on, exiting, until it switches out dead (MapSwitch
    // ends it there) or is freed; when its switch-in was lost it is off
    // its CPU as far as we know, and exiting again when it switches in.
    Refresh(t, *th, time);
  } else if (base == "sched_process_free") {
    // Only after its exit: a free whose exit is not in the trace may be
    // of an older task of that tid. A task freed before it was seen
    // switching out ends there.
    auto tid = FirstInteger(e, "tid", "pid");
    if (KernelThread* th = tid ? k.Latest(*tid) : nullptr; th && th->exited) {
      if (th->cpu) {
        if (auto cpu = k.cpus.find(*th->cpu); cpu != k.cpus.end() && cpu->second.current_tid == th->tid)
          return;  // still its CPU's current task: the switch ends it
        th->cpu.reset();
      }
      EndThread(t, *th, time);
      th->freed = true;
    }
  }
}

void EventMapper::FinishKernel(TraceState& t, double last_time) {
  StringPool& s = trace_.strings();
  KernelTables& k = t.kernel_tables;
  auto field = [&](std::vector<ExtraField>& extras, std::string_view name, const std::string& value) {
    extras.push_back({s.Intern(name), s.Intern(value)});
  };
  for (const KernelProcess& p : k.processes) {
    std::vector<ExtraField>& extras = trace_.container(p.id).extras;
    field(extras, "pid", std::to_string(p.pid));
    if (p.ppid) field(extras, "ppid", std::to_string(*p.ppid));
  }
  for (const KernelThread& th : k.threads) {
    std::vector<ExtraField>& extras = trace_.container(th.id).extras;
    field(extras, "tid", std::to_string(th.tid));
    field(extras, "pid", std::to_string(th.pid));
    std::optional<int64_t> ppid = th.ppid ? th.ppid : k.processes[th.process].ppid;
    if (ppid) field(extras, "ppid", std::to_string(*ppid));
    std::string names;
    for (const std::string& n : th.names) names += (names.empty() ? "" : "|") + n;
    field(extras, "names", names);
    // The row's end: the exit, else the last sight (the trace's end for a
    // thread on a CPU then); its last state still lasts to the trace's end.
    double end = th.ended || !th.cpu ? th.last_seen : last_time;
    field(extras, "end", std::to_string(static_cast<int64_t>(end)));
    for (const auto& [counter, total] : th.counter_totals) field(extras, counter, std::to_string(total));
  }
}

}  // namespace macroscope::ctf
