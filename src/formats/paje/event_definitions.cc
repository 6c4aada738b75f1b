#include "formats/paje/event_definitions.h"

#include <string>

#include "util/error.h"

namespace macroscope::paje {

namespace {

constexpr std::array<std::string_view, kEventKindCount> kEventNames = {
    "PajeDefineContainerType", "PajeDefineStateType", "PajeDefineEventType",
    "PajeDefineVariableType",  "PajeDefineLinkType",  "PajeDefineEntityValue",
    "PajeCreateContainer",     "PajeDestroyContainer", "PajeNewEvent",
    "PajeSetState",            "PajePushState",       "PajePopState",
    "PajeResetState",          "PajeSetVariable",     "PajeAddVariable",
    "PajeSubVariable",         "PajeStartLink",       "PajeEndLink",
    "PajeTraceFile"};

constexpr std::array<std::string_view, kFieldCount> kFieldNames = {
    "Time",  "Name", "Type",  "Container", "StartContainerType", "EndContainerType",
    "StartContainer", "EndContainer", "Value", "Key", "Alias", "Color", "Line", "File",
    "Filename"};

using F = Field;
using K = EventKind;

// Fields each event kind must have (the pj_dump 1.3.6 rules).
std::vector<Field> Required(EventKind kind) {
  switch (kind) {
    case K::kDefineContainerType:
    case K::kDefineStateType:
    case K::kDefineEventType:
    case K::kDefineVariableType:
    case K::kDefineEntityValue: return {F::kName, F::kType};
    case K::kDefineLinkType: return {F::kName, F::kType, F::kStartContainerType, F::kEndContainerType};
    case K::kCreateContainer: return {F::kTime, F::kName, F::kType, F::kContainer};
    case K::kDestroyContainer: return {F::kTime, F::kName, F::kType};
    case K::kNewEvent:
    case K::kSetState:
    case K::kPushState:
    case K::kSetVariable:
    case K::kAddVariable:
    case K::kSubVariable: return {F::kTime, F::kType, F::kContainer, F::kValue};
    case K::kPopState:
    case K::kResetState: return {F::kTime, F::kType, F::kContainer};
    case K::kStartLink: return {F::kTime, F::kType, F::kContainer, F::kValue, F::kStartContainer, F::kKey};
    case K::kEndLink: return {F::kTime, F::kType, F::kContainer, F::kValue, F::kEndContainer, F::kKey};
    case K::kTraceFile: return {F::kContainer, F::kType, F::kFilename};
  }
  return {};
}

std::optional<Field> FieldFromName(std::string_view name, bool no_strict) {
  for (int i = 0; i < kFieldCount; ++i)
    if (kFieldNames[i] == name) return static_cast<Field>(i);
  if (no_strict) {
    if (name == "ContainerType" || name == "EntityType") return F::kType;
    if (name == "SourceContainerType") return F::kStartContainerType;
    if (name == "DestContainerType") return F::kEndContainerType;
    if (name == "SourceContainer") return F::kStartContainer;
    if (name == "DestContainer") return F::kEndContainer;
  }
  return std::nullopt;
}

std::optional<FieldType> FieldTypeFromName(std::string_view name) {
  if (name == "string") return FieldType::kString;
  if (name == "float") return FieldType::kFloat;
  if (name == "double") return FieldType::kDouble;
  if (name == "int") return FieldType::kInt;
  if (name == "hex") return FieldType::kHex;
  if (name == "date") return FieldType::kDate;
  if (name == "color") return FieldType::kColor;
  return std::nullopt;
}

}  // namespace

std::string_view EventKindName(EventKind kind) { return kEventNames[static_cast<int>(kind)]; }

std::optional<EventKind> EventKindFromName(std::string_view name) {
  for (int i = 0; i < kEventKindCount; ++i)
    if (kEventNames[i] == name) return static_cast<EventKind>(i);
  return std::nullopt;
}

std::string_view FieldName(Field field) { return kFieldNames[static_cast<int>(field)]; }

std::optional<EventDefinition> DefinitionParser::Feed(const std::vector<std::string_view>& words,
                                                      uint64_t line) {
  // "%EventDef" or "% EventDef": the keyword is glued to '%' or the next word.
  size_t n = 0;
  std::string_view keyword = words[n++].substr(1);
  if (keyword.empty()) {
    if (n >= words.size()) ThrowAt(file_, line, "a header line with nothing after '%'");
    keyword = words[n++];
  }
  if (!current_) {
    if (keyword != "EventDef" || words.size() - n != 2)
      ThrowAt(file_, line, "'%EventDef <event name> <event id>' expected");
    auto kind = EventKindFromName(words[n]);
    if (!kind) ThrowAt(file_, line, "unknown event name '" + std::string(words[n]) + "'");
    EventDefinition def;
    def.kind = *kind;
    def.id = std::string(words[n + 1]);
    def.line = line;
    def.position.fill(-1);
    current_ = std::move(def);
    return std::nullopt;
  }
  if (keyword == "EndEventDef") {
    Validate(line);
    EventDefinition done = std::move(*current_);
    current_.reset();
    return done;
  }
  if (keyword == "EventDef") ThrowAt(file_, line, "%EventDef inside the definition of event '" + current_->id + "' (missing %EndEventDef)");
  if (n >= words.size()) ThrowAt(file_, line, "field '" + std::string(keyword) + "' has no type");
  AddField(keyword, words[n], line);
  return std::nullopt;
}

void DefinitionParser::AddField(std::string_view name, std::string_view type_name, uint64_t line) {
  auto type = FieldTypeFromName(type_name);
  if (!type) ThrowAt(file_, line, "unknown field type '" + std::string(type_name) + "' for field '" + std::string(name) + "'");
  EventDefinition& def = *current_;
  int position = def.field_count();
  if (position >= 127) ThrowAt(file_, line, "too many fields in event definition");
  auto field = FieldFromName(name, no_strict_);
  if (field) {
    if (def.at(*field) >= 0) ThrowAt(file_, line, "field '" + std::string(name) + "' defined twice");
    def.position[static_cast<int>(*field)] = static_cast<int8_t>(position);
  } else {
    def.user_fields.push_back({position, std::string(name)});
  }
  def.types.push_back(*type);
}

void DefinitionParser::Validate(uint64_t line) const {
  const EventDefinition& def = *current_;
  for (Field f : Required(def.kind)) {
    if (def.at(f) < 0) {
      std::string message = "definition of " + std::string(EventKindName(def.kind)) + " (id " + def.id +
                            ", line " + std::to_string(def.line) + ") lacks the field '" +
                            std::string(FieldName(f)) + "'";
      for (auto& u : def.user_fields) {
        if (FieldFromName(u.name, true) && !no_strict_) {
          message += " (old field name '" + u.name + "' needs --no-strict)";
          break;
        }
      }
      ThrowAt(file_, line, message);
    }
  }
}

void DefinitionParser::Finish() const {
  if (current_)
    ThrowAt(file_, current_->line, "end of file inside this definition of event '" + current_->id + "' (no %EndEventDef)");
}

}  // namespace macroscope::paje
