// A store's level-of-detail summary: what lets a window over any range of a
// store of any size read O(columns) summary cells instead of its entities
// (server/window.h, docs/store.md).
//
// Bins are the trace's dyadic time bins (model/time_bins.h), levels 0 to
// `finest`. An entity lies inside the bins of every level before the one
// that parts its two ends (TimeBins::PartingLevel), and crosses a bin edge
// from that level on. The summary holds:
//   - per level, per bin: the cells (model/cell_summary.h) of the entities
//     inside it, one per (row, nesting level): `cells(level)`;
//   - per parting level 1 … finest: the entities parted there, whole:
//     `crossers(level)`; they are few (no more than the nesting depth per
//     bin edge for states, none for events).
// So the entities that begin in bins [j1, j2] of level L ≤ finest are the
// cells of those bins plus the crossers of levels ≤ L that begin there:
// every entity once. Rows are what the window answers an entity in: a
// link's sender, 0 for every other kind.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "model/cell_summary.h"
#include "model/entity_chunk.h"
#include "model/time_bins.h"
#include "model/trace.h"

namespace macroscope {

struct LodCell {
  uint64_t bin = 0;
  ContainerId row = 0;
  uint16_t level = 0;  // a state's nesting level, else 0
  CellSummary cell;
};

class LodSummary {
 public:
  LodSummary() = default;
  LodSummary(TypeKind kind, int finest) : kind_(kind), finest_(finest), cells_(finest + 1), crossers_(finest + 1) {}

  TypeKind kind() const { return kind_; }
  int finest() const { return finest_; }
  // Sorted by (bin, row, level).
  const std::vector<LodCell>& cells(int level) const { return cells_[level]; }
  std::vector<LodCell>& cells(int level) { return cells_[level]; }
  // Sorted by the position of their earlier end, then place; none at level 0.
  const std::vector<EntityCopy>& crossers(int level) const { return crossers_[level]; }
  std::vector<EntityCopy>& crossers(int level) { return crossers_[level]; }
  // Bytes held (for a cache's budget).
  size_t bytes() const;

 private:
  TypeKind kind_ = TypeKind::kEvent;
  int finest_ = -1;
  std::vector<std::vector<LodCell>> cells_;
  std::vector<std::vector<EntityCopy>> crossers_;
};

// The deepest level a summary goes to: bins of 2^-16 of the span, finer
// than a window needs for a tenth of the trace (8192 pixels wide at most),
// and few enough for a cache key (store_source.h).
inline constexpr int kLodMaxFinest = 16;

// The finest level worth summarising for a store of `entities` whose
// entities lie within [first, last]: its bins hold 64 entities on average
// where the store has entities, there are at most 2^18 of them, and no
// level beyond 16; -1 when the store is too small to need a summary.
int LodFinestLevel(const TimeBins& bins, uint64_t entities, double first, double last);

// Builds the summary of one store from its chunks, in any order.
class LodSummaryBuilder {
 public:
  LodSummaryBuilder(const TimeBins& bins, TypeKind kind, int finest);
  void Add(const EntityChunk& chunk);
  LodSummary Finish();

 private:
  TimeBins bins_;
  LodSummary summary_;
  struct Key {
    uint64_t bin;
    ContainerId row;
    uint16_t level;
    bool operator<(const Key& o) const {
      return bin != o.bin ? bin < o.bin : row != o.row ? row < o.row : level < o.level;
    }
  };
  // Per level, the cells of the entities inside that level's bins but
  // not inside the next level's (or inside the finest's); Finish() adds
  // each level's cells to the coarser ones.
  std::vector<std::map<Key, CellSummary>> inside_;
  // The cell the last entity went to, per level: entities of a store come
  // mostly in time order, so most go where the one before went.
  std::vector<CellSummary*> last_cell_;
  std::vector<Key> last_key_;
};

}  // namespace macroscope
