// What the CTF reader knows of the threads, processes and CPUs of one
// kernel trace while it maps its events (kernel_mapping.cc): who runs on
// each CPU, each thread's pid, parent, names over time, life (fork or first
// sight to exit), syscall and interrupt nesting, and perf counter totals.
// Plain bookkeeping: the simulator calls live in kernel_mapping.cc.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "formats/ctf/ctf_event.h"
#include "model/string_pool.h"
#include "model/trace.h"

namespace macroscope::ctf {

// Perf counter context fields (LTTng's `perf:cpu:NAME` / `perf:thread:NAME`
// contexts, which babeltrace2 shows as perf_cpu_NAME / perf_thread_NAME).
struct CounterValues {
  std::map<std::string, int64_t, std::less<>> values;
};

struct KernelCpu {
  StringId alias = kEmptyString;
  std::optional<int64_t> current_tid;  // from the last sched_switch on this CPU; none before the first
  int syscall_depth = 0;               // syscalls pushed on the CPU (its thread unknown)
  std::vector<char> interrupts;        // open interrupts, 'i' (irq) or 's' (softirq), innermost last
  CounterValues counters_at_switch;    // perf_cpu_* at the CPU's last sched_switch
};

struct KernelThread {
  int64_t tid = 0;
  int64_t pid = 0;              // tid until a statedump, fork or exec says otherwise
  std::optional<int64_t> ppid;  // the parent process, when an event says it
  std::vector<std::string> names;  // comm, in the order seen (exec and renames append)
  StringId alias = kEmptyString;
  ContainerId id = kNone;
  size_t process = 0;           // index in KernelTables::processes (its container's process)
  // Its last sight: an event naming it, or any event of its CPU while it is
  // the current thread there.
  double last_seen = 0;
  bool ended = false;           // switched out or freed after its exit, or its tid forked again: no more states
  bool exited = false;          // sched_process_exit seen (it runs on, exiting, until it switches out dead)
  bool freed = false;           // sched_process_free after the exit: its tid may be used again
  std::optional<int64_t> cpu;   // the CPU it is the current thread of
  int syscall_depth = 0;
  std::string_view off_cpu;     // "waiting" / "runnable" since its last switch-out; empty before
  std::string_view state;       // the Thread state set last (empty: none yet)
  CounterValues counters_at_switch;               // perf_thread_* at its last switch-out
  std::map<std::string, int64_t, std::less<>> counter_totals;  // deltas summed
};

struct KernelProcess {
  int64_t pid = 0;
  std::optional<int64_t> ppid;
  StringId alias = kEmptyString;
  ContainerId id = kNone;
  int living_threads = 0;
  bool ended = false;
};

// Every thread and process of one trace, with the living one of each id.
struct KernelTables {
  std::unordered_map<int64_t, KernelCpu> cpus;
  std::deque<KernelThread> threads;     // all, in creation order
  std::deque<KernelProcess> processes;  // all, in creation order
  std::unordered_map<int64_t, size_t> thread_by_tid;    // latest incarnation of a tid
  std::unordered_map<int64_t, size_t> process_by_pid;   // latest incarnation of a pid
  std::unordered_map<int64_t, int> tid_incarnations, pid_incarnations;

  // The latest thread of `tid`, ended or not (nullptr: never seen).
  KernelThread* Latest(int64_t tid) {
    auto it = thread_by_tid.find(tid);
    return it == thread_by_tid.end() ? nullptr : &threads[it->second];
  }
};

// True when a sched_switch's prev_state says the task was preempted (still
// runnable): 0 (TASK_RUNNING), or the "preempted" marker kernels add to it:
// TASK_STATE_MAX in 3.x-4.13 (0x400 up to 4.1, 0x800 in 4.2-4.10, 0x1000 in
// 4.11-4.13) and TASK_REPORT_MAX (0x100) from 4.14. Any other value is a
// blocked task (interruptible 1, uninterruptible 2, ...).
bool IsPreempted(int64_t prev_state);

// True when a sched_switch's prev_state says the task is dead: switching
// out for the last time after its exit. EXIT_ZOMBIE 0x10, EXIT_DEAD 0x20
// and TASK_DEAD 0x40 up to 4.13; from 4.14 the exit states alone are
// reported, as 0x10 (X) and 0x20 (Z). An exiting task that is preempted
// or blocks switches out with another state and comes back.
bool IsDead(int64_t prev_state);

// The comm an exec gives: the file name's last component, cut to 15
// characters as the kernel's TASK_COMM_LEN does.
std::string CommAfterExec(std::string_view filename);

// The event's perf counter fields of `prefix` ("perf_cpu_" or "perf_thread_").
CounterValues CountersOf(const CtfEvent& e, std::string_view prefix);

// Adds now - before, per counter both have, to `totals`.
void AddDeltas(const CounterValues& before, const CounterValues& now,
               std::map<std::string, int64_t, std::less<>>& totals);

}  // namespace macroscope::ctf
