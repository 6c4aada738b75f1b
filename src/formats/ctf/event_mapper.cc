#include "formats/ctf/event_mapper.h"

#include <array>

namespace macroscope::ctf {

namespace {

// Type identifiers (aliases); the names are what users see.
constexpr std::string_view kTraceType = "ctf.trace";
constexpr std::string_view kCpuType = "ctf.cpu";
constexpr std::string_view kProcessType = "ctf.process";
constexpr std::string_view kThreadType = "ctf.thread";
constexpr std::string_view kStreamType = "ctf.stream";
constexpr std::string_view kCpuRunning = "ctf.cpu.running";
constexpr std::string_view kCpuInterrupt = "ctf.cpu.interrupt";
constexpr std::string_view kCpuSyscall = "ctf.cpu.syscall";
constexpr std::string_view kThreadState = "ctf.thread.state";
constexpr std::string_view kThreadSyscall = "ctf.thread.syscall";
constexpr std::string_view kThreadFunction = "ctf.thread.function";
constexpr std::string_view kStreamFunction = "ctf.stream.function";

// Linux softirq vectors, by number (include/linux/interrupt.h).
constexpr std::array<std::string_view, 10> kSoftirqNames = {"HI",      "TIMER", "NET_TX",  "NET_RX",  "BLOCK",
                                                            "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU"};

bool StartsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// The syscall an entry event names, or empty when it is not one.
std::string_view SyscallEntry(std::string_view base) {
  for (std::string_view prefix : {"syscall_entry_", "compat_syscall_entry_", "sys_"})
    if (StartsWith(base, prefix) && base.size() > prefix.size()) return base.substr(prefix.size());
  return {};
}

bool IsSyscallExit(std::string_view base) {
  return base == "exit_syscall" || StartsWith(base, "syscall_exit_") || StartsWith(base, "compat_syscall_exit_");
}

std::optional<int64_t> FirstInteger(const CtfEvent& e, std::string_view a, std::string_view b) {
  auto v = e.Integer(a);
  return v ? v : e.Integer(b);
}

std::string_view Text(const CtfEvent& e, std::string_view name) {
  const CtfField* f = e.Field(name);
  return f ? std::string_view(f->text) : std::string_view();
}

}  // namespace

struct EventMapper::CpuState {
  StringId alias = kEmptyString;
  std::optional<int64_t> current_tid;  // from the last sched_switch on this CPU
  int syscall_depth = 0;               // syscalls pushed on the CPU (thread unknown)
  std::vector<char> interrupts;        // open interrupts, 'i' (irq) or 's' (softirq), innermost last
};

struct EventMapper::ThreadState {
  StringId alias = kEmptyString;
  int syscall_depth = 0;
  int function_depth = 0;
};

struct EventMapper::TraceState {
  std::string prefix;  // of container aliases: "t<index>."
  StringId root = kEmptyString;
  ContainerId root_id = kNone;
  bool kernel = false;
  uint64_t events = 0;
  std::unordered_map<int64_t, CpuState> cpus;
  std::unordered_map<int64_t, ThreadState> threads;
  std::unordered_map<std::string, StringId> processes;
  std::unordered_map<uint32_t, ThreadState> streams;  // per-stream containers (alias, function depth)
};

struct EventMapper::Owner {
  StringId container = kEmptyString;
  std::string_view type;  // kThreadType or kStreamType
  int* function_depth = nullptr;
};

EventMapper::EventMapper(Trace& trace, paje::Simulator& simulator) : trace_(trace), sim_(simulator) {}
EventMapper::~EventMapper() = default;

StringId EventMapper::Type(TypeKind kind, std::string_view parent, std::string_view name, std::string_view alias) {
  StringPool& s = trace_.strings();
  StringId id = s.Intern(alias);
  if (defined_types_.insert(id).second) {
    if (kind == TypeKind::kContainer)
      sim_.DefineContainerType(s.Intern(parent), s.Intern(name), id);
    else
      sim_.DefineEntityType(kind, s.Intern(parent), s.Intern(name), id, kEmptyString);
  }
  return id;
}

EventMapper::TraceState& EventMapper::StateOf(const CtfTraceInfo& info, double time) {
  auto& slot = traces_[&info];
  if (slot) return *slot;
  slot = std::make_unique<TraceState>();
  TraceState& t = *slot;
  trace_order_.push_back(&t);
  t.prefix = "t" + std::to_string(info.index) + ".";
  t.kernel = info.domain == "kernel";
  StringPool& s = trace_.strings();
  StringId type = Type(TypeKind::kContainer, "0", "Trace", kTraceType);
  std::string name = TraceContainerName(info, [&](std::string_view candidate) {
    for (const TraceState* other : trace_order_)  // two traces of one host: keep the names apart
      if (other != &t && trace_.Str(trace_.container(other->root_id).name) == candidate) return true;
    return false;
  });
  t.root = s.Intern("t" + std::to_string(info.index));
  std::vector<ExtraField> extras;
  for (auto [key, value] : {std::pair<const char*, const std::string*>{"domain", &info.domain},
                            {"tracer_name", &info.tracer_name},
                            {"trace_name", &info.name}})
    if (!value->empty()) extras.push_back({s.Intern(key), s.Intern(*value)});
  sim_.CreateContainer(time, type, s.Intern("0"), s.Intern(name), t.root, extras);
  t.root_id = static_cast<ContainerId>(trace_.containers().size() - 1);
  return t;
}

EventMapper::CpuState& EventMapper::Cpu(TraceState& t, int64_t cpu, double time) {
  auto [it, inserted] = t.cpus.try_emplace(cpu);
  if (inserted) {
    StringPool& s = trace_.strings();
    StringId type = Type(TypeKind::kContainer, kTraceType, "CPU", kCpuType);
    it->second.alias = s.Intern(t.prefix + "cpu:" + std::to_string(cpu));
    sim_.CreateContainer(time, type, t.root, s.Intern("cpu" + std::to_string(cpu)), it->second.alias, {});
  }
  return it->second;
}

StringId EventMapper::Process(TraceState& t, const std::string& key, std::string_view name, double time) {
  auto [it, inserted] = t.processes.try_emplace(key, kEmptyString);
  if (inserted) {
    StringPool& s = trace_.strings();
    StringId type = Type(TypeKind::kContainer, kTraceType, "Process", kProcessType);
    it->second = s.Intern(t.prefix + key);
    sim_.CreateContainer(time, type, t.root, s.Intern(name), it->second, {});
  }
  return it->second;
}

EventMapper::ThreadState& EventMapper::Thread(TraceState& t, int64_t tid, std::optional<int64_t> pid,
                                              std::string_view comm, double time) {
  auto [it, inserted] = t.threads.try_emplace(tid);
  if (inserted) {
    // A thread seen before its process is known is taken for the main
    // thread of a process of the same number (docs/ctf.md).
    int64_t p = pid.value_or(tid);
    std::string label = comm.empty() ? std::string("pid ") : std::string(comm) + " ";
    StringId process = Process(t, "pid:" + std::to_string(p), label + std::to_string(p), time);
    StringPool& s = trace_.strings();
    StringId type = Type(TypeKind::kContainer, kProcessType, "Thread", kThreadType);
    it->second.alias = s.Intern(t.prefix + "tid:" + std::to_string(tid));
    std::string thread_label = comm.empty() ? std::string("tid ") : std::string(comm) + " ";
    sim_.CreateContainer(time, type, process, s.Intern(thread_label + std::to_string(tid)), it->second.alias, {});
  }
  return it->second;
}

const std::vector<ExtraField>& EventMapper::Extras(const CtfEvent& e) {
  extras_.clear();
  StringPool& s = trace_.strings();
  for (const CtfField& f : e.fields) extras_.push_back({s.Intern(f.name), s.Intern(f.text)});
  return extras_;
}

void EventMapper::Punctual(const CtfEvent& e, std::string_view parent_alias, StringId container, double time) {
  std::string alias = std::string(parent_alias) + "/" + std::string(e.name);
  StringId type = Type(TypeKind::kEvent, parent_alias, e.name, alias);
  sim_.NewEvent(time, type, container, trace_.strings().Intern(e.name), Extras(e));
}

void EventMapper::Push(StringId type, StringId container, std::string_view value, int& depth, double time) {
  sim_.PushState(time, type, container, trace_.strings().Intern(value), extras_);
  ++depth;
}

void EventMapper::Pop(StringId type, StringId container, int& depth, double time) {
  if (depth == 0) {  // its entry came before the trace began
    ++unmatched_exits_;
    return;
  }
  sim_.PopState(time, type, container, extras_);
  --depth;
}

void EventMapper::Map(const CtfEvent& e, double time) {
  TraceState& t = StateOf(*e.trace, time);
  ++t.events;
  // perf names its events "subsystem:name"; LTTng-UST "provider:name".
  std::string_view base = e.name;
  if (auto colon = base.rfind(':'); colon != std::string_view::npos) base = base.substr(colon + 1);
  if (t.kernel && e.cpu_id)
    MapKernel(t, e, base, time);
  else
    MapUser(t, e, base, time);
}

void EventMapper::MapKernel(TraceState& t, const CtfEvent& e, std::string_view base, double time) {
  CpuState& cpu = Cpu(t, *e.cpu_id, time);
  StringId running = Type(TypeKind::kState, kCpuType, "CPU", kCpuRunning);
  Extras(e);
  if (base == "sched_switch") {
    auto prev = FirstInteger(e, "prev_tid", "prev_pid");
    auto next = FirstInteger(e, "next_tid", "next_pid");
    // Syscalls pushed on the CPU before any thread was known were the
    // outgoing thread's: they end here.
    while (cpu.syscall_depth > 0)
      Pop(Type(TypeKind::kState, kCpuType, "Syscall", kCpuSyscall), cpu.alias, cpu.syscall_depth, time);
    std::string_view next_comm = Text(e, "next_comm");
    sim_.SetState(time, running, cpu.alias, trace_.strings().Intern(next.value_or(0) == 0 ? "idle" : next_comm),
                  extras_);
    if (prev && *prev != 0) {
      ThreadState& th = Thread(t, *prev, std::nullopt, Text(e, "prev_comm"), time);
      auto prev_state = e.Integer("prev_state");
      sim_.SetState(time, Type(TypeKind::kState, kThreadType, "Thread", kThreadState), th.alias,
                    trace_.strings().Intern(prev_state.value_or(0) == 0 ? "runnable" : "waiting"), extras_);
    }
    if (next && *next != 0) {
      ThreadState& th = Thread(t, *next, std::nullopt, next_comm, time);
      sim_.SetState(time, Type(TypeKind::kState, kThreadType, "Thread", kThreadState), th.alias,
                    trace_.strings().Intern("running"), extras_);
    }
    cpu.current_tid = next;
    return;
  }
  std::string_view syscall = SyscallEntry(base);
  if (!syscall.empty() || IsSyscallExit(base)) {
    ThreadState* th = nullptr;
    if (cpu.current_tid && *cpu.current_tid != 0) th = &Thread(t, *cpu.current_tid, std::nullopt, {}, time);
    StringId type = th ? Type(TypeKind::kState, kThreadType, "Syscall", kThreadSyscall)
                       : Type(TypeKind::kState, kCpuType, "Syscall", kCpuSyscall);
    StringId container = th ? th->alias : cpu.alias;
    int& depth = th ? th->syscall_depth : cpu.syscall_depth;
    if (!syscall.empty())
      Push(type, container, "syscall:" + std::string(syscall), depth, time);
    else
      Pop(type, container, depth, time);
    return;
  }
  bool irq_entry = base == "irq_handler_entry", softirq_entry = base == "softirq_entry";
  bool irq_exit = base == "irq_handler_exit", softirq_exit = base == "softirq_exit";
  if (irq_entry || softirq_entry || irq_exit || softirq_exit) {
    StringId type = Type(TypeKind::kState, kCpuType, "Interrupt", kCpuInterrupt);
    char kind = irq_entry || irq_exit ? 'i' : 's';
    if (irq_entry || softirq_entry) {
      std::string value;
      if (irq_entry) {
        std::string_view name = Text(e, "name");
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
    return;
  }
  // Events that tell who is who: they create containers, and are punctual events too.
  if (base == "sched_process_fork") {
    auto parent = FirstInteger(e, "parent_tid", "parent_pid");
    if (parent && *parent != 0) Thread(t, *parent, e.Integer("parent_pid"), Text(e, "parent_comm"), time);
    auto child = FirstInteger(e, "child_tid", "child_pid");
    if (child && *child != 0) Thread(t, *child, e.Integer("child_pid"), Text(e, "child_comm"), time);
  } else if (base == "lttng_statedump_process_state") {
    auto tid = e.Integer("tid");
    if (tid && *tid != 0) Thread(t, *tid, e.Integer("pid"), Text(e, "name"), time);
  } else if (base == "sched_process_exec") {
    auto tid = FirstInteger(e, "tid", "pid");
    if (tid && *tid != 0) Thread(t, *tid, std::nullopt, {}, time);
  }
  Punctual(e, kCpuType, cpu.alias, time);
}

EventMapper::Owner EventMapper::UserOwner(TraceState& t, const CtfEvent& e, double time) {
  if (auto vtid = e.Integer("vtid")) {
    auto vpid = e.Integer("vpid");
    std::string_view procname = Text(e, "procname");
    auto [it, inserted] = t.threads.try_emplace(*vtid);
    if (inserted) {
      StringId process = vpid ? Process(t, "pid:" + std::to_string(*vpid),
                                        (procname.empty() ? "pid " : std::string(procname) + " ") +
                                            std::to_string(*vpid),
                                        time)
                              : Process(t, "proc:" + std::string(procname), procname.empty() ? "process" : procname,
                                        time);
      StringPool& s = trace_.strings();
      StringId type = Type(TypeKind::kContainer, kProcessType, "Thread", kThreadType);
      it->second.alias = s.Intern(t.prefix + "tid:" + std::to_string(*vtid));
      std::string label = procname.empty() ? std::string("tid ") : std::string(procname) + " ";
      sim_.CreateContainer(time, type, process, s.Intern(label + std::to_string(*vtid)), it->second.alias, {});
    }
    return {it->second.alias, kThreadType, &it->second.function_depth};
  }
  auto [it, inserted] = t.streams.try_emplace(e.stream);
  if (inserted) {
    StringPool& s = trace_.strings();
    StringId type = Type(TypeKind::kContainer, kTraceType, "Stream", kStreamType);
    it->second.alias = s.Intern(t.prefix + "stream:" + std::to_string(e.stream));
    sim_.CreateContainer(time, type, t.root, s.Intern(e.stream_name), it->second.alias, {});
  }
  return {it->second.alias, kStreamType, &it->second.function_depth};
}

void EventMapper::MapUser(TraceState& t, const CtfEvent& e, std::string_view base, double time) {
  Owner owner = UserOwner(t, e, time);
  bool cyg = e.name.find("cyg_profile") != std::string_view::npos;
  if (cyg && (base == "func_entry" || base == "func_exit")) {
    Extras(e);
    StringId type = owner.type == kThreadType ? Type(TypeKind::kState, kThreadType, "Function", kThreadFunction)
                                              : Type(TypeKind::kState, kStreamType, "Function", kStreamFunction);
    if (base == "func_entry") {
      std::string_view addr = Text(e, "addr");
      Push(type, owner.container, addr.empty() ? "?" : addr, *owner.function_depth, time);
    } else {
      Pop(type, owner.container, *owner.function_depth, time);
    }
    return;
  }
  Punctual(e, owner.type, owner.container, time);
}

void EventMapper::Finish(double last_time) {
  sim_.Finish(last_time);
  trace_.SetTimeSpan(0, last_time);
  StringPool& s = trace_.strings();
  for (TraceState* t : trace_order_)
    trace_.container(t->root_id).extras.push_back({s.Intern("events"), s.Intern(std::to_string(t->events))});
}

}  // namespace macroscope::ctf
