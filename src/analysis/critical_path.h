// The critical path of a message-passing trace (docs/critical-path.md):
// the chain of activities, across the containers, that determined when
// the last activity ended. Walking back from the end of the container
// whose last state ends last, the path stays on a container until a
// receive that waited for its message (a receive call, or a wait
// completing one, that began before the send: a Late Sender), where it
// goes to the sender at the send, or a collective the container did not
// enter last (the k-th call of a collective on each container is one
// instance), where it goes to the container that entered it last at its
// entry; else it reaches the container's first state.
//
// Messages are links (sent by peer_start at the link's start, received by
// peer_end at its end); receive calls, waits and collectives are states
// named as MPI names them (with or without its profiling P prefix).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/cancellation.h"
#include "analysis/table.h"
#include "model/entity_chunk.h"
#include "model/entity_source.h"
#include "model/trace.h"

namespace macroscope::analysis {

// One stretch of the path: a container's time [start, end] (model times)
// in one innermost state (kEmptyString: none).
struct PathSegment {
  ContainerId container;
  double start, end;
  StringId function;
};

class CriticalPathAccumulator {
 public:
  // The states and links of `chunk` (other kinds are skipped); a store's
  // chunks in its order.
  void Add(const EntityChunk& chunk);
  // The path in time order, once the trace is complete. Throws UserError
  // when the trace has no state, or neither a message nor a collective.
  std::vector<PathSegment> Path(const Trace& trace) const;

 private:
  struct State {
    double start, end;
    StringId function;
    uint16_t level;
  };
  struct Message {
    ContainerId sender;
    double sent, received;
  };
  std::vector<std::vector<State>> states_;       // by container
  std::vector<std::vector<Message>> received_;  // by receiver
  size_t messages_ = 0;
};

// The path of `source`'s states and links; stops with Cancelled between
// chunks once `cancel` is set.
std::vector<PathSegment> ComputeCriticalPath(const EntitySource& source, const Cancellation* cancel = nullptr);

enum class CriticalPathBy { kSegments, kFunction, kContainer };

// "function" or "container"; UserError naming `option` otherwise.
CriticalPathBy ParseCriticalPathBy(std::string_view text, std::string_view option);

// kSegments: one row per segment in time order: container (path), start,
// end (relative to the trace's start, as the query tables' times),
// function (empty when none), length_ns. kFunction, kContainer: one row
// per function or container on the path, by decreasing time: name,
// length_ns, share (of the path's length, 0 to 1).
Table CriticalPathTable(const Trace& trace, const std::vector<PathSegment>& path, CriticalPathBy by);

// A path's time per name (a kernel thread's path shares it): one row per
// name by decreasing time: name, length_ns (the name's lengths summed
// exactly, rounded once), share (of the whole, 0 to 1). `named`: each
// segment's name and length (model time).
Table PathShareTable(const TimeBase& base, const std::vector<std::pair<std::string, double>>& named);

}  // namespace macroscope::analysis
