#include "pipeline/modules/entity_attributes.h"

#include "pipeline/modules/parameter_checks.h"

namespace macroscope::pipeline {

EntityKey ParseEntityKey(const Params& params, std::string_view fallback) {
  return static_cast<EntityKey>(
      Choice(params, "by", {"name", "value", "type", "container", "kind", "type+value"}, fallback));
}

std::vector<std::string> KeyColumns(EntityKey by) {
  switch (by) {
    case EntityKey::kName:
      return {"name"};
    case EntityKey::kValue:
      return {"value"};
    case EntityKey::kType:
      return {"type"};
    case EntityKey::kContainer:
      return {"container"};
    case EntityKey::kKind:
      return {"kind"};
    case EntityKey::kTypeValue:
      return {"type", "value"};
  }
  return {};
}

void AppendKeyTexts(uint64_t key, EntityKey by, const Trace& trace, std::vector<std::string>& out) {
  switch (by) {
    case EntityKey::kKind:
      out.emplace_back(TypeKindName(static_cast<TypeKind>(key)));
      return;
    case EntityKey::kTypeValue:
      out.emplace_back(trace.Str(static_cast<StringId>(key >> 32)));
      out.emplace_back(trace.Str(static_cast<StringId>(key & 0xFFFFFFFFu)));
      return;
    default:
      out.emplace_back(trace.Str(static_cast<StringId>(key)));
  }
}

EntityMeasure ParseEntityMeasure(const Params& params) {
  if (!params.Has("of")) return EntityMeasure::kAutomatic;
  return Choice(params, "of", {"duration", "value"}) == 0 ? EntityMeasure::kDuration : EntityMeasure::kValue;
}

}  // namespace macroscope::pipeline
