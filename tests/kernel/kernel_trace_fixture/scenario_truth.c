/* See scenario_truth.h. A handful of threads and events: plain arrays. */
#include "scenario_truth.h"

#include <stdlib.h>
#include <string.h>

enum { kMaxThreads = 32, kMaxNames = 4, kMaxCpus = 2, kMaxIntervals = 64, kMaxEventNames = 64 };

enum State { kNone, kUser, kKernel, kInterrupted, kExiting, kWaiting, kRunnable, kStates };
static const char *const kStateNames[kStates] = {"none",    "user",    "kernel",  "interrupted",
                                                 "exiting", "waiting", "runnable"};

struct Interval {
  int64_t start, end;
  enum State state;
};

struct Thread {
  int tid, pid, ppid;
  char names[kMaxNames][16];
  int n_names;
  int64_t start, end, last_seen;
  int exited, dead;  /* dead: switched out for the last time after its exit */
  enum State off_cpu;  /* the state while not current on a CPU */
  int syscall_depth, syscalls;
  int64_t ns[kStates];
  struct Interval intervals[kMaxIntervals];
  int n_intervals;
};

struct Cpu {
  int current;  /* -1: unknown */
  int interrupt_depth;
  int64_t idle_ns;
};

/* The kernel subsystems of ../shared/spec/management.md by tracepoint
 * prefix; the first matching prefix wins, unmatched events are `other`. */
static const struct {
  const char *prefix, *subsystem;
} kPrefixes[] = {
    {"timer_", "processor"},   {"hrtimer_", "processor"}, {"itimer_", "processor"},   {"power_", "processor"},
    {"irq_", "processor"},     {"softirq_", "processor"}, {"kmem_", "memory"},        {"mm_", "memory"},
    {"workqueue_", "system"},  {"signal_", "system"},     {"sched_", "system"},       {"module_", "system"},
    {"rpm_", "system"},        {"lttng_", "system"},      {"rcu_", "system"},         {"regulator_", "system"},
    {"regmap_", "system"},     {"regcache_", "system"},   {"random_", "system"},      {"console_", "system"},
    {"gpio_", "system"},       {"v4l2_", "graphics"},     {"snd_", "graphics"},       {"scsi_", "disk"},
    {"jbd2_", "disk"},         {"block_", "disk"},        {"udp_", "network"},        {"rpc_", "network"},
    {"sock_", "network"},      {"skb_", "network"},       {"net_", "network"},        {"netif_", "network"},
    {"napi_", "network"},
};
enum { kPrefixCount = sizeof kPrefixes / sizeof kPrefixes[0] };
static const char *const kSubsystems[] = {"processor", "memory", "system", "graphics", "disk", "network", "other"};
enum { kSubsystemCount = sizeof kSubsystems / sizeof kSubsystems[0] };

/* Events per subsystem of one process (pid), or of `idle` / `unknown` CPUs. */
struct ProcessCounts {
  char key[16];
  int64_t per_subsystem[kSubsystemCount];
};

static struct Thread threads[kMaxThreads];
static int n_threads;
static struct Cpu cpus[kMaxCpus] = {{-1, 0, 0}, {-1, 0, 0}};
static int64_t now = -1, first_event = -1;
static int64_t events;
static struct {
  char name[48];
  int64_t count;
} per_name[kMaxEventNames];
static int n_names;
static int64_t per_prefix[kPrefixCount], per_subsystem[kSubsystemCount];
static struct ProcessCounts per_process[kMaxThreads + 2];
static int n_processes;

static void Die(const char *what) {
  fprintf(stderr, "make_kernel_trace: the script is inconsistent: %s\n", what);
  exit(2);
}

static struct Thread *Find(int tid) {
  for (int i = 0; i < n_threads; ++i)
    if (threads[i].tid == tid) return &threads[i];
  return NULL;
}

static struct Thread *Get(int tid) {
  struct Thread *t = Find(tid);
  if (t == NULL) Die("a thread used before it is known");
  return t;
}

static struct Thread *Add(int tid, int pid, int ppid, const char *name, enum State off_cpu) {
  if (Find(tid) != NULL || n_threads == kMaxThreads) Die("a thread added twice");
  struct Thread *t = &threads[n_threads++];
  memset(t, 0, sizeof *t);
  t->tid = tid;
  t->pid = pid;
  t->ppid = ppid;
  snprintf(t->names[t->n_names++], sizeof t->names[0], "%s", name);
  t->start = t->last_seen = now;
  t->off_cpu = off_cpu;
  return t;
}

static int CpuOf(const struct Thread *t) {
  for (int c = 0; c < kMaxCpus; ++c)
    if (cpus[c].current == t->tid) return c;
  return -1;
}

static enum State StateOf(const struct Thread *t) {
  int cpu = CpuOf(t);
  if (t->dead) return kNone;
  if (t->exited && cpu >= 0) return kExiting;
  if (cpu < 0) return t->off_cpu;
  if (cpus[cpu].interrupt_depth > 0) return kInterrupted;
  return t->syscall_depth > 0 ? kKernel : kUser;
}

/* Gives the time since the previous event to each thread's state and each
 * idle CPU. */
static void CloseUntil(int64_t t) {
  if (now >= 0) {
    for (int i = 0; i < n_threads; ++i) {
      struct Thread *th = &threads[i];
      enum State s = StateOf(th);
      if (s == kNone || t == now) continue;
      th->ns[s] += t - now;
      struct Interval *last = th->n_intervals > 0 ? &th->intervals[th->n_intervals - 1] : NULL;
      if (last != NULL && last->state == s && last->end == now) {
        last->end = t;
      } else {
        if (th->n_intervals == kMaxIntervals) Die("too many intervals");
        th->intervals[th->n_intervals++] = (struct Interval){now, t, s};
      }
    }
    for (int c = 0; c < kMaxCpus; ++c)
      if (cpus[c].current == 0) cpus[c].idle_ns += t - now;
  }
  now = t;
}

static const char *SubsystemOf(const char *name, int *prefix) {
  for (int i = 0; i < kPrefixCount; ++i) {
    if (strncmp(name, kPrefixes[i].prefix, strlen(kPrefixes[i].prefix)) == 0) {
      *prefix = i;
      return kPrefixes[i].subsystem;
    }
  }
  *prefix = -1;
  return "other";
}

static int SubsystemIndex(const char *subsystem) {
  for (int i = 0; i < kSubsystemCount; ++i)
    if (strcmp(kSubsystems[i], subsystem) == 0) return i;
  return kSubsystemCount - 1;
}

static struct ProcessCounts *ProcessCounts(const char *key) {
  for (int i = 0; i < n_processes; ++i)
    if (strcmp(per_process[i].key, key) == 0) return &per_process[i];
  struct ProcessCounts *p = &per_process[n_processes++];
  memset(p, 0, sizeof *p);
  snprintf(p->key, sizeof p->key, "%s", key);
  return p;
}

void TruthEvent(int64_t t, int cpu, const char *name) {
  if (t < now) Die("events out of time order");
  if (first_event < 0) first_event = t;
  CloseUntil(t);
  ++events;
  int i = 0;
  while (i < n_names && strcmp(per_name[i].name, name) != 0) ++i;
  if (i == n_names) {
    if (n_names == kMaxEventNames) Die("too many event names");
    snprintf(per_name[n_names++].name, sizeof per_name[0].name, "%s", name);
  }
  ++per_name[i].count;
  int prefix;
  int subsystem = SubsystemIndex(SubsystemOf(name, &prefix));
  if (prefix >= 0) ++per_prefix[prefix];
  ++per_subsystem[subsystem];
  /* The event belongs to the process of the CPU's current thread (for a
   * sched_switch: the outgoing one). */
  char key[16];
  int current = cpus[cpu].current;
  if (current < 0) {
    snprintf(key, sizeof key, "unknown");
  } else if (current == 0) {
    snprintf(key, sizeof key, "idle");
  } else {
    struct Thread *th = Get(current);
    th->last_seen = t;
    snprintf(key, sizeof key, "%d", th->pid);
  }
  ++ProcessCounts(key)->per_subsystem[subsystem];
}

void TruthSeen(int tid) {
  if (tid != 0) Get(tid)->last_seen = now;
}

void TruthSwitch(int cpu, int prev_tid, int64_t prev_state, int next_tid) {
  if (cpus[cpu].current >= 0 && cpus[cpu].current != prev_tid) Die("prev_tid is not the CPU's current thread");
  if (prev_tid != 0) {
    struct Thread *prev = Get(prev_tid);
    prev->off_cpu = prev_state == 0 ? kRunnable : kWaiting;
    prev->last_seen = now;
    if (prev->exited && (prev_state & 0x70) != 0) {  /* the dead task's last switch ends it */
      prev->end = now;
      prev->dead = 1;
    }
  }
  if (next_tid != 0) {
    struct Thread *next = Get(next_tid);
    if (next->exited || CpuOf(next) >= 0) Die("switching to a thread that cannot run");
    next->last_seen = now;
  }
  cpus[cpu].current = next_tid;
}

void TruthFork(int parent_tid, int child_tid, int child_pid, const char *child_comm) {
  struct Thread *parent = Get(parent_tid);
  parent->last_seen = now;
  /* A new process's parent is the forking process; a new thread shares its
   * process's parent. */
  int ppid = child_pid == parent->pid ? parent->ppid : parent->pid;
  Add(child_tid, child_pid, ppid, child_comm, kRunnable);
}

void TruthExec(int tid, const char *new_comm) {
  struct Thread *t = Get(tid);
  if (t->n_names == kMaxNames) Die("too many names");
  snprintf(t->names[t->n_names++], sizeof t->names[0], "%s", new_comm);
  t->last_seen = now;
}

void TruthExit(int tid) {
  struct Thread *t = Get(tid);
  t->exited = 1;
  t->end = t->last_seen = now;  /* moved to its last switch when it still runs */
  t->syscall_depth = 0;
}

void TruthStatedump(int tid, int pid, int ppid, const char *name) {
  struct Thread *t = Find(tid);
  if (t == NULL) t = Add(tid, pid, ppid, name, kNone);
  t->last_seen = now;
}

static struct Thread *CurrentThread(int cpu) {
  return cpus[cpu].current > 0 ? Get(cpus[cpu].current) : NULL;
}

void TruthSyscallEntry(int cpu) {
  struct Thread *t = CurrentThread(cpu);
  if (t == NULL) return;
  ++t->syscall_depth;
  ++t->syscalls;
}

void TruthSyscallExit(int cpu) {
  struct Thread *t = CurrentThread(cpu);
  if (t != NULL && t->syscall_depth > 0) --t->syscall_depth;
}

void TruthInterruptEntry(int cpu) { ++cpus[cpu].interrupt_depth; }

void TruthInterruptExit(int cpu) {
  if (cpus[cpu].interrupt_depth > 0) --cpus[cpu].interrupt_depth;
}

const char *TruthComm(int tid, int cpu) {
  static char swapper[16];
  if (tid == 0) {
    snprintf(swapper, sizeof swapper, "swapper/%d", cpu);
    return swapper;
  }
  struct Thread *t = Get(tid);
  return t->names[t->n_names - 1];
}

int TruthCurrent(int cpu) { return cpus[cpu].current; }

/* --- JSON -------------------------------------------------------------- */

static int64_t Rel(int64_t t) { return t - first_event; }

void TruthWriteJson(FILE *out, int64_t first_event_clock_ns) {
  int64_t last = now;
  CloseUntil(last);
  fprintf(out, "{\n  \"comment\": \"Ground truth of tests/kernel/kernel_trace_fixture's scenario, kept by the script "
               "(rules: scenario_truth.h). Times: ns from the first event.\",\n");
  fprintf(out, "  \"first_event_clock_ns\": %lld,\n", (long long)first_event_clock_ns);
  fprintf(out, "  \"last_event_ns\": %lld,\n", (long long)Rel(last));
  fprintf(out, "  \"events\": %lld,\n  \"per_name\": {", (long long)events);
  for (int i = 0; i < n_names; ++i)
    fprintf(out, "%s\n    \"%s\": %lld", i ? "," : "", per_name[i].name, (long long)per_name[i].count);
  fprintf(out, "\n  },\n  \"per_prefix\": {");
  int first = 1;
  for (int i = 0; i < kPrefixCount; ++i) {
    if (per_prefix[i] == 0) continue;
    fprintf(out, "%s\n    \"%s\": %lld", first ? "" : ",", kPrefixes[i].prefix, (long long)per_prefix[i]);
    first = 0;
  }
  fprintf(out, "\n  },\n  \"per_subsystem\": {");
  for (int i = 0; i < kSubsystemCount; ++i)
    fprintf(out, "%s\n    \"%s\": %lld", i ? "," : "", kSubsystems[i], (long long)per_subsystem[i]);
  fprintf(out, "\n  },\n  \"per_process_subsystem\": {");
  for (int p = 0; p < n_processes; ++p) {
    fprintf(out, "%s\n    \"%s\": {", p ? "," : "", per_process[p].key);
    for (int i = 0; i < kSubsystemCount; ++i)
      fprintf(out, "%s\"%s\": %lld", i ? ", " : "", kSubsystems[i], (long long)per_process[p].per_subsystem[i]);
    fprintf(out, "}");
  }
  fprintf(out, "\n  },\n  \"cpus\": [");
  for (int c = 0; c < kMaxCpus; ++c)
    fprintf(out, "%s\n    {\"cpu\": %d, \"idle_ns\": %lld}", c ? "," : "", c, (long long)cpus[c].idle_ns);
  fprintf(out, "\n  ],\n  \"threads\": [");
  for (int i = 0; i < n_threads; ++i) {
    const struct Thread *t = &threads[i];
    int64_t end = t->exited ? t->end : t->last_seen;
    fprintf(out, "%s\n    {\"tid\": %d, \"pid\": %d, \"ppid\": %d, \"name\": \"%s\", \"names\": [", i ? "," : "", t->tid,
            t->pid, t->ppid, t->names[t->n_names - 1]);
    for (int n = 0; n < t->n_names; ++n) fprintf(out, "%s\"%s\"", n ? ", " : "", t->names[n]);
    fprintf(out, "],\n     \"start\": %lld, \"end\": %lld, \"exited\": %s,\n", (long long)Rel(t->start),
            (long long)Rel(end), t->exited ? "true" : "false");
    fprintf(out, "     \"running_ns\": %lld, ",
            (long long)(t->ns[kUser] + t->ns[kKernel] + t->ns[kInterrupted] + t->ns[kExiting]));
    for (int s = kUser; s < kStates; ++s) fprintf(out, "\"%s_ns\": %lld, ", kStateNames[s], (long long)t->ns[s]);
    fprintf(out, "\"syscalls\": %d,\n     \"states\": [", t->syscalls);
    for (int k = 0; k < t->n_intervals; ++k)
      fprintf(out, "%s[%lld, %lld, \"%s\"]", k ? ", " : "", (long long)Rel(t->intervals[k].start),
              (long long)Rel(t->intervals[k].end), kStateNames[t->intervals[k].state]);
    fprintf(out, "]}");
  }
  fprintf(out, "\n  ]\n}\n");
}
