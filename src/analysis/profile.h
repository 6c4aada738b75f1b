// Where the time goes: the profile of a trace's nested states (functions:
// OTF2 regions, Chrome slices, cyg_profile and UST function entries, Pajé
// pushed states, Nsight ranges, and every other state type), per container
// and function, and their calling context tree (docs/profile.md).
//
// A state's inclusive time is its length inside the window; its exclusive
// time is that minus the inclusive time of the states it encloses one
// level down (its calls). A function's inclusive time in a container
// counts a recursion once: only its outermost calls add theirs. Every sum
// is exact (ticks), rounded once to nanoseconds in the tables.
//
// The states of one store (a container's states of one type) are a forest
// by their nesting level: each store is its own call stack. Stores come in
// any order, one after another or interleaved; a store's chunks come in
// the store's order (model/entity_source.h), where a state comes before
// the states it encloses.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "analysis/cancellation.h"
#include "analysis/table.h"
#include "model/entity_chunk.h"
#include "model/entity_source.h"
#include "model/trace.h"
#include "util/exact_sum.h"
#include "util/id_map.h"

namespace macroscope::analysis {

struct ProfileRequest {
  std::optional<double> start, end;     // the window, model times (default: the trace's span)
  std::vector<std::string> containers;  // names, aliases or paths; their subtrees (empty: all)
  // The calling context tree too (Profile::tree), for the call path table
  // and flame graphs; the per function sums need none.
  bool call_paths = false;
};

// One calling context: a function called from its parent's context.
struct CallNode {
  uint32_t parent = UINT32_MAX;  // UINT32_MAX: a root (one per container, function kNone)
  StringId function = kEmptyString;
  ContainerId container = kNone;
  uint64_t calls = 0;
  ExactSum inclusive, exclusive;  // ticks inside the window
};

// The calling context trees of every container in scope: node 0.. in
// creation order, a parent before its children.
struct CallTree {
  std::vector<CallNode> nodes;
};

// A function's sums in one container (or over all of them).
struct FunctionSums {
  uint64_t calls = 0;
  ExactSum inclusive, exclusive;
};

// One container's profile: per function, calls, exclusive time, and
// inclusive time counted once through recursion (only the calls with no
// caller of the same function on their path); and the inclusive time of
// its outermost calls (the time inside any function, which the functions'
// inclusive times summed would count again for nested calls).
struct ContainerProfile {
  ContainerId container = kNone;
  ExactSum outermost;
  std::map<StringId, FunctionSums> functions;
};

// What the profile of a trace holds: the containers with states in the
// window, in container order; and their calling context trees when the
// request asks for call paths. What every table below and the comparison
// of runs (compare/) read.
struct Profile {
  std::vector<ContainerProfile> containers;
  CallTree tree;
};

class ProfileAccumulator {
 public:
  // Throws UserError for an empty window or an unknown container.
  ProfileAccumulator(const Trace& trace, const ProfileRequest& request);

  double start() const { return start_; }
  double end() const { return end_; }
  // Whether a store's entities are asked for (a state store in scope).
  bool Wants(const EntityStore& store) const;
  // A chunk of state store `chunk.store` (others are skipped), after the
  // store's earlier chunks.
  void Add(const EntityChunk& chunk);

  // The profile once every chunk is added; the accumulator is spent.
  Profile Take() &&;

 private:
  // The child a node called last: a caller in a loop calls the same
  // function again and again, found without a lookup.
  struct LastCall {
    StringId function = kEmptyString;
    uint32_t child = UINT32_MAX;
  };
  // A function's sums in one store, and its calls open on the store's
  // stack (an inner call of it adds no inclusive time).
  struct Sums {
    FunctionSums sums;
    uint32_t open = 0;
  };
  struct Frame {
    double end;
    uint32_t sums;  // the function's, in its Stack's
    uint32_t node;  // in the tree, when call paths are asked for
    LastCall last;
  };
  // A store's states: a call stack of its own.
  struct Stack {
    ContainerId container = kNone;
    std::vector<Frame> frames;
    std::vector<Sums> sums;
    IdMap<uint32_t> sums_of;  // function -> its index in sums
    ExactSum outermost;
    uint32_t root = UINT32_MAX;
    LastCall last;  // the root's
  };
  uint32_t SumsOf(Stack& stack, StringId function);
  uint32_t Child(uint32_t parent, StringId function, LastCall& last);
  uint32_t FindOrAddChild(uint32_t parent, StringId function);

  const Trace& trace_;
  double start_, end_;
  bool call_paths_;
  std::vector<bool> in_scope_;
  std::unordered_map<uint64_t, Stack> stacks_;              // by (container << 32 | type)
  std::unordered_map<uint32_t, uint32_t> container_roots_;  // container -> its root node
  absl::flat_hash_map<uint64_t, uint32_t> children_;  // (parent << 32 | function) -> node: millions of call paths
  CallTree tree_;
};

// The profile of `source`'s states: every state store in scope, chunk by
// chunk; stops with Cancelled between chunks once `cancel` is set.
Profile ComputeProfile(const EntitySource& source, const ProfileRequest& request,
                       const Cancellation* cancel = nullptr);

// One row per (container, function) in container order, then by decreasing
// exclusive time: container (path), function, calls, inclusive_ns,
// exclusive_ns.
Table ProfileTable(const Trace& trace, const Profile& profile);
// One row per function, by decreasing exclusive time: function, calls,
// containers (where it occurs), inclusive_ns, exclusive_ns (sums), and over
// those containers the mean, min and max of each, and imbalance (max /
// mean of inclusive time).
Table ProfileTotalTable(const Trace& trace, const Profile& profile);
// The calling context tree merged over the containers: one row per call
// path, a parent before its children: id, parent (empty for a root),
// depth, function, path (the functions from the root, ';' between them, as
// folded stacks write them), calls, inclusive_ns, exclusive_ns.
Table CallTreeTable(const Trace& trace, const CallTree& tree);

}  // namespace macroscope::analysis
