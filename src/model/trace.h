// The trace model every reader fills and every analysis queries.
//
// - Types form a tree rooted at type 0 ("0"): container types inside, entity
//   types (state, event, variable, link) as leaves.
// - Containers form a tree rooted at container 0 ("0") mirroring the types.
// - Entities live in columnar stores, one per (container, entity type), in
//   the order the simulator completed or created them (the order pj_dump
//   prints). Times are doubles in the trace's own tick, described by its
//   TimeBase (model/time_base.h): whole ticks from an origin for integer
//   clocks (CTF, OTF2), so exact; seconds for Pajé, microseconds for Chrome.
// - Every name, value and key is an interned StringId.
//
// Ownership: a Trace owns everything; ids are plain indices, stable for the
// life of the trace. Not thread-safe for writing; const queries may run in
// parallel once BuildIndexes() has run.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/interval_index.h"
#include "model/time_base.h"
#include "model/string_pool.h"

namespace macroscope {

using TypeId = uint32_t;
using ContainerId = uint32_t;
inline constexpr uint32_t kNone = UINT32_MAX;
inline constexpr TypeId kRootType = 0;
inline constexpr ContainerId kRootContainer = 0;

enum class TypeKind : uint8_t { kContainer, kState, kEvent, kVariable, kLink };
std::string_view TypeKindName(TypeKind kind);

struct Type {
  StringId name = kEmptyString;
  StringId alias = kEmptyString;
  TypeKind kind = TypeKind::kContainer;
  TypeId parent = kNone;
  TypeId start_type = kNone;  // links: container type at the start
  TypeId end_type = kNone;    // links: container type at the end
  StringId color = kEmptyString;
  std::vector<TypeId> children;  // in definition order
};

// A declared value of an entity type (state name, event name, link name).
struct EntityValue {
  TypeId type = kNone;
  StringId name = kEmptyString;
  StringId alias = kEmptyString;
  StringId color = kEmptyString;
};

// One user-defined field of an entity: its declared name and its text.
struct ExtraField {
  StringId name;
  StringId value;
};

// User fields of the entities of one store. The event that opens an entity
// and the one that closes it (a pop, the end of a link) may each carry
// some: an entity refers to up to two lists, shown start list first.
// The per-entity columns stay empty while no entity of the store has any.
class ExtraColumn {
 public:
  static constexpr uint32_t kNoList = 0;
  // Stores a list, returns its id (kNoList for an empty list, the usual
  // case: inline).
  uint32_t AddList(std::span<const ExtraField> fields) { return fields.empty() ? kNoList : AddFields(fields); }
  void SetStart(size_t entity, uint32_t list) { Set(at_start_, entity, list); }
  void SetEnd(size_t entity, uint32_t list) { Set(at_end_, entity, list); }
  bool empty() const { return fields_.empty(); }
  // The raw state, for the store (src/store), which saves it and puts it
  // back unchanged with Restore(); the caller checks list ids are in range.
  const std::vector<ExtraField>& fields() const { return fields_; }
  const std::vector<uint32_t>& list_begin() const { return list_begin_; }
  const std::vector<uint32_t>& at_start() const { return at_start_; }
  const std::vector<uint32_t>& at_end() const { return at_end_; }
  void Restore(std::vector<ExtraField> fields, std::vector<uint32_t> list_begin, std::vector<uint32_t> at_start,
               std::vector<uint32_t> at_end) {
    fields_ = std::move(fields);
    list_begin_ = std::move(list_begin);
    at_start_ = std::move(at_start);
    at_end_ = std::move(at_end);
  }
  template <class F>
  void ForEach(size_t entity, F&& f) const {
    for (auto* column : {&at_start_, &at_end_}) {
      if (entity >= column->size()) continue;
      uint32_t list = (*column)[entity];
      for (uint32_t i = list_begin_[list]; i < list_begin_[list + 1]; ++i) f(fields_[i]);
    }
  }

 private:
  uint32_t AddFields(std::span<const ExtraField> fields);
  void Set(std::vector<uint32_t>& column, size_t entity, uint32_t list);
  std::vector<ExtraField> fields_;
  std::vector<uint32_t> list_begin_{0, 0};  // list k = fields_[list_begin_[k], list_begin_[k+1])
  std::vector<uint32_t> at_start_, at_end_;
};

// The entities of one entity type in one container, as columns. Which
// columns are filled depends on the kind:
//   state:    start, end, value, level
//   event:    start (the time), value
//   variable: start, end, number
//   link:     start, end, value, key, peer_start, peer_end
//
// Laid out in cache lines for the readers, which append to thousands of
// stores in turn and wait on each line they touch: the first line holds
// the times and the kind, the second a state's or event's value and level,
// the third a variable's number and a link's key.
struct alignas(64) EntityStore {
  ContainerId container = kNone;
  TypeId type = kNone;
  std::vector<double> start;
  std::vector<double> end;
  TypeKind kind = TypeKind::kState;
  alignas(64) std::vector<StringId> value;
  std::vector<uint16_t> level;
  alignas(64) std::vector<double> number;
  std::vector<StringId> key;
  std::vector<ContainerId> peer_start;
  std::vector<ContainerId> peer_end;
  ExtraColumn extras;
  IntervalIndex index;  // built by Trace::BuildIndexes()

  size_t size() const { return start.size(); }
  double End(size_t i) const { return end.empty() ? start[i] : end[i]; }
};

struct Container {
  StringId name = kEmptyString;
  StringId alias = kEmptyString;
  TypeId type = kNone;
  ContainerId parent = kNone;
  double start = 0;
  double end = -1;
  bool destroyed = false;
  std::vector<ContainerId> children;                 // in creation order
  std::vector<std::pair<TypeId, uint32_t>> stores;   // entity type -> store index
  std::vector<ExtraField> extras;
};

class Trace {
 public:
  Trace();
  // A trace naming its strings in `strings`, another trace's pool: the
  // sharded Pajé simulator's shards (formats/paje/sharded_simulation.h)
  // build their part of a trace in one of these, with the reader's ids.
  explicit Trace(std::shared_ptr<StringPool> strings);
  Trace(Trace&&) = default;
  Trace& operator=(Trace&&) = default;
  Trace(const Trace&) = delete;  // a copy would share the pool
  Trace& operator=(const Trace&) = delete;

  StringPool& strings() { return *strings_; }
  const StringPool& strings() const { return *strings_; }
  const std::shared_ptr<StringPool>& shared_strings() const { return strings_; }
  std::string_view Str(StringId id) const { return strings_->View(id); }

  // --- building (readers and the simulator) ---
  TypeId AddType(TypeId parent, TypeKind kind, StringId name, StringId alias);
  ContainerId AddContainer(ContainerId parent, TypeId type, StringId name, StringId alias, double time);
  uint32_t AddValue(TypeId type, StringId name, StringId alias, StringId color);
  // The store of (container, type), created on first use.
  EntityStore& Store(ContainerId container, TypeId type);
  void SetTimeSpan(double start, double end) { start_time_ = start; end_time_ = end; }
  void SetTimeBase(const TimeBase& base) { time_base_ = base; }
  // Sorts nothing, moves nothing: builds the interval index of every store.
  void BuildIndexes();

  // --- restoring (the store reader, src/store) ---
  // Append a type, container or store exactly as given: nothing is linked
  // (children and store lists come with the element), so the caller restores
  // them in id order and checks ids. The roots (id 0) are replaced through
  // type(0) and container(0).
  TypeId AppendType(Type t);
  ContainerId AppendContainer(Container c);
  uint32_t AppendStore(EntityStore s);
  // Moves every store out, leaving none (the containers' store lists are
  // the caller's to redo): to put stores built apart back in one order.
  std::vector<EntityStore> TakeStores() { return std::exchange(stores_, {}); }

  // --- queries ---
  const std::vector<Type>& types() const { return types_; }
  Type& type(TypeId id) { return types_[id]; }
  const Type& type(TypeId id) const { return types_[id]; }
  const std::vector<Container>& containers() const { return containers_; }
  Container& container(ContainerId id) { return containers_[id]; }
  const Container& container(ContainerId id) const { return containers_[id]; }
  const std::vector<EntityValue>& values() const { return values_; }
  const std::vector<EntityStore>& stores() const { return stores_; }
  EntityStore& store(uint32_t index) { return stores_[index]; }
  const EntityStore* FindStore(ContainerId container, TypeId type) const;
  double start_time() const { return start_time_; }
  double end_time() const { return end_time_; }
  const TimeBase& time_base() const { return time_base_; }

  // Positions in FindStore(container, type) of the entities that intersect
  // [t1, t2] (an event at t intersects when t1 <= t <= t2), in start order.
  // O(log n + k) after BuildIndexes().
  std::vector<uint32_t> Entities(TypeId type, ContainerId container, double t1, double t2) const;

  // Total entities of each kind, over all stores.
  size_t CountEntities(TypeKind kind) const;

  // Names of the containers from the root's children down to `id`, joined
  // by '/' (the root's path is "").
  std::string ContainerPath(ContainerId id) const;

 private:
  std::shared_ptr<StringPool> strings_;
  std::vector<Type> types_;
  std::vector<Container> containers_;
  std::vector<EntityValue> values_;
  std::vector<EntityStore> stores_;
  double start_time_ = 0;
  double end_time_ = 0;
  TimeBase time_base_;
};

}  // namespace macroscope
