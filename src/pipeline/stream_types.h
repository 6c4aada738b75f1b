// What travels on a workflow's links. Every link carries batches of one of
// these types; a port declares which, and the workflow refuses a link
// between ports of different types (workflow.h).
//
// - EntityBatch: entities of a trace (states, events, variables, links) as
//   the reader's simulator completed them, with their names as StringIds of
//   the source trace's string pool and times in the source's time base.
//   The source trace is still being read while batches flow: a consumer
//   may read its strings at any time (model/string_pool.h), the rest of it
//   (types, containers) only after its input's end of stream.
// - RowBatch: rows of a table (counts, statistics, values collected across
//   runs): named columns, cells that are integers, numbers or text.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "model/string_pool.h"
#include "model/time_base.h"
#include "model/trace.h"

namespace macroscope::pipeline {

struct Entity {
  TypeKind kind = TypeKind::kEvent;
  uint16_t level = 0;                // states: nesting depth
  StringId type = kEmptyString;      // the entity type's name
  StringId container = kEmptyString; // the container's name
  ContainerId container_id = kNone;  // the container's id in the source trace
  double start = 0;                  // model time (EntityBatch::base)
  double end = 0;                    // equals start for events
  StringId value = kEmptyString;     // states, events, links
  double number = 0;                 // variables
  StringId key = kEmptyString;       // links
  StringId peer_start = kEmptyString, peer_end = kEmptyString;  // links: container names
  uint32_t fields_begin = 0, fields_end = 0;                     // user fields: EntityBatch::fields
  double Duration() const { return end - start; }
};

struct EntityBatch {
  std::vector<Entity> entities;
  std::vector<ExtraField> fields;            // user fields of the entities
  std::shared_ptr<const Trace> trace;        // the source (see above)
  TimeBase base;                             // the source's time base

  std::string_view Str(StringId id) const { return trace->strings().View(id); }
  // Seconds of a model-time duration, divided by the rate rather than
  // multiplied by its rounded inverse: 119900 ns is 0.0001199 s.
  double Seconds(double ticks) const { return base.Seconds(ticks); }
  void Clear() {
    entities.clear();
    fields.clear();
  }
};

using Cell = std::variant<std::monostate, int64_t, double, std::string>;

struct RowBatch {
  std::vector<std::string> columns;  // the same in every batch of a stream
  std::vector<Cell> cells;           // row-major: rows() * columns.size()

  size_t rows() const { return columns.empty() ? 0 : cells.size() / columns.size(); }
  const Cell& at(size_t row, size_t column) const { return cells[row * columns.size() + column]; }
  void Clear() { cells.clear(); }
};

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
