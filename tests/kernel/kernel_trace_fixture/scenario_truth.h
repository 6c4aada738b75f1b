/* The ground truth of the scripted scenario, kept by the script itself as it
 * writes each event (never by reading the trace back): per thread its ids,
 * names, life and the time in each state; per CPU its idle time; per event
 * name and kernel subsystem the counts. Written as JSON beside the trace.
 *
 * The rules it applies (the issue's, spelled out):
 * - A CPU's current thread is unknown before its first sched_switch; after
 *   it, it is next_tid (tid 0: the CPU is idle).
 * - A thread that is the current thread of a CPU is `interrupted` while that
 *   CPU is in an irq/softirq handler, else `kernel` while it is inside a
 *   syscall (entry seen, exit not yet), else `user`; after its exit,
 *   `exiting`. running = user + kernel + interrupted + exiting.
 * - Off CPU: `runnable` after a sched_switch with prev_state 0 and from fork
 *   to its first run; `waiting` after any other prev_state; nothing (not
 *   counted) before a statedump-only thread's first switch.
 * - sched_process_exit ends the thread's open syscall (exit_group never
 *   returns); the task stays its CPU's current thread, `exiting`, until
 *   it switches out dead (prev_state EXIT_ZOMBIE/EXIT_DEAD/TASK_DEAD,
 *   0x70), which ends its states; switched out otherwise, it is off CPU
 *   as any thread and `exiting` again when it runs.
 * - States of live threads last until the trace's last event.
 * - start: fork, else first sight; end: the switch after its exit (the exit
 *   when it was on no CPU), else last sight (an event naming its tid, or
 *   run while it is the CPU's current thread).
 * - syscalls: syscall entries made while current (exits without an entry,
 *   like a new child's syscall_exit_clone, count nothing). */
#pragma once

#include <stdint.h>
#include <stdio.h>

/* Every event: closes the time since the previous event in each thread's
 * state, and counts the event (for its name, subsystem, and the process of
 * the CPU's current thread). Call before the event's changes below. */
void TruthEvent(int64_t t, int cpu, const char *name);

void TruthSwitch(int cpu, int prev_tid, int64_t prev_state, int next_tid);
void TruthFork(int parent_tid, int child_tid, int child_pid, const char *child_comm);
void TruthExec(int tid, const char *new_comm);
void TruthExit(int tid);
void TruthSeen(int tid);
void TruthStatedump(int tid, int pid, int ppid, const char *name);
void TruthSyscallEntry(int cpu);
void TruthSyscallExit(int cpu);
void TruthInterruptEntry(int cpu);
void TruthInterruptExit(int cpu);

/* The thread's current name ("swapper/N" for tid 0 on CPU N). */
const char *TruthComm(int tid, int cpu);
/* The current thread of `cpu` (-1: unknown). */
int TruthCurrent(int cpu);

/* Closes the states at the last event's time and writes the JSON; times are
 * ns from the first event, `first_event_clock_ns` is the first event's time
 * from the clock's origin (what babeltrace2 --clock-seconds prints). */
void TruthWriteJson(FILE *out, int64_t first_event_clock_ns);
