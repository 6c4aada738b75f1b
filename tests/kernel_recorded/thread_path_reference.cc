#include "thread_path_reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <regex>

namespace macroscope::testing {

namespace {

// A stretch of one thread's life between two of its events.
struct Stretch {
  int64_t start = 0, end = 0;
  enum Kind { kOnCpu, kPreempted, kNew, kWaiting } kind = kOnCpu;
  int cpu = -1;
};

std::optional<int64_t> Field(const TextEvent& e, const char* name) {
  const std::regex field(std::string(" ") + name + R"(=(-?\d+)( |$))");
  const size_t at = e.line.find(e.name + ":");
  const std::string rest = " " + e.line.substr(at == std::string::npos ? 0 : at + e.name.size() + 1);
  std::smatch m;
  if (!std::regex_search(rest, m, field)) return std::nullopt;
  return std::stoll(m[1]);
}

// prev_state as trace-cmd -R prints it (a number) or perf (letters: R, R+,
// S, D, X, Z…): whether the task was preempted, whether it is dead.
std::pair<bool, bool> PreemptedAndDead(const TextEvent& e) {
  static const std::regex kState(R"( prev_state=(\S+) )");
  std::smatch m;
  const std::string line = e.line + " ";
  EXPECT_TRUE(std::regex_search(line, m, kState)) << "no prev_state: " << e.line;
  const std::string s = m[1];
  if (!s.empty() && std::isdigit(static_cast<unsigned char>(s[0]))) {
    const int64_t v = std::stoll(s);
    // TASK_RUNNING, or a kernel's preemption marker alone (docs/ctf.md).
    const bool preempted = v == 0 || v == 0x100 || v == 0x400 || v == 0x800 || v == 0x1000;
    return {preempted, (v & 0x70) != 0};  // EXIT_DEAD, EXIT_ZOMBIE, TASK_DEAD
  }
  return {s == "R" || s == "R+", s.find_first_of("XZ") != std::string::npos};
}

struct Walk {
  std::map<int64_t, std::vector<Stretch>> lives;               // tid -> its stretches in time order
  std::map<int, std::vector<std::pair<int64_t, int64_t>>> cpu;  // cpu -> (time, tid switched in)
  std::map<int64_t, std::vector<std::pair<int64_t, int>>> wakeups;  // woken tid -> (time, cpu)
  std::vector<ReferencePathRow> back;                           // the path, latest first

  void Row(int64_t tid, int64_t a, int64_t b, const std::string& state, const std::string& detail) {
    if (b <= a) return;
    if (!back.empty() && back.back().tid == tid && back.back().state == state && back.back().detail == detail &&
        back.back().start_ns == b) {
      back.back().start_ns = a;
      return;
    }
    back.push_back({tid, a, b, state, detail});
  }

  // The task current on `c` just before `t`: -1 before its first switch.
  int64_t CurrentOn(int c, int64_t t) const {
    int64_t tid = -1;
    auto it = cpu.find(c);
    if (it == cpu.end()) return -1;
    for (const auto& [at, next] : it->second)
      if (at < t) tid = next;
    return tid;
  }

  // The path of `tid` from `hi` back to `lo` (or its first stretch): the
  // time it got back to.
  int64_t Explain(int64_t tid, int64_t lo, int64_t hi) {
    auto life = lives.find(tid);
    if (life == lives.end()) return hi;
    const std::vector<Stretch>& s = life->second;
    for (size_t k = s.size(); k-- > 0 && hi > lo;) {
      const Stretch& x = s[k];
      if (x.start >= hi) continue;
      const int64_t a = std::max(x.start, lo), b = std::min(x.end, hi);
      if (x.kind == Stretch::kOnCpu) {
        Row(tid, a, b, "running", "cpu" + std::to_string(x.cpu));
      } else if (x.kind == Stretch::kPreempted) {
        Row(tid, a, b, k > 0 && s[k - 1].kind == Stretch::kOnCpu ? "preempted" : "runnable", "");
      } else if (x.kind == Stretch::kNew) {
        Row(tid, a, b, "runnable", "");
      } else {
        // The wait's last wakeup.
        std::optional<std::pair<int64_t, int>> wake;
        for (const auto& w : wakeups[tid])
          if (w.first > x.start && w.first <= x.end) wake = w;
        if (!wake) {
          Row(tid, a, b, "blocked", "unknown");
        } else {
          const auto [w, on] = *wake;
          if (w < b) Row(tid, std::max(a, w), b, "runnable", "");
          const int64_t until = std::min(w, b);
          if (a < until) {
            const int64_t waker = CurrentOn(on, w);
            if (waker == 0) {
              Row(tid, a, until, "blocked", "idle");
            } else if (waker < 0 || waker == tid || !lives.count(waker)) {
              Row(tid, a, until, "blocked", "unknown");
            } else {
              const int64_t reached = Explain(waker, a, until);
              Row(tid, a, reached, "blocked", "unknown");  // the waker did not exist before
            }
          }
        }
      }
      hi = a;
    }
    return hi;
  }
};

}  // namespace

std::vector<ReferencePathRow> ReferenceThreadPath(const std::vector<TextEvent>& events, int64_t tid) {
  Walk walk;
  bool wakings = false;
  for (const TextEvent& e : events) wakings = wakings || BaseName(e.name) == "sched_waking";
  int64_t last = 0;
  std::map<int64_t, bool> exited;
  auto open = [&](int64_t t, int64_t at, Stretch::Kind kind, int cpu) {
    std::vector<Stretch>& life = walk.lives[t];
    if (!life.empty() && life.back().end < 0) life.back().end = at;
    life.push_back({at, -1, kind, cpu});
  };
  auto close = [&](int64_t t, int64_t at) {
    std::vector<Stretch>& life = walk.lives[t];
    if (!life.empty() && life.back().end < 0) life.back().end = at;
  };
  for (const TextEvent& e : events) {
    last = std::max(last, e.time_ns);
    const std::string base = BaseName(e.name);
    if (base == "sched_switch") {
      walk.cpu[e.cpu].emplace_back(e.time_ns, *e.next_pid);
      if (*e.prev_pid != 0) {
        const auto [preempted, dead] = PreemptedAndDead(e);
        if (dead && exited[*e.prev_pid]) close(*e.prev_pid, e.time_ns);
        else open(*e.prev_pid, e.time_ns, preempted ? Stretch::kPreempted : Stretch::kWaiting, -1);
      }
      if (*e.next_pid != 0) open(*e.next_pid, e.time_ns, Stretch::kOnCpu, e.cpu);
    } else if (base == "sched_process_fork") {
      if (std::optional<int64_t> child = Field(e, "child_pid"); child && !walk.lives.count(*child))
        open(*child, e.time_ns, Stretch::kNew, -1);
    } else if (base == "sched_process_exit") {
      if (std::optional<int64_t> pid = Field(e, "pid")) exited[*pid] = true;
    } else if (base == (wakings ? "sched_waking" : "sched_wakeup")) {
      if (std::optional<int64_t> pid = Field(e, "pid")) walk.wakeups[*pid].emplace_back(e.time_ns, e.cpu);
    }
  }
  for (auto& [t, life] : walk.lives)
    if (!life.empty() && life.back().end < 0) life.back().end = last;
  auto it = walk.lives.find(tid);
  if (it == walk.lives.end() || it->second.empty()) return {};
  walk.Explain(tid, std::numeric_limits<int64_t>::min(), it->second.back().end);
  std::reverse(walk.back.begin(), walk.back.end());
  return walk.back;
}

}  // namespace macroscope::testing
