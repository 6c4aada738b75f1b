#include "formats/chrome/chrome_reader.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "formats/chrome/event_time.h"
#include "formats/chrome/json_events.h"
#include "formats/paje/simulator.h"
#include "model/time_base.h"
#include "util/error.h"
#include "util/external_sort.h"
#include "util/mapped_file.h"

namespace macroscope::chrome {

namespace {

using Json = nlohmann::json;
using paje::Simulator;
using paje::SimulationError;
constexpr double kOpenEnd = std::numeric_limits<double>::infinity();

// Line and column (1-based) of byte `offset` of `text`.
std::pair<uint64_t, uint64_t> LineColumn(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  uint64_t line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < offset; ++i)
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  return {line, offset - line_start + 1};
}

// At most `limit` bytes of `text` (cut at a character boundary), for a message.
std::string Excerpt(std::string text, size_t limit = 24) {
  if (text.size() <= limit) return text;
  while (limit > 0 && (static_cast<unsigned char>(text[limit]) & 0xC0) == 0x80) --limit;
  return text.substr(0, limit) + "...";
}

// An optional boolean flag of an event: a field of another type is no flag.
bool Flag(const nlohmann::json& e, const char* field) {
  auto it = e.find(field);
  return it != e.end() && it->is_boolean() && it->get<bool>();
}

// Skips the string that opens at text[i] (a '"'); i ends on its closing quote.
void SkipString(std::string_view text, size_t& i) {
  for (++i; i < text.size() && text[i] != '"'; ++i)
    if (text[i] == '\\') ++i;
}

// Byte offset of the element of the event array after the one that starts
// at `offset` (text.size() after the last one); only for messages, on text
// the parser has already taken as JSON.
size_t NextElement(std::string_view text, size_t offset) {
  int64_t depth = 0;
  for (size_t i = offset; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      SkipString(text, i);
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if (c == ']' || c == '}') {
      if (--depth < 0) return text.size();
    } else if (c == ',' && depth == 0) {
      return text.find_first_not_of(" \t\r\n", i + 1);
    }
  }
  return text.size();
}

// A number as written: a JSON number, or a string holding one (some writers
// quote theirs: "ts": "1.5"), read by nlohmann's parser either way so that
// both give the same double. Null for anything else.
Json NumberOf(const Json& v) {
  if (v.is_number()) return v;
  if (!v.is_string()) return nullptr;
  Json parsed = Json::parse(v.get_ref<const std::string&>(), nullptr, /*allow_exceptions=*/false);
  return parsed.is_number() ? parsed : Json(nullptr);
}

// A JSON value used as an identifier or a name (pid, tid, id, name, cat):
// strings as they are, numbers in their JSON spelling.
bool IdText(const Json& v, std::string& out) {
  if (v.is_string()) out = v.get<std::string>();
  else if (v.is_number()) out = v.dump();
  else return false;
  return true;
}

// Why an event is skipped (ReadReport::Skip), thrown by the field readers
// below before the event has changed anything.
struct Unusable {
  std::string reason;
};

Unusable NotText(const char* field) {
  return {std::string("with a \"") + field + "\" neither a string nor a number"};
}

// A text field (IdText), false when absent or null; another type makes the
// event unusable.
bool Text(const Json& e, const char* field, std::string& out) {
  auto it = e.find(field);
  if (it == e.end() || it->is_null()) return false;
  if (!IdText(*it, out)) throw NotText(field);
  return true;
}

std::string Text(const Json& e, const char* field, const char* fallback) {
  std::string out;
  return Text(e, field, out) ? out : fallback;
}

// pid and tid: a number, or a string holding one, by the number's JSON
// spelling (so "123" and 123 are one process); any other string as it is.
std::string ContainerKey(const Json& e, const char* field) {
  auto it = e.find(field);
  if (it == e.end() || it->is_null()) return "0";
  if (!it->is_string() && !it->is_number()) throw NotText(field);
  const Json number = NumberOf(*it);
  return number.is_number() ? number.dump() : it->get<std::string>();
}

// The name of a process or thread without name metadata: "Process 12" for
// a numeric pid, the pid itself when it is other text (as Perfetto shows it).
std::string DefaultName(const char* kind, const std::string& key) {
  if (key.empty() || NumberOf(Json(key)).is_number()) return kind + (" " + key);
  return key;
}

// The reason of a time too far from the origin (model times: time_base.h).
constexpr const char* kFar = " 2^53 ns or more from the first time";

// Why an event's time is unusable (MicrosText other than kExact), for `field`.
Unusable BadTime(MicrosText why, const char* field) {
  const std::string quoted = std::string("\"") + field + "\"";
  switch (why) {
    case MicrosText::kFinerThanNs: return {"with a " + quoted + " finer than a nanosecond"};
    case MicrosText::kOutOfRange:
      return {"with a " + quoted + (quoted == "\"dur\"" ? " of 2^53 ns or more" : kFar)};
    default: return {"with a non-numeric " + quoted};
  }
}

// A time field in microseconds as whole nanoseconds, exactly (event_time.h):
// from the number's text (`float_text`, JsonEvent's) when nlohmann holds it
// as a double, from the integer when it holds one, from the text of a string
// holding a number (some writers quote theirs: "ts": "1.5"). Nullopt when
// absent (an Unusable when `required`).
std::optional<int64_t> Nanoseconds(const Json& e, const char* field, std::string_view float_text, bool required) {
  auto it = e.find(field);
  if (it == e.end() || it->is_null()) {
    if (required) throw Unusable{std::string("without \"") + field + "\""};
    return std::nullopt;
  }
  int64_t ns = 0;
  MicrosText read = MicrosText::kNotANumber;
  if (it->is_number_unsigned()) {
    const uint64_t us = it->get<uint64_t>();
    read = us > static_cast<uint64_t>(INT64_MAX) / 1000 ? MicrosText::kOutOfRange : MicrosText::kExact;
    ns = static_cast<int64_t>(us) * 1000;
  } else if (it->is_number_integer()) {
    const bool overflow = __builtin_mul_overflow(it->get<int64_t>(), int64_t{1000}, &ns);
    read = overflow ? MicrosText::kOutOfRange : MicrosText::kExact;
  } else if (it->is_number_float()) {
    read = ParseMicrosAsNs(float_text.empty() ? std::string_view(it->dump()) : float_text, ns);
  } else if (it->is_string() && NumberOf(*it).is_number()) {
    read = ParseMicrosAsNs(it->get_ref<const std::string&>(), ns);
  }
  if (read != MicrosText::kExact) throw BadTime(read, field);
  return ns;
}

// An event's user fields, held in its record (at most ph, id, cat and
// args), so that records are plain bytes that runs can hold.
struct Fields {
  ExtraField field[4];
  uint32_t size = 0;
  paje::Extras span() const { return {field, size}; }
};

struct Mark {  // a B or an E, before matching
  double time;
  uint32_t thread;
  bool begin;
  StringId value;
  Fields fields;
  uint32_t src;
};

struct Slice {
  uint32_t thread;
  double start, end;  // end: kOpenEnd while unclosed
  uint32_t order;     // file order, the last tie-break
  StringId value;
  Fields fields, end_fields;
  uint32_t src;
};

struct ThreadInfo {
  std::string pid, tid;
  uint32_t process;
  std::string name;
  double sort_index = 0;
  bool has_sort_index = false;
  StringId alias = kEmptyString;
};

struct ProcessInfo {
  std::string pid;
  std::string name, labels;
  double sort_index = 0;
  bool has_sort_index = false;
  StringId alias = kEmptyString;
  std::vector<uint32_t> threads;
};

struct FlowPoint {
  double time;
  char phase;    // 's', 't', 'f'
  uint32_t key;  // (cat, id), numbered in flow_keys_
  StringId value;
  uint32_t thread;
  Fields fields;
  uint32_t src;
};

enum class Op : uint8_t { kPush, kPop, kEvent, kVariable, kLinkStart, kLinkEnd };
struct Action {
  double time;
  Op op;
  StringId type = kEmptyString, container = kEmptyString, value = kEmptyString, key = kEmptyString,
           peer = kEmptyString;
  double number = 0;
  Fields fields = {};
  uint32_t src = 0;
};

// The orders of the record sorts (stable: file order at equal keys). Marks:
// per thread in time order; slices: per thread by start, longest first, then
// file order; flows and simulator calls: by time.
struct MarkOrder {
  bool operator()(const Mark& a, const Mark& b) const {
    return a.thread != b.thread ? a.thread < b.thread : a.time < b.time;
  }
};
struct SliceOrder {
  bool operator()(const Slice& a, const Slice& b) const {
    if (a.thread != b.thread) return a.thread < b.thread;
    if (a.start != b.start) return a.start < b.start;
    if (a.end != b.end) return a.end > b.end;
    return a.order < b.order;
  }
};
struct TimeOrder {
  bool operator()(const auto& a, const auto& b) const { return a.time < b.time; }
};

// What the messages of a run that cannot be written say (util/run_file.h).
constexpr const char* kRunPurpose = "reading Chrome JSON";
constexpr const char* kRunNeed = "about three times the file's size";

struct SourceFile {
  std::string name;
  std::string_view text;
  uint32_t first_event;  // global index of its first event
  // Byte offsets of its events 0, kCheckpoint, 2 kCheckpoint...: an event
  // named after the parse (an E without a B) is found from the nearest.
  std::vector<uint64_t> checkpoints;
};
constexpr uint32_t kCheckpoint = 1024;

// The parsed text is let go of in steps of this many bytes (a hint to the
// kernel: the pages come back from the file if a message needs them).
constexpr uint64_t kReleaseStep = uint64_t{16} << 20;

class Importer {
 public:
  // `memory`: bytes of records held before they go to runs in $TMPDIR,
  // shared by the four sorts below.
  Importer(Trace& trace, const paje::SimulatorOptions& simulation, size_t memory)
      : trace_(trace),
        sim_(trace, simulation),
        marks_(memory / 4, kRunPurpose, kRunNeed),
        slices_(memory / 4, kRunPurpose, kRunNeed),
        flows_(memory / 4, kRunPurpose, kRunNeed),
        actions_(memory / 4, kRunPurpose, kRunNeed) {
    auto& s = trace_.strings();
    k_cat_ = s.Intern("cat");
    k_args_ = s.Intern("args");
    k_ph_ = s.Intern("ph");
    k_id_ = s.Intern("id");
  }

  // `mapped`: the file `text` is mapped from, whose pages are released as
  // the parse leaves them behind; null for text held otherwise.
  void AddFile(std::string_view text, const std::string& name, const MappedFile* mapped);
  void Build();
  ReadReport& report() { return report_; }

 private:
  const SourceFile& FileOf(uint32_t src) const;
  uint64_t OffsetOf(const SourceFile& file, uint32_t src) const;
  [[noreturn]] void Fail(uint32_t src, const std::string& message) const;
  void Skip(uint32_t src, const std::string& reason);
  void AddEvent(const JsonEvent& event, uint32_t src);
  double ModelTime(int64_t ns, const char* what);
  uint32_t ProcessOf(const std::string& pid);
  uint32_t ThreadOf(const std::string& pid, const std::string& tid);
  Fields CommonExtras(const Json& e, const std::string& cat, bool with_phase_and_id);
  void Seen(double t) {
    first_ = std::min(first_, t);
    last_ = std::max(last_, t);
  }
  StringId S(std::string_view s) { return trace_.strings().Intern(s); }
  uint32_t FlowKey(const std::string& key) {
    return flow_keys_.try_emplace(key, static_cast<uint32_t>(flow_keys_.size())).first->second;
  }
  void MatchSlices();
  void SlicesToActions();
  void FlowsToActions();

  Trace& trace_;
  Simulator sim_;
  ReadReport report_;
  std::vector<SourceFile> files_;
  std::vector<ProcessInfo> processes_;
  std::vector<ThreadInfo> threads_;
  std::unordered_map<std::string, uint32_t> process_index_, thread_index_;
  // The events as records, sorted beyond memory (util/external_sort.h):
  // B/E marks, then slices (X and matched B/E), flow points, and the
  // simulator calls replayed at the end.
  ExternalSort<Mark, MarkOrder> marks_;
  ExternalSort<Slice, SliceOrder> slices_;
  ExternalSort<FlowPoint, TimeOrder> flows_;
  ExternalSort<Action, TimeOrder> actions_;
  std::unordered_map<std::string, uint32_t> flow_keys_;  // (cat, id) -> FlowPoint::key
  std::map<std::string, StringId> counter_types_;  // series name -> type alias
  bool uses_[8] = {};  // which entity types appear (see TypeSlot)
  double first_ = kOpenEnd, last_ = -kOpenEnd;
  // Model times are whole nanoseconds from the first time read (time_base.h).
  std::optional<int64_t> origin_;
  uint32_t events_ = 0;
  StringId k_cat_, k_args_, k_ph_, k_id_;
};

// Entity types, defined only when used. Identifiers are short aliases so
// that no counter name can collide with them.
enum TypeSlot { kSliceType, kThreadInstant, kProcessInstant, kGlobalInstant, kAsync, kObject, kFlow };

const SourceFile& Importer::FileOf(uint32_t src) const {
  const SourceFile* file = &files_.front();
  for (const SourceFile& f : files_)
    if (f.first_event <= src) file = &f;
  return *file;
}

uint64_t Importer::OffsetOf(const SourceFile& file, uint32_t src) const {
  const uint32_t index = src - file.first_event;
  uint64_t offset = file.checkpoints[index / kCheckpoint];
  for (uint32_t i = 0; i < index % kCheckpoint; ++i) offset = NextElement(file.text, offset);
  return offset;
}

void Importer::Fail(uint32_t src, const std::string& message) const {
  const SourceFile& file = FileOf(src);
  ThrowAt(file.name, LineColumn(file.text, OffsetOf(file, src)).first, message);
}

void Importer::Skip(uint32_t src, const std::string& reason) {
  const SourceFile& file = FileOf(src);
  report_.Skip(reason, &file == &files_.front() ? "" : file.name, OffsetOf(file, src));
}

uint32_t Importer::ProcessOf(const std::string& pid) {
  auto [it, added] = process_index_.try_emplace(pid, static_cast<uint32_t>(processes_.size()));
  if (added) {
    processes_.emplace_back();
    processes_.back().pid = pid;
    processes_.back().alias = S("p:" + pid);
  }
  return it->second;
}

uint32_t Importer::ThreadOf(const std::string& pid, const std::string& tid) {
  uint32_t process = ProcessOf(pid);
  std::string key = pid;
  key += '\x1f';
  key += tid;
  auto [it, added] = thread_index_.try_emplace(key, static_cast<uint32_t>(threads_.size()));
  if (added) {
    threads_.emplace_back();
    threads_.back().pid = pid;
    threads_.back().tid = tid;
    threads_.back().process = process;
    threads_.back().alias = S("t:" + pid + ":" + tid);
    processes_[process].threads.push_back(it->second);
  }
  return it->second;
}

// cat and args (compact JSON) as user fields; with_phase_and_id adds ph and id.
Fields Importer::CommonExtras(const Json& e, const std::string& cat, bool with_phase_and_id) {
  Fields fields;
  auto add = [&](StringId key, StringId value) { fields.field[fields.size++] = {key, value}; };
  if (with_phase_and_id) {
    add(k_ph_, S(e["ph"].get<std::string>()));
    std::string id;
    auto it = e.find("id");
    if (it != e.end() && IdText(*it, id)) add(k_id_, S(id));
  }
  if (!cat.empty()) add(k_cat_, S(cat));
  auto args = e.find("args");
  if (args != e.end() && !args->is_null() && !(args->is_object() && args->empty())) add(k_args_, S(args->dump()));
  return fields;
}

void Importer::AddFile(std::string_view text, const std::string& name, const MappedFile* mapped) {
  files_.push_back({name, text, events_, {}});
  const bool first_file = files_.size() == 1;
  report_.bytes += text.size();
  // Events are taken as the parser reaches them (json_events.h: no DOM of
  // the file); an unusable one is skipped and counted, and the text behind
  // the parser leaves memory.
  uint64_t released = 0;
  const JsonEvents parsed = ForEachJsonEvent(text, [&](const JsonEvent& e) {
    const uint32_t src = events_++;
    if ((src - files_.back().first_event) % kCheckpoint == 0) files_.back().checkpoints.push_back(e.offset);
    if (mapped && e.offset - released >= kReleaseStep) {
      mapped->ReleaseRange(released, e.offset - released);
      released = e.offset;
    }
    try {
      if (e.too_deep) throw Unusable{"nested deeper than " + std::to_string(kMaxEventDepth) + " levels"};
      AddEvent(e, src);
    } catch (const Unusable& u) {
      report_.Skip(u.reason, first_file ? "" : name, e.offset);
    }
  });
  if (mapped) mapped->ReleaseRange(0, text.size());
  if (!parsed.error.empty()) {
    auto [line, column] = LineColumn(text, parsed.error_offset);
    if (parsed.error_overflow)  // the parser's one refusal that is not a syntax error
      ThrowAt(name, line, "column " + std::to_string(column) + ": a number too large for a double");
    const std::string& what = parsed.error;
    auto cut = what.find("syntax error");
    ThrowAt(name, line, "column " + std::to_string(column) + ": invalid JSON: " +
                            (cut == std::string::npos ? what : what.substr(cut)));
  }
  if (parsed.top == JsonEvents::Top::kObject && !parsed.event_array)
    ThrowAt(name, 1, "a JSON object without a \"traceEvents\" array");
  if (parsed.top != JsonEvents::Top::kObject && parsed.top != JsonEvents::Top::kArray)
    ThrowAt(name, 1, "neither a JSON array of trace events nor an object with \"traceEvents\"");
  report_.events += parsed.count;
}

bool KnownPhase(char p) {
  static constexpr std::string_view kPhases = "BEXiIRCstfbenSTpFNODM";
  return p != '\0' && kPhases.find(p) != std::string_view::npos;
}

// Every field is read and checked before anything is recorded, so that an
// unusable event (Unusable thrown) leaves nothing behind.
// `ns` from the origin, or an Unusable when a double would not hold it
// exactly (2^53 ns: 104 days). `what`: the field(s), for the reason.
double Importer::ModelTime(int64_t ns, const char* what) {
  if (!origin_) origin_ = ns;
  int64_t ticks = 0;
  if (__builtin_sub_overflow(ns, *origin_, &ticks) || static_cast<double>(ticks < 0 ? -ticks : ticks) >= kMaxWholeTicks)
    throw Unusable{std::string("with ") + what + kFar};
  return static_cast<double>(ticks);
}

void Importer::AddEvent(const JsonEvent& event, uint32_t src) {
  const Json& e = event.value;
  if (!e.is_object()) throw Unusable{"not a JSON object"};
  auto ph_it = e.find("ph");
  if (ph_it == e.end() || !ph_it->is_string()) throw Unusable{"without a string \"ph\""};
  const std::string& ph = ph_it->get_ref<const std::string&>();
  report_.phases[ph]++;
  const char p = ph.size() == 1 ? ph[0] : '\0';
  if (!KnownPhase(p)) throw Unusable{"of unknown phase " + Excerpt(Json(ph).dump())};
  const std::string pid = ContainerKey(e, "pid"), tid = ContainerKey(e, "tid");
  const std::string name_text = Text(e, "name", ""), cat = Text(e, "cat", "");
  std::string id;
  const bool has_id = Text(e, "id", id);
  const int64_t t_ns = p == 'M' ? 0 : *Nanoseconds(e, "ts", event.ts_text, true);
  const double t = p == 'M' ? 0 : ModelTime(t_ns, "a \"ts\"");
  auto name = [&] { return S(name_text); };
  switch (p) {
    case 'B':
    case 'E':
    case 'X': {
      double end = t;
      if (p == 'X') {
        const int64_t dur = Nanoseconds(e, "dur", event.dur_text, false).value_or(0);
        if (dur < 0) throw Unusable{"with a negative \"dur\""};
        int64_t end_ns = 0;
        const char* sum = "\"ts\" + \"dur\"";
        if (__builtin_add_overflow(t_ns, dur, &end_ns)) throw Unusable{std::string("with ") + sum + kFar};
        end = ModelTime(end_ns, sum);
      }
      uint32_t th = ThreadOf(pid, tid);
      uses_[kSliceType] = true;
      if (p != 'E') Seen(t);  // an E counts once matched (MatchSlices)
      if (p == 'X') {
        Seen(end);
        slices_.Add({th, t, end, src, name(), CommonExtras(e, cat, false), {}, src});
        report_.slices++;
      } else {
        Fields fields = p == 'B' ? CommonExtras(e, cat, false) : Fields{};
        if (p == 'E') {  // an E's args go to the end of the state
          auto args = e.find("args");
          if (args != e.end() && !args->is_null() && !(args->is_object() && args->empty()))
            fields.field[fields.size++] = {k_args_, S(args->dump())};
        }
        marks_.Add({t, th, p == 'B', p == 'B' ? name() : kEmptyString, fields, src});
      }
      // Flow v2: a slice that starts or ends a flow by its bind_id.
      auto bind = e.find("bind_id");
      bool out = Flag(e, "flow_out"), in = Flag(e, "flow_in");
      std::string bind_id;
      if (bind != e.end() && IdText(*bind, bind_id) && (in || out) && p != 'E')
        flows_.Add({t, in && out ? 't' : out ? 's' : 'f', FlowKey("v2\x1f" + bind_id), name(), th, {}, src});
      return;
    }
    case 'i':
    case 'I':
    case 'R': {
      const std::string scope = p == 'R' ? "t" : Text(e, "s", "t");
      Seen(t);
      Action a{t, Op::kEvent};
      a.value = name();
      a.fields = CommonExtras(e, cat, false);
      a.src = src;
      if (scope == "g") {
        a.type = S("Ig");
        a.container = S("0");
        uses_[kGlobalInstant] = true;
      } else if (scope == "p") {
        a.type = S("Ip");
        a.container = S("p:" + pid);
        ProcessOf(pid);
        uses_[kProcessInstant] = true;
      } else {
        a.type = S("It");
        a.container = S("t:" + pid + ":" + tid);
        ThreadOf(pid, tid);
        uses_[kThreadInstant] = true;
      }
      actions_.Add(a);
      report_.instants++;
      return;
    }
    case 'C': {
      auto args = e.find("args");
      if (args == e.end() || !args->is_object()) throw Unusable{"without an \"args\" object (C)"};
      Seen(t);
      ProcessOf(pid);
      std::string series = name_text;
      if (has_id) series += "[" + id + "]";
      for (auto& [key, v] : args->items()) {
        Json number = NumberOf(v);  // some writers quote their numbers
        if (!number.is_number()) {
          report_.ignored_counter_args++;
          continue;
        }
        std::string type_name = series + " " + key;
        auto [it, added] = counter_types_.try_emplace(type_name, kEmptyString);
        if (added) it->second = S("C" + std::to_string(counter_types_.size()));
        Action a{t, Op::kVariable};
        a.type = it->second;
        a.container = S("p:" + pid);
        a.number = number.get<double>();
        a.src = src;
        actions_.Add(a);
        report_.counter_values++;
      }
      return;
    }
    case 's':
    case 't':
    case 'f': {
      if (!has_id) {
        auto id2 = e.find("id2");
        if (id2 == e.end() || !id2->is_object()) throw Unusable{"without \"id\" (flow)"};
        auto g = id2->find("global"), l = id2->find("local");
        if (!((g != id2->end() && IdText(*g, id)) || (l != id2->end() && IdText(*l, id))))
          throw Unusable{"without \"id\" (flow)"};
      }
      Seen(t);
      uint32_t th = ThreadOf(pid, tid);
      flows_.Add({t, p, FlowKey(cat + '\x1f' + id), name(), th, CommonExtras(e, cat, false), src});
      return;
    }
    case 'M': {
      const std::string& what = name_text;
      auto args = e.find("args");
      const Json* a = args != e.end() && args->is_object() ? &*args : nullptr;
      auto arg = [&](const char* key) -> const Json* {
        if (!a) return nullptr;
        auto it = a->find(key);
        return it == a->end() ? nullptr : &*it;
      };
      if (what == "process_name" || what == "process_labels" || what == "thread_name") {
        const char* key = what == "process_labels" ? "labels" : "name";
        const Json* v = arg(key);
        std::string text;
        if (!v || !IdText(*v, text)) throw Unusable{"without a string args." + std::string(key) + " (" + what + ")"};
        if (what == "thread_name") threads_[ThreadOf(pid, tid)].name = text;
        else if (what == "process_name") processes_[ProcessOf(pid)].name = text;
        else processes_[ProcessOf(pid)].labels = text;
      } else if (what == "process_sort_index" || what == "thread_sort_index") {
        const Json* v = arg("sort_index");
        const Json number = v ? NumberOf(*v) : Json(nullptr);
        if (!number.is_number()) throw Unusable{"without a numeric args.sort_index (" + what + ")"};
        if (what == "thread_sort_index") {
          ThreadInfo& th = threads_[ThreadOf(pid, tid)];
          th.sort_index = number.get<double>();
          th.has_sort_index = true;
        } else {
          ProcessInfo& pr = processes_[ProcessOf(pid)];
          pr.sort_index = number.get<double>();
          pr.has_sort_index = true;
        }
      } else {
        report_.ignored_metadata++;
        return;
      }
      report_.names++;
      return;
    }
    default: {  // async b/e/n/S/T/p/F and objects N/O/D
      Seen(t);
      ProcessOf(pid);
      bool object = p == 'N' || p == 'O' || p == 'D';
      Action a{t, Op::kEvent};
      a.type = S(object ? "O" : "A");
      a.container = S("p:" + pid);
      a.value = name();
      a.fields = CommonExtras(e, cat, true);
      a.src = src;
      actions_.Add(a);
      uses_[object ? kObject : kAsync] = true;
      (object ? report_.object_events : report_.async_events)++;
      return;
    }
  }
}

// B/E of each thread are matched by a stack in time order (file order at
// equal times): every slice becomes an interval, unclosed ones open-ended.
void Importer::MatchSlices() {
  std::vector<Slice> open;  // the open B of the thread under way
  uint32_t thread = 0;
  auto close_thread = [&] {
    report_.unclosed_slices += open.size();
    for (const Slice& s : open) slices_.Add(s);
    open.clear();
  };
  Mark m;
  while (marks_.Next(m)) {
    if (m.thread != thread) close_thread();
    thread = m.thread;
    if (m.begin) {
      open.push_back({m.thread, m.time, kOpenEnd, m.src, m.value, m.fields, {}, m.src});
      report_.slices++;
      continue;
    }
    if (open.empty()) {  // as chrome://tracing does: the E is dropped, the rest read
      Skip(m.src, "E without a matching B");
      continue;
    }
    Seen(m.time);
    open.back().end = m.time;
    open.back().end_fields = m.fields;
    slices_.Add(open.back());
    open.pop_back();
  }
  close_thread();
}

// Nesting of each thread's slices: the intervals, sorted by start, longest
// first, are replayed as push/pop pairs so that a slice ending at t is
// popped before one starting at t is pushed. A slice that outlives its
// parent is cut at the parent's end (counted).
void Importer::SlicesToActions() {
  if (threads_.empty()) return;
  const StringId type = S("S");
  std::vector<Slice> stack;
  auto pop = [&] {
    const Slice s = stack.back();
    stack.pop_back();
    if (s.end == kOpenEnd) return;  // closed by the simulator at the trace end
    Action a{s.end, Op::kPop};
    a.type = type;
    a.container = threads_[s.thread].alias;
    a.fields = s.end_fields;
    a.src = s.src;
    actions_.Add(a);
  };
  Slice s;
  while (slices_.Next(s)) {
    if (!stack.empty() && stack.back().thread != s.thread)
      while (!stack.empty()) pop();
    while (!stack.empty() && stack.back().end <= s.start && stack.back().end != kOpenEnd) pop();
    if (!stack.empty() && s.end > stack.back().end) {
      s.end = stack.back().end;
      report_.truncated_slices++;
    }
    Action a{s.start, Op::kPush};
    a.type = type;
    a.container = threads_[s.thread].alias;
    a.value = s.value;
    a.fields = s.fields;
    a.src = s.src;
    actions_.Add(a);
    stack.push_back(s);
  }
  while (!stack.empty()) pop();
}

// Flows: s opens a flow of key (cat, id) on its thread, t closes one and
// opens the next, f closes one; each closed pair is one link from the thread
// of its start to the thread of its end, named after the opening event.
// Writers reuse ids (pointer values) while earlier flows are still open, so
// the open flows of a key form a queue: an end closes the oldest (FIFO).
void Importer::FlowsToActions() {
  std::unordered_map<uint32_t, std::deque<FlowPoint>> pending;  // the open flows of each key
  const StringId type = S("F");
  const StringId root = S("0");
  uint64_t key = 0;
  FlowPoint f;
  while (flows_.Next(f)) {
    auto& queue = pending[f.key];
    if (f.phase == 's') {
      queue.push_back(f);
      continue;
    }
    if (queue.empty()) {
      if (f.phase == 'f') {
        report_.unmatched_flow_ends++;
        pending.erase(f.key);
      } else {
        queue.push_back(f);  // a step without a start starts a flow
      }
      continue;
    }
    const FlowPoint s = queue.front();
    queue.pop_front();
    if (f.phase == 't') queue.push_front(f);
    if (queue.empty()) pending.erase(f.key);
    Action start{s.time, Op::kLinkStart};
    start.type = type;
    start.container = root;
    start.peer = threads_[s.thread].alias;
    start.value = s.value;
    start.key = S(std::to_string(++key));
    start.fields = s.fields;
    start.src = s.src;
    Action end = start;
    end.time = f.time;
    end.op = Op::kLinkEnd;
    end.peer = threads_[f.thread].alias;
    end.fields = f.fields;
    end.src = f.src;
    actions_.Add(start);
    actions_.Add(end);
    report_.flows++;
    uses_[kFlow] = true;
  }
  for (auto& [k, queue] : pending) report_.unmatched_flow_starts += queue.size();
}

void Importer::Build() {
  // Known from the start: a streaming sink sees it from the first hand-over.
  trace_.SetTimeBase(
      {.num = 1, .den = 1000000000, .whole_ticks = true, .origin = origin_.value_or(0), .epoch_ns = std::nullopt});
  MatchSlices();
  SlicesToActions();
  if (first_ == kOpenEnd) first_ = last_ = 0;
  FlowsToActions();
  auto& s = trace_.strings();
  const StringId root = s.Intern("0");
  auto define = [&](TypeKind kind, StringId parent, const char* name, const char* alias) {
    sim_.DefineEntityType(kind, parent, s.Intern(name), s.Intern(alias), kEmptyString);
  };
  const StringId P = s.Intern("P"), T = s.Intern("T");
  sim_.DefineContainerType(root, s.Intern("Process"), P);
  sim_.DefineContainerType(P, s.Intern("Thread"), T);
  if (uses_[kSliceType]) define(TypeKind::kState, T, "Slice", "S");
  if (uses_[kThreadInstant]) define(TypeKind::kEvent, T, "Instant", "It");
  if (uses_[kProcessInstant]) define(TypeKind::kEvent, P, "Instant", "Ip");
  if (uses_[kGlobalInstant]) define(TypeKind::kEvent, root, "Instant", "Ig");
  if (uses_[kAsync]) define(TypeKind::kEvent, P, "Async", "A");
  if (uses_[kObject]) define(TypeKind::kEvent, P, "Object", "O");
  for (auto& [name, alias] : counter_types_) sim_.DefineEntityType(TypeKind::kVariable, P, s.Intern(name), alias, kEmptyString);
  if (uses_[kFlow]) sim_.DefineLinkType(root, T, T, s.Intern("Flow"), s.Intern("F"));

  // Containers, all created at the first timestamp, in sort-index order
  // (ties: order of first appearance).
  std::vector<uint32_t> order(processes_.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return processes_[a].sort_index < processes_[b].sort_index; });
  const StringId k_pid = s.Intern("pid"), k_tid = s.Intern("tid"), k_sort = s.Intern("sort_index"),
                 k_labels = s.Intern("labels");
  auto number = [](double v) {
    Json j = v;
    // Integers as such; the range test first (the cast of a larger value is undefined).
    if (std::fabs(v) < 9.2e18 && v == std::trunc(v)) j = static_cast<int64_t>(v);
    return j.dump();
  };
  for (uint32_t pi : order) {
    ProcessInfo& p = processes_[pi];
    std::vector<ExtraField> extras{{k_pid, s.Intern(p.pid)}};
    if (p.has_sort_index) extras.push_back({k_sort, s.Intern(number(p.sort_index))});
    if (!p.labels.empty()) extras.push_back({k_labels, s.Intern(p.labels)});
    sim_.CreateContainer(first_, P, root, s.Intern(p.name.empty() ? DefaultName("Process", p.pid) : p.name), p.alias, extras);
    std::stable_sort(p.threads.begin(), p.threads.end(),
                     [&](uint32_t a, uint32_t b) { return threads_[a].sort_index < threads_[b].sort_index; });
    for (uint32_t ti : p.threads) {
      ThreadInfo& t = threads_[ti];
      std::vector<ExtraField> textras{{k_tid, s.Intern(t.tid)}};
      if (t.has_sort_index) textras.push_back({k_sort, s.Intern(number(t.sort_index))});
      sim_.CreateContainer(first_, T, p.alias, s.Intern(t.name.empty() ? DefaultName("Thread", t.tid) : t.name), t.alias, textras);
    }
  }

  // One time-ordered stream; the sort is stable, and the calls were added
  // in the order that matters at equal times (a thread's push/pop sequence).
  Action a;
  while (actions_.Next(a)) {
    const paje::Extras extras = a.fields.span();
    try {
      switch (a.op) {
        case Op::kPush: sim_.PushState(a.time, a.type, a.container, a.value, extras); break;
        case Op::kPop: sim_.PopState(a.time, a.type, a.container, extras); break;
        case Op::kEvent: sim_.NewEvent(a.time, a.type, a.container, a.value, extras); break;
        case Op::kVariable:
          sim_.ChangeVariable(Simulator::VariableOp::kSet, a.time, a.type, a.container, a.number, extras);
          break;
        case Op::kLinkStart: sim_.StartLink(a.time, a.type, a.container, a.peer, a.value, a.key, extras); break;
        case Op::kLinkEnd: sim_.EndLink(a.time, a.type, a.container, a.peer, a.value, a.key, extras); break;
      }
    } catch (const SimulationError& e) {
      Fail(a.src, e.what());
    }
  }
  try {
    sim_.Finish(last_);
  } catch (const SimulationError& e) {
    ThrowAt(files_.back().name, 1, e.what());
  }
  trace_.SetTimeSpan(first_, last_);
}

}  // namespace

std::vector<std::string> ReadReport::Warnings() const {
  std::vector<std::string> out;
  auto add = [&](uint64_t n, const std::string& what) {
    if (n) out.push_back(std::to_string(n) + " " + what);
  };
  add(unclosed_slices, "slice(s) begun (B) and never ended: closed at the trace end");
  add(truncated_slices, "slice(s) outliving their parent slice: cut at its end");
  add(unmatched_flow_starts, "flow start(s) (s/t) never ended: dropped");
  add(unmatched_flow_ends, "flow end(s) (f) without a pending start: dropped");
  add(ignored_counter_args, "counter value(s) that are not numbers: ignored");
  add(ignored_metadata, "metadata event(s) other than names, sort indexes and labels: ignored");
  if (skipped) {
    std::string line = std::to_string(skipped) + (skipped == 1 ? " event" : " events") + " skipped: ";
    for (size_t r = 0; r < skip_reasons.size(); ++r) {
      const auto& [reason, n] = skip_reasons[r];
      line += (r ? ", " : "") + std::to_string(n) + " " + reason;
      std::string where;
      size_t samples = 0;
      for (const SkippedEvent& sample : skip_samples) {
        if (sample.reason != reason) continue;
        where += (samples++ ? ", " : "") + std::to_string(sample.offset);
        if (!sample.file.empty()) where += " of " + sample.file;
      }
      if (samples) line += (samples == 1 ? " (byte " : " (bytes ") + where + ")";
    }
    out.insert(out.begin(), line);
  }
  return out;
}

void ReadReport::Skip(std::string reason, std::string file, uint64_t offset) {
  ++skipped;
  if (skip_samples.size() < kSkipSamples) skip_samples.push_back({reason, std::move(file), offset});
  auto it = std::find_if(skip_reasons.begin(), skip_reasons.end(), [&](const auto& r) { return r.first == reason; });
  if (it == skip_reasons.end()) {
    if (skip_reasons.size() < kSkipReasons) {
      skip_reasons.emplace_back(std::move(reason), 0);
      it = skip_reasons.end() - 1;
    } else {  // the last slot gathers every further reason
      if (skip_reasons.size() == kSkipReasons) skip_reasons.emplace_back("for other reasons", 0);
      it = skip_reasons.end() - 1;
    }
  }
  ++it->second;
}

uint64_t ReadReport::Skipped(std::string_view reason) const {
  for (const auto& [r, n] : skip_reasons)
    if (r == reason) return n;
  return 0;
}

ReadReport ReadChromeText(std::string_view text, const std::string& name, Trace& trace,
                          const paje::SimulatorOptions& simulation, size_t memory) {
  Importer importer(trace, simulation, memory);
  importer.AddFile(text, name, nullptr);
  importer.Build();
  return importer.report();
}

ReadReport ReadChrome(const std::vector<std::string>& files, Trace& trace, const paje::SimulatorOptions& simulation,
                      size_t memory) {
  Importer importer(trace, simulation, memory);
  std::vector<std::unique_ptr<MappedFile>> mapped;  // alive until messages are written
  for (const std::string& f : files) {
    mapped.push_back(std::make_unique<MappedFile>(f));
    importer.AddFile(mapped.back()->bytes(), f, mapped.back().get());
  }
  importer.Build();
  return importer.report();
}

bool LooksLikeChrome(std::string_view head) {
  size_t i = head.find_first_not_of(" \t\r\n");
  if (i == std::string_view::npos || (head[i] != '[' && head[i] != '{')) return false;
  return head.find("\"ph\"") != std::string_view::npos || head.find("\"traceEvents\"") != std::string_view::npos;
}

}  // namespace macroscope::chrome
