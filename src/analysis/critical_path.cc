#include "analysis/critical_path.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>

#include "analysis/relative_time.h"
#include "util/error.h"
#include "util/exact_sum.h"

namespace macroscope::analysis {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// What an MPI call's state name says it is (any other name: kOther).
enum class Call : uint8_t { kOther, kReceive, kCollective };

Call ClassifyCall(std::string_view name) {
  std::string n(name);
  std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return std::tolower(c); });
  if (n.starts_with("pmpi_")) n.erase(0, 1);
  if (!n.starts_with("mpi_")) return Call::kOther;
  n.erase(0, 4);
  static const char* const kCollectives[] = {
      "barrier",   "bcast",    "reduce",     "allreduce", "alltoall", "alltoallv",      "alltoallw",
      "allgather", "allgatherv", "gather",   "gatherv",   "scatter",  "scatterv",       "reduce_scatter",
      "reduce_scatter_block", "scan", "exscan"};
  for (const char* c : kCollectives)
    if (n == c) return Call::kCollective;
  // Blocking receives (recv, sendrecv, sendrecv_replace) and the waits that
  // complete a nonblocking one.
  if (n.find("recv") != std::string::npos || n.starts_with("wait")) return Call::kReceive;
  return Call::kOther;
}

// A stretch of a container's timeline in one innermost state.
struct Piece {
  double start, end;
  uint32_t state;
};

// Where a jump leaves a container walking back: at `at`, to `peer` at `to`.
struct Jump {
  double at, to;
  ContainerId peer;
};

}  // namespace

void CriticalPathAccumulator::Add(const EntityChunk& chunk) {
  if (chunk.kind == TypeKind::kState) {
    if (chunk.container >= states_.size()) states_.resize(chunk.container + 1);
    std::vector<State>& states = states_[chunk.container];
    for (size_t i = 0; i < chunk.size(); ++i)
      states.push_back({chunk.start[i], chunk.End(i), chunk.Value(i), chunk.Level(i)});
  } else if (chunk.kind == TypeKind::kLink) {
    for (size_t i = 0; i < chunk.size(); ++i) {
      const ContainerId sender = chunk.PeerStart(i), receiver = chunk.PeerEnd(i);
      if (sender == kNone || receiver == kNone) continue;  // a link without both ends is no message
      // Every container a message names has a place, its sender too.
      if (std::max(sender, receiver) >= received_.size()) received_.resize(std::max(sender, receiver) + 1);
      received_[receiver].push_back({sender, chunk.start[i], chunk.End(i)});
      ++messages_;
    }
  }
}

std::vector<PathSegment> CriticalPathAccumulator::Path(const Trace& trace) const {
  const size_t n = std::max(states_.size(), received_.size());
  // Each container's states in nesting order (a state before those it
  // encloses) and its timeline of innermost states.
  std::vector<std::vector<State>> states(n);
  std::vector<std::vector<Piece>> pieces(n);
  for (size_t c = 0; c < states_.size(); ++c) {
    states[c] = states_[c];
    std::sort(states[c].begin(), states[c].end(), [](const State& a, const State& b) {
      return std::tie(a.start, b.end, a.level) < std::tie(b.start, a.end, b.level);
    });
    const std::vector<State>& s = states[c];
    std::vector<Piece>& out = pieces[c];
    std::vector<uint32_t> open;
    double pos = -kInf;
    auto emit = [&](double b, uint32_t state) {
      if (b > pos) out.push_back({pos, b, state});
      pos = std::max(pos, b);
    };
    for (uint32_t i = 0; i < s.size(); ++i) {
      while (!open.empty() && s[open.back()].end <= s[i].start) {
        emit(s[open.back()].end, open.back());
        open.pop_back();
      }
      if (!open.empty()) emit(s[i].start, open.back());
      pos = std::max(pos, s[i].start);
      open.push_back(i);
    }
    for (; !open.empty(); open.pop_back()) emit(s[open.back()].end, open.back());
  }
  std::unordered_map<StringId, Call> calls;
  auto call = [&](StringId f) {
    auto [it, added] = calls.try_emplace(f, Call::kOther);
    if (added) it->second = ClassifyCall(trace.Str(f));
    return it->second;
  };

  // The jumps: Late Senders and collectives entered last elsewhere.
  std::vector<std::vector<Jump>> jumps(n);
  for (size_t c = 0; c < received_.size(); ++c) {
    const std::vector<Piece>& p = pieces[c];
    for (const Message& m : received_[c]) {
      // The innermost state the message arrives in: start < received <= end.
      auto it = std::lower_bound(p.begin(), p.end(), m.received,
                                 [](const Piece& piece, double t) { return piece.start < t; });
      if (it == p.begin()) continue;
      const Piece& piece = *--it;
      if (m.received > piece.end) continue;
      const State& receive = states[c][piece.state];
      if (call(receive.function) != Call::kReceive) continue;
      if (m.sent > receive.start && m.sent < m.received) jumps[c].push_back({m.received, m.sent, m.sender});
    }
  }
  bool collectives = false;
  {
    // Per collective, per container: its calls in time order.
    std::map<StringId, std::vector<std::vector<uint32_t>>> instances;
    for (size_t c = 0; c < n; ++c) {
      for (uint32_t i = 0; i < states[c].size(); ++i) {
        if (call(states[c][i].function) != Call::kCollective) continue;
        auto& per = instances[states[c][i].function];
        per.resize(n);
        per[c].push_back(i);
        collectives = true;
      }
    }
    for (const auto& [function, per] : instances) {
      size_t most = 0;
      for (const auto& v : per) most = std::max(most, v.size());
      for (size_t k = 0; k < most; ++k) {
        ContainerId last = kNone;
        double entered = -kInf;
        for (size_t c = 0; c < n; ++c) {
          if (k < per[c].size() && states[c][per[c][k]].start > entered) {
            entered = states[c][per[c][k]].start;
            last = static_cast<ContainerId>(c);
          }
        }
        for (size_t c = 0; c < n; ++c) {
          if (k >= per[c].size() || c == last) continue;
          const State& s = states[c][per[c][k]];
          if (entered > s.start && entered < s.end) jumps[c].push_back({s.end, entered, last});
        }
      }
    }
  }
  if (messages_ == 0 && !collectives)
    throw UserError("no messages (links with a sender and a receiver) and no MPI collective: nothing for a critical "
                    "path to follow");
  for (auto& j : jumps)
    std::sort(j.begin(), j.end(), [](const Jump& a, const Jump& b) { return std::tie(a.at, a.to) < std::tie(b.at, b.to); });

  // The walk back from the end of the container whose last state ends last.
  ContainerId c = kNone;
  double t = -kInf;
  for (size_t k = 0; k < n; ++k) {
    for (const State& s : states[k]) {
      if (s.end > t) {
        t = s.end;
        c = static_cast<ContainerId>(k);
      }
    }
  }
  if (c == kNone) throw UserError("no states: a critical path is a chain of states");
  struct Stretch {
    ContainerId container;
    double start, end;
  };
  std::vector<Stretch> back;
  for (;;) {
    const std::vector<Jump>& j = jumps[c];
    auto it = std::upper_bound(j.begin(), j.end(), t, [](double x, const Jump& a) { return x < a.at; });
    const Jump* jump = nullptr;
    while (it != j.begin()) {
      --it;
      if (it->to < t) {
        jump = &*it;
        break;
      }
    }
    if (jump == nullptr) {
      const double first = states[c].empty() ? t : states[c].front().start;
      if (first < t) back.push_back({c, first, t});
      break;
    }
    back.push_back({c, jump->to, t});
    t = jump->to;
    c = jump->peer;
  }

  // The stretches in time order, cut at the innermost states.
  std::vector<PathSegment> path;
  auto put = [&](ContainerId container, double a, double b, StringId function) {
    if (!(b > a)) return;
    if (!path.empty() && path.back().container == container && path.back().function == function &&
        path.back().end == a) {
      path.back().end = b;
    } else {
      path.push_back({container, a, b, function});
    }
  };
  for (auto s = back.rbegin(); s != back.rend(); ++s) {
    const std::vector<Piece>& p = pieces[s->container];
    double pos = s->start;
    auto it = std::upper_bound(p.begin(), p.end(), s->start, [](double x, const Piece& piece) { return x < piece.end; });
    for (; it != p.end() && it->start < s->end; ++it) {
      put(s->container, pos, std::max(pos, it->start), kEmptyString);
      const double b = std::min(it->end, s->end);
      put(s->container, std::max(pos, it->start), b, states[s->container][it->state].function);
      pos = std::max(pos, b);
    }
    put(s->container, pos, s->end, kEmptyString);
  }
  return path;
}

std::vector<PathSegment> ComputeCriticalPath(const EntitySource& source, const Cancellation* cancel) {
  const Trace& trace = source.trace();
  CriticalPathAccumulator accumulator;
  for (uint32_t k = 0; k < trace.stores().size(); ++k) {
    const TypeKind kind = trace.stores()[k].kind;
    if (kind != TypeKind::kState && kind != TypeKind::kLink) continue;
    source.ForEachChunk(k, [&](const EntityChunk& chunk) {
      ThrowIfCancelled(cancel);
      accumulator.Add(chunk);
    });
  }
  return accumulator.Path(trace);
}

CriticalPathBy ParseCriticalPathBy(std::string_view text, std::string_view option) {
  if (text == "function") return CriticalPathBy::kFunction;
  if (text == "container") return CriticalPathBy::kContainer;
  throw UserError(std::string(option) + ": 'function' or 'container', not '" + std::string(text) + "'");
}

Table CriticalPathTable(const Trace& trace, const std::vector<PathSegment>& path, CriticalPathBy by) {
  const TimeBase& base = trace.time_base();
  if (by == CriticalPathBy::kSegments) {
    Table table({"container", "start", "end", "function", "length_ns"});
    for (const PathSegment& s : path) {
      table.Put(trace.ContainerPath(s.container));
      table.Put(RelativeTime(trace, s.start));
      table.Put(RelativeTime(trace, s.end));
      table.Put(trace.Str(s.function));
      table.Put(DurationNanoseconds(base, s.end - s.start));
    }
    return table;
  }
  std::vector<std::pair<std::string, double>> named;
  for (const PathSegment& s : path)
    named.emplace_back(by == CriticalPathBy::kFunction ? std::string(trace.Str(s.function))
                                                       : trace.ContainerPath(s.container),
                       s.end - s.start);
  return PathShareTable(base, named);
}

Table PathShareTable(const TimeBase& base, const std::vector<std::pair<std::string, double>>& named) {
  Table table({"name", "length_ns", "share"});
  std::map<std::string, ExactSum> sums;
  ExactSum total;
  for (const auto& [name, length] : named) {
    sums[name].Add(length);
    total.Add(length);
  }
  struct Row {
    const std::string* name;
    int64_t ns;
  };
  std::vector<Row> rows;
  for (const auto& [name, sum] : sums) rows.push_back({&name, DurationNanoseconds(base, sum)});
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return std::tie(b.ns, *a.name) < std::tie(a.ns, *b.name);
  });
  const int64_t total_ns = DurationNanoseconds(base, total);
  for (const Row& r : rows) {
    table.Put(*r.name);
    table.Put(r.ns);
    if (total_ns > 0) table.Put(static_cast<double>(r.ns) / static_cast<double>(total_ns));
    else table.PutEmpty();
  }
  return table;
}

}  // namespace macroscope::analysis
