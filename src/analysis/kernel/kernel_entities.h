// What the kernel analyses recognise in the model the CTF reader's kernel
// mapping makes of an LTTng kernel, perf (`perf data convert --to-ctf`) or
// trace-cmd trace (docs/ctf.md, "Kernel traces"; src/formats/ctf/
// kernel_mapping.cc): its containers (CPUs, threads), its state types and
// values (syscalls, hard IRQs, softirqs, each CPU's running task), and the
// fields of sched_switch and sched_wakeup as each tracer names them. One
// place, for every analysis of src/analysis/kernel.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "model/entity_chunk.h"
#include "model/trace.h"

namespace macroscope::analysis::kernel {

// Container types, by alias.
inline constexpr std::string_view kCpuAlias = "ctf.cpu", kThreadAlias = "ctf.thread", kProcessAlias = "ctf.process";
// State types, by name: a CPU's running task (set at every sched_switch),
// its interrupt stack, a thread's (or an unknown thread's CPU's) syscall
// stack, a thread's exclusive state.
inline constexpr std::string_view kCpuStateType = "CPU", kInterruptType = "Interrupt", kSyscallType = "Syscall",
                                  kThreadStateType = "Thread";

// Whether container `id` is of the type of alias `alias` (the trace's
// containers must be readable: once it is complete, or on its reader's thread).
bool ContainerIs(const Trace& trace, ContainerId id, std::string_view alias);

// Whether the trace is a kernel trace: it has a CPU (a kernel trace's
// sched_switch, syscall and interrupt events make them: LTTng kernel, perf,
// trace-cmd). Once the trace is complete.
bool IsKernelTrace(const Trace& trace);

// An integer field of a container (a thread's `tid`, `pid`… that the
// mapping sets at the end): none when absent or empty.
std::optional<int64_t> IntegerField(const Trace& trace, const Container& c, std::string_view name);

// An event's name without a provider or perf subsystem up to the last ':'
// ("sched:sched_switch" is "sched_switch").
std::string_view EventBaseName(std::string_view event_name);

// The kernel states the mapping pushes: "syscall:NAME" on a Syscall stack,
// "irq:NAME" (the handler's name, else its number) and "softirq:VECTOR"
// (TIMER, NET_RX…, else the number) on a CPU's Interrupt stack.
enum class KernelState : uint8_t { kSyscall, kHardIrq, kSoftIrq };
struct KernelStateValue {
  KernelState kind;
  std::string_view name;  // the value after its prefix
};
std::optional<KernelStateValue> KernelStateOf(std::string_view state_value);

// An integer field of entity i (its start fields, then its end fields):
// the first (or, with `last`, the last) field named `name` whose text reads
// as a whole number.
std::optional<int64_t> IntegerField(const Trace& trace, const EntityChunk& chunk, size_t i, std::string_view name,
                                    bool last = false);

// The tid a sched_switch switched in (the fields of a CPU state): LTTng's
// next_tid, perf's and ftrace's next_pid (a tid too).
std::optional<int64_t> NextTid(const Trace& trace, const EntityChunk& chunk, size_t i);

// The tid a sched_wakeup or sched_waking event wakes: LTTng's `tid`,
// perf's and ftrace's `pid` (a tid); the payload's, which comes after any
// context field of the same name.
std::optional<int64_t> WokenTid(const Trace& trace, const EntityChunk& chunk, size_t i);

// Whether kernel state i (of kind `kind`) ended at its exit event, whose
// fields the mapping gives the state as its end fields: the exit's `ret`
// (a syscall's or hard IRQ handler's; their entries have none) or a second
// `vec` (a softirq's entry and exit have one each). Counted over all the
// state's fields, as a store keeps them (one list). A state ended
// otherwise — at the trace's end, at its thread's end, by
// sched_process_exit (exit_group never returns) — has no such field.
bool EndedByExit(const Trace& trace, const EntityChunk& chunk, size_t i, KernelState kind);

}  // namespace macroscope::analysis::kernel
