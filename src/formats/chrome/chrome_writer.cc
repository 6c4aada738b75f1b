#include "formats/chrome/chrome_writer.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "util/atomic_file.h"
#include "util/error.h"

namespace macroscope::chrome {

namespace {

using Json = nlohmann::json;

class Out {
 public:
  explicit Out(std::FILE* f) : f_(f) { buf_.reserve(kFlushAt + 4096); }
  void Raw(std::string_view s) {
    buf_.append(s);
    if (buf_.size() >= kFlushAt) Flush();
  }
  // A JSON string literal.
  void Quoted(std::string_view s) {
    bool plain = std::all_of(s.begin(), s.end(), [](char c) {
      return static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x80 && c != '"' && c != '\\';
    });
    if (plain) {
      buf_ += '"';
      buf_.append(s);
      buf_ += '"';
    } else {  // escapes, and invalid UTF-8 replaced rather than refused
      buf_ += Json(std::string(s)).dump(-1, ' ', false, Json::error_handler_t::replace);
    }
  }
  // Microseconds, rounded to the nanosecond, without trailing zeros.
  void Micros(double us) {
    char tmp[64];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, us, std::chars_format::fixed, 3);
    char* end = r.ptr;
    while (end > tmp && end[-1] == '0') --end;
    if (end > tmp && end[-1] == '.') --end;
    if (end - tmp == 2 && tmp[0] == '-' && tmp[1] == '0') {  // "-0"
      buf_ += '0';
      return;
    }
    buf_.append(tmp, end);
  }
  void Number(double v) {
    if (!std::isfinite(v)) {
      buf_ += "null";
      return;
    }
    char tmp[64];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, r.ptr);
  }
  void Int(uint64_t v) { buf_ += std::to_string(v); }
  void Flush() {
    if (buf_.empty()) return;
    if (std::fwrite(buf_.data(), 1, buf_.size(), f_) != buf_.size())
      throw UserError(std::string("cannot write the Chrome JSON: ") + std::strerror(errno));
    buf_.clear();
  }

 private:
  static constexpr size_t kFlushAt = 1 << 20;
  std::FILE* f_;
  std::string buf_;
};

// Model time -> microseconds rounded to the nanosecond. Exact for whole
// nanosecond ticks below 2^42 µs (51 days); finer clocks (OTF2 timers) are
// rounded to the nanosecond, Chrome's own resolution in practice.
double RoundMicros(const TimeBase& base, double t) { return std::round(base.Seconds(t) * 1e9) / 1e3; }

struct Row {
  uint32_t tid;
  TypeId state_type;  // kNone: the container's only row
};

class Writer {
 public:
  Writer(const Trace& t, std::FILE* f) : t_(t), out_(f) {}
  WriteStats Run();

 private:
  void Plan();
  uint32_t Pid(ContainerId process);
  std::string Path(ContainerId c) const;
  void Begin(const char* ph, uint32_t pid, uint32_t tid);
  void Args(const EntityStore& s, size_t i, std::string_view default_cat);
  void Metadata(const char* name, uint32_t pid, uint32_t tid, const std::string* text, int64_t sort_index);
  ContainerId ProcessOf(ContainerId c) const {
    const Container& k = t_.container(c);
    return k.children.empty() && k.parent != kRootContainer && k.parent != kNone ? k.parent : c;
  }

  const Trace& t_;
  Out out_;
  WriteStats stats_;
  bool first_ = true;
  std::vector<std::vector<Row>> rows_;    // per container
  std::vector<uint32_t> pid_;             // per container (as a process); 0: none yet
  std::vector<ContainerId> processes_;    // in pid order (pid = index + 1)
  uint32_t next_tid_ = 1;
  uint64_t link_id_ = 0;
};

std::string Writer::Path(ContainerId c) const {
  std::vector<std::string_view> names;
  for (ContainerId k = c; k != kRootContainer && k != kNone; k = t_.container(k).parent)
    names.push_back(t_.Str(t_.container(k).name));
  if (names.empty()) return std::string(t_.Str(t_.container(c).name));
  std::string path;
  for (auto it = names.rbegin(); it != names.rend(); ++it) path += (path.empty() ? "" : "/") + std::string(*it);
  return path;
}

uint32_t Writer::Pid(ContainerId process) {
  if (pid_[process] == 0) {
    processes_.push_back(process);
    pid_[process] = static_cast<uint32_t>(processes_.size());
  }
  return pid_[process];
}

void Writer::Plan() {
  const size_t n = t_.containers().size();
  rows_.assign(n, {});
  pid_.assign(n, 0);
  std::vector<bool> endpoint(n, false);
  for (const EntityStore& s : t_.stores())
    if (s.kind == TypeKind::kLink)
      for (size_t i = 0; i < s.size(); ++i) {
        if (s.peer_start[i] != kNone) endpoint[s.peer_start[i]] = true;
        if (s.peer_end[i] != kNone) endpoint[s.peer_end[i]] = true;
      }
  for (ContainerId c = 0; c < n; ++c) {
    const Container& k = t_.container(c);
    std::vector<TypeId> state_types;
    bool anything = false;
    for (auto& [type, si] : k.stores) {
      const EntityStore& s = t_.stores()[si];
      if (s.size() == 0) continue;
      anything = true;
      if (s.kind == TypeKind::kState) state_types.push_back(type);
    }
    bool row = c == kRootContainer ? !state_types.empty() : (k.children.empty() || !state_types.empty() || endpoint[c]);
    if (!row) {
      if (anything && c != kRootContainer) Pid(c);  // process-scoped events or counters
      continue;
    }
    uint32_t pid = Pid(ProcessOf(c));
    (void)pid;
    if (state_types.size() <= 1) {
      rows_[c].push_back({next_tid_++, kNone});
    } else {
      for (TypeId type : state_types) rows_[c].push_back({next_tid_++, type});
    }
  }
}

void Writer::Begin(const char* ph, uint32_t pid, uint32_t tid) {
  out_.Raw(first_ ? "\n{\"ph\":\"" : ",\n{\"ph\":\"");
  first_ = false;
  out_.Raw(ph);
  out_.Raw("\",\"pid\":");
  out_.Int(pid);
  out_.Raw(",\"tid\":");
  out_.Int(tid);
  stats_.events++;
}

void Writer::Metadata(const char* name, uint32_t pid, uint32_t tid, const std::string* text, int64_t sort_index) {
  Begin("M", pid, tid);
  out_.Raw(",\"name\":\"");
  out_.Raw(name);
  if (text) {
    out_.Raw("\",\"args\":{\"name\":");
    out_.Quoted(*text);
  } else {
    out_.Raw("\",\"args\":{\"sort_index\":");
    out_.Raw(std::to_string(sort_index));
  }
  out_.Raw("}}");
}

// cat and args from the user fields (see the header).
void Writer::Args(const EntityStore& s, size_t i, std::string_view default_cat) {
  std::string_view cat = default_cat;
  Json args = Json::object();
  s.extras.ForEach(i, [&](const ExtraField& f) {
    std::string_view name = t_.Str(f.name), value = t_.Str(f.value);
    if (name == "cat") {
      cat = value;
      return;
    }
    if (name == "args") {
      Json j = Json::parse(value, nullptr, false);
      if (!j.is_discarded() && j.is_object()) {
        for (auto& [k, v] : j.items()) args[k] = v;
        return;
      }
    }
    args[std::string(name)] = std::string(value);
  });
  out_.Raw(",\"cat\":");
  out_.Quoted(cat);
  if (!args.empty()) {
    out_.Raw(",\"args\":");
    out_.Raw(args.dump(-1, ' ', false, Json::error_handler_t::replace));
  }
}

WriteStats Writer::Run() {
  Plan();
  out_.Raw("{\"traceEvents\":[");
  // Names and order first.
  for (uint32_t p = 0; p < processes_.size(); ++p) {
    std::string name = Path(processes_[p]);
    Metadata("process_name", p + 1, 0, &name, 0);
    Metadata("process_sort_index", p + 1, 0, nullptr, p);
    stats_.processes++;
  }
  for (ContainerId c = 0; c < rows_.size(); ++c)
    for (const Row& r : rows_[c]) {
      uint32_t pid = pid_[ProcessOf(c)];
      std::string name(t_.Str(t_.container(c).name));
      if (r.state_type != kNone) name += " (" + std::string(t_.Str(t_.type(r.state_type).name)) + ")";
      Metadata("thread_name", pid, r.tid, &name, 0);
      Metadata("thread_sort_index", pid, r.tid, nullptr, r.tid);
      stats_.threads++;
    }
  // Entities, store by store.
  auto row_of = [&](ContainerId c, TypeId state_type) -> const Row* {
    for (const Row& r : rows_[c])
      if (r.state_type == kNone || r.state_type == state_type) return &r;
    return rows_[c].empty() ? nullptr : &rows_[c].front();
  };
  std::vector<uint32_t> order;
  for (const EntityStore& s : t_.stores()) {
    if (s.size() == 0) continue;
    const ContainerId c = s.container;
    const uint32_t pid = c == kRootContainer && rows_[c].empty() ? 0 : pid_[ProcessOf(c)];
    std::string_view type_name = t_.Str(t_.type(s.type).name);
    switch (s.kind) {
      case TypeKind::kState: {
        const Row* row = row_of(c, s.type);
        order.resize(s.size());
        for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
        std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
          return s.start[a] != s.start[b] ? s.start[a] < s.start[b] : s.level[a] < s.level[b];
        });
        for (uint32_t i : order) {
          Begin("X", pid, row->tid);
          double ts = RoundMicros(t_.time_base(), s.start[i]);
          out_.Raw(",\"ts\":");
          out_.Micros(ts);
          out_.Raw(",\"dur\":");
          out_.Micros(std::max(0.0, RoundMicros(t_.time_base(), s.end[i]) - ts));
          out_.Raw(",\"name\":");
          out_.Quoted(t_.Str(s.value[i]));
          Args(s, i, type_name);
          out_.Raw("}");
        }
        break;
      }
      case TypeKind::kEvent: {
        const Row* row = row_of(c, kNone);
        for (size_t i = 0; i < s.size(); ++i) {
          Begin("i", pid, row ? row->tid : 0);
          out_.Raw(c == kRootContainer && !row ? ",\"s\":\"g\"" : row ? ",\"s\":\"t\"" : ",\"s\":\"p\"");
          out_.Raw(",\"ts\":");
          out_.Micros(RoundMicros(t_.time_base(), s.start[i]));
          out_.Raw(",\"name\":");
          out_.Quoted(t_.Str(s.value[i]));
          Args(s, i, type_name);
          out_.Raw("}");
        }
        break;
      }
      case TypeKind::kVariable: {
        const bool own = c == kRootContainer || ProcessOf(c) == c;
        const Row* row = row_of(c, kNone);
        for (size_t i = 0; i < s.size(); ++i) {
          Begin("C", pid, row ? row->tid : 0);
          out_.Raw(",\"ts\":");
          out_.Micros(RoundMicros(t_.time_base(), s.start[i]));
          out_.Raw(",\"name\":");
          out_.Quoted(type_name);
          if (!own) {  // a thread's counter: its own series in the process
            out_.Raw(",\"id\":");
            out_.Quoted(t_.Str(t_.container(c).name));
          }
          out_.Raw(",\"args\":{\"value\":");
          out_.Number(s.number[i]);
          out_.Raw("}}");
        }
        break;
      }
      case TypeKind::kLink: {
        for (size_t i = 0; i < s.size(); ++i) {
          const ContainerId ends[2] = {s.peer_start[i], s.peer_end[i]};
          if (ends[0] == kNone || ends[1] == kNone) continue;
          for (int side = 0; side < 2; ++side) {
            const Row* row = row_of(ends[side], kNone);
            Begin(side == 0 ? "s" : "f", pid_[ProcessOf(ends[side])], row ? row->tid : 0);
            if (side == 1) out_.Raw(",\"bp\":\"e\"");
            out_.Raw(",\"id\":");
            out_.Int(side == 0 ? ++link_id_ : link_id_);
            out_.Raw(",\"ts\":");
            out_.Micros(RoundMicros(t_.time_base(), side == 0 ? s.start[i] : s.end[i]));
            out_.Raw(",\"name\":");
            out_.Quoted(t_.Str(s.value[i]));
            out_.Raw(",\"cat\":");
            out_.Quoted(type_name);
            out_.Raw("}");
          }
        }
        break;
      }
      case TypeKind::kContainer:
        break;
    }
  }
  out_.Raw("\n],\"displayTimeUnit\":\"ms\",\"otherData\":{\"writer\":\"macroscope\"}}\n");
  out_.Flush();
  return stats_;
}

}  // namespace

WriteStats WriteChrome(const Trace& trace, std::FILE* out) { return Writer(trace, out).Run(); }

WriteStats WriteChromeFile(const Trace& trace, const std::string& path) {
  AtomicFile file(path);
  WriteStats stats = WriteChrome(trace, file.stream());
  file.Commit();
  return stats;
}

}  // namespace macroscope::chrome
