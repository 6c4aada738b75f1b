// The Pajé header: `%EventDef NAME ID`, then `% FIELD TYPE` lines, then
// `%EndEventDef`. Each definition says, for one event id, which field sits
// at which position; fields the format does not know are user fields.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace macroscope::paje {

enum class EventKind : uint8_t {
  kDefineContainerType,
  kDefineStateType,
  kDefineEventType,
  kDefineVariableType,
  kDefineLinkType,
  kDefineEntityValue,
  kCreateContainer,
  kDestroyContainer,
  kNewEvent,
  kSetState,
  kPushState,
  kPopState,
  kResetState,
  kSetVariable,
  kAddVariable,
  kSubVariable,
  kStartLink,
  kEndLink,
  kTraceFile,
};
inline constexpr int kEventKindCount = 19;

// Fields with a meaning in the format. File and Line are known (and not
// shown as user fields); anything else is a user field.
enum class Field : uint8_t {
  kTime,
  kName,
  kType,
  kContainer,
  kStartContainerType,
  kEndContainerType,
  kStartContainer,
  kEndContainer,
  kValue,
  kKey,
  kAlias,
  kColor,
  kLine,
  kFile,
  kFilename,
};
inline constexpr int kFieldCount = 15;

enum class FieldType : uint8_t { kString, kFloat, kDouble, kInt, kHex, kDate, kColor };

std::string_view EventKindName(EventKind kind);
std::optional<EventKind> EventKindFromName(std::string_view name);
std::string_view FieldName(Field field);

struct UserField {
  int position;
  std::string name;
};

struct EventDefinition {
  EventKind kind;
  std::string id;
  uint64_t line = 0;                  // where %EventDef stood
  std::array<int8_t, kFieldCount> position;  // -1 when the field is absent
  std::vector<FieldType> types;       // per position
  std::vector<UserField> user_fields;
  int field_count() const { return static_cast<int>(types.size()); }
  int at(Field f) const { return position[static_cast<int>(f)]; }
};

// Builds definitions from header lines. Throws UserError "file:line: ..."
// for a malformed header; old field names (ContainerType, EntityType,
// SourceContainer...) are refused unless no_strict.
class DefinitionParser {
 public:
  DefinitionParser(std::string file, bool no_strict) : file_(std::move(file)), no_strict_(no_strict) {}
  void set_file(std::string file) { file_ = std::move(file); }
  bool in_definition() const { return current_.has_value(); }
  // words: the tokens of a line that starts with '%'. Returns a finished
  // definition at %EndEventDef.
  std::optional<EventDefinition> Feed(const std::vector<std::string_view>& words, uint64_t line);
  // Throws, naming the %EventDef line, if the file ended inside a definition.
  void Finish() const;

 private:
  void AddField(std::string_view name, std::string_view type, uint64_t line);
  void Validate(uint64_t line) const;

  std::string file_;
  bool no_strict_;
  std::optional<EventDefinition> current_;
};

}  // namespace macroscope::paje
