#include "analysis/kernel/thread_critical_path.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <stdexcept>

#include "analysis/critical_path.h"
#include "analysis/kernel/kernel_entities.h"
#include "analysis/relative_time.h"
#include "util/error.h"

namespace macroscope::analysis::kernel {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// What a string is, for the accumulator: a Thread state's value or an
// event's name.
enum Class : uint8_t { kUnclassed, kOther, kOnCpu, kWaiting, kRunnableValue, kWakeupEvent, kWakingEvent, kForkEvent };

Class Classify(std::string_view s) {
  if (s == "user" || s == "kernel" || s == "interrupted" || s == "exiting") return kOnCpu;
  if (s == "waiting") return kWaiting;
  if (s == "runnable") return kRunnableValue;
  const std::string_view base = EventBaseName(s);
  if (base == "sched_wakeup") return kWakeupEvent;
  if (base == "sched_waking") return kWakingEvent;
  if (base == "sched_process_fork") return kForkEvent;
  return kOther;
}

// A timer's interrupt: the TIMER or HRTIMER softirq, or an IRQ whose
// handler's name says timer.
bool IsTimer(std::string_view interrupt) {
  const std::optional<KernelStateValue> v = KernelStateOf(interrupt);
  if (!v) return false;
  if (v->kind == KernelState::kSoftIrq) return v->name == "TIMER" || v->name == "HRTIMER";
  std::string name(v->name);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  return name.find("timer") != std::string::npos;
}

// A task's run on a CPU.
struct Run {
  double start, end;
  ContainerId cpu;
};

template <class T>
void SortByStart(std::vector<T>& v) {
  std::sort(v.begin(), v.end(), [](const T& a, const T& b) { return a.start < b.start; });
}

}  // namespace

std::string_view PathStateName(PathState state) {
  switch (state) {
    case PathState::kRunning: return "running";
    case PathState::kRunnable: return "runnable";
    case PathState::kPreempted: return "preempted";
    case PathState::kInterrupt: return "interrupt";
    case PathState::kTimer: return "timer";
    case PathState::kBlocked: return "blocked";
  }
  return "";
}

void ThreadCriticalPathAccumulator::Add(const Trace& trace, const EntityChunk& chunk) {
  if (chunk.empty()) return;
  auto class_of = [&](StringId v) {
    if (v >= classes_.size()) classes_.resize(std::max<size_t>(v + 1, classes_.size() * 2));
    if (classes_[v] == kUnclassed) classes_[v] = Classify(trace.Str(v));
    return static_cast<Class>(classes_[v]);
  };
  if (chunk.kind == TypeKind::kEvent) {
    for (size_t i = 0; i < chunk.size(); ++i) {
      const Class c = class_of(chunk.Value(i));
      if (c == kForkEvent) {
        // LTTng's child_tid / parent_tid; perf's and ftrace's *_pid (tids).
        std::optional<int64_t> child = IntegerField(trace, chunk, i, "child_tid");
        if (!child) child = IntegerField(trace, chunk, i, "child_pid");
        std::optional<int64_t> parent = IntegerField(trace, chunk, i, "parent_tid");
        if (!parent) parent = IntegerField(trace, chunk, i, "parent_pid");
        if (child && parent) forks_[*child].push_back({chunk.start[i], *parent});
        continue;
      }
      if (c != kWakeupEvent && c != kWakingEvent) continue;
      if (std::optional<int64_t> tid = WokenTid(trace, chunk, i))
        (c == kWakeupEvent ? wakeups_ : wakings_)[*tid].push_back({chunk.start[i], chunk.container});
    }
    return;
  }
  if (chunk.kind != TypeKind::kState) return;
  const std::string_view type = trace.Str(chunk.type_name);
  if (type == kThreadStateType) {
    std::vector<Span>& spans = threads_[chunk.container];
    for (size_t i = 0; i < chunk.size(); ++i) {
      const Class c = class_of(chunk.Value(i));
      if (c == kOnCpu || c == kWaiting || c == kRunnableValue) spans.push_back({chunk.start[i], chunk.End(i), c});
    }
  } else if (type == kCpuStateType) {
    std::vector<Span>& spans = cpus_[chunk.container];
    for (size_t i = 0; i < chunk.size(); ++i)
      spans.push_back({chunk.start[i], chunk.End(i), NextTid(trace, chunk, i).value_or(-1)});
  } else if (type == kInterruptType) {
    std::vector<Span>& spans = interrupts_[chunk.container];
    for (size_t i = 0; i < chunk.size(); ++i)
      spans.push_back({chunk.start[i], chunk.End(i), chunk.Value(i), chunk.Level(i)});
  }
}

std::vector<ThreadPathSegment> ThreadCriticalPathAccumulator::Path(const Trace& trace, int64_t tid,
                                                                   std::optional<double> end,
                                                                   std::string_view what) const {
  if (!IsKernelTrace(trace))
    throw UserError(std::string(what) + ": not a kernel trace (no CPU): a thread's critical path follows the "
                                        "sched_switch and sched_wakeup events of LTTng kernel, perf or trace-cmd");
  // Each thread's states, each tid's threads by their first state.
  std::unordered_map<ContainerId, std::vector<Span>> threads = threads_;
  std::unordered_map<ContainerId, int64_t> tid_of;
  std::unordered_map<int64_t, std::vector<ContainerId>> by_tid;
  for (auto& [id, spans] : threads) {
    if (spans.empty() || !ContainerIs(trace, id, kThreadAlias)) continue;
    std::optional<int64_t> t = IntegerField(trace, trace.container(id), "tid");
    if (!t) continue;
    SortByStart(spans);
    tid_of[id] = *t;
    by_tid[*t].push_back(id);
  }
  for (auto& [t, ids] : by_tid)
    std::sort(ids.begin(), ids.end(), [&](ContainerId a, ContainerId b) {
      return threads.at(a).front().start < threads.at(b).front().start;
    });
  // The thread of tid `t` at time `at`: the last one started before it.
  auto thread_at = [&](int64_t t, double at) -> ContainerId {
    auto it = by_tid.find(t);
    if (it == by_tid.end()) return kNone;
    ContainerId found = it->second.front();
    for (ContainerId id : it->second)
      if (threads.at(id).front().start < at) found = id;
    return found;
  };
  // Each CPU's tasks and interrupts; each tid's runs.
  std::unordered_map<ContainerId, std::vector<Span>> cpus = cpus_, interrupts = interrupts_;
  std::unordered_map<int64_t, std::vector<Run>> runs;
  for (auto& [cpu, spans] : cpus) {
    SortByStart(spans);
    for (const Span& s : spans)
      if (s.value > 0) runs[s.value].push_back({s.start, s.end, cpu});
  }
  for (auto& [t, r] : runs) SortByStart(r);
  for (auto& [cpu, spans] : interrupts)
    std::sort(spans.begin(), spans.end(),
              [](const Span& a, const Span& b) { return std::tie(a.start, a.level) < std::tie(b.start, b.level); });
  // The wakeups: sched_waking, in the waker's context, when the trace has
  // any; else sched_wakeup.
  std::unordered_map<int64_t, std::vector<Wakeup>> wakeups = wakings_.empty() ? wakeups_ : wakings_;
  size_t work = 64;
  for (auto& [t, w] : wakeups) {
    std::sort(w.begin(), w.end(), [](const Wakeup& a, const Wakeup& b) { return a.time < b.time; });
    work += w.size();
  }
  for (auto& [t, f] : forks_) work += f.size();
  std::unordered_map<int64_t, std::vector<Fork>> forks = forks_;
  for (auto& [t, f] : forks)
    std::sort(f.begin(), f.end(), [](const Fork& a, const Fork& b) { return a.time < b.time; });
  for (const auto& [id, spans] : threads) work += spans.size();
  for (const auto& [cpu, spans] : cpus) work += spans.size();

  ContainerId thread = kNone;
  if (auto it = by_tid.find(tid); it != by_tid.end()) thread = end ? thread_at(tid, *end) : it->second.back();
  if (thread == kNone) throw UserError(std::string(what) + ": no thread of tid " + std::to_string(tid) + " in the trace");
  double t = threads.at(thread).back().end;
  if (end) t = std::min(t, *end);

  // The last element of sorted `v` whose start is before `at`, or nullptr.
  auto before = [](const auto& v, double at) -> decltype(&v.front()) {
    auto it = std::lower_bound(v.begin(), v.end(), at, [](const auto& x, double a) { return x.start < a; });
    return it == v.begin() ? nullptr : &*std::prev(it);
  };
  // The innermost interrupt open on `cpu` at `at`, or nullptr.
  auto interrupt_at = [&](ContainerId cpu, double at) -> const Span* {
    auto it = interrupts.find(cpu);
    if (it == interrupts.end()) return nullptr;
    const std::vector<Span>& s = it->second;
    const Span* found = nullptr;
    for (auto k = std::upper_bound(s.begin(), s.end(), at, [](double a, const Span& x) { return a < x.start; });
         k != s.begin();) {
      --k;
      if (k->end >= at && (found == nullptr || k->level > found->level)) found = &*k;
      if (k->level == 0) break;  // outermost: those before it ended before it began
    }
    return found;
  };

  // The walk back. A frame follows a thread down to its bound, where the
  // frame below (whose thread it woke) takes over.
  struct Frame {
    ContainerId thread;
    double bound;
    ContainerId blocked;  // the thread whose wait it explains
  };
  std::vector<Frame> frames{{thread, -kInf, kNone}};
  std::vector<ThreadPathSegment> back;
  auto emit = [&](ContainerId on, double a, double b, PathState state, std::string detail) {
    if (!(b > a)) return;
    if (!back.empty() && back.back().thread == on && back.back().state == state && back.back().detail == detail &&
        back.back().start == b) {
      back.back().start = a;
      return;
    }
    back.push_back({on, tid_of.at(on), a, b, state, std::move(detail)});
  };
  // The threads followed from this t (wakers, forkers): a thread is
  // followed once from one t (a cycle in damaged data would not end).
  std::vector<ContainerId> followed;
  double followed_at = kInf;
  auto may_follow = [&](ContainerId next) {
    if (followed_at != t) {
      followed.clear();
      followed_at = t;
    }
    if (next == kNone || std::find(followed.begin(), followed.end(), next) != followed.end()) return false;
    followed.push_back(next);
    return true;
  };
  for (size_t steps = 0; !frames.empty(); ++steps) {
    // Every step moves t back, pops a frame, or follows a thread not yet
    // followed from this t.
    if (steps > 4 * work) throw std::logic_error("thread critical path: the walk does not end");
    const Frame f = frames.back();
    if (t <= f.bound) {
      frames.pop_back();
      continue;
    }
    const std::vector<Span>& spans = threads.at(f.thread);
    const Span* span = before(spans, t);
    if (span == nullptr) {
      // The thread's start: the path's; or a waker's, which the thread
      // that forked it made (the path goes on there), else the rest of the
      // wait is unknown.
      if (frames.size() == 1) break;
      const Fork* fork = nullptr;
      if (auto it = forks.find(tid_of.at(f.thread)); it != forks.end()) {
        auto k = std::upper_bound(it->second.begin(), it->second.end(), t,
                                  [](double a, const Fork& x) { return a < x.time; });
        if (k != it->second.begin() && std::prev(k)->time > f.bound) fork = &*std::prev(k);
      }
      if (fork != nullptr) {
        emit(f.blocked, fork->time, t, PathState::kBlocked, "unknown");  // none when the thread starts at its fork
        t = fork->time;
        if (const ContainerId parent = thread_at(fork->parent, fork->time); may_follow(parent)) {
          frames.back().thread = parent;
          continue;
        }
      }
      emit(f.blocked, f.bound, t, PathState::kBlocked, "unknown");
      t = f.bound;
      continue;
    }
    const double lo = std::max(span->start, f.bound);
    if (span->end < t) {  // not a state of the thread there (it had ended)
      const double a = std::max(span->end, f.bound);
      emit(f.thread, a, t, PathState::kBlocked, "unknown");
      t = a;
      continue;
    }
    const int64_t own_tid = tid_of.at(f.thread);
    if (span->value == kOnCpu) {
      double a = lo;
      std::string cpu;
      if (auto r = runs.find(own_tid); r != runs.end())
        if (const Run* run = before(r->second, t); run != nullptr && run->end >= t) {
          a = std::max(a, run->start);
          cpu = std::string(trace.Str(trace.container(run->cpu).name));
        }
      emit(f.thread, a, t, PathState::kRunning, cpu);
      t = a;
      continue;
    }
    if (span->value == kRunnableValue) {
      const bool preempted = span != &spans.front() && (span - 1)->value == kOnCpu && (span - 1)->end == span->start;
      emit(f.thread, lo, t, preempted ? PathState::kPreempted : PathState::kRunnable, "");
      t = lo;
      continue;
    }
    // Blocked: from its wakeup (the last in the wait) it waits for a CPU;
    // before, for its waker.
    const Wakeup* wakeup = nullptr;
    if (auto w = wakeups.find(own_tid); w != wakeups.end()) {
      auto it = std::upper_bound(w->second.begin(), w->second.end(), span->end,
                                 [](double a, const Wakeup& x) { return a < x.time; });
      if (it != w->second.begin() && std::prev(it)->time > span->start) wakeup = &*std::prev(it);
    }
    if (wakeup == nullptr) {
      emit(f.thread, lo, t, PathState::kBlocked, "unknown");
      t = lo;
      continue;
    }
    if (wakeup->time < t) {
      const double a = std::max(wakeup->time, lo);
      emit(f.thread, a, t, PathState::kRunnable, "");
      t = a;
      if (t <= lo) continue;
    }
    if (const Span* irq = interrupt_at(wakeup->cpu, wakeup->time)) {
      const std::string_view name = trace.Str(static_cast<StringId>(irq->value));
      emit(f.thread, lo, t, IsTimer(name) ? PathState::kTimer : PathState::kInterrupt, std::string(name));
      t = lo;
      continue;
    }
    const Span* task = nullptr;
    if (auto c = cpus.find(wakeup->cpu); c != cpus.end())
      if (const Span* s = before(c->second, wakeup->time); s != nullptr && s->end >= wakeup->time) task = s;
    const ContainerId waker = task != nullptr && task->value > 0 ? thread_at(task->value, wakeup->time) : kNone;
    if (waker == f.thread || !may_follow(waker)) {
      emit(f.thread, lo, t, PathState::kBlocked, task != nullptr && task->value == 0 ? "idle" : "unknown");
      t = lo;
      continue;
    }
    frames.push_back({waker, lo, f.thread});
  }
  std::reverse(back.begin(), back.end());
  return back;
}

std::vector<ThreadPathSegment> ComputeThreadCriticalPath(const EntitySource& source, int64_t tid,
                                                         std::optional<double> end, std::string_view what,
                                                         const Cancellation* cancel) {
  const Trace& trace = source.trace();
  ThreadCriticalPathAccumulator accumulator;
  for (uint32_t k = 0; k < trace.stores().size(); ++k) {
    const TypeKind kind = trace.stores()[k].kind;
    if (kind != TypeKind::kState && kind != TypeKind::kEvent) continue;
    source.ForEachChunk(k, [&](const EntityChunk& chunk) {
      ThrowIfCancelled(cancel);
      accumulator.Add(trace, chunk);
    });
  }
  return accumulator.Path(trace, tid, end, what);
}

ThreadPathBy ParseThreadPathBy(std::string_view text, std::string_view option) {
  if (text == "state") return ThreadPathBy::kState;
  if (text == "container") return ThreadPathBy::kContainer;
  throw UserError(std::string(option) + ": 'state' or 'container', not '" + std::string(text) + "'");
}

Table ThreadCriticalPathTable(const Trace& trace, const std::vector<ThreadPathSegment>& path, ThreadPathBy by) {
  const TimeBase& base = trace.time_base();
  if (by == ThreadPathBy::kSegments) {
    Table table({"container", "tid", "start", "end", "state", "detail", "length_ns"});
    for (const ThreadPathSegment& s : path) {
      table.Put(trace.ContainerPath(s.thread));
      table.Put(s.tid);
      table.Put(RelativeTime(trace, s.start));
      table.Put(RelativeTime(trace, s.end));
      table.Put(std::string(PathStateName(s.state)));
      table.Put(s.detail);
      table.Put(DurationNanoseconds(base, s.end - s.start));
    }
    return table;
  }
  std::vector<std::pair<std::string, double>> named;
  for (const ThreadPathSegment& s : path)
    named.emplace_back(by == ThreadPathBy::kState ? std::string(PathStateName(s.state)) : trace.ContainerPath(s.thread),
                       s.end - s.start);
  return PathShareTable(base, named);
}

}  // namespace macroscope::analysis::kernel
