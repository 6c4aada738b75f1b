// What a query reads of a trace's entities: the stores its constraints
// pick, the chunks of their pieces (model/entity_source.h) that meet its
// window (in a trace in memory, the runs of entities its interval index
// finds), the rows that may match. The SQL tables' cursors
// (entity_tables.h) and the Python module's bulk reading both read through
// it, one piece at a time.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <limits>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "model/entity_source.h"

namespace macroscope::query {

struct EntityPlan {
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  std::vector<uint32_t> stores;  // to read, in store order
  double t1 = -kInf, t2 = kInf;  // entities meeting [t1, t2] (model time)
  StringId value = StringPool::kNoId;  // kNoId: any
  StringId key = StringPool::kNoId;    // args: the field's name; kNoId: any
  bool one = false;                    // the entity `place` of `store` only
  uint32_t store = 0;
  uint64_t place = 0;
  bool none = false;  // a constraint no entity meets

  // The stores of `kind` (every kind when none), in order.
  static EntityPlan Of(const Trace& trace, std::optional<TypeKind> kind);
  // Keeps the stores `keep(k)` says.
  template <class F>
  void KeepStores(F&& keep) {
    std::erase_if(stores, [&](uint32_t k) { return !keep(k); });
  }
  // Keeps the stores of a type named one of `names`.
  void KeepTypes(const Trace& trace, std::span<const std::string_view> names);
  bool windowed() const { return t1 != -kInf || t2 != kInf; }
  // Whether entity i of `c` meets the window.
  bool MeetsWindow(const EntityChunk& c, size_t i) const {
    const double a = c.start[i], b = c.End(i);
    return std::max(a, b) >= t1 && std::min(a, b) <= t2;
  }
  // Whether entity i of `c` may match (its value, its times).
  bool Meets(const EntityChunk& c, size_t i) const {
    if (value != StringPool::kNoId && c.Value(i) != value) return false;
    return !windowed() || MeetsWindow(c, i);
  }
};

class EntityScan {
 public:
  // `source` must outlive the scan.
  EntityScan(const EntitySource& source, EntityPlan plan);

  // The next piece that has chunks into chunks(); false at the end.
  bool NextPiece();
  // The piece's chunks: views of the trace in memory, or copies of a
  // store's chunks (valid until the next piece).
  const std::vector<EntityChunk>& chunks() const { return chunks_; }
  const EntityPlan& plan() const { return plan_; }

 private:
  void Keep(const EntityChunk& c, bool in_memory);
  void Copy(const EntityChunk& c);
  bool InWindow(const EntityStore& store);

  const EntitySource& source_;
  EntityPlan plan_;
  size_t store_pos_ = 0;   // plan_.stores[store_pos_] is being read…
  size_t next_piece_ = 0;  // …and its next piece
  bool done_one_ = false;
  std::deque<EntityStore> owned_;
  std::vector<EntityChunk> chunks_;
};

}  // namespace macroscope::query
