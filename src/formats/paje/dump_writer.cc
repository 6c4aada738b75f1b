#include "formats/paje/dump_writer.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <string>

#include "util/error.h"

namespace macroscope::paje {

namespace {

// A growable output buffer flushed in large writes.
class Out {
 public:
  explicit Out(std::FILE* f) : f_(f) { buf_.reserve(kFlushAt + 4096); }
  ~Out() { Flush(); }
  void Str(std::string_view s) {
    buf_.append(s);
    if (buf_.size() >= kFlushAt) Flush();
  }
  void Fixed(double v, int precision) {
    char tmp[512];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v, std::chars_format::fixed, precision);
    buf_.append(tmp, r.ptr);
  }
  // The trace clock's seconds, exact for whole ticks (model/time_base.h).
  void ClockSeconds(const TimeBase& base, double t, int precision) { AppendClockSeconds(buf_, base, t, precision); }
  void DurationSeconds(const TimeBase& base, double d, int precision) {
    AppendDurationSeconds(buf_, base, d, precision);
  }
  // ostream's default for doubles: %g with 6 significant digits.
  void General(double v) {
    char tmp[64];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v, std::chars_format::general, 6);
    buf_.append(tmp, r.ptr);
  }
  void Flush() {
    if (buf_.empty()) return;
    if (std::fwrite(buf_.data(), 1, buf_.size(), f_) != buf_.size())
      throw UserError(std::string("cannot write the dump: ") + std::strerror(errno));
    buf_.clear();
  }

 private:
  static constexpr size_t kFlushAt = 1 << 20;
  std::FILE* f_;
  std::string buf_;
};

// The binary search of std::lower_bound, spelled out: the store need not be
// sorted by start (links are stored when complete), and pj_dump's window
// depends on exactly this probe sequence.
size_t LowerBound(const std::vector<double>& starts, double value) {
  size_t first = 0, len = starts.size();
  while (len > 0) {
    size_t half = len >> 1;
    if (starts[first + half] < value) {
      first += half + 1;
      len -= half + 1;
    } else {
      len = half;
    }
  }
  return first;
}

class Writer {
 public:
  Writer(const Trace& t, const DumpOptions& o, std::FILE* f)
      : t_(t), o_(o), out_(f), seconds_(t.time_base() == TimeBase{}) {}
  void Run();

 private:
  void Header(double start, double end);
  std::pair<size_t, size_t> Window(const EntityStore& s, double start, double end) const;
  // pj_dump's walk, so that "first of its kind" means the same thing: a
  // stack of containers; a container's entity types and child containers
  // in identifier order, its children pushed in that order (popped reversed).
  template <class OnContainer, class OnStore>
  void ForEachContainer(OnContainer on_container, OnStore on_store) const {
    auto identifier = [&](StringId alias, StringId name) { return t_.Str(alias != kEmptyString ? alias : name); };
    std::vector<ContainerId> todo{kRootContainer};
    while (!todo.empty()) {
      ContainerId id = todo.back();
      todo.pop_back();
      const Container& c = t_.container(id);
      on_container(c);
      std::vector<TypeId> types = t_.type(c.type).children;
      std::sort(types.begin(), types.end(), [&](TypeId a, TypeId b) {
        return identifier(t_.type(a).alias, t_.type(a).name) < identifier(t_.type(b).alias, t_.type(b).name);
      });
      for (TypeId type : types) {
        if (t_.type(type).kind != TypeKind::kContainer) {
          if (const EntityStore* s = t_.FindStore(id, type)) on_store(*s);
          continue;
        }
        std::vector<ContainerId> kids;
        for (ContainerId k : c.children)
          if (t_.container(k).type == type) kids.push_back(k);
        std::sort(kids.begin(), kids.end(), [&](ContainerId a, ContainerId b) {
          const Container& x = t_.container(a);
          const Container& y = t_.container(b);
          return identifier(x.alias, x.name) < identifier(y.alias, y.name);
        });
        todo.insert(todo.end(), kids.begin(), kids.end());
      }
    }
  }
  template <class OnStore>
  void ForEachStore(OnStore on_store) const {
    ForEachContainer([](const Container&) {}, on_store);
  }
  void ContainerLine(const Container& c);
  void Entities(const EntityStore& s, double start, double end);
  void Sep() { out_.Str(", "); }
  // Times as pj_dump prints them: a Pajé trace's own seconds (the fast,
  // reference path); any other clock's seconds converted exactly.
  void Time(double t, int precision) {
    if (seconds_)
      out_.Fixed(t, precision);
    else
      out_.ClockSeconds(t_.time_base(), t, precision);
  }
  void Duration(double d, int precision) {
    if (seconds_)
      out_.Fixed(d, precision);
    else
      out_.DurationSeconds(t_.time_base(), d, precision);
  }
  void Name(StringId id) { out_.Str(t_.Str(id)); }
  void Extras(const EntityStore& s, size_t i) {
    if (!o_.user_fields || s.extras.empty()) return;
    s.extras.ForEach(i, [&](const ExtraField& f) { Sep(); Name(f.value); });
  }

  const Trace& t_;
  const DumpOptions& o_;
  Out out_;
  const bool seconds_;  // model times are the trace's seconds (Pajé)
};

void Writer::ContainerLine(const Container& c) {
  out_.Str("Container, ");
  Name(c.parent == kNone ? c.name : t_.container(c.parent).name);
  Sep();
  Name(t_.type(c.type).name);
  Sep();
  if (seconds_) {
    out_.General(c.start);
    Sep();
    out_.General(c.end);
    Sep();
    out_.General(c.end - c.start);
  } else {
    Time(c.start, o_.precision);
    Sep();
    Time(c.end, o_.precision);
    Sep();
    Duration(c.end - c.start, o_.precision);
  }
  Sep();
  Name(c.name);
  if (o_.user_fields)
    for (auto& f : c.extras) {
      Sep();
      Name(f.value);
    }
  out_.Str("\n");
}

void Writer::Entities(const EntityStore& s, double start, double end) {
  auto [low, up] = Window(s, start, end);
  const int p = o_.precision;
  std::string_view container = t_.Str(t_.container(s.container).name);
  std::string_view type = t_.Str(t_.type(s.type).name);
  for (size_t i = low; i < up; ++i) {
    switch (s.kind) {
      case TypeKind::kState:
        out_.Str("State, ");
        break;
      case TypeKind::kEvent:
        out_.Str("Event, ");
        break;
      case TypeKind::kLink:
        out_.Str("Link, ");
        break;
      case TypeKind::kVariable:
        out_.Str("Variable, ");
        break;
      case TypeKind::kContainer:
        return;
    }
    out_.Str(container);
    Sep();
    out_.Str(type);
    Sep();
    Time(s.start[i], p);
    if (s.kind != TypeKind::kEvent) {
      Sep();
      Time(s.end[i], p);
      Sep();
      Duration(s.end[i] - s.start[i], p);
    }
    Sep();
    switch (s.kind) {
      case TypeKind::kState:
        out_.Fixed(static_cast<double>(s.level[i]), p);
        Sep();
        Name(s.value[i]);
        break;
      case TypeKind::kEvent:
        Name(s.value[i]);
        break;
      case TypeKind::kLink:
        Name(s.value[i]);
        Sep();
        Name(s.peer_start[i] == kNone ? kEmptyString : t_.container(s.peer_start[i]).name);
        Sep();
        Name(s.peer_end[i] == kNone ? kEmptyString : t_.container(s.peer_end[i]).name);
        Sep();
        Name(s.key[i]);
        break;
      case TypeKind::kVariable:
        out_.Fixed(s.number[i], p);
        break;
      case TypeKind::kContainer:
        break;
    }
    Extras(s, i);
    out_.Str("\n");
  }
}

// Column names, one line per kind present. With user fields, pj_dump names
// them after those of the first entity of the kind it prints.
void Writer::Header(double start, double end) {
  constexpr int kKinds = 5;
  bool has[kKinds] = {};
  std::string extra[kKinds];
  ForEachStore([&](const EntityStore& s) {
    int k = static_cast<int>(s.kind);
    if (s.size() == 0 || has[k]) return;
    has[k] = true;
    if (!o_.user_fields) return;
    auto [low, up] = Window(s, start, end);
    if (low < up) s.extras.ForEach(low, [&](const ExtraField& f) { extra[k] += ", " + std::string(t_.Str(f.name)); });
  });
  out_.Str("Container, Parent, Type, Start, End, Duration, Name\n");
  auto line = [&](TypeKind kind, const char* columns) {
    int k = static_cast<int>(kind);
    if (!has[k]) return;
    out_.Str(columns);
    out_.Str(extra[k]);
    out_.Str("\n");
  };
  line(TypeKind::kLink, "Link, Container, Type, Start, End, Duration, Value, StartContainer, EndContainer");
  line(TypeKind::kState, "State, Container, Type, Start, End, Duration, Imbrication, Value");
  line(TypeKind::kEvent, "Event, Container, Variable, Value, Start, Value");
  line(TypeKind::kVariable, "Variable, Container, Type, Start, End, Duration, Value");
}

std::pair<size_t, size_t> Writer::Window(const EntityStore& s, double start, double end) const {
  // pj_dump's window over the store in its own order: from the entity before
  // the first that starts at or after `start`, to the first that starts at
  // or after `end`, included. Kept as is so that the lines are the same.
  size_t low = LowerBound(s.start, start);
  size_t up = LowerBound(s.start, end);
  if (low != 0) --low;
  if (up != s.size()) ++up;
  return {low, up};
}

void Writer::Run() {
  double start = o_.start == -1 ? t_.start_time() : o_.start;
  double end = o_.end == -1 ? t_.end_time() : o_.end;
  if (o_.header) Header(start, end);
  ForEachContainer([&](const Container& c) { ContainerLine(c); },
                   [&](const EntityStore& s) { Entities(s, start, end); });
  out_.Flush();
}

}  // namespace

void WriteDump(const Trace& trace, const DumpOptions& options, std::FILE* out) {
  Writer(trace, options, out).Run();
}

}  // namespace macroscope::paje
