// What travels on a workflow's links. Every link carries batches of one of
// these types; a port declares which, and the workflow refuses a link
// between ports of different types (workflow.h).
//
// - EntityBatch: entities of a trace (states, events, variables, links) as
//   the reader's simulator completed them, in chunks (model/entity_chunk.h)
//   named with StringIds of the source trace's string pool, times in the
//   source's time base.
//   The source trace is still being read while batches flow: a consumer
//   may read its strings at any time (model/string_pool.h), the rest of it
//   (types, containers) only after its input's end of stream.
// - RowBatch: rows of a result table (analysis/table.h: counts,
//   statistics, values collected across runs): named columns, cells that
//   are integers, numbers or text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "analysis/table.h"
#include "model/entity_chunk.h"
#include "model/string_pool.h"
#include "model/time_base.h"
#include "model/trace.h"

namespace macroscope::pipeline {

// A batch of entities: chunks (model/entity_chunk.h) whose columns the
// batch owns, since the reader forgets its entities once handed over.
// Consumers read chunk(k) for k < chunks(); producers Append() chunks or
// single entities, which join the last chunk when they share its
// (container, type).
class EntityBatch {
 public:
  std::shared_ptr<const Trace> trace;  // the source (see above)
  TimeBase base;                       // the source's time base

  EntityBatch() = default;
  // A copy holds the live chunks only, not the memory kept for reuse.
  EntityBatch(const EntityBatch& other)
      : trace(other.trace),
        base(other.base),
        owned_(other.owned_.begin(), other.owned_.begin() + static_cast<std::ptrdiff_t>(other.used_)),
        used_(other.used_),
        entities_(other.entities_) {}
  EntityBatch& operator=(const EntityBatch& other) {
    if (this != &other) *this = EntityBatch(other);
    return *this;
  }
  EntityBatch(EntityBatch&&) = default;
  EntityBatch& operator=(EntityBatch&&) = default;

  size_t chunks() const { return used_; }
  // A view of chunk k, valid until the batch changes.
  EntityChunk chunk(size_t k) const;
  size_t entities() const { return entities_; }
  bool empty() const { return entities_ == 0; }

  // A copy of `chunk`'s entities (all, or entity i) at the batch's end.
  void Append(const EntityChunk& chunk);
  void Append(const EntityChunk& chunk, size_t i);
  // Empties the batch, keeping its memory for the next entities.
  void Clear();

  std::string_view Str(StringId id) const { return trace->strings().View(id); }
  // Seconds of a model-time duration, divided by the rate rather than
  // multiplied by its rounded inverse: 119900 ns is 0.0001199 s.
  double Seconds(double ticks) const { return base.Seconds(ticks); }

 private:
  struct Owned {
    EntityStore columns;
    StringId type_name = kEmptyString, container_name = kEmptyString;
  };
  Owned& Tail(const EntityChunk& like);
  std::vector<Owned> owned_;  // [0, used_) hold entities; the rest keep their memory
  size_t used_ = 0;
  size_t entities_ = 0;
};

// The one result table travels on row links (analysis/table.h): a
// stream's batches are parts of one table.
using Cell = analysis::Cell;
using RowBatch = analysis::Table;

// The name a workflow file and error messages give each stream type.
template <class T>
struct StreamType;
template <>
struct StreamType<EntityBatch> {
  static constexpr std::string_view kName = "entities";
};
template <>
struct StreamType<RowBatch> {
  static constexpr std::string_view kName = "rows";
};

}  // namespace macroscope::pipeline
