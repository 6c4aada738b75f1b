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

#include "formats/paraver/paraver_cpus.h"
#include "formats/paraver/paraver_lines.h"
#include "formats/paraver/paraver_names.h"
#include "formats/paraver/paraver_reader.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace macroscope::paraver {

namespace {

// More names than this in one kept .row level is taken for a damaged field.
constexpr uint64_t kMaxRowNames = uint64_t{1} << 24;

// Numbers for the things Paraver numbers (state values, event types, event
// values, tags; keys: their name's StringId, or a TypeId): a declared numeric
// alias first, then the name itself when it is a free number, then the next
// free number from 1. Numbers are kept as their decimal text: event values
// and tags may be negative or beyond INT64_MAX; states and types may not.
class Numbering {
 public:
  explicit Numbering(bool negative = false) : negative_(negative) {}
  void Prefer(uint64_t name, std::string_view alias) {
    std::string n;
    if (!numbers_.count(name) && Parse(alias, n) && !names_.count(n)) Assign(name, std::move(n));
  }
  // The number of `name` (whose text is `text`); the view lives as long as this.
  std::string_view Of(uint64_t name, std::string_view text) {
    if (auto it = numbers_.find(name); it != numbers_.end()) return it->second;
    std::string n;
    if (!Parse(text, n) || names_.count(n)) {
      while (names_.count(std::to_string(next_))) ++next_;
      n = std::to_string(next_);
    }
    return Assign(name, std::move(n));
  }
  // Canonical decimal texts in numeric order.
  struct NumericOrder {
    bool operator()(const std::string& a, const std::string& b) const {
      const bool na = a.starts_with('-'), nb = b.starts_with('-');
      if (na != nb) return na;
      if (a.size() != b.size()) return na ? a.size() > b.size() : a.size() < b.size();
      return na ? a > b : a < b;
    }
  };
  const std::map<std::string, uint64_t, NumericOrder>& names() const { return names_; }  // number -> key

 private:
  bool Parse(std::string_view text, std::string& n) const {
    return ParseInteger(text, n) && (negative_ || !n.starts_with('-'));
  }
  std::string_view Assign(uint64_t name, std::string n) {
    names_[n] = name;
    return numbers_.emplace(name, std::move(n)).first->second;  // node-based: the text stays put
  }
  bool negative_;
  std::unordered_map<uint64_t, std::string> numbers_;
  std::map<std::string, uint64_t, NumericOrder> names_;
  uint64_t next_ = 1;
};

// One line of the .prv. Numbers other than times are texts (views into the
// trace's strings or into a Numbering), as Paraver's may be negative.
struct Record {
  uint64_t time;    // the record's own: a state's begin, a communication's logical send
  uint64_t end;     // states: end; communications: physical receive
  uint64_t la, lb;  // communications: physical send, logical receive
  uint32_t thread, peer;
  uint64_t cpu, peer_cpu;
  uint16_t level;   // states: nesting level, so that a parent comes before its children
  char kind;        // '1', '2', '3', '4'
  // state: value; event: type, value; communication: size, tag;
  // global operation: communicator, send size, receive size, operation, root
  std::string_view text[5];
};

struct Thread {
  ContainerId container;
  uint32_t appl, task, index;  // 1-based, as the records name them
  uint64_t cpu;                // its records' CPU by default
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

// The text of an integer user field, or "0" when it has none.
std::string_view IntegerOr0(std::string_view field, std::string& scratch) {
  return ParseInteger(field, scratch) && scratch == field ? field : std::string_view("0");
}

WriteStats Writer::Run(std::FILE* prv, std::FILE* pcf, std::FILE* row) {
  const TimeBase& base = t_.time_base();
  keep_ticks_ =
      base.whole_ticks && base.num == 1 && (base.den == 1000000000 || base.den == 1000000 || base.den == 1000);
  const char* unit = !keep_ticks_ || base.den == 1000000000 ? "ns" : base.den == 1000000 ? "us" : "ms";
  offset_ = std::min(0.0, t_.start_time());
  Plan();

  // The resources: the ones a Paraver trace was read with (the root's user
  // field "nodes", the tasks' "node"), else one node holding one CPU per
  // thread.
  std::string nodes = "1(" + std::to_string(std::max<size_t>(threads_.size(), 1)) + ")";
  std::vector<uint64_t> node_cpus;
  bool kept_nodes = false;
  std::vector<std::pair<std::string, std::string>> levels;  // "CPU 3" -> name: the .row's other levels
  std::string kept_date;
  for (const ExtraField& f : t_.container(kRootContainer).extras) {
    const std::string_view name = t_.Str(f.name);
    if (name == "date" && t_.Str(f.value).find_first_of(")\n\r") == std::string_view::npos)
      kept_date = t_.Str(f.value);
    if (name == "nodes" && NodeCpus(t_.Str(f.value), node_cpus)) {
      nodes = t_.Str(f.value);
      kept_nodes = true;
    }
    const size_t space = name.find(' ');
    uint64_t index = 0;
    if (space != std::string_view::npos && space > 0 && ParseUnsigned(name.substr(space + 1), index) &&
        std::all_of(name.begin(), name.begin() + space, [](char c) { return (c >= 'A' && c <= 'Z') || c == '_'; }))
      levels.emplace_back(std::string(name), std::string(t_.Str(f.value)));
  }
  // Each task's node; each thread's records name by default a CPU of its
  // task's node (paraver_cpus.h), and the CPU the reader kept when it was
  // another (the entity's user field "cpu", "cpu_send", "cpu_recv").
  std::vector<std::vector<uint64_t>> task_node(appls_.size());
  if (kept_nodes) {
    const StringId node_field = t_.strings().Find("node");
    CpuLayout layout(node_cpus);
    for (size_t a = 0; a < appls_.size(); ++a)
      for (size_t k = 0; k < appls_[a].tasks.size(); ++k) {
        uint64_t node = node_cpus.empty() ? 0 : 1;  // "0": no nodes described, tasks on node 0
        if (node_field != StringPool::kNoId && appls_[a].tasks[k] != kNone)
          for (const ExtraField& f : t_.container(appls_[a].tasks[k]).extras)
            if (f.name == node_field) ParseUnsigned(t_.Str(f.value), node);
        task_node[a].push_back(node);
        for (uint32_t th : appls_[a].threads[k]) threads_[thread_of_[th]].cpu = layout.Next(node);
      }
  }
  // A record's CPU: the one the reader kept, else its thread's.
  auto cpu_of = [&](const EntityStore& s, size_t i, std::string_view field, uint32_t thread) {
    uint64_t cpu = threads_[thread].cpu;
    if (kept_nodes && !s.extras.empty()) ParseUnsigned(Extra(s, i, field), cpu);
    return cpu;
  };

  // Numbers for every name, declared aliases first.
  Numbering states, types, operations;
  std::unordered_map<TypeId, Numbering> values;
  for (const EntityValue& v : t_.values()) {
    const TypeKind kind = t_.type(v.type).kind;
    if (kind == TypeKind::kState) states.Prefer(v.name, t_.Str(v.alias));
    if (kind == TypeKind::kEvent) values.try_emplace(v.type, true).first->second.Prefer(v.name, t_.Str(v.alias));
  }
  for (TypeId ty = 1; ty < t_.types().size(); ++ty)
    if (t_.type(ty).kind == TypeKind::kEvent) types.Prefer(ty, t_.Str(t_.type(ty).alias));  // by id: names may repeat
  std::unordered_map<TypeId, std::string_view> type_number;
  std::map<std::string, TypeId, Numbering::NumericOrder> type_of_number;
  Numbering tags(true);
  std::string scratch;

  std::vector<Record> records;
  for (const EntityStore& s : t_.stores()) {
    if (s.size() == 0) continue;
    const uint32_t th = thread_of_[s.container];
    switch (s.kind) {
      case TypeKind::kState:
        for (size_t i = 0; i < s.size(); ++i) {
          Record r{Ticks(s.start[i]), Ticks(s.end[i]), 0, 0, th, 0, cpu_of(s, i, "cpu", th), 0, s.level[i], '1', {}};
          r.text[0] = states.Of(s.value[i], t_.Str(s.value[i]));
          records.push_back(r);
        }
        stats_.states += s.size();
        break;
      case TypeKind::kEvent: {
        // Global operations (record 4) come back from the type the reader gives them.
        if (t_.Str(t_.type(s.type).alias) == "GLOBAL_OP") {
          for (size_t i = 0; i < s.size(); ++i) {
            Record r{Ticks(s.start[i]), 0, 0, 0, th, 0, cpu_of(s, i, "cpu", th), 0, 0, '4', {}};
            uint64_t communicator = 0;
            const std::string_view c = Extra(s, i, "communicator");
            r.text[0] = ParseUnsigned(c, communicator) && std::to_string(communicator) == c ? c : "0";
            r.text[1] = IntegerOr0(Extra(s, i, "send_size"), scratch);
            r.text[2] = IntegerOr0(Extra(s, i, "recv_size"), scratch);
            r.text[3] = operations.Of(s.value[i], t_.Str(s.value[i]));
            r.text[4] = IntegerOr0(Extra(s, i, "root"), scratch);
            records.push_back(r);
          }
          stats_.global_operations += s.size();
          break;
        }
        auto [it, added] = type_number.emplace(s.type, std::string_view());
        if (added) {
          it->second = types.Of(s.type, t_.Str(t_.type(s.type).name));
          type_of_number[std::string(it->second)] = s.type;
        }
        Numbering& v = values.try_emplace(s.type, true).first->second;
        for (size_t i = 0; i < s.size(); ++i) {
          Record r{Ticks(s.start[i]), 0, 0, 0, th, 0, cpu_of(s, i, "cpu", th), 0, 0, '2', {}};
          r.text[0] = it->second;
          r.text[1] = v.Of(s.value[i], t_.Str(s.value[i]));
          records.push_back(r);
        }
        stats_.events += s.size();
        break;
      }
      case TypeKind::kLink:
        for (size_t i = 0; i < s.size(); ++i) {
          if (s.peer_start[i] == kNone || s.peer_end[i] == kNone) continue;
          const uint64_t send = Ticks(s.start[i]), recv = Ticks(s.end[i]);
          uint64_t lsend = send, lrecv = recv;
          if (keep_ticks_) {  // logical times are ticks of the same clock
            ParseUnsigned(Extra(s, i, "logical_send"), lsend);
            ParseUnsigned(Extra(s, i, "logical_recv"), lrecv);
          }
          const uint32_t from = thread_of_[s.peer_start[i]], to = thread_of_[s.peer_end[i]];
          Record r{lsend, recv, send, lrecv, from, to, cpu_of(s, i, "cpu_send", from), cpu_of(s, i, "cpu_recv", to),
                   0, '3', {}};
          r.text[0] = IntegerOr0(Extra(s, i, "size"), scratch);
          r.text[1] = tags.Of(s.value[i], t_.Str(s.value[i]));
          records.push_back(r);
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
  // Time order (each record's own time: a communication's logical send, as
  // Paraver orders them); a parent state before the states nested in it.
  std::stable_sort(records.begin(), records.end(), [](const Record& a, const Record& b) {
    if (a.time != b.time) return a.time < b.time;
    return a.kind == '1' && b.kind == '1' && a.level < b.level;
  });

  // Header, as Paraver's tools write it: the applications separated by ','
  // and the count of communicators after the last one.
  uint64_t duration = Ticks(std::max(t_.end_time(), t_.start_time()));
  for (const Record& r : records) duration = std::max({duration, r.time, r.end, r.la});
  std::string date = kept_date.empty() ? "01/01/70 at 00:00" : kept_date;
  if (kept_date.empty() && base.epoch_ns) {
    const std::time_t seconds = static_cast<std::time_t>(*base.epoch_ns / 1000000000);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%d/%m/%y at %H:%M", &tm);
    date = text;
  }
  std::fprintf(prv, "#Paraver (%s):%" PRIu64 "_%s:%s:%zu:", date.c_str(), duration, unit, nodes.c_str(),
               appls_.size());
  std::vector<std::string> communicators;  // the c: and i: lines
  for (size_t a = 0; a < appls_.size(); ++a) {
    std::fprintf(prv, "%s%zu(", a ? "," : "", appls_[a].tasks.size());
    for (size_t k = 0; k < appls_[a].tasks.size(); ++k)
      std::fprintf(prv, "%s%zu:%" PRIu64, k ? "," : "", appls_[a].threads[k].size(),
                   kept_nodes ? task_node[a][k] : 1);
    std::fprintf(prv, ")");
    if (appls_[a].container == kNone) continue;
    for (const ExtraField& f : t_.container(appls_[a].container).extras) {
      const std::string_view name = t_.Str(f.name), value = t_.Str(f.value);
      uint64_t id = 0;
      const bool inter = name.starts_with("intercommunicator_");
      const std::string_view number = name.substr(inter ? 18 : 13);
      if (!(inter || name.starts_with("communicator_")) || !ParseUnsigned(number, id)) continue;
      std::string line = (inter ? "i:" : "c:") + std::to_string(a + 1) + ":" + std::string(number);
      size_t count = 0;
      std::string list;
      for (size_t from = 0; from < value.size();) {
        size_t space = value.find(' ', from);
        if (space == std::string_view::npos) space = value.size();
        if (space > from) {
          list += ":" + std::string(value.substr(from, space - from));
          ++count;
        }
        from = space + 1;
      }
      if (inter && count != 4) continue;  // not one the reader gave
      communicators.push_back(line + (inter ? "" : ":" + std::to_string(count)) + list);
    }
  }
  if (!communicators.empty()) std::fprintf(prv, ",%zu", communicators.size());
  std::fprintf(prv, "\n");
  for (const std::string& line : communicators) std::fprintf(prv, "%s\n", line.c_str());
  auto text = [](std::string_view v) { return static_cast<int>(v.size()); };
  for (const Record& r : records) {
    const Thread& t = threads_[r.thread];
    std::fprintf(prv, "%c:%" PRIu64 ":%u:%u:%u:", r.kind, r.cpu, t.appl, t.task, t.index);
    if (r.kind == '1') {
      std::fprintf(prv, "%" PRIu64 ":%" PRIu64 ":%.*s\n", r.time, r.end, text(r.text[0]), r.text[0].data());
    } else if (r.kind == '2') {
      std::fprintf(prv, "%" PRIu64 ":%.*s:%.*s\n", r.time, text(r.text[0]), r.text[0].data(), text(r.text[1]),
                   r.text[1].data());
    } else if (r.kind == '3') {
      const Thread& p = threads_[r.peer];
      std::fprintf(prv, "%" PRIu64 ":%" PRIu64 ":%" PRIu64 ":%u:%u:%u:%" PRIu64 ":%" PRIu64 ":%.*s:%.*s\n",
                   r.time, r.la, r.peer_cpu, p.appl, p.task, p.index, r.lb, r.end, text(r.text[0]),
                   r.text[0].data(), text(r.text[1]), r.text[1].data());
    } else {
      std::fprintf(prv, "%" PRIu64, r.time);
      for (std::string_view v : r.text) std::fprintf(prv, ":%.*s", text(v), v.data());
      std::fprintf(prv, "\n");
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
  for (const auto& [number, name] : states.names())
    std::fprintf(pcf, "%s    %s\n", number.c_str(), OneLine(t_.Str(static_cast<StringId>(name))).c_str());
  std::fprintf(pcf, "\nSTATES_COLOR\n");
  for (const auto& [number, name] : states.names()) {
    std::string color;
    if (auto it = state_colors.find(static_cast<StringId>(name));
        it != state_colors.end() && ParaverColor(t_.Str(it->second), color))
      std::fprintf(pcf, "%s    %s\n", number.c_str(), color.c_str());
  }
  for (const auto& [number, type] : type_of_number) {
    std::fprintf(pcf, "\n\nEVENT_TYPE\n0    %s    %s\n", number.c_str(), OneLine(t_.Str(t_.type(type).name)).c_str());
    std::fprintf(pcf, "VALUES\n");
    for (const auto& [value, name] : values.at(type).names())
      std::fprintf(pcf, "%s    %s\n", value.c_str(), OneLine(t_.Str(static_cast<StringId>(name))).c_str());
  }
  Check(pcf, ".pcf");

  // .row: the names of applications, tasks and threads, then the levels
  // kept from a Paraver trace (CPU, NODE, SYSTEM, WORKLOAD...).
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
  std::map<std::string, std::map<uint64_t, std::string>> other;  // level -> index -> name
  for (const auto& [field, name] : levels) {
    const size_t space = field.find(' ');
    const std::string level = field.substr(0, space);
    if (level == "APPL" || level == "TASK" || level == "THREAD") continue;
    uint64_t index = 0;
    ParseUnsigned(std::string_view(field).substr(space + 1), index);
    if (index > 0 && index <= kMaxRowNames) other[level][index] = OneLine(name);
  }
  for (const auto& [level, names] : other) {
    std::fprintf(row, "\nLEVEL %s SIZE %" PRIu64 "\n", level.c_str(), names.rbegin()->first);
    for (uint64_t i = 1; i <= names.rbegin()->first; ++i) {
      auto it = names.find(i);
      std::fprintf(row, "%s\n", it == names.end() ? "" : it->second.c_str());
    }
  }
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
