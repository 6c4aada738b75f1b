#include "formats/paje/paje_writer.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <map>
#include <set>
#include <string_view>
#include <vector>

#include "util/atomic_file.h"
#include "util/error.h"

namespace macroscope::paje {

namespace {

enum class Op : uint8_t { kCreate, kPush, kPop, kEvent, kSetVariable, kStartLink, kEndLink, kDestroy };

// One change at one time; `a` is a container (create, destroy) or a store,
// `b` the entity in the store.
struct Step {
  double time;
  uint8_t phase;  // at equal times: creations, then entities, then destructions
  Op op;
  uint32_t a, b;
};

struct Field {
  std::string_view name;
  std::string_view type;  // "date", "double" or "string"
  std::string value;      // already a Pajé word
};

class Writer {
 public:
  Writer(const Trace& t, std::FILE* f) : t_(t), f_(f) {}
  PajeWriteStats Run();

 private:
  void Plan();
  void Body();
  void Emit(std::string_view event, std::vector<Field>& fields);
  std::string Word(std::string_view s);
  static std::string Number(double v) {
    char tmp[512];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v, std::chars_format::fixed);
    if (r.ec != std::errc()) r = std::to_chars(tmp, tmp + sizeof tmp, v);
    return std::string(tmp, r.ptr);
  }
  // A Pajé date: seconds from the trace origin. A Pajé trace's own numbers
  // as they were; whole ticks exactly (ns: 9 decimals; other rates: 12).
  std::string Date(double t) const {
    const TimeBase& base = t_.time_base();
    if (!base.whole_ticks) return Number(base.Seconds(t));
    std::string out;
    AppendDurationSeconds(out, base, t, DecimalsOfTick(base));
    return out;
  }
  std::string_view TypeIdent(macroscope::TypeId type) const {
    const Type& ty = t_.type(type);
    return t_.Str(ty.alias != kEmptyString ? ty.alias : ty.name);
  }
  std::string_view ContainerIdent(macroscope::ContainerId c) const {
    const Container& k = t_.container(c);
    return t_.Str(k.alias != kEmptyString ? k.alias : k.name);
  }
  void Optional(std::vector<Field>& fields, std::string_view name, StringId value) {
    if (value != kEmptyString) fields.push_back({name, "string", Word(t_.Str(value))});
  }
  void UserFields(std::vector<Field>& fields, std::span<const ExtraField> extras);
  void StoreFields(std::vector<Field>& fields, const EntityStore& s, size_t i) {
    if (s.extras.empty()) return;
    scratch_.clear();
    s.extras.ForEach(i, [&](const ExtraField& f) { scratch_.push_back(f); });
    UserFields(fields, scratch_);
  }
  void Write(std::string_view s) {
    buf_.append(s);
    if (buf_.size() >= (1 << 20)) Flush();
  }
  void Flush() {
    if (buf_.empty()) return;
    if (std::fwrite(buf_.data(), 1, buf_.size(), f_) != buf_.size())
      throw UserError(std::string("cannot write the Pajé trace: ") + std::strerror(errno));
    buf_.clear();
  }

  const Trace& t_;
  std::FILE* f_;
  std::string buf_;
  bool collecting_ = true;
  std::map<std::string, int> definitions_;  // record shape -> event id
  std::string header_;
  std::vector<Step> steps_;
  std::vector<ExtraField> scratch_;
  std::set<std::string> names_;  // user field names, kept alive for Field
  PajeWriteStats stats_;
};

std::string Writer::Word(std::string_view s) {
  bool bare = !s.empty() && std::none_of(s.begin(), s.end(), [](char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '\n' || c == '"' || c == '#';
  });
  if (bare) return std::string(s);
  std::string out = "\"";
  bool changed = s.empty();
  for (char c : s) {
    if (c == '"') c = '\'', changed = true;
    if (c == '\n') c = ' ', changed = true;
    out += c;
  }
  out += '"';
  if (changed && !collecting_) stats_.sanitized++;
  return out;
}

// User fields by name; a name repeated (a state's fields from its push and
// its pop) gets a suffix so that the definition stays valid.
void Writer::UserFields(std::vector<Field>& fields, std::span<const ExtraField> extras) {
  for (const ExtraField& f : extras) {
    std::string name(t_.Str(f.name));
    auto taken = [&](const std::string& n) {
      return std::any_of(fields.begin(), fields.end(), [&](const Field& x) { return x.name == n; });
    };
    for (int k = 2; taken(name); ++k) name = std::string(t_.Str(f.name)) + "_" + std::to_string(k);
    auto it = names_.insert(name).first;  // a set: Field keeps a view of it
    fields.push_back({*it, "string", Word(t_.Str(f.value))});
  }
}

void Writer::Emit(std::string_view event, std::vector<Field>& fields) {
  std::string shape(event);
  for (const Field& f : fields) {
    shape += ' ';
    shape += f.name;
    shape += ' ';
    shape += f.type;
  }
  auto [it, added] = definitions_.try_emplace(shape, static_cast<int>(definitions_.size()));
  if (added) {
    header_ += "%EventDef " + std::string(event) + " " + std::to_string(it->second) + "\n";
    for (const Field& f : fields) header_ += "% " + std::string(f.name) + " " + std::string(f.type) + "\n";
    header_ += "%EndEventDef\n";
  }
  if (collecting_) return;
  std::string line = std::to_string(it->second);
  for (const Field& f : fields) {
    line += ' ';
    line += f.value;
  }
  line += '\n';
  Write(line);
  stats_.lines++;
}

void Writer::Plan() {
  const auto& containers = t_.containers();
  for (uint32_t c = 1; c < containers.size(); ++c) steps_.push_back({containers[c].start, 0, Op::kCreate, c, 0});
  // Destructions deepest first, so that a parent never takes a child with it
  // before the child's own destruction.
  std::vector<uint32_t> depth(containers.size(), 0), by_depth;
  for (uint32_t c = 1; c < containers.size(); ++c) {
    depth[c] = depth[containers[c].parent] + 1;  // parents are created first
    by_depth.push_back(c);
  }
  std::stable_sort(by_depth.begin(), by_depth.end(), [&](uint32_t a, uint32_t b) { return depth[a] > depth[b]; });
  std::vector<Step> destroys;
  for (uint32_t c : by_depth) destroys.push_back({containers[c].end, 2, Op::kDestroy, c, 0});

  const auto& stores = t_.stores();
  for (uint32_t si = 0; si < stores.size(); ++si) {
    const EntityStore& s = stores[si];
    const auto n = static_cast<uint32_t>(s.size());
    switch (s.kind) {
      case TypeKind::kState: {
        // Replay of the stack: a state at level L closes what is open at L or deeper.
        std::vector<uint32_t> stack;
        for (uint32_t i = 0; i < n; ++i) {
          while (!stack.empty() && s.level[stack.back()] >= s.level[i]) {
            steps_.push_back({s.end[stack.back()], 1, Op::kPop, si, stack.back()});
            stack.pop_back();
          }
          steps_.push_back({s.start[i], 1, Op::kPush, si, i});
          stack.push_back(i);
        }
        while (!stack.empty()) {
          steps_.push_back({s.end[stack.back()], 1, Op::kPop, si, stack.back()});
          stack.pop_back();
        }
        break;
      }
      case TypeKind::kEvent:
        for (uint32_t i = 0; i < n; ++i) steps_.push_back({s.start[i], 1, Op::kEvent, si, i});
        break;
      case TypeKind::kVariable:
        for (uint32_t i = 0; i < n; ++i) steps_.push_back({s.start[i], 1, Op::kSetVariable, si, i});
        break;
      case TypeKind::kLink:
        for (uint32_t i = 0; i < n; ++i) {
          steps_.push_back({s.start[i], 1, Op::kStartLink, si, i});
          steps_.push_back({s.end[i], 1, Op::kEndLink, si, i});
        }
        break;
      case TypeKind::kContainer:
        break;
    }
  }
  steps_.insert(steps_.end(), destroys.begin(), destroys.end());
  std::stable_sort(steps_.begin(), steps_.end(), [](const Step& a, const Step& b) {
    return a.time != b.time ? a.time < b.time : a.phase < b.phase;
  });
}

void Writer::Body() {
  std::vector<Field> f;
  // Types in definition order (a parent is always defined before its children).
  for (macroscope::TypeId id = 1; id < t_.types().size(); ++id) {
    const Type& ty = t_.type(id);
    f.clear();
    Optional(f, "Alias", ty.alias);
    f.push_back({"Type", "string", Word(TypeIdent(ty.parent))});
    if (ty.kind == TypeKind::kLink) {
      f.push_back({"StartContainerType", "string", Word(TypeIdent(ty.start_type))});
      f.push_back({"EndContainerType", "string", Word(TypeIdent(ty.end_type))});
    }
    f.push_back({"Name", "string", Word(t_.Str(ty.name))});
    if (ty.kind != TypeKind::kContainer && ty.kind != TypeKind::kLink) Optional(f, "Color", ty.color);
    const char* event = ty.kind == TypeKind::kContainer ? "PajeDefineContainerType"
                      : ty.kind == TypeKind::kState     ? "PajeDefineStateType"
                      : ty.kind == TypeKind::kEvent     ? "PajeDefineEventType"
                      : ty.kind == TypeKind::kVariable  ? "PajeDefineVariableType"
                                                        : "PajeDefineLinkType";
    Emit(event, f);
  }
  for (const EntityValue& v : t_.values()) {
    f.clear();
    Optional(f, "Alias", v.alias);
    f.push_back({"Type", "string", Word(TypeIdent(v.type))});
    f.push_back({"Name", "string", Word(t_.Str(v.name))});
    Optional(f, "Color", v.color);
    Emit("PajeDefineEntityValue", f);
  }
  for (const Step& step : steps_) {
    f.clear();
    f.push_back({"Time", "date", Date(step.time)});
    if (step.op == Op::kCreate || step.op == Op::kDestroy) {
      const Container& c = t_.container(step.a);
      if (step.op == Op::kDestroy) {
        f.push_back({"Type", "string", Word(TypeIdent(c.type))});
        f.push_back({"Name", "string", Word(ContainerIdent(step.a))});
        Emit("PajeDestroyContainer", f);
        continue;
      }
      Optional(f, "Alias", c.alias);
      f.push_back({"Type", "string", Word(TypeIdent(c.type))});
      f.push_back({"Container", "string", Word(ContainerIdent(c.parent))});
      f.push_back({"Name", "string", Word(t_.Str(c.name))});
      UserFields(f, c.extras);
      Emit("PajeCreateContainer", f);
      continue;
    }
    const EntityStore& s = t_.stores()[step.a];
    const uint32_t i = step.b;
    f.push_back({"Type", "string", Word(TypeIdent(s.type))});
    f.push_back({"Container", "string", Word(ContainerIdent(s.container))});
    switch (step.op) {
      case Op::kPush:
        f.push_back({"Value", "string", Word(t_.Str(s.value[i]))});
        StoreFields(f, s, i);
        Emit("PajePushState", f);
        break;
      case Op::kPop:
        Emit("PajePopState", f);
        break;
      case Op::kEvent:
        f.push_back({"Value", "string", Word(t_.Str(s.value[i]))});
        StoreFields(f, s, i);
        Emit("PajeNewEvent", f);
        break;
      case Op::kSetVariable: {
        // pj_dump reads values as floats but adds them as doubles: a value
        // that is no float is written as a set and adds of float parts,
        // all at the same time (one value in the end).
        double rest = s.number[i];
        for (int part = 0; part < 4 && (part == 0 || rest != 0); ++part) {
          const auto piece = static_cast<double>(static_cast<float>(rest));
          rest -= piece;
          if (part > 0) f.resize(3);
          f.push_back({"Value", "double", Number(piece)});
          if (part == 0) StoreFields(f, s, i);
          Emit(part == 0 ? "PajeSetVariable" : "PajeAddVariable", f);
        }
        break;
      }
      case Op::kStartLink:
      case Op::kEndLink: {
        const bool start = step.op == Op::kStartLink;
        f.push_back({start ? "StartContainer" : "EndContainer", "string",
                     Word(ContainerIdent(start ? s.peer_start[i] : s.peer_end[i]))});
        f.push_back({"Value", "string", Word(t_.Str(s.value[i]))});
        f.push_back({"Key", "string", Word(t_.Str(s.key[i]))});
        if (start) StoreFields(f, s, i);
        Emit(start ? "PajeStartLink" : "PajeEndLink", f);
        break;
      }
      case Op::kCreate:
      case Op::kDestroy:
        break;
    }
  }
}

PajeWriteStats Writer::Run() {
  Plan();
  collecting_ = true;  // first pass: the record shapes, for the header
  Body();
  Write("# Written by macroscope (Pajé text; pj_dump reads it)\n");
  Write(header_);
  collecting_ = false;
  Body();
  Flush();
  return stats_;
}

}  // namespace

PajeWriteStats WritePaje(const Trace& trace, std::FILE* out) { return Writer(trace, out).Run(); }

PajeWriteStats WritePajeFile(const Trace& trace, const std::string& path) {
  AtomicFile file(path);
  PajeWriteStats stats = WritePaje(trace, file.stream());
  file.Commit();
  return stats;
}

}  // namespace macroscope::paje
