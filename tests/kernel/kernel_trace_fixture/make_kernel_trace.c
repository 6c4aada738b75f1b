/* Writes the suite's kernel-shaped CTF trace with the barectf tracer
 * generated from kernel_trace.yaml, replaying a fixed scenario on 2 CPUs, and
 * the scenario's ground truth beside it:
 *
 *   make_kernel_trace METADATA OUT_DIR
 *     OUT_DIR/kernel/            the trace (METADATA + channel0_0, channel0_1)
 *     OUT_DIR/ground-truth.json  see scenario_truth.h
 *
 * The scenario: the statedump lists init, lttng-sessiond and a shell; the
 * shell forks a child that execs "bench"; bench forks 3 workers (one of which
 * clones a thread) that make syscalls (read, write, ioctl), are interrupted
 * (irq, softirq), block (prev_state 1) and are preempted (prev_state 0), exit
 * (exit_group never returns) and are reaped and freed; CPUs idle in between.
 * Kept realistic on purpose: events before a CPU's first sched_switch, a new
 * child's syscall_exit_clone without an entry, several packets per stream.
 *
 * Each event goes through one wrapper below that both writes it and tells
 * the ground truth what it means, in the script's (global time) order. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "barectf.h"
#include "kernel_platform.h"
#include "scenario_truth.h"

/* LTTng's kernel clock counts from boot; the first event is 2.5 s after it. */
static const int64_t kBootToFirstEventNs = 2500000000LL;
static const int64_t kClockOffsetSeconds = 1700000000LL; /* kernel_trace.yaml */
static const int kPrio = 20;                             /* lttng: prio - MAX_RT_PRIO */
enum { kRunning = 0, kInterruptible = 1, kDead = 64 };    /* prev_state values */
enum { kStatusWait = 5, kStatusRun = 6 };                /* statedump status */

/* The script counts in microseconds; each becomes an odd number of ns, so
 * nothing that rounds to the microsecond could pass. Strictly increasing. */
static int64_t Ns(int us) { return (int64_t)us * 1000 + ((int64_t)us * 7919) % 997; }

/* Every event starts here: the clock and the ground truth move to its time. */
static struct barectf_channel0_ctx *At(int cpu, int us, const char *name) {
  PlatformSetClock((uint64_t)(kBootToFirstEventNs + Ns(us)));
  TruthEvent(Ns(us), cpu, name);
  return PlatformStream(cpu);
}

static int Current(int cpu) { return TruthCurrent(cpu); }
static const char *Comm(int tid, int cpu) { return TruthComm(tid, cpu); }

/* --- scheduler and processes --------------------------------------------- */

static void Switch(int cpu, int us, int prev_tid, int64_t prev_state, int next_tid) {
  struct barectf_channel0_ctx *s = At(cpu, us, "sched_switch");
  char prev_comm[16];
  snprintf(prev_comm, sizeof prev_comm, "%s", Comm(prev_tid, cpu));
  barectf_trace_sched_switch(s, prev_comm, prev_tid, kPrio, prev_state, Comm(next_tid, cpu), next_tid, kPrio);
  TruthSwitch(cpu, prev_tid, prev_state, next_tid);
}

/* The CPU's current thread forks: a new process (child_pid == child_tid) or
 * a thread of the parent's process. */
static void Fork(int cpu, int us, int child_tid, int child_pid) {
  struct barectf_channel0_ctx *s = At(cpu, us, "sched_process_fork");
  int parent = Current(cpu);
  int parent_pid = parent; /* every parent of the scenario is a main thread */
  barectf_trace_sched_process_fork(s, Comm(parent, cpu), parent, parent_pid, Comm(parent, cpu), child_tid, child_pid);
  TruthFork(parent, child_tid, child_pid, Comm(parent, cpu));
}

static void Exec(int cpu, int us, const char *filename, const char *new_comm) {
  struct barectf_channel0_ctx *s = At(cpu, us, "sched_process_exec");
  int tid = Current(cpu);
  barectf_trace_sched_process_exec(s, filename, tid, tid);
  TruthExec(tid, new_comm);
}

/* The current thread exits and the CPU switches away at the same instant. */
static void ExitAndSwitch(int cpu, int us, int next_tid) {
  int tid = Current(cpu);
  struct barectf_channel0_ctx *s = At(cpu, us, "sched_process_exit");
  barectf_trace_sched_process_exit(s, Comm(tid, cpu), tid, kPrio);
  TruthExit(tid);
  Switch(cpu, us, tid, kDead, next_tid);
}

static void Free(int cpu, int us, int tid) {
  struct barectf_channel0_ctx *s = At(cpu, us, "sched_process_free");
  barectf_trace_sched_process_free(s, Comm(tid, cpu), tid, kPrio);
  TruthSeen(tid);
}

static void StatedumpStart(int cpu, int us) { barectf_trace_lttng_statedump_start(At(cpu, us, "lttng_statedump_start")); }
static void StatedumpEnd(int cpu, int us) { barectf_trace_lttng_statedump_end(At(cpu, us, "lttng_statedump_end")); }

static void Statedump(int cpu, int us, int tid, int ppid, const char *name, int status) {
  struct barectf_channel0_ctx *s = At(cpu, us, "lttng_statedump_process_state");
  barectf_trace_lttng_statedump_process_state(s, tid, tid, tid, tid, ppid, ppid, name, 0, 0, 0, status, 0);
  TruthStatedump(tid, tid, ppid, name);
}

/* --- syscalls -------------------------------------------------------------- */

static void EntryRead(int cpu, int us, uint32_t fd, uint64_t count) {
  barectf_trace_syscall_entry_read(At(cpu, us, "syscall_entry_read"), fd, count);
  TruthSyscallEntry(cpu);
}
static void ExitRead(int cpu, int us, int64_t ret) {
  barectf_trace_syscall_exit_read(At(cpu, us, "syscall_exit_read"), ret, 0x7ffd1000);
  TruthSyscallExit(cpu);
}
static void EntryWrite(int cpu, int us, uint32_t fd, uint64_t count) {
  barectf_trace_syscall_entry_write(At(cpu, us, "syscall_entry_write"), fd, 0x55d0a000, count);
  TruthSyscallEntry(cpu);
}
static void ExitWrite(int cpu, int us, int64_t ret) {
  barectf_trace_syscall_exit_write(At(cpu, us, "syscall_exit_write"), ret);
  TruthSyscallExit(cpu);
}
static void EntryClone(int cpu, int us, uint64_t flags) {
  barectf_trace_syscall_entry_clone(At(cpu, us, "syscall_entry_clone"), flags, 0, 0, 0x7f3a5e1ff910);
  TruthSyscallEntry(cpu);
}
static void ExitClone(int cpu, int us, int64_t ret) {
  barectf_trace_syscall_exit_clone(At(cpu, us, "syscall_exit_clone"), ret);
  TruthSyscallExit(cpu);
}
static void EntryExecve(int cpu, int us, const char *filename) {
  barectf_trace_syscall_entry_execve(At(cpu, us, "syscall_entry_execve"), filename, 0x7ffd2000, 0x7ffd2100);
  TruthSyscallEntry(cpu);
}
static void ExitExecve(int cpu, int us) {
  barectf_trace_syscall_exit_execve(At(cpu, us, "syscall_exit_execve"), 0);
  TruthSyscallExit(cpu);
}
static void EntryWait4(int cpu, int us) {
  barectf_trace_syscall_entry_wait4(At(cpu, us, "syscall_entry_wait4"), -1, 0);
  TruthSyscallEntry(cpu);
}
static void ExitWait4(int cpu, int us, int64_t ret) {
  barectf_trace_syscall_exit_wait4(At(cpu, us, "syscall_exit_wait4"), ret, 0, 0);
  TruthSyscallExit(cpu);
}
static void EntryIoctl(int cpu, int us) {
  barectf_trace_syscall_entry_ioctl(At(cpu, us, "syscall_entry_ioctl"), 5, 0xc058560f, 0x7ffd3000);
  TruthSyscallEntry(cpu);
}
static void ExitIoctl(int cpu, int us) {
  barectf_trace_syscall_exit_ioctl(At(cpu, us, "syscall_exit_ioctl"), 0, 0x7ffd3000);
  TruthSyscallExit(cpu);
}
/* exit and exit_group never return: no exit event follows. */
static void EntryExit(int cpu, int us) {
  barectf_trace_syscall_entry_exit(At(cpu, us, "syscall_entry_exit"), 0);
  TruthSyscallEntry(cpu);
}
static void EntryExitGroup(int cpu, int us) {
  barectf_trace_syscall_entry_exit_group(At(cpu, us, "syscall_entry_exit_group"), 0);
  TruthSyscallEntry(cpu);
}

/* --- interrupts -------------------------------------------------------------- */

static void IrqEntry(int cpu, int us, int irq, const char *name) {
  barectf_trace_irq_handler_entry(At(cpu, us, "irq_handler_entry"), irq, name);
  TruthInterruptEntry(cpu);
}
static void IrqExit(int cpu, int us, int irq) {
  barectf_trace_irq_handler_exit(At(cpu, us, "irq_handler_exit"), irq, 1);
  TruthInterruptExit(cpu);
}
static void SoftirqRaise(int cpu, int us, uint32_t vec) { barectf_trace_softirq_raise(At(cpu, us, "softirq_raise"), vec); }
static void SoftirqEntry(int cpu, int us, uint32_t vec) {
  barectf_trace_softirq_entry(At(cpu, us, "softirq_entry"), vec);
  TruthInterruptEntry(cpu);
}
static void SoftirqExit(int cpu, int us, uint32_t vec) {
  barectf_trace_softirq_exit(At(cpu, us, "softirq_exit"), vec);
  TruthInterruptExit(cpu);
}

/* --- other subsystems (punctual) ---------------------------------------------- */

static const uint64_t kTimer = 0xffff8880031f3e58ULL;
static void HrtimerStart(int cpu, int us) {
  barectf_trace_timer_hrtimer_start(At(cpu, us, "timer_hrtimer_start"), kTimer, 0xffffffff8111c2a0ULL,
                                    kBootToFirstEventNs + Ns(us) + 1000000, kBootToFirstEventNs + Ns(us) + 1000000);
}
static void HrtimerExpireEntry(int cpu, int us) {
  barectf_trace_timer_hrtimer_expire_entry(At(cpu, us, "timer_hrtimer_expire_entry"), kTimer,
                                           kBootToFirstEventNs + Ns(us), 0xffffffff8111c2a0ULL);
}
static void HrtimerExpireExit(int cpu, int us) {
  barectf_trace_timer_hrtimer_expire_exit(At(cpu, us, "timer_hrtimer_expire_exit"), kTimer);
}
static void Kmalloc(int cpu, int us, uint64_t ptr, uint64_t bytes) {
  barectf_trace_kmem_kmalloc(At(cpu, us, "kmem_kmalloc"), 0xffffffff812a3b4cULL, ptr, bytes, bytes, 0xcc0);
}
static void Kfree(int cpu, int us, uint64_t ptr) {
  barectf_trace_kmem_kfree(At(cpu, us, "kmem_kfree"), 0xffffffff812a3c10ULL, ptr);
}
static void PageAlloc(int cpu, int us) {
  barectf_trace_mm_page_alloc(At(cpu, us, "mm_page_alloc"), 0xffffea0000a1b2c0ULL, 0, 0x100cca, 1);
}
static void SignalGenerate(int cpu, int us, int to_pid) {
  barectf_trace_signal_generate(At(cpu, us, "signal_generate"), 17, 0, 1, Comm(to_pid, cpu), to_pid, 1, 0);
}
static void RcuUtilization(int cpu, int us) {
  barectf_trace_rcu_utilization(At(cpu, us, "rcu_utilization"), "Start scheduler-tick");
}
static void V4l2Qbuf(int cpu, int us) { barectf_trace_v4l2_qbuf(At(cpu, us, "v4l2_qbuf"), 0, 2, 1, 614400, 0x4001); }
static void BlockIssue(int cpu, int us) {
  barectf_trace_block_rq_issue(At(cpu, us, "block_rq_issue"), 8u << 20, 2048, 8, 4096, Current(cpu), 4,
                               Comm(Current(cpu), cpu));
}
static void BlockComplete(int cpu, int us) {
  barectf_trace_block_rq_complete(At(cpu, us, "block_rq_complete"), 8u << 20, 2048, 8, 0, 4);
}
static void NetXmit(int cpu, int us) {
  barectf_trace_net_dev_xmit(At(cpu, us, "net_dev_xmit"), 0xffff888004a2c100ULL, 0, 98, "eth0");
}
static void NetReceive(int cpu, int us) {
  barectf_trace_netif_receive_skb(At(cpu, us, "netif_receive_skb"), 0xffff888004a2d200ULL, 84, "eth0");
}

/* --- the scenario ---------------------------------------------------------------- */

enum { kInit = 1, kSessiond = 50, kShell = 100, kBench = 101, kWorker1 = 102, kWorker2 = 103, kWorker3 = 104,
       kWorker1Thread = 105 };
static const uint64_t kForkFlags = 0x1200011;  /* SIGCHLD | CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID */
static const uint64_t kThreadFlags = 0x3d0f00; /* CLONE_VM | ... | CLONE_THREAD | CLONE_SETTLS ... */
enum { kNetRx = 3 };

static void Scenario(void) {
  /* Before any sched_switch: the CPUs' threads are unknown. */
  ExitRead(0, 0, 5);
  IrqEntry(1, 1, 19, "eth0");
  NetReceive(1, 2);
  IrqExit(1, 3, 19);
  StatedumpStart(0, 5);
  Statedump(0, 6, kInit, 0, "systemd", kStatusWait);
  Statedump(0, 7, kSessiond, kInit, "lttng-sessiond", kStatusRun);
  Statedump(0, 8, kShell, kInit, "bash", kStatusWait);
  StatedumpEnd(0, 9);
  /* The shell reads a command and forks a child that execs bench. */
  Switch(0, 10, 0, kRunning, kShell);
  EntryRead(0, 12, 0, 128);
  Kmalloc(0, 14, 0xffff888003a1c000ULL, 192);
  Switch(1, 15, kSessiond, kInterruptible, 0);
  ExitRead(0, 16, 6);
  EntryClone(0, 18, kForkFlags);
  Fork(0, 20, kBench, kBench);
  ExitClone(0, 22, kBench);
  EntryWait4(0, 24);
  Switch(0, 26, kShell, kInterruptible, 0);
  Switch(1, 28, 0, kRunning, kBench);
  ExitClone(1, 28, 0); /* the child returns from clone: no entry seen */
  EntryExecve(1, 30, "/usr/bin/bench");
  PageAlloc(1, 32);
  Exec(1, 34, "/usr/bin/bench", "bench");
  ExitExecve(1, 36);
  /* bench forks three workers and waits. */
  EntryClone(1, 40, kForkFlags);
  Fork(1, 42, kWorker1, kWorker1);
  ExitClone(1, 44, kWorker1);
  EntryClone(1, 46, kForkFlags);
  Fork(1, 47, kWorker2, kWorker2);
  ExitClone(1, 48, kWorker2);
  EntryClone(1, 50, kForkFlags);
  Fork(1, 51, kWorker3, kWorker3);
  ExitClone(1, 52, kWorker3);
  EntryWait4(1, 54);
  Switch(1, 56, kBench, kInterruptible, kWorker1);
  ExitClone(1, 56, 0);
  Switch(0, 58, 0, kRunning, kWorker2);
  ExitClone(0, 58, 0);
  /* Worker 1 writes, interrupted by the network; worker 2 blocks on disk. */
  EntryWrite(1, 60, 1, 64);
  EntryRead(0, 61, 3, 4096);
  Kmalloc(1, 62, 0xffff888003a1d000ULL, 64);
  BlockIssue(0, 63);
  IrqEntry(1, 64, 19, "eth0");
  Switch(0, 65, kWorker2, kInterruptible, kWorker3);
  ExitClone(0, 65, 0);
  SoftirqRaise(1, 66, kNetRx);
  HrtimerStart(0, 67);
  IrqExit(1, 68, 19);
  SoftirqEntry(1, 70, kNetRx);
  NetReceive(1, 71);
  SoftirqExit(1, 72, kNetRx);
  EntryIoctl(0, 73);
  ExitWrite(1, 74, 64);
  V4l2Qbuf(0, 75);
  EntryClone(1, 76, kThreadFlags);
  ExitIoctl(0, 77);
  Fork(1, 78, kWorker1Thread, kWorker1);
  ExitClone(1, 79, kWorker1Thread);
  /* The disk completes: worker 3 is preempted by worker 2. */
  IrqEntry(0, 80, 14, "ahci");
  BlockComplete(0, 81);
  IrqExit(0, 82, 14);
  Switch(0, 83, kWorker3, kRunning, kWorker2);
  ExitRead(0, 84, 4096);
  HrtimerExpireEntry(1, 85);
  HrtimerExpireExit(1, 86);
  Switch(1, 88, kWorker1, kRunning, kWorker1Thread);
  ExitClone(1, 88, 0);
  EntryWrite(1, 90, 1, 32);
  NetXmit(1, 92);
  ExitWrite(1, 94, 32);
  /* Exits: worker 2, the thread, worker 1; bench reaps them. */
  EntryExitGroup(0, 96);
  ExitAndSwitch(0, 98, kWorker3);
  EntryRead(0, 100, 0, 16);
  Switch(0, 102, kWorker3, kInterruptible, 0);
  EntryExit(1, 104);
  ExitAndSwitch(1, 106, kWorker1);
  Free(1, 108, kWorker1Thread);
  EntryExitGroup(1, 110);
  SignalGenerate(1, 111, kBench);
  ExitAndSwitch(1, 112, kBench);
  ExitWait4(1, 113, kWorker1);
  Free(1, 114, kWorker1);
  EntryWait4(1, 115);
  ExitWait4(1, 116, kWorker2);
  Free(1, 117, kWorker2);
  EntryWait4(1, 118);
  Switch(1, 120, kBench, kInterruptible, 0);
  Switch(0, 122, 0, kRunning, kWorker3);
  ExitRead(0, 124, 10);
  Kfree(0, 126, 0xffff888003a1c000ULL);
  EntryExitGroup(0, 128);
  SignalGenerate(0, 129, kBench);
  ExitAndSwitch(0, 130, 0);
  Switch(1, 132, 0, kRunning, kBench);
  ExitWait4(1, 133, kWorker3);
  Free(1, 134, kWorker3);
  EntryWrite(1, 136, 1, 20);
  ExitWrite(1, 138, 20);
  EntryExitGroup(1, 140);
  SignalGenerate(1, 141, kShell);
  ExitAndSwitch(1, 142, kShell);
  ExitWait4(1, 144, kBench);
  Free(1, 145, kBench);
  EntryRead(1, 146, 0, 128);
  Switch(1, 148, kShell, kInterruptible, 0);
  /* Idle; the trace ends on both CPUs at once, with the shell and
   * lttng-sessiond just switched in (so no live thread outlasts its last
   * sighting). */
  RcuUtilization(0, 150);
  HrtimerExpireEntry(0, 151);
  HrtimerExpireExit(0, 152);
  Switch(0, 154, 0, kRunning, kSessiond);
  Switch(1, 154, 0, kRunning, kShell);
}

static void MakeDir(const char *path) {
  if (mkdir(path, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "make_kernel_trace: cannot create %s: %s\n", path, strerror(errno));
    exit(1);
  }
}

static void CopyFile(const char *from, const char *to) {
  FILE *in = fopen(from, "rb");
  FILE *out = fopen(to, "wb");
  if (in == NULL || out == NULL) {
    fprintf(stderr, "make_kernel_trace: cannot copy %s to %s\n", from, to);
    exit(1);
  }
  char buf[8192];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0)
    if (fwrite(buf, 1, n, out) != n) exit(1);
  fclose(in);
  if (fclose(out) != 0) exit(1);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: make_kernel_trace METADATA OUT_DIR\n");
    return 1;
  }
  char trace_dir[4096], truth[4096], truth_tmp[4200];
  snprintf(trace_dir, sizeof trace_dir, "%s/kernel", argv[2]);
  snprintf(truth, sizeof truth, "%s/ground-truth.json", argv[2]);
  snprintf(truth_tmp, sizeof truth_tmp, "%s.tmp", truth);
  MakeDir(argv[2]);
  MakeDir(trace_dir);
  char metadata[4200];
  snprintf(metadata, sizeof metadata, "%s/metadata", trace_dir);
  CopyFile(argv[1], metadata);

  PlatformOpen(trace_dir, (uint64_t)kBootToFirstEventNs);
  Scenario();
  PlatformClose();

  FILE *out = fopen(truth_tmp, "w");
  if (out == NULL) return 1;
  TruthWriteJson(out, kClockOffsetSeconds * 1000000000LL + kBootToFirstEventNs);
  if (fclose(out) != 0 || rename(truth_tmp, truth) != 0) {
    fprintf(stderr, "make_kernel_trace: cannot write %s\n", truth);
    return 1;
  }
  return 0;
}
