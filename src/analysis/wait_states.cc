#include "analysis/wait_states.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <map>
#include <string_view>
#include <tuple>

#include "analysis/container_scope.h"
#include "analysis/relative_time.h"
#include "util/error.h"
#include "util/exact_sum.h"

namespace macroscope::analysis {

namespace {

// What an MPI function does, for the patterns and the idle table.
enum MpiKind : uint8_t {
  kNotMpi = 0,
  kOther,       // any other MPI call (MPI_Isend, MPI_Init…)
  kReceive,     // a blocking call that completes a receive: Late Sender's victim
  kSend,        // a blocking send: Late Receiver's victim
  kNxN,         // an n-to-n collective: Wait at N x N
  kBarrier,     // MPI_Barrier: Wait at Barrier
  kCollective,  // another collective (blocking, no pattern here)
};

constexpr std::array<std::string_view, 4> kPatterns{"Late Sender", "Late Receiver", "Wait at N x N", "Wait at Barrier"};
enum Pattern { kLateSender, kLateReceiver, kWaitNxN, kWaitBarrier };

MpiKind KindOf(std::string_view name) {  // the name after MPI_, in capitals
  static const std::map<std::string_view, MpiKind> kinds{
      {"RECV", kReceive},          {"MRECV", kReceive},          {"SENDRECV", kReceive},
      {"SENDRECV_REPLACE", kReceive}, {"WAIT", kReceive},         {"WAITALL", kReceive},
      {"WAITANY", kReceive},       {"WAITSOME", kReceive},       {"PROBE", kReceive},
      {"MPROBE", kReceive},        {"SEND", kSend},              {"SSEND", kSend},
      {"RSEND", kSend},            {"ALLREDUCE", kNxN},          {"ALLTOALL", kNxN},
      {"ALLTOALLV", kNxN},         {"ALLTOALLW", kNxN},          {"ALLGATHER", kNxN},
      {"ALLGATHERV", kNxN},        {"REDUCE_SCATTER", kNxN},     {"REDUCE_SCATTER_BLOCK", kNxN},
      {"BARRIER", kBarrier},       {"BCAST", kCollective},       {"REDUCE", kCollective},
      {"GATHER", kCollective},     {"GATHERV", kCollective},     {"SCATTER", kCollective},
      {"SCATTERV", kCollective},   {"SCAN", kCollective},        {"EXSCAN", kCollective},
  };
  const auto it = kinds.find(name);
  return it == kinds.end() ? kOther : it->second;
}

bool Waits(uint8_t kind) { return kind == kReceive || kind == kNxN || kind == kBarrier || kind == kCollective; }

uint64_t StoreKey(ContainerId container, TypeId type) { return uint64_t{container} << 32 | type; }

}  // namespace

WaitStatesAccumulator::WaitStatesAccumulator(const Trace& trace, const WaitStatesRequest& request)
    : trace_(trace),
      start_(request.start.value_or(trace.start_time())),
      end_(request.end.value_or(trace.end_time())),
      in_scope_(ContainersInScope(trace, request.containers, "--containers")),
      calls_(trace.containers().size()),
      outermost_(trace.containers().size()),
      has_states_(trace.containers().size(), false) {
  if (!(start_ <= end_)) throw UserError("an empty window: its end is before its start");
}

bool WaitStatesAccumulator::Wants(const EntityStore& store) const {
  return store.kind == TypeKind::kState || store.kind == TypeKind::kLink;
}

const WaitStatesAccumulator::Function& WaitStatesAccumulator::FunctionOf(StringId value) {
  if (value >= functions_.size()) functions_.resize(value + 1);
  std::optional<Function>& f = functions_[value];
  if (f) return *f;
  f.emplace();
  std::string_view name = trace_.Str(value);
  if (name.size() > 1 && (name[0] == 'P' || name[0] == 'p')) name.remove_prefix(1);  // SMPI's PMPI_
  if (name.size() > 4 && (name.substr(0, 4) == "MPI_" || name.substr(0, 4) == "mpi_")) {
    std::string upper(name.substr(4));
    std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
    f->kind = KindOf(upper);
    auto [it, added] = name_ids_.try_emplace(upper, static_cast<uint32_t>(names_.size()));
    if (added) names_.push_back(upper);
    f->name = it->second;
  }
  return *f;
}

void WaitStatesAccumulator::Add(const EntityChunk& chunk) {
  if (chunk.kind == TypeKind::kLink) {
    for (size_t i = 0; i < chunk.size(); ++i) {
      const ContainerId sender = chunk.PeerStart(i), receiver = chunk.PeerEnd(i);
      if (sender == kNone || receiver == kNone || sender >= calls_.size() || receiver >= calls_.size()) continue;
      messages_.push_back({sender, receiver, chunk.start[i], chunk.End(i)});
    }
    return;
  }
  if (chunk.kind != TypeKind::kState || chunk.container >= calls_.size()) return;
  const ContainerId container = chunk.container;
  has_states_[container] = true;
  std::vector<Frame>& frames = stacks_[StoreKey(container, chunk.type)];
  for (size_t i = 0; i < chunk.size(); ++i) {
    const double a = chunk.start[i], b = chunk.End(i);
    const size_t level = chunk.Level(i);
    while (!frames.empty() && (frames.size() > level || frames.back().end < a)) frames.pop_back();
    const StringId value = chunk.value[i];
    const Function& f = FunctionOf(value);
    const bool inside_mpi = !frames.empty() && frames.back().mpi;
    if (frames.empty() && in_scope_[container] && b >= start_ && a <= end_) outermost_[container].emplace_back(a, b);
    if (f.kind != kNotMpi && !inside_mpi) {
      std::string path;
      for (const Frame& frame : frames) {
        path += trace_.Str(frame.value);
        path += ';';
      }
      path += trace_.Str(value);
      auto [it, added] = path_ids_.try_emplace(path, static_cast<uint32_t>(paths_.size()));
      if (added) paths_.push_back(path);
      calls_[container].push_back({a, b, it->second, f.name, f.kind});
    }
    frames.push_back({b, value, inside_mpi || f.kind != kNotMpi});
  }
}

WaitStatesAccumulator ComputeWaitStates(const EntitySource& source, const WaitStatesRequest& request,
                                        const Cancellation* cancel) {
  const Trace& trace = source.trace();
  WaitStatesAccumulator waits(trace, request);
  for (uint32_t k = 0; k < trace.stores().size(); ++k) {
    if (!waits.Wants(trace.stores()[k])) continue;
    source.ForEachChunk(k, [&](const EntityChunk& chunk) {
      ThrowIfCancelled(cancel);
      waits.Add(chunk);
    });
  }
  return waits;
}

Table WaitStatesAccumulator::PatternColumns() {
  return Table({"pattern", "container", "call_path", "instances", "time_ns"});
}

Table WaitStatesAccumulator::IdleColumns() {
  return Table({"container", "span_ns", "in_states_ns", "idle_ns", "mpi_ns", "mpi_wait_ns"});
}

Table WaitStatesAccumulator::InstanceColumns() {
  return Table({"container", "start", "end", "pattern", "peer", "wait_ns"});
}

template <class Wait>
void WaitStatesAccumulator::ForEachWait(Wait emit) const {
  size_t total_calls = 0;
  for (const auto& calls : calls_) total_calls += calls.size();
  if (total_calls == 0)
    throw UserError("the trace has no MPI call (a state whose value is an MPI_* or PMPI_* function): no wait "
                    "state to find");
  // Each container's calls by start (one store's outermost calls do not overlap).
  std::vector<std::vector<Call>> calls = calls_;
  for (auto& c : calls) std::stable_sort(c.begin(), c.end(), [](const Call& x, const Call& y) { return x.start < y.start; });
  // The call of `container` holding time t: the last one starting at or before it, if it has not ended.
  auto holding = [&](ContainerId container, double t) -> const Call* {
    const std::vector<Call>& c = calls[container];
    auto it = std::upper_bound(c.begin(), c.end(), t, [](double x, const Call& call) { return x < call.start; });
    if (it == c.begin()) return nullptr;
    --it;
    return it->end >= t ? &*it : nullptr;
  };
  // A wait of `call` from its start to `until` (bounded by its end), its part in the window.
  auto wait = [&](Pattern pattern, ContainerId container, const Call& call, ContainerId peer, double until) {
    if (!in_scope_[container]) return;
    const double a = std::max(call.start, start_), b = std::min({until, call.end, end_});
    if (!(until > call.start) || !(b > a)) return;
    emit(static_cast<int>(pattern), container, call.path, peer, a, b);
  };
  // Late Sender: per receive call, the latest start of the send calls of
  // its messages; Late Receiver: per send call, its message's receive call's start.
  struct Late {
    ContainerId container, peer;
    double until;
  };
  std::map<const Call*, Late> receives, sends;
  auto later = [](std::map<const Call*, Late>& lates, const Call* call, Late late) {
    auto [it, added] = lates.try_emplace(call, late);
    if (late.until > it->second.until) it->second = late;
  };
  for (const Message& m : messages_) {
    const Call* send = holding(m.sender, m.start);
    const Call* receive = holding(m.receiver, m.end);
    if (!send || !receive) continue;
    if (receive->kind == kReceive) later(receives, receive, {m.receiver, m.sender, send->start});
    if (send->kind == kSend) later(sends, send, {m.sender, m.receiver, receive->start});
  }
  for (const auto& [call, late] : receives) wait(kLateSender, late.container, *call, late.peer, late.until);
  for (const auto& [call, late] : sends) wait(kLateReceiver, late.container, *call, late.peer, late.until);
  // Collectives: the k-th call of a function on each container that calls it is one instance.
  std::map<std::pair<uint32_t, uint64_t>, std::vector<std::pair<ContainerId, const Call*>>> instances;
  for (ContainerId c = 0; c < calls.size(); ++c) {
    std::unordered_map<uint32_t, uint64_t> seen;
    for (const Call& call : calls[c])
      if (call.kind == kNxN || call.kind == kBarrier) instances[{call.name, seen[call.name]++}].emplace_back(c, &call);
  }
  for (const auto& [key, members] : instances) {
    auto last = members.front();
    for (const auto& member : members)
      if (member.second->start > last.second->start) last = member;
    for (const auto& [c, call] : members)
      wait(call->kind == kBarrier ? kWaitBarrier : kWaitNxN, c, *call, last.first, last.second->start);
  }
}

Table WaitStatesAccumulator::Patterns() const {
  struct Sum {
    uint64_t instances = 0;
    ExactSum time;
  };
  std::map<std::tuple<int, ContainerId, std::string_view>, Sum> rows;
  ForEachWait([&](int pattern, ContainerId container, uint32_t path, ContainerId, double a, double b) {
    Sum& s = rows[{pattern, container, paths_[path]}];
    ++s.instances;
    s.time.Add(b - a);
  });
  Table table = PatternColumns();
  const TimeBase& base = trace_.time_base();
  for (const auto& [key, s] : rows) {
    const auto& [pattern, container, path] = key;
    table.Put(kPatterns[pattern]);
    table.Put(trace_.ContainerPath(container));
    table.Put(path);
    table.Put(s.instances);
    table.Put(DurationNanoseconds(base, s.time));
  }
  return table;
}

Table WaitStatesAccumulator::Instances() const {
  struct Instance {
    double start, end;
    ContainerId container, peer;
    int pattern;
  };
  std::vector<Instance> waits;
  ForEachWait([&](int pattern, ContainerId container, uint32_t, ContainerId peer, double a, double b) {
    waits.push_back({a, b, container, peer, pattern});
  });
  std::sort(waits.begin(), waits.end(), [](const Instance& x, const Instance& y) {
    return std::tie(x.start, x.container, x.pattern, x.end) < std::tie(y.start, y.container, y.pattern, y.end);
  });
  Table table = InstanceColumns();
  const TimeBase& base = trace_.time_base();
  for (const Instance& w : waits) {
    table.Put(trace_.ContainerPath(w.container));
    table.Put(RelativeTime(trace_, w.start));
    table.Put(RelativeTime(trace_, w.end));
    table.Put(kPatterns[w.pattern]);
    table.Put(trace_.ContainerPath(w.peer));
    table.Put(DurationNanoseconds(base, w.end - w.start));
  }
  return table;
}

Table WaitStatesAccumulator::Idle() const {
  Table table = IdleColumns();
  const TimeBase& base = trace_.time_base();
  for (ContainerId c = 0; c < calls_.size(); ++c) {
    if (!in_scope_[c] || !has_states_[c]) continue;
    const Container& container = trace_.container(c);
    const double life_end = container.destroyed ? container.end : trace_.end_time();
    const double a = std::max(container.start, start_), b = std::min(life_end, end_);
    ExactSum span, in_states, idle, mpi, mpi_wait;
    if (b > a) {
      span.Add(b - a);
      idle.Add(b - a);
    }
    // The union of the outermost states (of every state type), clipped.
    std::vector<std::pair<double, double>> spans = outermost_[c];
    std::sort(spans.begin(), spans.end());
    double covered = -INFINITY;
    for (auto [x, y] : spans) {
      x = std::max({x, start_, covered});
      y = std::min(y, end_);
      if (y > x) {
        in_states.Add(y - x);
        idle.Add(-(y - x));
        covered = y;
      }
    }
    for (const Call& call : calls_[c]) {
      const double x = std::max(call.start, start_), y = std::min(call.end, end_);
      if (!(y > x)) continue;
      mpi.Add(y - x);
      if (Waits(call.kind)) mpi_wait.Add(y - x);
    }
    table.Put(trace_.ContainerPath(c));
    table.Put(DurationNanoseconds(base, span));
    table.Put(DurationNanoseconds(base, in_states));
    table.Put(DurationNanoseconds(base, idle));
    table.Put(DurationNanoseconds(base, mpi));
    table.Put(DurationNanoseconds(base, mpi_wait));
  }
  return table;
}

}  // namespace macroscope::analysis
