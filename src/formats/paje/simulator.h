// The Pajé simulator: turns the format's events into the trace model with
// exactly the semantics of pj_dump 1.3.6. It is the one place that owns
// state stacks, link matching and variable arithmetic, so every reader
// (Pajé text today; OTF2 enter/leave, CTF syscalls, Chrome B/E later) goes
// through it.
//
// Names: types and containers are referred to by their identifier, the
// alias when they have one, else the name. Entity values may be given by
// a declared value's alias or name and are stored as its name.
//
// Errors: every call throws SimulationError (a message without position)
// for input that pj_dump refuses; the reader adds file and line.
//
// Streaming: with a sink (SimulatorOptions::sink), every `drain_interval`
// appended entities and at Finish() the simulator hands the entities that
// are complete to the sink and removes them from the trace
// (simulator_drain.cc), so memory holds the last interval and what is
// still open, whatever the trace's length.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include <array>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "model/entity_sink.h"
#include "model/trace.h"
#include "util/id_map.h"
#include "util/progress_line.h"
#include "util/recent_answers.h"

namespace macroscope::paje {

class SimulationError : public std::runtime_error {
 public:
  explicit SimulationError(const std::string& message, size_t rank = 0)
      : std::runtime_error(message), rank(rank) {}
  // Among the errors one line may raise in several shards of a sharded
  // simulation (sharded_simulation.h: destroying a tree of containers held
  // by different shards), the one the sequential simulator raises has the
  // lowest rank: the containers the destruction visited before.
  size_t rank;
};

// Time going backwards in one (container, type): the Pajé reader suggests
// --sort for it.
class TimeOrderError : public SimulationError {
 public:
  using SimulationError::SimulationError;
};

struct SimulatorOptions {
  bool no_imbrication = false;           // pj_dump -i: push/pop interrupt instead of nesting
  bool ignore_incomplete_links = false;  // pj_dump -z
  // Where completed entities go (model/entity_sink.h); null: the trace
  // keeps everything (the in-memory model).
  EntitySink* sink = nullptr;
  // With a sink: entities appended between two hand-overs.
  size_t drain_interval = 65536;
  // Threads simulating, each owning the entities of a share of the
  // containers (sharded_simulation.h); 1: one simulator, on the reader's thread.
  int shards = 1;
  // Where the entities simulated are counted (util/progress_line.h);
  // null: not counted.
  Progress* progress = nullptr;
};

using Extras = std::span<const ExtraField>;

class Simulator {
 public:
  Simulator(Trace& trace, SimulatorOptions options);

  void DefineContainerType(StringId parent_type, StringId name, StringId alias);
  void DefineEntityType(TypeKind kind, StringId parent_type, StringId name, StringId alias, StringId color);
  void DefineLinkType(StringId parent_type, StringId start_type, StringId end_type, StringId name,
                      StringId alias);
  void DefineValue(StringId type, StringId name, StringId alias, StringId color);

  void CreateContainer(double time, StringId type, StringId parent, StringId name, StringId alias,
                       Extras extras);
  void DestroyContainer(double time, StringId type, StringId name);
  void NewEvent(double time, StringId type, StringId container, StringId value, Extras extras);
  void SetState(double time, StringId type, StringId container, StringId value, Extras extras);
  void PushState(double time, StringId type, StringId container, StringId value, Extras extras);
  void PopState(double time, StringId type, StringId container, Extras extras);
  void ResetState(double time, StringId type, StringId container, Extras extras);
  enum class VariableOp { kSet, kAdd, kSub };
  void ChangeVariable(VariableOp op, double time, StringId type, StringId container, double value,
                      Extras extras);
  void StartLink(double time, StringId type, StringId container, StringId start_container,
                 StringId value, StringId key, Extras extras);
  void EndLink(double time, StringId type, StringId container, StringId end_container, StringId value,
               StringId key, Extras extras);

  // Hints for the entity event that will come a few lines later: the store
  // it goes to is scattered in memory (one per container and type), so
  // fetching it ahead hides the cache misses. Stage 0 fetches the store's
  // header, stage 1 (later, once the header is in) the ends of its columns.
  void Prefetch(StringId type_identifier, StringId container_identifier, int stage) const;
  // Whether Prefetch pays: only once the stores outgrow the caches. With
  // fewer, the hints cost more than the misses they hide. On 10 M lines of
  // every kind (2-core VM, 32 MB L3): 1,000 leaves (4,000 stores) 0.57 s
  // without against 0.68 s with (best of 10); 2,744 leaves even; 8,000 leaves
  // 1.47 s without against 0.96 s with.
  bool FetchAhead() const { return trace_.stores().size() > kFetchAheadStores; }
  static constexpr size_t kFetchAheadStores = 8192;

  // The end of the trace at `last_time` (the time of the last timed event):
  // destroys every container still alive, closing what is open. Destroying
  // a container destroys its living descendants at the same time. With a
  // sink, hands over everything left: the trace's stores end empty.
  void Finish(double last_time);

 private:
  static constexpr double kOpen = -1;  // end time of an entity still open (pj_dump's marker)

  struct PendingLink {
    TypeId type;
    double start = kOpen, end = kOpen;
    StringId value;
    ContainerId start_container = kNone, end_container = kNone;
    // User fields of the first and of the second of its two events, in the
    // order they came (the end may come first).
    uint32_t first_extras = 0, second_extras = 0;
  };
  // The link keys a container has seen: each maps to its link, waiting in
  // pending_links_ for its other half, or to kUsedKey once the link is
  // complete (pj_dump refuses to reuse a key).
  static constexpr uint32_t kUsedKey = UINT32_MAX;
  struct ContainerState {
    IdMap<uint32_t> keys;
    uint32_t pending = 0;  // links waiting
  };
  // A waiting link's place in pending_links_, and its release.
  uint32_t Hold(const PendingLink& link);
  void Release(uint32_t index) { free_pending_.push_back(index); }

  // Where an entity event goes: its container, its type, their store.
  struct Target {
    ContainerId container = kNone;
    TypeId type = kNone;
    uint32_t store = kNone;
  };
  // Resolves and checks (container, type) with a cache of a few entries per
  // container: a container's lines mostly repeat a few types (a
  // state, then its variable, ...), and a one-entry cache would miss on each
  // alternation, leaving the store's header cold. Throws for an unknown or
  // mismatched pair; false when the container is destroyed.
  bool Route(StringId type_identifier, StringId container_identifier, TypeKind kind, Target& out) {
    // Inline: every entity event comes here, and mostly finds its route.
    if (container_identifier < container_by_identifier_.size()) {
      if (ContainerId c = container_by_identifier_[container_identifier]; c != kNone) {
        if (const RouteEntry* r = routes_[c].Find(type_identifier); r != nullptr && r->kind == kind) {
          out = r->target;
          return true;
        }
      }
    }
    return NewRoute(type_identifier, container_identifier, kind, out);
  }
  // Route's first time for the pair: checks it and caches it.
  bool NewRoute(StringId type_identifier, StringId container_identifier, TypeKind kind, Target& out);
  TypeId LookupType(StringId identifier) const;
  ContainerId LookupContainer(StringId identifier, const char* role = "container") const;
  // The entity type `type` of kind `kind`, checked to be a child of the container's type.
  TypeId EntityType(StringId type, ContainerId container, TypeKind kind) const;
  uint32_t StoreIndex(ContainerId container, TypeId type);
  // The name of the type's value `value` (an alias or a name), or `value`
  // itself, which then names a value of its own for the type, as in
  // pj_dump: a later definition of it is refused.
  StringId ResolveValue(TypeId type, StringId value) {
    const uint64_t key = (uint64_t{type} << 32) | value;
    const auto& r = resolved_.Slot(key);
    return r.key == key ? r.value : NewValue(key);  // inline: most lines repeat a value seen just before
  }
  StringId NewValue(uint64_t key);
  // Time must not go back within a store: not before the start of its last
  // entity, nor before its end once closed. Inline, every entity event asks.
  void CheckTimeOrder(uint32_t store, double time) const {
    const StoreState& st = store_states_[store];
    if (st.last_start > time || (st.last_end != kOpen && st.last_end > time)) TimeGoesBack(trace_.stores()[store]);
  }
  [[noreturn]] void TimeGoesBack(const EntityStore& s) const;
  // Appends an entity's times to store `si` (its other columns are the
  // caller's), noting them as its last entity's.
  void AppendTimes(uint32_t si, EntityStore& s, double start, double end) {
    s.start.push_back(start);
    s.end.push_back(end);
    NoteLast(si, s, start, end);
  }
  // Notes the entity just appended to store `si` as its last.
  void NoteLast(uint32_t si, const EntityStore& s, double start, double end) {
    StoreState& st = store_states_[si];
    st.last_start = start;
    st.last_end = end;
    st.last_index = static_cast<uint32_t>(s.start.size() - 1);
  }
  // Ends entity `index` of store `si` at `time`.
  void End(uint32_t si, EntityStore& s, size_t index, double time) {
    s.end[index] = time;
    if (index == store_states_[si].last_index) store_states_[si].last_end = time;
  }
  // Ends the open states of store `si` at `time` (a set, a reset, the
  // container's end).
  void EndOpenStates(uint32_t si, EntityStore& s, double time) {
    auto& stack = store_states_[si].stack;
    for (uint32_t i : stack) End(si, s, i, time);
    stack.clear();
  }
  uint32_t OpenState(uint32_t store, double time, StringId value, uint16_t level, uint32_t extras);
  void Destroy(ContainerId container, double time, size_t rank);
  void DestroyTree(ContainerId container, double time);
  void FinishLink(uint32_t store, const PendingLink& link, StringId key);
  void LinkEnd(bool is_start, double time, StringId type, StringId container, StringId peer, StringId value,
               StringId key, Extras extras);

  Trace& trace_;
  SimulatorOptions options_;
  std::vector<TypeId> type_by_identifier_;         // indexed by StringId
  std::vector<ContainerId> container_by_identifier_;
  std::unordered_map<uint64_t, StringId> value_names_;  // (type << 32 | alias or name) -> name
  std::unordered_set<uint64_t> undeclared_values_;      // (type << 32 | word) used without a definition
  // ResolveValue's recent answers, found without the maps' division: most
  // lines repeat a few values. A definition never changes one (its alias
  // and name cannot have been used before it).
  RecentAnswers<StringId> resolved_;
  // Per store, what its events read besides the store's own columns, in
  // one cache line:
  // - the times of its last entity, read here instead of at the columns'
  //   ends, which are then only written: an event waits on fewer cache
  //   misses. They stay when a drain hands the entity over to a sink;
  // - its open states, bottom first (most stores hold one at a time, kept
  //   inline);
  // - whether it has something for the next drain.
  struct alignas(64) StoreState {
    double last_start = -std::numeric_limits<double>::infinity();  // none yet
    double last_end = kOpen;
    uint32_t last_index = UINT32_MAX;  // in the store; UINT32_MAX: none, or handed over
    bool touched = false;
    boost::container::small_vector<uint32_t, 2> stack;
  };
  std::vector<StoreState> store_states_;
  struct RouteEntry {
    StringId type_identifier = kNone;
    TypeKind kind = TypeKind::kContainer;
    Target target;
  };
  // The types a container's lines last used (a leaf of the generator's
  // traces has four), replaced in turn.
  struct alignas(64) RouteSet {
    static constexpr int kWays = 4;
    std::array<RouteEntry, kWays> entry;
    uint8_t next = 0;  // the way the next miss replaces
    const RouteEntry* Find(StringId type_identifier) const {
      for (const RouteEntry& e : entry)
        if (e.type_identifier == type_identifier) return &e;
      return nullptr;
    }
  };
  std::vector<RouteSet> routes_;                     // indexed by ContainerId
  std::vector<ContainerState> container_states_;
  std::vector<PendingLink> pending_links_;  // the waiting links of every container
  std::vector<uint32_t> free_pending_;      // places in pending_links_ to reuse

  // Streaming (simulator_drain.cc). An entity appended to a store, or
  // closed in it: the store has something to hand over at the next drain.
  void Appended(uint32_t store) {
    if (options_.progress != nullptr && ++uncounted_ == kCountEvery) CountProgress();
    if (options_.sink == nullptr) return;
    ++appended_;
    Touched(store);
  }
  void Touched(uint32_t store) {
    if (options_.sink == nullptr || store_states_[store].touched) return;
    store_states_[store].touched = true;
    touched_.push_back(store);
  }
  // At the start of each entity event, when no entity index is held.
  void MaybeDrain() {
    if (options_.sink != nullptr && appended_ >= options_.drain_interval) Drain(false);
  }
  // Hands over the complete entities of the touched stores (of all stores
  // and the open ones too when `all`) and removes them.
  void Drain(bool all);
  void DrainStore(uint32_t store, bool all);
  // Hands entities [begin, end) of a store over, one chunk per run of
  // consecutive places.
  void HandOver(uint32_t store, size_t begin, size_t end);
  void CompactExtras(uint32_t store);
  std::vector<uint32_t> touched_;                    // stores touched since the last drain
  size_t appended_ = 0;                              // entities appended since the last drain
  std::vector<uint32_t> keep_;                       // scratch: entities a drain keeps
  // Where the entities a store holds sit in the whole store's order
  // (EntityChunk::index). The columns hold the few entities an earlier
  // drain kept, at their places, then those appended since, one after the
  // other from `next`. Read and updated by drains only: the events' path
  // does not see it.
  struct Place {
    boost::container::small_vector<uint64_t, 2> kept;
    uint64_t next = 0;
    uint64_t At(size_t i) const { return i < kept.size() ? kept[i] : next + (i - kept.size()); }
  };
  std::vector<Place> places_;          // per store, grown by the drains
  std::vector<uint64_t> kept_places_;  // scratch: the places of the entities a drain keeps

  // The progress line's count, told every kCountEvery entities.
  static constexpr uint32_t kCountEvery = 4096;
  void CountProgress() {
    options_.progress->AddEntities(uncounted_);
    uncounted_ = 0;
  }
  uint32_t uncounted_ = 0;
};

}  // namespace macroscope::paje
