// Which attribute of an entity a module groups by (`by`: count,
// statistics) or measures (`of`: statistics, measure).
//
// Keys are integers (StringIds of the source trace, a kind, or a type and a
// value packed in 64 bits) so that aggregating costs a hash lookup per
// entity; their text is read from the source trace's strings at the end.
// StringIds belong to one trace: a module fed by several traces keeps one
// key table per trace and merges them by text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pipeline/params.h"
#include "pipeline/stream_types.h"

namespace macroscope::pipeline {

// name: the entity's value name (a state's value, an event's name, a link's
// value), or its type's name for a variable, which has no value name.
enum class EntityKey : uint8_t { kName, kValue, kType, kContainer, kKind, kTypeValue };

// The `by` parameter: name | value | type | container | kind | type+value.
EntityKey ParseEntityKey(const Params& params, std::string_view fallback);
// The columns a key fills: {"type", "value"} for type+value, else its word.
std::vector<std::string> KeyColumns(EntityKey by);

// The key of entity i of `chunk`.
inline uint64_t KeyOf(const EntityChunk& chunk, size_t i, EntityKey by) {
  switch (by) {
    case EntityKey::kName: {
      const StringId value = chunk.Value(i);
      return chunk.kind == TypeKind::kVariable || value == kEmptyString ? chunk.type_name : value;
    }
    case EntityKey::kValue:
      return chunk.Value(i);
    case EntityKey::kType:
      return chunk.type_name;
    case EntityKey::kContainer:
      return chunk.container_name;
    case EntityKey::kKind:
      return static_cast<uint64_t>(chunk.kind);
    case EntityKey::kTypeValue:
      return uint64_t{chunk.type_name} << 32 | chunk.Value(i);
  }
  return 0;
}

// Whether every entity of a chunk of `kind` has the same key (its type's,
// container's or kind's), so that a module takes KeyOf(chunk, 0, by) once.
inline bool KeyIsPerChunk(EntityKey by, TypeKind kind) {
  return by == EntityKey::kType || by == EntityKey::kContainer || by == EntityKey::kKind ||
         (by == EntityKey::kName && kind == TypeKind::kVariable);
}

// The key's text, one per column of KeyColumns(by), appended to `out`.
void AppendKeyTexts(uint64_t key, EntityKey by, const Trace& trace, std::vector<std::string>& out);

// duration: end - start in seconds (states, links: the latency, variables:
// how long the value held); value: a variable's number; automatic:
// durations of states and links, values of variables.
enum class EntityMeasure : uint8_t { kAutomatic, kDuration, kValue };

// The `of` parameter: duration | value (absent: automatic).
EntityMeasure ParseEntityMeasure(const Params& params);

// Whether entities of `kind` have the measure: events have none, and only
// variables have a value.
inline bool HasMeasure(TypeKind kind, EntityMeasure of) {
  return kind != TypeKind::kEvent && (of != EntityMeasure::kValue || kind == TypeKind::kVariable);
}

// The measure of entity i of `chunk`, or nothing when it has none.
inline std::optional<double> MeasureOf(const EntityChunk& chunk, size_t i, const EntityBatch& batch,
                                       EntityMeasure of) {
  if (!HasMeasure(chunk.kind, of)) return std::nullopt;
  if (chunk.kind == TypeKind::kVariable && of != EntityMeasure::kDuration) return chunk.Number(i);
  return batch.Seconds(chunk.Duration(i));
}

}  // namespace macroscope::pipeline
