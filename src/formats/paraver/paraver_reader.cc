#include "formats/paraver/paraver_reader.h"

#include <sys/stat.h>

#include <algorithm>
#include <climits>
#include <limits>
#include <functional>
#include <memory>
#include <queue>
#include <unordered_map>
#include <vector>

#include "formats/paraver/paraver_cpus.h"
#include "formats/paraver/paraver_lines.h"
#include "formats/paraver/paraver_names.h"
#include "util/error.h"
#include "util/mapped_file.h"

namespace macroscope::paraver {

namespace {

using paje::SimulationError;
using paje::Simulator;

// More objects than this in a header is taken for a damaged one: each
// thread becomes a container before the first record is read.
constexpr uint64_t kMaxThreads = uint64_t{1} << 20;

struct Task {
  uint64_t threads = 0;
  uint64_t node = 0;
};

struct Header {
  uint64_t duration = 0;
  TimeBase base;
  std::string date;                      // as written: "26/01/04 at 16:35"
  std::string nodes;                     // the header's field, as written: "0", "4", "2(4,2)"
  std::vector<std::vector<Task>> appls;  // per application, its tasks
  uint64_t communicators = 0;            // announced: the c: and i: lines that follow
};

// "N(list)" -> N and list; "N" alone -> N and an empty list. `rest`: what
// follows the closing parenthesis.
bool CountAndList(std::string_view s, uint64_t& count, std::string_view& list, std::string_view& rest) {
  const size_t open = s.find('(');
  if (open == std::string_view::npos) {
    list = rest = {};
    return ParseUnsigned(s, count);
  }
  const size_t close = s.find(')', open);
  if (close == std::string_view::npos || !ParseUnsigned(s.substr(0, open), count)) return false;
  list = s.substr(open + 1, close - open - 1);
  rest = s.substr(close + 1);
  return true;
}

// The digits at the start of `s`.
std::string_view LeadingDigits(std::string_view s) {
  size_t n = 0;
  while (n < s.size() && s[n] >= '0' && s[n] <= '9') ++n;
  return s.substr(0, n);
}

// #Paraver (date):duration[_unit]:nodes:nAppl:appl...[,nCommunicators]
// nodes: "0" (no resource description), "N" (N nodes of one CPU each) or
// "N(cpus,...)"; appl: nTasks(threads:node,...). Paraver's tools write the
// applications separated by ',' and the count of communicators after the
// last one (Extrae, Dimemas, the kernel's own writer); older traces (and
// older versions of ours) separate them by ':' and may give each its own
// count. All the forms are read; the counts add up.
Header ParseHeader(std::string_view line, const std::string& file) {
  auto fail = [&](const std::string& what) { ThrowAt(file, 1, "Paraver header: " + what); };
  Header h;
  const std::string_view dated = line.starts_with("#Paraver") ? Trim(line.substr(8)) : std::string_view();
  const size_t close = dated.find(')');
  if (!dated.starts_with('(') || close == std::string_view::npos || close + 1 >= dated.size() ||
      dated[close + 1] != ':')
    fail("expected '#Paraver (date):duration:nodes:applications'");
  h.date = dated.substr(1, close - 1);
  std::string_view rest = Trim(dated.substr(close + 2));
  // The next field, up to ':' (the nodes' field holds none).
  auto next_field = [&](const char* what) {
    const size_t colon = rest.find(':');
    if (colon == std::string_view::npos) fail(std::string("expected ") + what + " and the applications after the date");
    const std::string_view field = rest.substr(0, colon);
    rest = rest.substr(colon + 1);
    return field;
  };

  // Duration and unit. Without a unit Paraver reads microseconds.
  const std::string_view duration_field = next_field("the duration, the nodes");
  std::string_view duration = duration_field;
  h.base = {.num = 1, .den = 1000000, .whole_ticks = true, .origin = 0, .epoch_ns = std::nullopt};
  if (const size_t u = duration.find('_'); u != std::string_view::npos) {
    const std::string_view unit = duration.substr(u + 1);
    if (unit == "ns") h.base.den = 1000000000;
    else if (unit == "us") h.base.den = 1000000;
    else if (unit == "ms") h.base.den = 1000;
    else fail("unknown time unit '" + std::string(unit) + "' (ns, us or ms)");
    duration = duration.substr(0, u);
  }
  if (!ParseUnsigned(duration, h.duration)) fail("the duration '" + std::string(duration_field) + "' is not a number");
  CheckWholeTicks(static_cast<int64_t>(std::min<uint64_t>(h.duration, INT64_MAX)), file + ":1");

  const std::string_view nodes_field = next_field("the nodes, the number of applications");
  uint64_t nodes = 0;
  std::string_view list, after;
  if (!CountAndList(nodes_field, nodes, list, after) || !after.empty())
    fail("expected nodes as N(cpus,...), N or 0, not '" + std::string(nodes_field) + "'");
  if (nodes > kMaxNodes) fail("more than " + std::to_string(kMaxNodes) + " nodes");
  if (nodes_field.find('(') != std::string_view::npos) {
    uint64_t cpus = 0, given = 0;
    for (size_t from = 0;; ++given) {
      const size_t comma = list.find(',', from);
      const std::string_view c = list.substr(from, comma - from);
      if (!ParseUnsigned(c, cpus)) fail("the CPUs of a node '" + std::string(c) + "' are not a number");
      if (cpus > kMaxNodes) fail("more than " + std::to_string(kMaxNodes) + " CPUs in a node");
      if (comma == std::string_view::npos) break;
      from = comma + 1;
    }
    if (given + 1 != nodes)
      fail("nodes announced " + std::to_string(nodes) + ", CPUs given for " + std::to_string(given + 1));
  }
  h.nodes = nodes_field;

  const std::string_view appls_field = next_field("the number of applications");
  uint64_t appls = 0;
  if (!ParseUnsigned(appls_field, appls))
    fail("the number of applications '" + std::string(appls_field) + "' is not a number");
  uint64_t threads = 0;
  for (uint64_t a = 0; a < appls; ++a) {
    if (rest.empty()) fail("announces " + std::to_string(appls) + " application(s) and describes " + std::to_string(a));
    uint64_t ntasks = 0;
    const size_t open = rest.find('('), shut = rest.find(')');
    if (open == std::string_view::npos || shut == std::string_view::npos || shut < open ||
        !ParseUnsigned(rest.substr(0, open), ntasks) || shut == open + 1)
      fail("expected an application as nTasks(threads:node,...), not '" + std::string(rest) + "'");
    std::vector<Task>& tasks = h.appls.emplace_back();
    const std::string_view described = rest.substr(open + 1, shut - open - 1);
    for (size_t from = 0;;) {
      const size_t comma = described.find(',', from);
      const std::string_view t = described.substr(from, comma - from);
      const size_t colon = t.find(':');
      Task task;
      if (colon == std::string_view::npos || !ParseUnsigned(t.substr(0, colon), task.threads) ||
          !ParseUnsigned(t.substr(colon + 1), task.node) || task.threads == 0)
        fail("expected a task as threads:node, not '" + std::string(t) + "'");
      threads += task.threads;
      if (threads > kMaxThreads) fail("more than " + std::to_string(kMaxThreads) + " threads");
      tasks.push_back(task);
      if (comma == std::string_view::npos) break;
      from = comma + 1;
    }
    if (tasks.size() != ntasks)
      fail("an application announces " + std::to_string(ntasks) + " task(s) and describes " +
           std::to_string(tasks.size()));
    rest = rest.substr(shut + 1);
    // ",N" counts communicators, unless an application follows ("N(...").
    if (rest.starts_with(',')) {
      const std::string_view digits = LeadingDigits(rest.substr(1));
      if (digits.empty())
        fail("expected ',<communicators>' or ',<application>' after an application, not '" + std::string(rest) + "'");
      if (rest.substr(1 + digits.size()).starts_with('(')) {
        rest = rest.substr(1);
        continue;
      }
      uint64_t count = 0;
      if (!ParseUnsigned(digits, count) || count > kMaxThreads * 16)
        fail("the number of communicators '" + std::string(digits) + "' is out of range");
      h.communicators += count;
      rest = rest.substr(1 + digits.size());
    }
    if (rest.starts_with(':') && a + 1 < appls) rest = rest.substr(1);
  }
  if (!rest.empty()) {
    if (rest.front() == ':' || rest.front() == ',' || (rest.front() >= '0' && rest.front() <= '9'))
      fail("announces " + std::to_string(appls) + " application(s) and describes more");
    fail("unexpected '" + std::string(rest) + "' after the applications");
  }
  return h;
}

struct OpenState {
  double end;
  bool open_ended;  // written with the end -1: it lasts until the thread's next state begins
};

// The later half of a communication (its physical receive, or its send
// when clocks are skewed and it is received "before" it is sent), handed
// to the simulator once the records have passed its time: records come in
// the order of their own time (the logical send), the halves in any order,
// and the simulator completes links in time order, as a time-ordered Pajé
// trace would give them.
struct PendingHalf {
  double time;
  uint64_t order;  // of the record, for halves at the same time
  bool is_start;
  uint32_t thread;
  StringId value, key;
  ExtraField fields[3];
  uint8_t field_count;
  bool operator>(const PendingHalf& o) const { return time != o.time ? time > o.time : order > o.order; }
};

class Importer {
 public:
  Importer(Trace& trace, const paje::SimulatorOptions& simulation, std::string file)
      : trace_(trace), sim_(trace, simulation), file_(std::move(file)) {}

  void Read(std::string_view prv, const PcfNames& pcf, const RowNames& row, const std::string& pcf_name,
            const std::string& row_name, MappedFile* mapped);
  ReadReport report;

 private:
  StringId S(std::string_view s) { return trace_.strings().Intern(s); }
  [[noreturn]] void Fail(const std::string& what) const { ThrowAt(file_, line_, what); }
  double Time(std::string_view field, const char* what);
  uint64_t Number(std::string_view field, const char* what);
  StringId Integer(std::string_view field, const char* what);
  uint32_t Thread(const std::vector<std::string_view>& f, size_t at);
  // Appends to `fields` the record's CPU (field f[at]) as `name` when it is
  // not the thread's by default (paraver_cpus.h); returns the count.
  uint8_t Cpu(const std::vector<std::string_view>& f, size_t at, uint32_t thread, const char* name,
              ExtraField* fields, uint8_t count);
  void Define(const PcfNames& pcf, const std::string& pcf_name);
  void CreateContainers(const RowNames& row, const std::string& row_name);
  StringId EventType(uint64_t type);
  void Communicator(const std::vector<std::string_view>& f);
  void Intercommunicator(const std::vector<std::string_view>& f);
  void Split(std::string_view line);  // into fields_, at every ':'
  void Record(std::string_view line);
  void State(const std::vector<std::string_view>& f);
  void GlobalOperation(const std::vector<std::string_view>& f);
  void PopUntil(uint32_t thread, double time);
  void CompleteUntil(double time);

  Trace& trace_;
  Simulator sim_;
  std::string file_;
  uint64_t line_ = 1;
  Header header_;
  const PcfNames* pcf_ = nullptr;
  std::string pcf_name_;
  std::vector<std::vector<uint32_t>> first_thread_;  // [appl][task] -> global index of its thread 1
  std::vector<StringId> thread_ids_;                  // global thread index -> container identifier
  std::vector<uint64_t> default_cpu_;                 // global thread index -> its records' CPU by default
  std::vector<std::vector<OpenState>> open_;          // global thread index -> states open, outermost first
  std::vector<std::vector<ExtraField>> communicators_;  // per application, before the containers exist
  std::unordered_map<uint64_t, StringId> event_types_;
  std::priority_queue<PendingHalf, std::vector<PendingHalf>, std::greater<>> pending_halves_;
  std::vector<std::string_view> fields_;
  std::string scratch_;
  double last_ = 0;
  uint64_t links_ = 0;
  StringId k_state_ = S("STATE"), k_comm_ = S("COMM"), k_root_ = S("0"), k_global_op_ = kEmptyString;
};

double Importer::Time(std::string_view field, const char* what) {
  uint64_t t = Number(field, what);
  CheckWholeTicks(static_cast<int64_t>(std::min<uint64_t>(t, INT64_MAX)), file_ + ":" + std::to_string(line_));
  const double time = static_cast<double>(t);
  last_ = std::max(last_, time);
  return time;
}

uint64_t Importer::Number(std::string_view field, const char* what) {
  uint64_t n = 0;
  if (!ParseUnsigned(field, n)) Fail(std::string("the ") + what + " '" + std::string(field) + "' is not a number");
  return n;
}

// A field Paraver reads as a signed integer (event values, sizes, tags), as its text.
StringId Importer::Integer(std::string_view field, const char* what) {
  if (!ParseInteger(field, scratch_))
    Fail(std::string("the ") + what + " '" + std::string(field) + "' is not a number");
  return S(scratch_);
}

uint8_t Importer::Cpu(const std::vector<std::string_view>& f, size_t at, uint32_t thread, const char* name,
                      ExtraField* fields, uint8_t count) {
  const uint64_t cpu = Number(f[at], "cpu");
  if (cpu != default_cpu_[thread]) fields[count++] = {S(name), S(std::to_string(cpu))};
  return count;
}

// The global index of the thread named by fields at, at+1, at+2 (appl, task, thread).
uint32_t Importer::Thread(const std::vector<std::string_view>& f, size_t at) {
  const uint64_t appl = Number(f[at], "application"), task = Number(f[at + 1], "task"),
                 thread = Number(f[at + 2], "thread");
  if (appl == 0 || appl > header_.appls.size()) Fail("no application " + std::to_string(appl) + " in the header");
  const auto& tasks = header_.appls[appl - 1];
  if (task == 0 || task > tasks.size())
    Fail("no task " + std::to_string(task) + " in application " + std::to_string(appl));
  if (thread == 0 || thread > tasks[task - 1].threads)
    Fail("no thread " + std::to_string(thread) + " in task " + std::to_string(appl) + "." + std::to_string(task));
  return first_thread_[appl - 1][task - 1] + static_cast<uint32_t>(thread - 1);
}

void Importer::Define(const PcfNames& pcf, const std::string& pcf_name) {
  pcf_ = &pcf;
  pcf_name_ = pcf_name;
  trace_.SetTimeBase(header_.base);  // known from the start: a sink sees it from the first hand-over
  sim_.DefineContainerType(k_root_, S("Application"), S("APPL"));
  sim_.DefineContainerType(S("APPL"), S("Task"), S("TASK"));
  sim_.DefineContainerType(S("TASK"), S("Thread"), S("THREAD"));
  sim_.DefineEntityType(TypeKind::kState, S("THREAD"), S("State"), k_state_, kEmptyString);
  sim_.DefineLinkType(k_root_, S("THREAD"), S("THREAD"), S("Communication"), k_comm_);
  for (const auto& [number, label] : pcf.states) {
    auto color = pcf.colors.find(number);
    try {
      sim_.DefineValue(k_state_, S(label.text), S(std::to_string(number)),
                       color == pcf.colors.end() ? kEmptyString : S(color->second));
    } catch (const SimulationError& e) {
      ThrowAt(pcf_name, label.line, e.what());
    }
  }
}

void Importer::CreateContainers(const RowNames& row, const std::string& row_name) {
  // Names from the .row when it has the level, else as Paraver shows them.
  auto names = [&](const char* level, size_t count) -> const std::vector<std::string>* {
    auto it = row.levels.find(level);
    if (it == row.levels.end()) return nullptr;
    if (it->second.names.size() != count)
      ThrowAt(row_name, it->second.line, "LEVEL " + std::string(level) + " names " +
                                             std::to_string(it->second.names.size()) + " object(s), the trace has " +
                                             std::to_string(count));
    return &it->second.names;
  };
  size_t ntasks = 0, nthreads = 0;
  for (const auto& tasks : header_.appls) {
    ntasks += tasks.size();
    for (const Task& t : tasks) nthreads += t.threads;
  }
  const auto* appl_names = names("APPL", header_.appls.size());
  const auto* task_names = names("TASK", ntasks);
  const auto* thread_names = names("THREAD", nthreads);
  // What has no container of its own (the header's date, its nodes, the
  // names of the .row's other levels: WORKLOAD, SYSTEM, NODE, CPU...) is
  // kept as user fields of the root container, which the writer reads back.
  auto& root = trace_.container(kRootContainer).extras;
  root.push_back({S("date"), S(header_.date)});
  root.push_back({S("nodes"), S(header_.nodes)});
  for (const auto& [level, l] : row.levels) {
    if (level == "APPL" || level == "TASK" || level == "THREAD") continue;
    for (size_t i = 0; i < l.names.size(); ++i)
      root.push_back({S(level + " " + std::to_string(i + 1)), S(l.names[i])});
  }
  std::vector<uint64_t> node_cpus;
  NodeCpus(header_.nodes, node_cpus);  // checked by ParseHeader
  CpuLayout layout(node_cpus);
  const StringId k_node = S("node");
  size_t task_index = 0;
  for (size_t a = 0; a < header_.appls.size(); ++a) {
    const std::string appl = std::to_string(a + 1);
    const StringId appl_id = S(appl);
    sim_.CreateContainer(0, S("APPL"), k_root_, S(appl_names ? (*appl_names)[a] : "APPL " + appl), appl_id,
                         communicators_[a]);
    first_thread_.emplace_back();
    for (size_t t = 0; t < header_.appls[a].size(); ++t, ++task_index) {
      const std::string task = appl + "." + std::to_string(t + 1);
      const StringId task_id = S(task);
      const ExtraField node{k_node, S(std::to_string(header_.appls[a][t].node))};
      sim_.CreateContainer(0, S("TASK"), appl_id, S(task_names ? (*task_names)[task_index] : "TASK " + task), task_id,
                           paje::Extras(&node, 1));
      first_thread_.back().push_back(static_cast<uint32_t>(thread_ids_.size()));
      for (uint64_t th = 0; th < header_.appls[a][t].threads; ++th) {
        const std::string thread = task + "." + std::to_string(th + 1);
        const StringId thread_id = S(thread);
        sim_.CreateContainer(0, S("THREAD"), task_id,
                             S(thread_names ? (*thread_names)[thread_ids_.size()] : "THREAD " + thread), thread_id, {});
        thread_ids_.push_back(thread_id);
        default_cpu_.push_back(layout.Next(header_.appls[a][t].node));
      }
    }
  }
  open_.resize(thread_ids_.size());
}

// The model type of a Paraver event type, defined when first met, with the
// .pcf's names for it and its values.
StringId Importer::EventType(uint64_t type) {
  auto [it, added] = event_types_.emplace(type, kEmptyString);
  if (!added) return it->second;
  const std::string number = std::to_string(type);
  it->second = S(number);
  auto pcf = pcf_->event_types.find(type);
  const bool named = pcf != pcf_->event_types.end() && !pcf->second.label.text.empty();
  sim_.DefineEntityType(TypeKind::kEvent, S("THREAD"), S(named ? pcf->second.label.text : "Event type " + number),
                        it->second, kEmptyString);
  if (pcf != pcf_->event_types.end())
    for (const auto& [value, label] : pcf->second.values) try {
        sim_.DefineValue(it->second, S(label.text), S(value), kEmptyString);
      } catch (const SimulationError& e) {
        ThrowAt(pcf_name_, label.line, e.what());
      }
  return it->second;
}

// c:appl:id:ntasks:task:task... -> the application's user field
// "communicator_<id>" listing its tasks (space-separated). A task -1 is
// "the task itself" (Extrae and Dimemas write MPI_COMM_SELF so); a
// communicator may have no task ("c:1:5:0").
void Importer::Communicator(const std::vector<std::string_view>& f) {
  if (f.size() < 4) Fail("a communicator needs c:application:id:tasks:task...");
  const uint64_t appl = Number(f[1], "application"), id = Number(f[2], "communicator"), n = Number(f[3], "task count");
  if (appl == 0 || appl > header_.appls.size()) Fail("no application " + std::to_string(appl) + " in the header");
  const size_t listed = f.size() == 5 && f[4].empty() ? 0 : f.size() - 4;  // "c:1:5:0:" lists none
  if (n != listed)
    Fail("a communicator announces " + std::to_string(n) + " task(s) and lists " + std::to_string(listed));
  std::string tasks;
  for (size_t i = 4; i < 4 + listed; ++i) {
    if (f[i] == "-1") {
      tasks += (tasks.empty() ? "" : " ") + std::string("-1");
      continue;
    }
    uint64_t task = 0;
    if (!ParseUnsigned(f[i], task))
      Fail("the task '" + std::string(f[i]) + "' of a communicator is neither a task number nor -1 (the task itself)");
    if (task == 0 || task > header_.appls[appl - 1].size())
      Fail("no task " + std::to_string(task) + " in application " + std::to_string(appl) + " (tasks are 1 to " +
           std::to_string(header_.appls[appl - 1].size()) + ", or -1 for the task itself)");
    tasks += (tasks.empty() ? "" : " ") + std::to_string(task);
  }
  communicators_[appl - 1].push_back({S("communicator_" + std::to_string(id)), S(tasks)});
  report.communicators++;
}

// i:appl:intercomm:intracomm1:leader1:intracomm2:leader2 (Extrae's MPI
// intercommunicators) -> the application's user field
// "intercommunicator_<id>" = "intracomm1 leader1 intracomm2 leader2".
void Importer::Intercommunicator(const std::vector<std::string_view>& f) {
  if (f.size() != 7) Fail("an intercommunicator has 7 fields (i:application:id:comm:leader:comm:leader), not " +
                          std::to_string(f.size()));
  const uint64_t appl = Number(f[1], "application"), id = Number(f[2], "intercommunicator");
  if (appl == 0 || appl > header_.appls.size()) Fail("no application " + std::to_string(appl) + " in the header");
  std::string value;
  for (size_t i = 3; i < 7; ++i)
    value += (i > 3 ? " " : "") + std::to_string(Number(f[i], i % 2 ? "communicator" : "leader"));
  communicators_[appl - 1].push_back({S("intercommunicator_" + std::to_string(id)), S(value)});
  report.communicators++;
}

// Ends the states of `thread` that end by `time`, innermost first.
void Importer::PopUntil(uint32_t thread, double time) {
  auto& open = open_[thread];
  while (!open.empty() && open.back().end <= time) {
    sim_.PopState(open.back().end, k_state_, thread_ids_[thread], {});
    open.pop_back();
  }
}

// Hands over the halves of communications due by `time`, in time order.
void Importer::CompleteUntil(double time) {
  while (!pending_halves_.empty() && pending_halves_.top().time <= time) {
    const PendingHalf& h = pending_halves_.top();
    const paje::Extras fields(h.fields, h.field_count);
    if (h.is_start) sim_.StartLink(h.time, k_comm_, k_root_, thread_ids_[h.thread], h.value, h.key, fields);
    else sim_.EndLink(h.time, k_comm_, k_root_, thread_ids_[h.thread], h.value, h.key, fields);
    pending_halves_.pop();
  }
}

void Importer::Split(std::string_view line) {
  fields_.clear();
  for (size_t from = 0;;) {
    const size_t colon = line.find(':', from);
    fields_.push_back(line.substr(from, colon - from));
    if (colon == std::string_view::npos) return;
    from = colon + 1;
  }
}

// 1:cpu:appl:task:thread:begin:end:state. The end -1 leaves the state open
// until the thread's next state begins (or its enclosing state ends, or the trace).
void Importer::State(const std::vector<std::string_view>& f) {
  if (f.size() != 8)
    Fail("a state record has 8 fields (1:cpu:appl:task:thread:begin:end:state), not " + std::to_string(f.size()));
  const uint32_t thread = Thread(f, 2);
  ExtraField cpu[1];
  const uint8_t cpu_fields = Cpu(f, 1, thread, "cpu", cpu, 0);
  const double begin = Time(f[5], "begin time");
  const bool open_ended = f[6] == "-1";
  auto& open = open_[thread];
  double end = open_ended ? std::numeric_limits<double>::infinity() : Time(f[6], "end time");
  const uint64_t state = Number(f[7], "state");
  if (end < begin) Fail("the state ends (" + std::string(f[6]) + ") before it begins (" + std::string(f[5]) + ")");
  PopUntil(thread, begin);
  if (!open.empty() && open.back().open_ended) {  // replaced by this one
    sim_.PopState(begin, k_state_, thread_ids_[thread], {});
    open.pop_back();
  }
  if (open_ended && !open.empty()) end = open.back().end;
  if (!open.empty() && end > open.back().end)
    Fail("the state [" + std::string(f[5]) + ", " + std::string(f[6]) +
         "] overlaps a state of its thread that ends inside it, without nesting in it");
  sim_.PushState(begin, k_state_, thread_ids_[thread], S(std::to_string(state)), paje::Extras(cpu, cpu_fields));
  open.push_back({end, open_ended});
  report.states++;
}

// 4:cpu:appl:task:thread:time:communicator:send size:receive size:operation:root,
// the global operations (collectives) of older traces -> an event of type
// "Global operation" whose value is the operation's number, with the rest
// as user fields.
void Importer::GlobalOperation(const std::vector<std::string_view>& f) {
  if (f.size() != 11)
    Fail("a global operation record has 11 fields "
         "(4:cpu:appl:task:thread:time:communicator:send size:receive size:operation:root), not " +
         std::to_string(f.size()));
  const uint32_t thread = Thread(f, 2);
  const double time = Time(f[5], "time");
  ExtraField fields[] = {{S("communicator"), S(std::to_string(Number(f[6], "communicator")))},
                         {S("send_size"), Integer(f[7], "send size")},
                         {S("recv_size"), Integer(f[8], "receive size")},
                         {S("root"), Integer(f[10], "root")},
                         {}};
  const uint8_t count = Cpu(f, 1, thread, "cpu", fields, 4);
  const StringId operation = S(std::to_string(Number(f[9], "global operation")));
  if (k_global_op_ == kEmptyString) {
    k_global_op_ = S("GLOBAL_OP");
    sim_.DefineEntityType(TypeKind::kEvent, S("THREAD"), S("Global operation"), k_global_op_, kEmptyString);
  }
  sim_.NewEvent(time, k_global_op_, thread_ids_[thread], operation, paje::Extras(fields, count));
  report.global_operations++;
}

void Importer::Record(std::string_view line) {
  Split(line);
  const std::vector<std::string_view>& f = fields_;
  report.records++;
  const std::string_view kind = f[0];
  if (uint64_t time = 0; f.size() > 5 && ParseUnsigned(f[5], time)) CompleteUntil(static_cast<double>(time));
  if (kind == "1") {
    State(f);
  } else if (kind == "2") {  // 2:cpu:appl:task:thread:time:type:value[:type:value...]
    if (f.size() < 8 || f.size() % 2 != 0)
      Fail("an event record has 2:cpu:appl:task:thread:time and type:value pairs, not " + std::to_string(f.size()) +
           " fields");
    const uint32_t thread = Thread(f, 2);
    ExtraField cpu[1];
    const paje::Extras fields(cpu, Cpu(f, 1, thread, "cpu", cpu, 0));
    const double time = Time(f[5], "time");
    for (size_t i = 6; i < f.size(); i += 2) {
      const StringId type = EventType(Number(f[i], "event type"));
      sim_.NewEvent(time, type, thread_ids_[thread], Integer(f[i + 1], "event value"), fields);
      report.events++;
    }
  } else if (kind == "3") {
    // 3:cpu:appl:task:thread:logical send:physical send:cpu:appl:task:thread:logical recv:physical recv:size:tag
    if (f.size() != 15) Fail("a communication record has 15 fields, not " + std::to_string(f.size()));
    const uint32_t from = Thread(f, 2), to = Thread(f, 8);
    const double logical_send = Time(f[5], "logical send time");
    const double send = Time(f[6], "physical send time");
    const double logical_recv = Time(f[11], "logical receive time");
    const double recv = Time(f[12], "physical receive time");
    const StringId size = Integer(f[13], "size"), value = Integer(f[14], "tag");
    // The later half completes the link; it may not come before what the
    // records have passed (the record's own time, the logical send).
    if (std::max(send, recv) < logical_send)
      Fail("the communication's physical send (" + std::string(f[6]) + ") and receive (" + std::string(f[12]) +
           ") both come before its logical send (" + std::string(f[5]) + ")");
    const StringId key = S(std::to_string(++links_));
    PendingHalf sent{send, links_, true, from, value, key,
                     {{S("logical_send"), S(std::to_string(static_cast<uint64_t>(logical_send)))}, {S("size"), size}},
                     2};
    PendingHalf received{recv, links_, false, to, value, key,
                         {{S("logical_recv"), S(std::to_string(static_cast<uint64_t>(logical_recv)))}},
                         1};
    sent.field_count = Cpu(f, 1, from, "cpu_send", sent.fields, sent.field_count);
    received.field_count = Cpu(f, 7, to, "cpu_recv", received.fields, received.field_count);
    const bool skewed = recv < send;  // clocks apart: the reception comes first
    const PendingHalf& first = skewed ? received : sent;
    const paje::Extras fields(first.fields, first.field_count);
    if (skewed) sim_.EndLink(recv, k_comm_, k_root_, thread_ids_[to], value, key, fields);
    else sim_.StartLink(send, k_comm_, k_root_, thread_ids_[from], value, key, fields);
    pending_halves_.push(skewed ? sent : received);
    report.communications++;
  } else if (kind == "4") {
    GlobalOperation(f);
  } else if (kind == "c" || kind == "C" || kind == "i" || kind == "I") {
    Fail("a communicator (" + std::string(kind) + ") after the first record: they follow the header");
  } else {
    Fail("unknown record kind '" + std::string(kind) +
         "' (1 state, 2 event, 3 communication, 4 global operation, c communicator)");
  }
}

void Importer::Read(std::string_view prv, const PcfNames& pcf, const RowNames& row, const std::string& pcf_name,
                    const std::string& row_name, MappedFile* mapped) {
  Lines lines(prv);
  std::string_view line;
  if (!lines.Next(line)) ThrowAt(file_, 1, "empty file: not a Paraver trace");
  header_ = ParseHeader(line, file_);
  report.bytes = prv.size();
  communicators_.resize(header_.appls.size());
  bool started = false;
  // The communicators the header announces come before the first record;
  // more are taken too (Extrae's intercommunicators are not always counted).
  auto start = [&] {
    if (report.communicators < header_.communicators)
      Fail("the header announces " + std::to_string(header_.communicators) + " communicator(s), " +
           std::to_string(report.communicators) + " come before the first record");
    CreateContainers(row, row_name);
    started = true;
  };
  constexpr size_t kReleaseStep = size_t{16} << 20;  // let go of the parsed text in steps
  size_t released = 0;
  try {
    Define(pcf, pcf_name);
    while (lines.Next(line)) {
      line_ = lines.line();
      if (line.empty() || line.front() == '#') continue;  // comments (Extrae writes some)
      if (!started && line.size() > 1 && line[1] == ':') {
        const char kind = line.front();
        if (kind == 'c' || kind == 'C' || kind == 'i' || kind == 'I') {
          Split(line);
          report.records++;
          if (kind == 'c' || kind == 'C') Communicator(fields_);
          else Intercommunicator(fields_);
          continue;
        }
      }
      if (!started) start();
      Record(line);
      if (mapped && lines.offset() - released >= kReleaseStep) {
        mapped->Release(lines.offset());
        released = lines.offset();
      }
    }
    line_ = lines.line();
    if (!started) start();
    // The states still open end with the trace; those written with the end
    // -1 and no successor end there too.
    last_ = std::max(last_, static_cast<double>(header_.duration));
    CompleteUntil(last_);
    for (uint32_t t = 0; t < open_.size(); ++t) {
      auto& open = open_[t];
      for (OpenState& s : open) s.end = std::min(s.end, last_);
      PopUntil(t, last_);
    }
    sim_.Finish(last_);
  } catch (const SimulationError& e) {
    Fail(e.what());
  }
  trace_.SetTimeSpan(0, last_);
}

}  // namespace

std::string CompanionFile(const std::string& prv, std::string_view extension) {
  const bool has = prv.size() > 4 && prv.compare(prv.size() - 4, 4, ".prv") == 0;
  return (has ? prv.substr(0, prv.size() - 4) : prv) + "." + std::string(extension);
}

ReadReport ReadParaverText(std::string_view prv, std::string_view pcf, std::string_view row, const std::string& name,
                           Trace& trace, const paje::SimulatorOptions& simulation) {
  const std::string pcf_name = CompanionFile(name, "pcf"), row_name = CompanionFile(name, "row");
  const PcfNames names = ParsePcf(pcf, pcf_name);
  const RowNames rows = ParseRow(row, row_name);
  Importer importer(trace, simulation, name);
  importer.Read(prv, names, rows, pcf_name, row_name, nullptr);
  return importer.report;
}

ReadReport ReadParaver(const std::string& prv, Trace& trace, const paje::SimulatorOptions& simulation) {
  // A companion is read when it exists; one that exists and cannot be read is an error.
  auto companion = [&](std::string_view extension) -> std::unique_ptr<MappedFile> {
    const std::string path = CompanionFile(prv, extension);
    struct stat st {};
    if (path == prv || stat(path.c_str(), &st) != 0) return nullptr;
    return std::make_unique<MappedFile>(path);
  };
  MappedFile text(prv);
  const auto pcf = companion("pcf"), row = companion("row");
  const std::string pcf_name = CompanionFile(prv, "pcf"), row_name = CompanionFile(prv, "row");
  const PcfNames names = pcf ? ParsePcf(pcf->bytes(), pcf_name) : PcfNames{};
  const RowNames rows = row ? ParseRow(row->bytes(), row_name) : RowNames{};
  Importer importer(trace, simulation, prv);
  importer.Read(text.bytes(), names, rows, pcf_name, row_name, &text);
  return importer.report;
}

// "#Paraver (": a header whose rest is damaged is still Paraver's, refused with its reason.
bool LooksLikeParaver(std::string_view head) { return head.starts_with("#Paraver ") || head.starts_with("#Paraver("); }

}  // namespace macroscope::paraver
