// The one form in which entities travel: a run of entities of one
// (container, entity type), as columns, in the store's order. A reader
// hands its completed entities to an EntitySink as chunks
// (model/entity_sink.h); the store's loader hands its chunks the same way;
// every streaming analysis, workflow module and writer reads them
// (docs/streaming.md draws the path).
//
// A chunk is a view: it borrows its columns from an EntityStore (the
// reader's, or one a workflow batch owns) and is valid while that store
// is. Which columns are filled depends on the kind, as in EntityStore
// (model/trace.h); an empty span is a column the kind does not have.
//
// Names: `type_name` and `container_name` are StringIds of the trace the
// chunk comes from, set by whoever makes the chunk, so that a consumer on
// another thread than the reader's (a workflow module) names it without
// reading the reader's types and containers, which are still growing. The
// ids (`container`, `type`, link peers) are the source trace's; read them
// in the trace once it is complete.
//
// Place: `index` is where entity 0 sits in the whole store's order (the
// order the in-memory model holds the store, what a reader without a sink
// builds); entity i is at `index + i`. A streaming reader hands a store's
// entities out of that order (a state still open comes after the states
// opened after it), so a consumer that rebuilds the store, or pairs two
// reads of it, places each chunk at its index.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "model/trace.h"

namespace macroscope {

struct EntityChunk {
  TypeKind kind = TypeKind::kEvent;
  ContainerId container = kNone;
  TypeId type = kNone;
  uint32_t store = kNone;  // the store's index in the source trace, when it is one of its stores
  uint64_t index = 0;      // entity 0's position in the whole store (above)
  StringId type_name = kEmptyString;
  StringId container_name = kEmptyString;
  std::span<const double> start;          // every kind: the start, an event's time
  std::span<const double> end;            // states, variables, links
  std::span<const StringId> value;        // states, events, links
  std::span<const uint16_t> level;        // states: nesting depth
  std::span<const double> number;         // variables
  std::span<const StringId> key;          // links
  std::span<const ContainerId> peer_start, peer_end;  // links
  // User fields: entity i's are entity `first + i`'s of `extras`.
  const ExtraColumn* extras = nullptr;
  size_t first = 0;

  size_t size() const { return start.size(); }
  bool empty() const { return start.empty(); }
  double End(size_t i) const { return end.empty() ? start[i] : end[i]; }
  double Duration(size_t i) const { return End(i) - start[i]; }
  StringId Value(size_t i) const { return value.empty() ? kEmptyString : value[i]; }
  uint16_t Level(size_t i) const { return level.empty() ? 0 : level[i]; }
  double Number(size_t i) const { return number.empty() ? 0 : number[i]; }
  StringId Key(size_t i) const { return key.empty() ? kEmptyString : key[i]; }
  ContainerId PeerStart(size_t i) const { return peer_start.empty() ? kNone : peer_start[i]; }
  ContainerId PeerEnd(size_t i) const { return peer_end.empty() ? kNone : peer_end[i]; }
  bool HasFields() const { return extras != nullptr && !extras->empty(); }
  // f(const ExtraField&) for each user field of entity i, the start list first.
  template <class F>
  void ForEachField(size_t i, F&& f) const {
    if (HasFields()) extras->ForEach(first + i, f);
  }

  // Entities [begin, begin + n) of this chunk.
  EntityChunk Sub(size_t begin, size_t n) const {
    EntityChunk c = *this;
    auto part = [&](auto column) { return column.empty() ? column : column.subspan(begin, n); };
    c.start = part(start);
    c.end = part(end);
    c.value = part(value);
    c.level = part(level);
    c.number = part(number);
    c.key = part(key);
    c.peer_start = part(peer_start);
    c.peer_end = part(peer_end);
    c.first = first + begin;
    c.index = index + begin;
    return c;
  }

  // Entities [begin, end) of `store` (index `begin`), named after `trace`
  // (which must be readable on the calling thread: the reader's own, or a
  // complete one).
  static EntityChunk Of(const Trace& trace, const EntityStore& store, size_t begin, size_t end) {
    EntityChunk c = Of(store, begin, end);
    c.type_name = trace.type(store.type).name;
    c.container_name = trace.container(store.container).name;
    const std::vector<EntityStore>& stores = trace.stores();
    if (!stores.empty() && &store >= stores.data() && &store < stores.data() + stores.size())
      c.store = static_cast<uint32_t>(&store - stores.data());
    return c;
  }
  // The same, names left for the caller to set.
  static EntityChunk Of(const EntityStore& store, size_t begin, size_t end) {
    EntityChunk c;
    c.kind = store.kind;
    c.container = store.container;
    c.type = store.type;
    c.start = store.start;
    c.end = store.end;
    c.value = store.value;
    c.level = store.level;
    c.number = store.number;
    c.key = store.key;
    c.peer_start = store.peer_start;
    c.peer_end = store.peer_end;
    c.extras = &store.extras;
    return c.Sub(begin, end - begin);
  }
  // The whole store.
  static EntityChunk Of(const Trace& trace, const EntityStore& store) { return Of(trace, store, 0, store.size()); }
};

// Appends entity i of `chunk` to `store` (of the same kind): its columns
// and its user fields (one list: the start list, then the end list).
void AppendEntity(EntityStore& store, const EntityChunk& chunk, size_t i);
// Appends the whole chunk.
void AppendChunk(EntityStore& store, const EntityChunk& chunk);

}  // namespace macroscope
