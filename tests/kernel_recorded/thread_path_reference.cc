#include "thread_path_reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <limits>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

#include "kernel_recording.h"
#include "test_support.h"

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

// The softirq vectors, as the kernel names them (include/linux/interrupt.h).
const char* const kVectors[] = {"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER",
                                "RCU"};

bool IsTimer(const std::string& interrupt) {
  if (interrupt == "softirq:TIMER" || interrupt == "softirq:HRTIMER") return true;
  std::string lower = interrupt;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower.rfind("irq:", 0) == 0 && lower.find("timer") != std::string::npos;
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
  struct Wake {
    int64_t time;
    int cpu;
    std::string interrupt;  // the innermost handler open on the CPU then ("softirq:TIMER"), or ""
  };
  std::map<int64_t, std::vector<Wake>> wakeups;                 // woken tid -> its wakeups
  std::map<int64_t, std::vector<std::pair<int64_t, int64_t>>> forks;  // child tid -> (time, parent tid)
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
        std::optional<Wake> wake;
        for (const Wake& w : wakeups[tid])
          if (w.time > x.start && w.time <= x.end) wake = w;
        if (!wake) {
          Row(tid, a, b, "blocked", "unknown");
        } else {
          const int64_t w = wake->time;
          if (w < b) Row(tid, std::max(a, w), b, "runnable", "");
          const int64_t until = std::min(w, b);
          if (a < until) {
            const int64_t waker = CurrentOn(wake->cpu, w);
            if (!wake->interrupt.empty()) {
              Row(tid, a, until, IsTimer(wake->interrupt) ? "timer" : "interrupt", wake->interrupt);
            } else if (waker == 0) {
              Row(tid, a, until, "blocked", "idle");
            } else if (waker < 0 || waker == tid || !lives.count(waker)) {
              Row(tid, a, until, "blocked", "unknown");
            } else {
              int64_t reached = Explain(waker, a, until);
              // Before the waker existed: the thread that forked it, at its fork.
              for (int64_t child = waker; reached > a;) {
                std::optional<std::pair<int64_t, int64_t>> fork;
                for (const auto& f : forks[child])
                  if (f.first <= reached) fork = f;
                if (!fork || fork->first <= a || !lives.count(fork->second)) break;
                Row(tid, fork->first, reached, "blocked", "unknown");
                reached = Explain(fork->second, a, fork->first);
                child = fork->second;
              }
              Row(tid, a, reached, "blocked", "unknown");  // nothing known before
            }
          }
        }
      }
      hi = a;
    }
    return hi;
  }
};

// The sched_switch lines whose outgoing task is not the one their CPU's
// previous switch switched in, by the tids of both: the tracer lost events
// there (a loaded machine), and each reader carries these threads across
// the gap its own way (macroscope as docs/ctf.md says): a path through
// them has no one answer.
std::map<int64_t, std::string> InconsistentSwitches(const std::vector<TextEvent>& events) {
  std::map<int64_t, std::string> lines;
  std::map<int, int64_t> current;
  for (const TextEvent& e : events) {
    if (BaseName(e.name) != "sched_switch") continue;
    if (auto it = current.find(e.cpu); it != current.end() && it->second != *e.prev_pid) {
      lines.emplace(it->second, e.line);
      lines.emplace(*e.prev_pid, e.line);
    }
    current[e.cpu] = *e.next_pid;
  }
  return lines;
}

}  // namespace

std::vector<ReferencePathRow> ReferenceThreadPath(const std::vector<TextEvent>& events, int64_t tid) {
  Walk walk;
  bool wakings = false;
  for (const TextEvent& e : events) wakings = wakings || BaseName(e.name) == "sched_waking";
  int64_t last = 0;
  std::map<int64_t, bool> exited;
  std::map<int, std::vector<std::pair<char, std::string>>> handlers;  // cpu -> open interrupts (kind, name)
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
      const std::optional<int64_t> child = Field(e, "child_pid");
      // trace-cmd prints the parent's parent_pid, perf its pid.
      std::optional<int64_t> parent = Field(e, "parent_pid");
      if (!parent) parent = Field(e, "pid");
      if (child && parent) walk.forks[*child].emplace_back(e.time_ns, *parent);
      if (child && !walk.lives.count(*child)) open(*child, e.time_ns, Stretch::kNew, -1);
    } else if (base == "sched_process_exit") {
      if (std::optional<int64_t> pid = Field(e, "pid")) exited[*pid] = true;
    } else if (base == (wakings ? "sched_waking" : "sched_wakeup")) {
      const std::vector<std::pair<char, std::string>>& stack = handlers[e.cpu];
      if (std::optional<int64_t> pid = Field(e, "pid"))
        walk.wakeups[*pid].push_back({e.time_ns, e.cpu, stack.empty() ? "" : stack.back().second});
    } else if (base == "irq_handler_entry") {
      static const std::regex kName(R"( name=(\S*))");
      std::smatch m;
      const std::string name = std::regex_search(e.line, m, kName) ? std::string(m[1]) : "";
      handlers[e.cpu].emplace_back('i', "irq:" + (name.empty() ? std::to_string(Field(e, "irq").value_or(-1)) : name));
    } else if (base == "softirq_entry") {
      const int64_t vec = Field(e, "vec").value_or(-1);
      handlers[e.cpu].emplace_back(
          's', "softirq:" + (vec >= 0 && vec < 10 ? std::string(kVectors[vec]) : std::to_string(vec)));
    } else if (base == "irq_handler_exit" || base == "softirq_exit") {
      // An exit ends the innermost handler when it is of its kind.
      std::vector<std::pair<char, std::string>>& stack = handlers[e.cpu];
      if (!stack.empty() && stack.back().first == (base == "irq_handler_exit" ? 'i' : 's')) stack.pop_back();
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

void ExpectPeersThreadPaths(const KernelRecording& r) {
  const std::vector<TextEvent> events = ParseEventLines(r.text);
  const std::map<int64_t, std::string> lost = InconsistentSwitches(events);
  int64_t first = INT64_MAX;
  for (const TextEvent& e : events) first = std::min(first, e.time_ns);
  std::map<std::string, int64_t> tid_of;
  for (const WorkloadTask& task : r.tasks) tid_of[task.name] = task.tid;
  std::string not_compared;  // the tasks whose paths went through lost switches, and why
  ASSERT_TRUE(tid_of.count("kr-reader") && tid_of.count("kr-writer"));
  for (const WorkloadTask& task : r.tasks) {
    const std::vector<ReferencePathRow> expected = ReferenceThreadPath(events, task.tid);
    CommandResult run =
        Macroscope("critical-path --format csv --thread " + std::to_string(task.tid) + " " + Quote(r.trace));
    // A task never seen switching has no path (a recording that dropped
    // its switches out of idle); the pair's threads are forked: they have.
    if (expected.empty() && task.name != "kr-reader" && task.name != "kr-writer") continue;
    ASSERT_FALSE(expected.empty()) << task.name;
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto rows = CsvRows(run.out);
    std::ostringstream both;  // the two paths, for a message
    for (size_t i = 0; i < std::max(rows.size(), expected.size()); ++i) {
      if (i < rows.size())
        both << rows[i].at("tid") << " " << rows[i].at("start") << " " << rows[i].at("end") << " "
             << rows[i].at("state") << " " << rows[i].at("detail");
      both << "  |  ";
      if (i < expected.size())
        both << expected[i].tid << " " << expected[i].start_ns - first << " " << expected[i].end_ns - first << " "
             << expected[i].state << " " << expected[i].detail;
      both << "\n";
    }
    bool same = rows.size() == expected.size();
    for (size_t i = 0; same && i < rows.size(); ++i)
      same = rows[i].at("tid") == std::to_string(expected[i].tid) &&
             std::stoll(rows[i].at("start")) == expected[i].start_ns - first &&
             std::stoll(rows[i].at("end")) == expected[i].end_ns - first && rows[i].at("state") == expected[i].state &&
             rows[i].at("detail") == expected[i].detail;
    if (!same) {
      auto through_lost = std::find_if(expected.begin(), expected.end(),
                                       [&](const ReferencePathRow& row) { return lost.count(row.tid) > 0; });
      if (through_lost != expected.end()) {
        not_compared += "\n" + task.name + "'s path goes through tid " + std::to_string(through_lost->tid) +
                        ", whose switches the tracer lost (a switch out of a task its CPU did not run: " +
                        lost.at(through_lost->tid) + ")";
        continue;
      }
    }
    ASSERT_EQ(rows.size(), expected.size()) << task.name << ": macroscope's path | the peer's\n" << both.str();
    for (size_t i = 0; i < rows.size(); ++i) {
      const auto& row = rows[i];
      const ReferencePathRow& want = expected[i];
      EXPECT_EQ(row.at("tid"), std::to_string(want.tid)) << task.name << " row " << i << "\n" << both.str();
      EXPECT_EQ(std::stoll(row.at("start")), want.start_ns - first) << task.name << " row " << i;
      EXPECT_EQ(std::stoll(row.at("end")), want.end_ns - first) << task.name << " row " << i;
      EXPECT_EQ(std::stoll(row.at("length_ns")), want.end_ns - want.start_ns) << task.name << " row " << i;
      EXPECT_EQ(row.at("state"), want.state) << task.name << " row " << i << "\n" << both.str();
      EXPECT_EQ(row.at("detail"), want.detail) << task.name << " row " << i;
    }
    if (task.name != "kr-reader") continue;
    // The pipe: kr-writer runs up to its wakeup of kr-reader, which then
    // waits for a CPU.
    bool through_writer = false;
    for (size_t i = 0; i + 1 < rows.size(); ++i)
      through_writer = through_writer || (rows[i].at("tid") == std::to_string(tid_of["kr-writer"]) &&
                                          rows[i].at("state") == "running" &&
                                          rows[i + 1].at("tid") == std::to_string(task.tid) &&
                                          rows[i + 1].at("state") == "runnable" &&
                                          rows[i].at("end") == rows[i + 1].at("start"));
    // (Under load kr-reader may reach its read once kr-writer has written:
    // it then never waits for the pipe, and kr-writer is not on its path.)
    const bool writer_on_path = std::any_of(expected.begin(), expected.end(), [&](const ReferencePathRow& row) {
      return row.tid == tid_of["kr-writer"];
    });
    if (writer_on_path) {
      EXPECT_TRUE(through_writer) << "kr-reader's path: kr-writer running, then kr-reader runnable\n" << both.str();
    }
    // When kr-writer was forked while kr-reader waited, the path before it
    // is on kr-main, running as it forked it. (On a loaded machine kr-reader
    // may reach its read after the fork: the path then goes from kr-reader
    // straight to kr-writer, and the fork is not on it.)
    const std::string writer = std::to_string(tid_of["kr-writer"]);
    for (size_t i = 1; i < rows.size(); ++i) {
      if (rows[i].at("tid") != writer) continue;
      if (rows[i - 1].at("tid") == std::to_string(task.tid)) break;
      EXPECT_EQ(rows[i - 1].at("tid"), std::to_string(tid_of["kr-main"])) << "before kr-writer, its forker\n" << both.str();
      EXPECT_EQ(rows[i - 1].at("state"), "running");
      break;
    }
    // Its recv's wakeup came from the NET_RX softirq, which a recording
    // of interrupts shows.
    if (std::any_of(events.begin(), events.end(), [](const TextEvent& e) { return BaseName(e.name) == "softirq_entry"; })) {
      const bool net_rx = std::any_of(rows.begin(), rows.end(), [&](const auto& row) {
        return row.at("tid") == std::to_string(task.tid) && row.at("state") == "interrupt" &&
               row.at("detail") == "softirq:NET_RX";
      });
      EXPECT_TRUE(net_rx) << "kr-reader's path: its recv's wait is the NET_RX softirq's\n" << both.str();
    }
  }
  // Each reader carries such a thread across the gap its own way: no one path.
  if (!not_compared.empty()) GTEST_SKIP() << "not all compared:" << not_compared;
}

}  // namespace macroscope::testing
