// Wait states and idle time of an MPI trace (docs/waits.md): the time each
// container spends in no state, in MPI and waiting in MPI, and Scalasca's
// wait-state patterns (Late Sender, Late Receiver, Wait at N x N, Wait at
// Barrier) per container and call path of the waiting call.
//
// An MPI call is a state whose value is an MPI function: a name starting
// with "MPI_" or SMPI's "PMPI_" (the letters after the prefix in any case:
// OTF2's MPI_Recv, SMPI's PMPI_Recv); only the outermost MPI call of a
// stack counts (an MPI_ call wrapping a PMPI_ one is one call). A message
// is a link with both ends (analysis/communication.h): its send call is
// the sender's MPI call holding the link's start, its receive call the
// receiver's MPI call holding its end.
//
// Memory: one record per MPI call (container, start, end, function, call
// path) and per message (ends, times), and the outermost states' intervals
// of each container in scope (the idle table).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/cancellation.h"
#include "analysis/table.h"
#include "model/entity_chunk.h"
#include "model/entity_source.h"
#include "model/trace.h"

namespace macroscope::analysis {

struct WaitStatesRequest {
  std::optional<double> start, end;     // the window, model times (default: the trace's span)
  std::vector<std::string> containers;  // names, aliases or paths; their subtrees (empty: all)
};

class WaitStatesAccumulator {
 public:
  // Throws UserError for an empty window or an unknown container.
  WaitStatesAccumulator(const Trace& trace, const WaitStatesRequest& request);

  // Every state and link store is read whole (a message's ends may lie
  // outside the window or the containers in scope).
  bool Wants(const EntityStore& store) const;
  // A chunk of a state store (after the store's earlier chunks) or of a
  // link store.
  void Add(const EntityChunk& chunk);

  // Scalasca's patterns: one row per (pattern, container, call path) with
  // a waiting time inside the window, patterns in the order above, then
  // container order, then call path: pattern, container (path), call_path
  // (the states from the outermost to the waiting MPI call, ';' between
  // them), instances, time_ns. Throws UserError when the trace has no MPI
  // call.
  Table Patterns() const;
  // Each wait, one row per instance with a part inside the window, by
  // start, then container, then pattern: container (path), start, end (its
  // part in the window, relative to the trace's start as the query's
  // critical_path() gives times: ticks, or seconds), pattern, peer (the
  // path of the container waited for: the sender of the latest message, the
  // receiver, or the collective's last entrant), wait_ns. Throws UserError
  // when the trace has no MPI call.
  Table Instances() const;
  // One row per container in scope with a state, in container order:
  // container, span_ns, in_states_ns, idle_ns, mpi_ns, mpi_wait_ns.
  Table Idle() const;

  static Table PatternColumns();
  static Table IdleColumns();
  static Table InstanceColumns();

 private:
  struct Call {
    double start, end;
    uint32_t path;  // into paths_
    uint32_t name;  // into names_: the function's name after the prefix, in capitals
    uint8_t kind;   // wait_states.cc's MpiKind
  };
  struct Message {
    ContainerId sender, receiver;
    double start, end;
  };
  struct Frame {
    double end;
    StringId value;
    bool mpi;  // it or a state enclosing it is an MPI call
  };
  struct Function {
    uint8_t kind = 0;  // 0: not MPI
    uint32_t name = 0;
  };
  const Function& FunctionOf(StringId value);
  // Calls `wait(pattern, container, call path, peer, start, end)` for each
  // wait's part inside the window (pattern: an index of wait_states.cc's
  // kPatterns), in no particular order.
  template <class Wait>
  void ForEachWait(Wait wait) const;

  const Trace& trace_;
  double start_, end_;
  std::vector<bool> in_scope_;
  std::unordered_map<uint64_t, std::vector<Frame>> stacks_;  // by (container << 32 | type)
  std::vector<std::vector<Call>> calls_;                     // by container
  std::vector<std::vector<std::pair<double, double>>> outermost_;  // by container: level-0 states in the window
  std::vector<Message> messages_;
  std::vector<std::string> paths_;
  std::unordered_map<std::string, uint32_t> path_ids_;
  std::vector<std::string> names_;
  std::unordered_map<std::string, uint32_t> name_ids_;
  std::vector<std::optional<Function>> functions_;  // by StringId, once classified
  std::vector<bool> has_states_;                    // by container
};

// The accumulator fed every state and link chunk of `source`; stops with
// Cancelled between chunks once `cancel` is set.
WaitStatesAccumulator ComputeWaitStates(const EntitySource& source, const WaitStatesRequest& request,
                                        const Cancellation* cancel = nullptr);

}  // namespace macroscope::analysis
