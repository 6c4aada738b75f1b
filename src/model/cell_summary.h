// What a cell of the space-time window keeps of the entities too small to
// be drawn one by one (server/window.h), and what a store's level-of-detail
// summaries hold per time bin (model/lod_summary.h): their count, extent
// and longest length, the min and max of variables' numbers, per value the
// time (summed exactly) and count, and the first entity in store order
// (what is drawn of an event alone in its cell). Adding and merging are
// exact and commutative, so a cell is the same whatever order its entities
// came in and however they were grouped before.
#pragma once

#include <cstdint>
#include <vector>

#include "model/entity_chunk.h"
#include "model/trace.h"
#include "util/exact_sum.h"

namespace macroscope {

// An entity copied out of its chunk, with its place (store, index).
struct EntityCopy {
  uint64_t index = 0;  // its place in its store
  double start = 0, end = 0, number = 0;
  uint32_t store = 0;
  StringId value = kEmptyString;
  ContainerId from = kNone, to = kNone;
  uint16_t level = 0;

  // Store order.
  bool operator<(const EntityCopy& other) const {
    return store != other.store ? store < other.store : index < other.index;
  }
  double Low() const { return start < end ? start : end; }
  double High() const { return start < end ? end : start; }

  static EntityCopy Of(const EntityChunk& c, size_t i) {
    return {c.index + i, c.start[i], c.End(i), c.Number(i), c.store, c.Value(i), c.PeerStart(i), c.PeerEnd(i),
            c.Level(i)};
  }
};

// One value's weight in a cell: its time (0 for events) and count.
struct ValueTally {
  StringId value = kEmptyString;
  ExactSum time;
  uint64_t count = 0;
};

struct CellSummary {
  uint64_t count = 0;
  double start = 0, end = 0;  // the earliest and the latest time of its entities
  double longest = 0;         // the longest entity's length
  double min = 0, max = 0;    // variables: the extremes of their numbers
  // The first entity in store order. Only its place is sure once cells of
  // several entities were merged; all of it while the cell holds one.
  EntityCopy first;
  std::vector<ValueTally> tallies;  // not for variables

  void Add(TypeKind kind, const EntityCopy& e);
  void Merge(TypeKind kind, const CellSummary& other);
  // The value with the most time; ties go to the most entities, then to
  // the value interned first: the same whatever order the entities came in.
  StringId Dominant() const;
  // Empty again, keeping the tallies' capacity.
  void Clear();
};

}  // namespace macroscope
