#include "formats/paraver/paraver_writer.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstring>
#include <ctime>
#include <map>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "formats/paraver/paraver_lines.h"
#include "formats/paraver/paraver_names.h"
#include "formats/paraver/paraver_reader.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace macroscope::paraver {

namespace {

// Numbers for the things Paraver numbers (state values, event types, event
// values; keys: their name's StringId, or a TypeId): a declared numeric
// alias first, then the name itself when it is a free number, then the next
// free number from 1.
class Numbering {
 public:
  void Prefer(uint64_t name, std::string_view alias) {
    uint64_t n = 0;
    if (!numbers_.count(name) && ParseUnsigned(alias, n) && !used_.count(n)) Assign(name, n);
  }
  uint64_t Of(uint64_t name, std::string_view text) {
    if (auto it = numbers_.find(name); it != numbers_.end()) return it->second;
    uint64_t n = 0;
    if (!ParseUnsigned(text, n) || used_.count(n)) {
      while (used_.count(next_)) ++next_;
      n = next_;
    }
    Assign(name, n);
    return n;
  }
  const std::map<uint64_t, uint64_t>& names() const { return names_; }

 private:
  void Assign(uint64_t name, uint64_t n) {
    numbers_[name] = n;
    names_[n] = name;
    used_[n] = true;
  }
  std::unordered_map<uint64_t, uint64_t> numbers_;
  std::unordered_map<uint64_t, bool> used_;
  std::map<uint64_t, uint64_t> names_;  // number -> key
  uint64_t next_ = 1;
};

struct Record {
  uint64_t time;
  uint16_t level;  // states: nesting level, so that a parent comes before its children
  uint64_t end;    // states: end; communications: physical receive
  char kind;       // '1', '2', '3'
  uint32_t thread, peer;
  uint64_t a, b;      // state: value; event: type, value; communication: size, tag
  uint64_t la, lb;    // communication: logical send, logical receive
};

struct Thread {
  ContainerId container;
  uint32_t appl, task, index;  // 1-based, as the records name them
  uint32_t cpu;
};

class Writer {
 public:
  explicit Writer(const Trace& t) : t_(t) {}
  WriteStats Run(std::FILE* prv, std::FILE* pcf, std::FILE* row);

 private:
  uint64_t Ticks(double t) const;
  std::string_view Extra(const EntityStore& s, size_t i, std::string_view name) const;
  void Plan();

  const Trace& t_;
  WriteStats stats_;
  bool keep_ticks_ = false;  // ns, µs or ms whole ticks: written as they are
  double offset_ = 0;        // model times below 0 are moved to 0
  std::vector<uint32_t> thread_of_;  // per container: index into threads_ (kNone: not a thread)
  std::vector<Thread> threads_;      // grouped by application and task, in that order
  struct Appl {
    ContainerId container;  // kNone: the default application
    std::vector<ContainerId> tasks;
    std::vector<std::vector<uint32_t>> threads;  // per task
  };
  std::vector<Appl> appls_;
};

uint64_t Writer::Ticks(double t) const {
  if (keep_ticks_) return static_cast<uint64_t>(std::llround(t - offset_));
  return static_cast<uint64_t>(DurationNanoseconds(t_.time_base(), t - offset_));
}

std::string_view Writer::Extra(const EntityStore& s, size_t i, std::string_view name) const {
  std::string_view out;
  s.extras.ForEach(i, [&](const ExtraField& f) {
    if (t_.Str(f.name) == name) out = t_.Str(f.value);
  });
  return out;
}

void Writer::Plan() {
  const size_t n = t_.containers().size();
  std::vector<bool> row(n, false);
  for (const EntityStore& s : t_.stores()) {
    if (s.size() == 0) continue;
    if (s.kind == TypeKind::kState || s.kind == TypeKind::kEvent) row[s.container] = true;
    if (s.kind == TypeKind::kLink)
      for (size_t i = 0; i < s.size(); ++i)
        for (ContainerId c : {s.peer_start[i], s.peer_end[i]})
          if (c != kNone) row[c] = true;
  }
  for (ContainerId c = 1; c < n; ++c)
    if (t_.container(c).children.empty()) row[c] = true;
  auto up = [&](ContainerId c) {
    return c == kRootContainer || t_.container(c).parent == kRootContainer ? c : t_.container(c).parent;
  };
  std::unordered_map<ContainerId, uint32_t> appl_index, task_index;
  std::vector<std::pair<uint32_t, uint32_t>> place(n);  // per thread container: appl, task (0-based)
  for (ContainerId c = 0; c < n; ++c) {
    if (!row[c]) continue;
    const ContainerId task = up(c);
    const ContainerId appl = task == kRootContainer || t_.container(task).parent == kRootContainer ? kNone : up(task);
    auto [a, new_appl] = appl_index.emplace(appl, static_cast<uint32_t>(appls_.size()));
    if (new_appl) appls_.push_back({appl, {}, {}});
    Appl& A = appls_[a->second];
    auto [k, new_task] = task_index.emplace(task, static_cast<uint32_t>(A.tasks.size()));
    if (new_task) {
      A.tasks.push_back(task);
      A.threads.emplace_back();
    }
    A.threads[k->second].push_back(c);
  }
  thread_of_.assign(n, kNone);
  for (uint32_t a = 0; a < appls_.size(); ++a)
    for (uint32_t k = 0; k < appls_[a].tasks.size(); ++k)
      for (uint32_t i = 0; i < appls_[a].threads[k].size(); ++i) {
        thread_of_[appls_[a].threads[k][i]] = static_cast<uint32_t>(threads_.size());
        threads_.push_back({appls_[a].threads[k][i], a + 1, k + 1, i + 1, static_cast<uint32_t>(threads_.size() + 1)});
      }
  stats_.threads = threads_.size();
}

// Throws when the stream failed.
void Check(std::FILE* f, const char* what) {
  if (std::ferror(f)) throw UserError(std::string("cannot write the Paraver ") + what + ": " + std::strerror(errno));
}

// A name on one line of the .pcf or .row.
std::string OneLine(std::string_view s) {
  std::string out(s);
  std::replace(out.begin(), out.end(), '\n', ' ');
  std::replace(out.begin(), out.end(), '\r', ' ');
  return out;
}

WriteStats Writer::Run(std::FILE* prv, std::FILE* pcf, std::FILE* row) {
  const TimeBase& base = t_.time_base();
  keep_ticks_ = base.whole_ticks && base.num == 1 && (base.den == 1000000000 || base.den == 1000000 || base.den == 1000);
  const char* unit = !keep_ticks_ || base.den == 1000000000 ? "ns" : base.den == 1000000 ? "us" : "ms";
  offset_ = std::min(0.0, t_.start_time());
  Plan();

  // Numbers for every name, declared aliases first.
  Numbering states, types;
  std::unordered_map<TypeId, Numbering> values;
  for (const EntityValue& v : t_.values()) {
    const TypeKind kind = t_.type(v.type).kind;
    if (kind == TypeKind::kState) states.Prefer(v.name, t_.Str(v.alias));
    if (kind == TypeKind::kEvent) values[v.type].Prefer(v.name, t_.Str(v.alias));
  }
  for (TypeId ty = 1; ty < t_.types().size(); ++ty)
    if (t_.type(ty).kind == TypeKind::kEvent) types.Prefer(ty, t_.Str(t_.type(ty).alias));  // by id: names may repeat
  std::unordered_map<TypeId, uint64_t> type_number;
  std::map<uint64_t, TypeId> type_of_number;
  Numbering tags;

  std::vector<Record> records;
  for (const EntityStore& s : t_.stores()) {
    if (s.size() == 0) continue;
    const uint32_t th = thread_of_[s.container];
    switch (s.kind) {
      case TypeKind::kState:
        for (size_t i = 0; i < s.size(); ++i)
          records.push_back({Ticks(s.start[i]), s.level[i], Ticks(s.end[i]), '1', th, 0,
                             states.Of(s.value[i], t_.Str(s.value[i])), 0, 0, 0});
        stats_.states += s.size();
        break;
      case TypeKind::kEvent: {
        auto [it, added] = type_number.emplace(s.type, 0);
        if (added) {
          it->second = types.Of(s.type, t_.Str(t_.type(s.type).name));
          type_of_number[it->second] = s.type;
        }
        Numbering& v = values[s.type];
        for (size_t i = 0; i < s.size(); ++i)
          records.push_back({Ticks(s.start[i]), 0, 0, '2', th, 0, it->second, v.Of(s.value[i], t_.Str(s.value[i])), 0, 0});
        stats_.events += s.size();
        break;
      }
      case TypeKind::kLink:
        for (size_t i = 0; i < s.size(); ++i) {
          if (s.peer_start[i] == kNone || s.peer_end[i] == kNone) continue;
          const uint64_t send = Ticks(s.start[i]), recv = Ticks(s.end[i]);
          uint64_t lsend = send, lrecv = recv, size = 0;
          if (keep_ticks_) {  // logical times are ticks of the same clock
            ParseUnsigned(Extra(s, i, "logical_send"), lsend);
            ParseUnsigned(Extra(s, i, "logical_recv"), lrecv);
          }
          ParseUnsigned(Extra(s, i, "size"), size);
          records.push_back({send, 0, recv, '3', thread_of_[s.peer_start[i]], thread_of_[s.peer_end[i]], size,
                             tags.Of(s.value[i], t_.Str(s.value[i])), lsend, lrecv});
          stats_.communications++;
        }
        break;
      case TypeKind::kVariable:
        stats_.variables += s.size();
        break;
      case TypeKind::kContainer:
        break;
    }
  }
  // Time order; a parent state before the states nested in it.
  std::stable_sort(records.begin(), records.end(), [](const Record& a, const Record& b) {
    if (a.time != b.time) return a.time < b.time;
    return a.kind == '1' && b.kind == '1' && a.level < b.level;
  });

  // Header: one node holding one CPU per thread.
  uint64_t duration = Ticks(std::max(t_.end_time(), t_.start_time()));
  for (const Record& r : records) duration = std::max({duration, r.time, r.end});
  char date[32] = "01/01/70 at 00:00";
  if (base.epoch_ns) {
    const std::time_t seconds = static_cast<std::time_t>(*base.epoch_ns / 1000000000);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    std::strftime(date, sizeof date, "%d/%m/%y at %H:%M", &tm);
  }
  std::fprintf(prv, "#Paraver (%s):%" PRIu64 "_%s:1(%zu):%zu", date, duration, unit, std::max<size_t>(threads_.size(), 1),
               appls_.size());
  std::vector<std::vector<std::pair<std::string, std::string>>> communicators(appls_.size());
  for (size_t a = 0; a < appls_.size(); ++a) {
    std::fprintf(prv, ":%zu(", appls_[a].tasks.size());
    for (size_t k = 0; k < appls_[a].tasks.size(); ++k)
      std::fprintf(prv, "%s%zu:1", k ? "," : "", appls_[a].threads[k].size());
    if (appls_[a].container != kNone)
      for (const ExtraField& f : t_.container(appls_[a].container).extras) {
        const std::string_view name = t_.Str(f.name);
        uint64_t id = 0;
        if (name.starts_with("communicator_") && ParseUnsigned(name.substr(13), id))
          communicators[a].emplace_back(std::string(name.substr(13)), std::string(t_.Str(f.value)));
      }
    std::fprintf(prv, ")");
    if (!communicators[a].empty()) std::fprintf(prv, ",%zu", communicators[a].size());
  }
  std::fprintf(prv, "\n");
  for (size_t a = 0; a < appls_.size(); ++a)
    for (const auto& [id, tasks] : communicators[a]) {
      std::string list;
      size_t count = 0;
      for (size_t from = 0; from < tasks.size();) {
        size_t space = tasks.find(' ', from);
        if (space == std::string::npos) space = tasks.size();
        if (space > from) {
          list += ":" + tasks.substr(from, space - from);
          ++count;
        }
        from = space + 1;
      }
      std::fprintf(prv, "c:%zu:%s:%zu%s\n", a + 1, id.c_str(), count, list.c_str());
    }
  for (const Record& r : records) {
    const Thread& t = threads_[r.thread];
    std::fprintf(prv, "%c:%u:%u:%u:%u:", r.kind, t.cpu, t.appl, t.task, t.index);
    if (r.kind == '1') {
      std::fprintf(prv, "%" PRIu64 ":%" PRIu64 ":%" PRIu64 "\n", r.time, r.end, r.a);
    } else if (r.kind == '2') {
      std::fprintf(prv, "%" PRIu64 ":%" PRIu64 ":%" PRIu64 "\n", r.time, r.a, r.b);
    } else {
      const Thread& p = threads_[r.peer];
      std::fprintf(prv, "%" PRIu64 ":%" PRIu64 ":%u:%u:%u:%u:%" PRIu64 ":%" PRIu64 ":%" PRIu64 ":%" PRIu64 "\n", r.la,
                   r.time, p.cpu, p.appl, p.task, p.index, r.lb, r.end, r.a, r.b);
    }
  }
  Check(prv, ".prv");

  // .pcf: the names of states, their colours, event types and values.
  std::fprintf(pcf, "DEFAULT_OPTIONS\n\nLEVEL               THREAD\nUNITS               %s\n\n",
               std::string_view(unit) == "ns" ? "NANOSEC" : std::string_view(unit) == "us" ? "MICROSEC" : "MILLISEC");
  std::unordered_map<StringId, StringId> state_colors;
  for (const EntityValue& v : t_.values())
    if (t_.type(v.type).kind == TypeKind::kState && v.color != kEmptyString) state_colors.emplace(v.name, v.color);
  std::fprintf(pcf, "STATES\n");
  for (const auto& [number, name] : states.names()) std::fprintf(pcf, "%" PRIu64 "    %s\n", number, OneLine(t_.Str(static_cast<StringId>(name))).c_str());
  std::fprintf(pcf, "\nSTATES_COLOR\n");
  for (const auto& [number, name] : states.names()) {
    std::string color;
    if (auto it = state_colors.find(static_cast<StringId>(name)); it != state_colors.end() && ParaverColor(t_.Str(it->second), color))
      std::fprintf(pcf, "%" PRIu64 "    %s\n", number, color.c_str());
  }
  for (const auto& [number, type] : type_of_number) {
    std::fprintf(pcf, "\n\nEVENT_TYPE\n0    %" PRIu64 "    %s\n", number, OneLine(t_.Str(t_.type(type).name)).c_str());
    std::fprintf(pcf, "VALUES\n");
    for (const auto& [value, name] : values[type].names())
      std::fprintf(pcf, "%" PRIu64 "    %s\n", value, OneLine(t_.Str(static_cast<StringId>(name))).c_str());
  }
  Check(pcf, ".pcf");

  // .row: the names of applications, tasks and threads.
  auto name_of = [&](ContainerId c, const std::string& fallback) {
    return c == kNone ? fallback : OneLine(t_.Str(t_.container(c).name));
  };
  std::fprintf(row, "LEVEL APPL SIZE %zu\n", appls_.size());
  for (size_t a = 0; a < appls_.size(); ++a)
    std::fprintf(row, "%s\n", name_of(appls_[a].container, "APPL " + std::to_string(a + 1)).c_str());
  size_t ntasks = 0;
  for (const Appl& a : appls_) ntasks += a.tasks.size();
  std::fprintf(row, "\nLEVEL TASK SIZE %zu\n", ntasks);
  for (const Appl& a : appls_)
    for (ContainerId k : a.tasks) std::fprintf(row, "%s\n", name_of(k, "").c_str());
  std::fprintf(row, "\nLEVEL THREAD SIZE %zu\n", threads_.size());
  for (const Thread& t : threads_) std::fprintf(row, "%s\n", name_of(t.container, "").c_str());
  Check(row, ".row");
  return stats_;
}

}  // namespace

WriteStats WriteParaver(const Trace& trace, std::FILE* prv, std::FILE* pcf, std::FILE* row) {
  return Writer(trace).Run(prv, pcf, row);
}

WriteStats WriteParaverFiles(const Trace& trace, const std::string& prv) {
  AtomicFile p(prv), c(CompanionFile(prv, "pcf")), r(CompanionFile(prv, "row"));
  WriteStats stats = WriteParaver(trace, p.stream(), c.stream(), r.stream());
  c.Commit();
  r.Commit();
  p.Commit();
  return stats;
}

}  // namespace macroscope::paraver
