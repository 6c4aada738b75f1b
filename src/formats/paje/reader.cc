#include "formats/paje/reader.h"

#include <charconv>
#include <deque>
#include <filesystem>
#include <set>
#include <unordered_map>

#include "formats/paje/event_definitions.h"
#include "formats/paje/tokenizer.h"
#include "util/error.h"
#include "util/mapped_file.h"

namespace macroscope::paje {

namespace {

// A definition ready for the hot loop: field positions, interned user field names.
struct CompiledDefinition {
  EventDefinition def;
  std::vector<std::pair<int, StringId>> user_fields;
};

class Reader {
 public:
  Reader(const ReadOptions& options, Trace& trace)
      : trace_(trace), simulator_(trace, options.simulator), definitions_parser_("", options.no_strict) {}

  void ReadFile(const std::string& path);
  void ReadText(const std::string& name, std::string_view text);
  void Finish() { simulator_.Finish(last_time_); }
  ReadStats stats;

 private:
  void Event(const std::vector<std::string_view>& words, uint64_t line);
  void Dispatch(const CompiledDefinition& d, const std::vector<std::string_view>& words);
  const CompiledDefinition* FindDefinition(std::string_view id) const;
  double ParseTime(std::string_view word) const;
  double ParseFloat(std::string_view word) const;
  [[noreturn]] void Fail(const std::string& message) const { ThrowAt(file_, line_, message); }

  Trace& trace_;
  Simulator simulator_;
  DefinitionParser definitions_parser_;
  std::deque<CompiledDefinition> definitions_;
  std::vector<const CompiledDefinition*> by_number_;  // ids that are small integers
  std::unordered_map<std::string, const CompiledDefinition*> by_name_;
  std::vector<ExtraField> extras_;
  std::deque<std::string> queued_files_;
  std::set<std::string> read_files_;
  std::string file_;
  uint64_t line_ = 0;
  double last_time_ = -1;  // pj_dump's "no event yet"

  friend ReadStats macroscope::paje::ReadPaje(const std::vector<std::string>&, const ReadOptions&, Trace&);
  friend ReadStats macroscope::paje::ReadPajeText(std::string_view, const std::string&, const ReadOptions&, Trace&);
};

bool SmallNumber(std::string_view s, size_t& value) {
  if (s.empty() || s.size() > 6) return false;
  value = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + static_cast<size_t>(c - '0');
  }
  return s.size() == 1 || s[0] != '0';
}

const CompiledDefinition* Reader::FindDefinition(std::string_view id) const {
  size_t n;
  if (SmallNumber(id, n)) return n < by_number_.size() ? by_number_[n] : nullptr;
  auto it = by_name_.find(std::string(id));
  return it == by_name_.end() ? nullptr : it->second;
}

double Reader::ParseTime(std::string_view w) const {
  if (!w.empty() && w[0] == '+') w.remove_prefix(1);
  double v = 0;
  auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
  if (ec != std::errc() || end != w.data() + w.size()) Fail("unparsable number '" + std::string(w) + "'");
  return v;
}

// Variable values are single precision in pj_dump (strtof); so here.
double Reader::ParseFloat(std::string_view w) const {
  if (!w.empty() && w[0] == '+') w.remove_prefix(1);
  float v = 0;
  auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
  if (ec == std::errc::result_out_of_range) Fail("number out of range '" + std::string(w) + "'");
  if (ec != std::errc() || end != w.data() + w.size()) Fail("unparsable number '" + std::string(w) + "'");
  return static_cast<double>(v);
}

void Reader::ReadFile(const std::string& path) {
  MappedFile file(path);
  read_files_.insert(path == "-" ? path : std::filesystem::weakly_canonical(path).string());
  ReadText(path, file.bytes());
}

void Reader::ReadText(const std::string& name, std::string_view text) {
  file_ = name;
  definitions_parser_.set_file(name);
  stats.bytes += text.size();
  Tokenizer tokenizer(text);
  std::vector<std::string_view> words;
  words.reserve(32);
  uint64_t line = 0;
  while (tokenizer.Next(words, line)) {
    line_ = line;
    ++stats.lines;
    if (!words[0].empty() && words[0][0] == '%') {
      auto done = definitions_parser_.Feed(words, line);
      if (done) {
        const std::string id = done->id;
        if (FindDefinition(id) != nullptr) Fail("event id '" + id + "' is defined twice");
        CompiledDefinition& d = definitions_.emplace_back();
        d.def = std::move(*done);
        for (auto& u : d.def.user_fields) d.user_fields.emplace_back(u.position, trace_.strings().Intern(u.name));
        size_t n;
        if (SmallNumber(id, n)) {
          if (n >= by_number_.size()) by_number_.resize(n + 1, nullptr);
          by_number_[n] = &d;
        } else {
          by_name_[id] = &d;
        }
      }
      continue;
    }
    if (definitions_parser_.in_definition())
      Fail("event line inside the definition of an event (missing %EndEventDef)");
    Event(words, line);
  }
  definitions_parser_.Finish();
}

void Reader::Event(const std::vector<std::string_view>& words, uint64_t line) {
  const CompiledDefinition* d = FindDefinition(words[0]);
  if (d == nullptr) Fail("event id '" + std::string(words[0]) + "' has no definition");
  if (static_cast<int>(words.size()) - 1 != d->def.field_count())
    Fail(std::string(EventKindName(d->def.kind)) + " (id " + d->def.id + ") needs " +
         std::to_string(d->def.field_count()) + " fields, found " + std::to_string(words.size() - 1));
  ++stats.events;
  try {
    Dispatch(*d, words);
  } catch (const SimulationError& e) {
    ThrowAt(file_, line, e.what());
  }
}

void Reader::Dispatch(const CompiledDefinition& d, const std::vector<std::string_view>& words) {
  const EventDefinition& def = d.def;
  auto word = [&](Field f) -> std::string_view {
    int p = def.at(f);
    return p < 0 ? std::string_view() : words[p + 1];
  };
  auto id = [&](Field f) -> StringId {
    int p = def.at(f);
    return p < 0 ? kEmptyString : trace_.strings().Intern(words[p + 1]);
  };
  // As pj_dump, every event sets the current time; one without a Time
  // field (a definition) sets it to 0.
  double time = def.at(Field::kTime) >= 0 ? ParseTime(word(Field::kTime)) : 0;
  last_time_ = time;
  Extras extras;
  if (!d.user_fields.empty()) {
    extras_.clear();
    for (auto& [position, name] : d.user_fields)
      extras_.push_back({name, trace_.strings().Intern(words[position + 1])});
    extras = extras_;
  }
  using K = EventKind;
  switch (def.kind) {
    case K::kDefineContainerType:
      simulator_.DefineContainerType(id(Field::kType), id(Field::kName), id(Field::kAlias));
      break;
    case K::kDefineStateType:
      simulator_.DefineEntityType(TypeKind::kState, id(Field::kType), id(Field::kName), id(Field::kAlias), id(Field::kColor));
      break;
    case K::kDefineEventType:
      simulator_.DefineEntityType(TypeKind::kEvent, id(Field::kType), id(Field::kName), id(Field::kAlias), id(Field::kColor));
      break;
    case K::kDefineVariableType:
      simulator_.DefineEntityType(TypeKind::kVariable, id(Field::kType), id(Field::kName), id(Field::kAlias), id(Field::kColor));
      break;
    case K::kDefineLinkType:
      simulator_.DefineLinkType(id(Field::kType), id(Field::kStartContainerType), id(Field::kEndContainerType),
                                id(Field::kName), id(Field::kAlias));
      break;
    case K::kDefineEntityValue:
      simulator_.DefineValue(id(Field::kType), id(Field::kName), id(Field::kAlias), id(Field::kColor));
      break;
    case K::kCreateContainer:
      simulator_.CreateContainer(time, id(Field::kType), id(Field::kContainer), id(Field::kName), id(Field::kAlias), extras);
      break;
    case K::kDestroyContainer:
      simulator_.DestroyContainer(time, id(Field::kType), id(Field::kName));
      break;
    case K::kNewEvent:
      simulator_.NewEvent(time, id(Field::kType), id(Field::kContainer), id(Field::kValue), extras);
      break;
    case K::kSetState:
      simulator_.SetState(time, id(Field::kType), id(Field::kContainer), id(Field::kValue), extras);
      break;
    case K::kPushState:
      simulator_.PushState(time, id(Field::kType), id(Field::kContainer), id(Field::kValue), extras);
      break;
    case K::kPopState:
      simulator_.PopState(time, id(Field::kType), id(Field::kContainer), extras);
      break;
    case K::kResetState:
      simulator_.ResetState(time, id(Field::kType), id(Field::kContainer), extras);
      break;
    case K::kSetVariable:
    case K::kAddVariable:
    case K::kSubVariable: {
      auto op = def.kind == K::kSetVariable   ? Simulator::VariableOp::kSet
                : def.kind == K::kAddVariable ? Simulator::VariableOp::kAdd
                                              : Simulator::VariableOp::kSub;
      simulator_.ChangeVariable(op, time, id(Field::kType), id(Field::kContainer), ParseFloat(word(Field::kValue)), extras);
      break;
    }
    case K::kStartLink:
      simulator_.StartLink(time, id(Field::kType), id(Field::kContainer), id(Field::kStartContainer), id(Field::kValue),
                           id(Field::kKey), extras);
      break;
    case K::kEndLink:
      simulator_.EndLink(time, id(Field::kType), id(Field::kContainer), id(Field::kEndContainer), id(Field::kValue),
                         id(Field::kKey), extras);
      break;
    case K::kTraceFile: {
      std::filesystem::path target(word(Field::kFilename));
      if (target.is_relative() && file_ != "-") target = std::filesystem::path(file_).parent_path() / target;
      queued_files_.push_back(target.string());
      break;
    }
  }
}

}  // namespace

ReadStats ReadPaje(const std::vector<std::string>& files, const ReadOptions& options, Trace& trace) {
  Reader reader(options, trace);
  for (const auto& f : files) {
    reader.ReadFile(f);
    while (!reader.queued_files_.empty()) {
      std::string next = reader.queued_files_.front();
      reader.queued_files_.pop_front();
      std::error_code ec;
      auto canonical = std::filesystem::weakly_canonical(next, ec).string();
      if (reader.read_files_.count(canonical)) continue;  // a file is read once
      reader.ReadFile(next);
    }
  }
  reader.Finish();
  return reader.stats;
}

ReadStats ReadPajeText(std::string_view text, const std::string& name, const ReadOptions& options, Trace& trace) {
  Reader reader(options, trace);
  reader.ReadText(name, text);
  reader.Finish();  // PajeTraceFile events are ignored: a buffer has no directory
  return reader.stats;
}

bool LooksLikePaje(std::string_view head) {
  return head.find("%EventDef") != std::string_view::npos || head.find("% EventDef") != std::string_view::npos;
}

}  // namespace macroscope::paje
