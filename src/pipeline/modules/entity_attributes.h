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

inline uint64_t KeyOf(const Entity& e, EntityKey by) {
  switch (by) {
    case EntityKey::kName:
      return e.kind == TypeKind::kVariable || e.value == kEmptyString ? e.type : e.value;
    case EntityKey::kValue:
      return e.value;
    case EntityKey::kType:
      return e.type;
    case EntityKey::kContainer:
      return e.container;
    case EntityKey::kKind:
      return static_cast<uint64_t>(e.kind);
    case EntityKey::kTypeValue:
      return uint64_t{e.type} << 32 | e.value;
  }
  return 0;
}

// The key's text, one per column of KeyColumns(by), appended to `out`.
void AppendKeyTexts(uint64_t key, EntityKey by, const Trace& trace, std::vector<std::string>& out);

// duration: end - start in seconds (states, links: the latency, variables:
// how long the value held); value: a variable's number; automatic:
// durations of states and links, values of variables.
enum class EntityMeasure : uint8_t { kAutomatic, kDuration, kValue };

// The `of` parameter: duration | value (absent: automatic).
EntityMeasure ParseEntityMeasure(const Params& params);

// The entity's measure, or nothing when it has none (events; a state
// asked for a value).
inline std::optional<double> MeasureOf(const Entity& e, const EntityBatch& batch, EntityMeasure of) {
  if (e.kind == TypeKind::kEvent) return std::nullopt;
  const bool variable = e.kind == TypeKind::kVariable;
  switch (of) {
    case EntityMeasure::kAutomatic:
      return variable ? e.number : batch.Seconds(e.Duration());
    case EntityMeasure::kDuration:
      return batch.Seconds(e.Duration());
    case EntityMeasure::kValue:
      return variable ? std::optional<double>(e.number) : std::nullopt;
  }
  return std::nullopt;
}

}  // namespace macroscope::pipeline
