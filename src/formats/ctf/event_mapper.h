// Turns CTF events, in time order, into simulator calls: the container tree
// (trace > CPU, trace > process > thread, trace > stream), the states of
// kernel traces (CPU, thread, syscall, interrupt: the process
// reconstruction, kernel_mapping.cc) and of cyg-profile function calls, and
// a punctual event for every other event. The rules are in docs/ctf.md;
// this is their one implementation.
//
// Tolerance: a trace may start inside a syscall, an interrupt or a function;
// their exits, having no entry, pop nothing and are counted in
// unmatched_exits() instead of failing. Errors from the simulator propagate
// (paje::SimulationError).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "formats/ctf/ctf_event.h"
#include "formats/ctf/libc_memory.h"
#include "formats/ctf/kernel_threads.h"
#include "formats/paje/simulator.h"
#include "model/trace.h"

namespace macroscope::ctf {

// The model's type identifiers (aliases); the names are what users see.
namespace types {
inline constexpr std::string_view kTrace = "ctf.trace";
inline constexpr std::string_view kCpu = "ctf.cpu";
inline constexpr std::string_view kProcess = "ctf.process";
inline constexpr std::string_view kThread = "ctf.thread";
inline constexpr std::string_view kStream = "ctf.stream";
inline constexpr std::string_view kCpuRunning = "ctf.cpu.running";
inline constexpr std::string_view kCpuInterrupt = "ctf.cpu.interrupt";
inline constexpr std::string_view kCpuSyscall = "ctf.cpu.syscall";
inline constexpr std::string_view kThreadState = "ctf.thread.state";
inline constexpr std::string_view kThreadSyscall = "ctf.thread.syscall";
inline constexpr std::string_view kThreadFunction = "ctf.thread.function";
inline constexpr std::string_view kStreamFunction = "ctf.stream.function";
}  // namespace types

// The text of the event's field `name` (empty without it).
inline std::string_view FieldText(const CtfEvent& e, std::string_view name) {
  const CtfField* f = e.Field(name);
  return f ? std::string_view(f->text) : std::string_view();
}

class EventMapper {
 public:
  EventMapper(Trace& trace, paje::Simulator& simulator);
  ~EventMapper();

  // `time`: the event's model time (event_clock.h).
  void Map(const CtfEvent& event, double time);
  // Ends the simulation at `last_time`, sets the trace's time span and
  // gives each trace's root container its event counts as user fields.
  void Finish(double last_time);

  uint64_t unmatched_exits() const { return unmatched_exits_; }

 private:
  // A userspace thread (vtid) or a stream: its container and open functions.
  struct UserThread {
    StringId alias = kEmptyString;
    int function_depth = 0;
  };
  struct TraceState {
    std::string prefix;  // of container aliases: "t<index>."
    StringId root = kEmptyString;
    ContainerId root_id = kNone;
    bool kernel = false;
    uint64_t events = 0;
    KernelTables kernel_tables;                        // kernel traces
    std::unordered_map<int64_t, UserThread> threads;   // userspace, by vtid
    std::unordered_map<std::string, StringId> processes;
    std::unordered_map<uint32_t, UserThread> streams;  // per-stream containers
  };
  struct Owner;  // the container a non-kernel event belongs to

  TraceState& StateOf(const CtfTraceInfo& info, double time);
  StringId Type(TypeKind kind, std::string_view parent, std::string_view name, std::string_view alias);
  StringId Process(TraceState& t, const std::string& key, std::string_view name, double time);
  Owner UserOwner(TraceState& t, const CtfEvent& e, double time);

  // Kernel traces (kernel_mapping.cc).
  KernelCpu& Cpu(TraceState& t, int64_t cpu, double time);
  // The living thread `tid`, created when unseen or when its last
  // incarnation was freed; nullptr for one that has exited (a dead task
  // switching out for the last time). A `comm` that differs from its last
  // name is added to its names.
  KernelThread* Sighting(TraceState& t, int64_t tid, std::optional<int64_t> pid, std::string_view comm,
                         double time);
  KernelThread& NewThread(TraceState& t, int64_t tid, std::optional<int64_t> pid, std::string_view comm,
                          double time);
  size_t KernelProcessOf(TraceState& t, int64_t pid, std::string_view comm, double time);
  void Rename(KernelThread& th, std::string_view comm);
  // Sets the thread's Thread state from where it is (on a CPU: user,
  // kernel, interrupted, exiting after its exit; off: waiting, runnable),
  // when that changed.
  void Refresh(TraceState& t, KernelThread& th, double time);
  void EndThread(TraceState& t, KernelThread& th, double time);
  KernelThread* Current(TraceState& t, const KernelCpu& cpu);
  void MapKernel(TraceState& t, const CtfEvent& e, std::string_view base, double time);
  void MapSwitch(TraceState& t, KernelCpu& cpu, const CtfEvent& e, double time);
  // The thread leaves its CPU: `off_cpu` ("waiting" / "runnable") from
  // now, or, after its exit and `dead` (prev_state: IsDead), its end.
  void SwitchOut(TraceState& t, KernelThread& th, std::string_view off_cpu, bool dead, double time);
  void MapLifecycle(TraceState& t, const CtfEvent& e, std::string_view base, double time);
  // Gives the thread and process containers their fields (tid, pid, ppid,
  // names, end, perf counter totals).
  void FinishKernel(TraceState& t, double last_time);
  void MapUser(TraceState& t, const CtfEvent& e, std::string_view base, double time);
  void Punctual(const CtfEvent& e, std::string_view parent_alias, StringId container, double time);
  void Push(StringId type, StringId container, std::string_view value, int& depth, double time);
  void Pop(StringId type, StringId container, int& depth, double time);
  const std::vector<ExtraField>& Extras(const CtfEvent& e);

  Trace& trace_;
  paje::Simulator& sim_;
  std::unordered_map<const CtfTraceInfo*, std::unique_ptr<TraceState>> traces_;
  std::vector<TraceState*> trace_order_;
  std::unordered_set<StringId> defined_types_;
  std::vector<ExtraField> extras_;
  uint64_t unmatched_exits_ = 0;
  LibcMemory libc_memory_{trace_, sim_};  // the Memory variable of processes (libc_memory.h)
};

// The name of a trace's root container: its host, else its name, else
// "trace"; " #INDEX" added when `taken(name)` says another trace has it.
template <class Taken>
std::string TraceContainerName(const CtfTraceInfo& info, Taken taken) {
  std::string name = !info.hostname.empty() ? info.hostname : !info.name.empty() ? info.name : "trace";
  if (taken(name)) name += " #" + std::to_string(info.index);
  return name;
}

}  // namespace macroscope::ctf
