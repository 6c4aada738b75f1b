#include "formats/nsys/nsys_reader.h"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cstdio>
#include <limits>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>

#include "formats/nsys/nsys_names.h"
#include "formats/nsys/nsys_records.h"
#include "formats/nsys/nsys_schema.h"
#include "model/time_base.h"
#include "util/error.h"
#include "util/sqlite.h"

namespace macroscope::nsys {

namespace {

using paje::SimulationError;
using paje::Simulator;

// The tables of events this reader maps; an export needs one of them.
constexpr std::string_view kRuntimeTable = "CUPTI_ACTIVITY_KIND_RUNTIME";
constexpr std::string_view kDriverTable = "CUPTI_ACTIVITY_KIND_DRIVER";
constexpr std::string_view kKernelTable = "CUPTI_ACTIVITY_KIND_KERNEL";
constexpr std::string_view kMemcpyTable = "CUPTI_ACTIVITY_KIND_MEMCPY";
constexpr std::string_view kMemsetTable = "CUPTI_ACTIVITY_KIND_MEMSET";
constexpr std::string_view kNvtxTable = "NVTX_EVENTS";
constexpr std::string_view kOsrtTable = "OSRT_API";
constexpr std::string_view kEventTables[] = {kRuntimeTable, kDriverTable, kKernelTable, kMemcpyTable,
                                             kMemsetTable,  kNvtxTable,   kOsrtTable};

// A serialized GlobalId (globalTid, globalPid), as Nsight's documentation
// decodes it: the thread id in the low 24 bits, the process id in the next
// 24, the rest telling hosts (VMs) apart. A process is its globalTid with
// the thread bits cleared.
constexpr int64_t kThreadBits = 0xffffff;
int64_t ProcessKey(int64_t global_id) { return global_id & ~kThreadBits; }
int64_t PidOf(int64_t global_id) { return (global_id >> 24) & 0xffffff; }
int64_t TidOf(int64_t global_id) { return global_id & kThreadBits; }

struct KindInfo {
  const char* name;
  const char* alias;
  TypeKind kind;
};
constexpr KindInfo kKindInfo[kKinds] = {
    {"CUDA API", "CA", TypeKind::kState},       {"NVTX", "NP", TypeKind::kState},
    {"NVTX start/end", "NS", TypeKind::kState}, {"OS runtime", "OS", TypeKind::kState},
    {"NVTX mark", "NM", TypeKind::kEvent},      {"Kernel", "K", TypeKind::kState},
    {"Memcpy", "MC", TypeKind::kState},         {"Memset", "MS", TypeKind::kState},
    {"GPU launch", "L", TypeKind::kLink},
};

// Container types, parents before children.
enum ContainerKind : uint8_t { kProcess, kThread, kGpu, kContext, kStream, kContainerKinds };
constexpr KindInfo kContainerInfo[kContainerKinds] = {
    {"Process", "P", TypeKind::kContainer}, {"Thread", "T", TypeKind::kContainer}, {"GPU", "G", TypeKind::kContainer},
    {"Context", "C", TypeKind::kContainer}, {"Stream", "S", TypeKind::kContainer},
};

struct ContainerInfo {
  ContainerKind kind;
  uint32_t parent;  // kNoContainer: the root
  StringId alias;
  std::string name;
  std::vector<ExtraField> fields;
};

// The integer in `column`, or nothing for NULL, text, reals and blobs.
std::optional<int64_t> IntAt(const sqlite::Statement& s, int column) {
  if (!s.IsInteger(column)) return std::nullopt;
  return s.Int(column);
}

std::string Dims(const sqlite::Statement& s, int column) {
  return std::to_string(s.Int(column)) + "x" + std::to_string(s.Int(column + 1)) + "x" +
         std::to_string(s.Int(column + 2));
}

class Importer {
 public:
  // `memory`: the budget of the sorts (a quarter each: spans, actions, and
  // the calls and GPU work of the link join).
  Importer(Trace& trace, const paje::SimulatorOptions& simulation, size_t memory)
      : trace_(trace), sim_(trace, simulation), memory_(memory), nesting_(memory / 4),
        actions_(memory / 4, kRunPurpose, kRunNeed) {}

  void AddFile(const std::string& path, uint32_t index);
  ReadReport Finish();

 private:
  StringId S(std::string_view s) { return trace_.strings().Intern(s); }

  // Per file.
  void ReadStrings();
  void ReadSessionStart(uint32_t index);
  void ReadNames();
  void ReadNvtx();
  void ReadCalls(std::string_view table);
  // An ENUM_* table of the export (id, name), empty when it has none.
  std::unordered_map<int64_t, StringId> EnumNames(std::string_view table);
  void ReadOsrt();
  void ReadKernels();
  void ReadMemcpys();
  void ReadMemsets();

  // The file's time `ns` on the trace's clock (the first file's), noted for the span.
  int64_t Time(int64_t ns);
  // Reads start and end at columns `c`, `c + 1`; false (counted) when the row has no start.
  bool Times(const sqlite::Statement& s, int c, std::string_view table, int64_t& start, int64_t& end, bool& open_end);
  void Skip(std::string_view table, std::string_view reason) {
    ++report_.skipped_rows[std::string(table) + ": " + std::string(reason)];
  }
  StringId StringOf(const sqlite::Statement& s, int column);

  uint32_t Process(int64_t global_id);
  uint32_t Thread(int64_t global_tid);
  uint32_t Gpu(int64_t device);
  uint32_t Stream(int64_t process, int64_t device, int64_t context, int64_t stream);
  uint32_t NewContainer(ContainerKind kind, uint32_t parent, const std::string& alias, std::string name,
                        std::vector<ExtraField> fields);

  void AddSpan(uint32_t container, Kind kind, int64_t start, int64_t end, bool open_end, StringId value,
               const Fields& fields);
  // The GPU work just added as a span of `stream`: to be linked to its launching call, if any.
  void LinkToLauncher(std::optional<int64_t> correlation, std::optional<int64_t> global_pid, uint32_t stream,
                      int64_t start, Kind kind);
  // The file's links, once its calls and GPU work are read.
  void MakeLinks(LaunchJoin& join);

  // At the end.
  void DefineTypesAndContainers();
  void Replay(const Action& a);

  Trace& trace_;
  Simulator sim_;
  ReadReport report_;
  const size_t memory_;

  // The file being read.
  std::string path_;
  sqlite::Database* db_ = nullptr;
  Schema* schema_ = nullptr;
  LaunchJoin* join_ = nullptr;
  uint32_t file_ = 0;
  int64_t offset_ = 0;  // added to the file's times: its session start after the first file's
  std::optional<int64_t> first_session_start_;
  std::string first_path_;
  std::unordered_map<int64_t, StringId> strings_;                    // StringIds
  std::map<std::pair<int64_t, int64_t>, StringId> nvtx_categories_;  // (domainId, category) -> name
  std::unordered_map<int64_t, StringId> nvtx_domains_;
  std::unordered_map<int64_t, std::string> process_names_;        // ProcessKey -> name
  std::unordered_map<int64_t, std::string> thread_names_;         // globalTid -> name
  std::unordered_map<int64_t, std::string> gpu_names_;            // device id -> name
  std::set<std::tuple<int64_t, int64_t, int64_t>> null_streams_;  // (pid, context, stream)

  // The whole trace.
  std::vector<ContainerInfo> containers_;
  std::map<std::tuple<uint32_t, int, int64_t, int64_t, int64_t, int64_t>, uint32_t> container_index_;
  // The records, sorted in the budget (nsys_records.h): nothing holds every row.
  Nesting nesting_;     // the spans, nested at the end
  ActionSort actions_;  // the simulator calls: marks and links as read, the nesting's at the end
  uint64_t spans_read_ = 0, marks_read_ = 0, gpu_work_read_ = 0;
  std::array<bool, kKinds> uses_{};
  int64_t first_ = std::numeric_limits<int64_t>::max(), last_ = std::numeric_limits<int64_t>::min();
  std::optional<int64_t> epoch_;  // the first file's session start (UTC ns)

  // The trace's identifiers of the root, the container types and the entity types.
  StringId root_ = kNone;
  std::array<StringId, kContainerKinds> ctype_{};
  std::array<StringId, kKinds> type_{};

  // Field names: the containers', then the entities' (records hold their FieldName).
  StringId k_pid_ = S("pid"), k_tid_ = S("tid"), k_device_ = S("deviceId"), k_null_ = S("nullStream");
  FieldNameIds field_names_ = InternFieldNames();
  FieldNameIds InternFieldNames() {
    FieldNameIds ids{};
    for (int f = 0; f < kFieldNames; ++f) ids[f] = S(kFieldNameText[f]);
    return ids;
  }
};

uint32_t Importer::NewContainer(ContainerKind kind, uint32_t parent, const std::string& alias, std::string name,
                                std::vector<ExtraField> fields) {
  containers_.push_back({kind, parent, S(alias), std::move(name), std::move(fields)});
  return static_cast<uint32_t>(containers_.size() - 1);
}

uint32_t Importer::Process(int64_t global_id) {
  const int64_t key = ProcessKey(global_id);
  auto [it, added] = container_index_.try_emplace({file_, kProcess, key, 0, 0, 0}, 0);
  if (!added) return it->second;
  const int64_t pid = PidOf(global_id);
  auto name = process_names_.find(key);
  std::string text = name != process_names_.end() && !name->second.empty()
                         ? name->second + " [" + std::to_string(pid) + "]"
                         : "Process " + std::to_string(pid);
  it->second = NewContainer(kProcess, kNoContainer, "p" + std::to_string(file_) + ":" + std::to_string(key),
                            std::move(text), {{k_pid_, S(std::to_string(pid))}});
  ++report_.processes;
  return it->second;
}

uint32_t Importer::Thread(int64_t global_tid) {
  auto [it, added] = container_index_.try_emplace({file_, kThread, global_tid, 0, 0, 0}, 0);
  if (!added) return it->second;
  const uint32_t process = Process(global_tid);
  const int64_t tid = TidOf(global_tid);
  auto name = thread_names_.find(global_tid);
  std::string text =
      name != thread_names_.end() && !name->second.empty() ? name->second : "Thread " + std::to_string(tid);
  it->second = NewContainer(kThread, process, "t" + std::to_string(file_) + ":" + std::to_string(global_tid),
                            std::move(text), {{k_tid_, S(std::to_string(tid))}});
  ++report_.threads;
  return it->second;
}

uint32_t Importer::Gpu(int64_t device) {
  auto [it, added] = container_index_.try_emplace({file_, kGpu, device, 0, 0, 0}, 0);
  if (!added) return it->second;
  auto name = gpu_names_.find(device);
  std::string text = "GPU " + std::to_string(device);
  if (name != gpu_names_.end() && !name->second.empty()) text += " (" + name->second + ")";
  it->second = NewContainer(kGpu, kNoContainer, "g" + std::to_string(file_) + ":" + std::to_string(device),
                            std::move(text), {{k_device_, S(std::to_string(device))}});
  ++report_.devices;
  return it->second;
}

uint32_t Importer::Stream(int64_t process, int64_t device, int64_t context, int64_t stream) {
  auto found = container_index_.find({file_, kStream, process, device, context, stream});
  if (found != container_index_.end()) return found->second;
  const std::string ids = std::to_string(process) + ":" + std::to_string(device) + ":" + std::to_string(context);
  uint32_t ctx;
  auto c = container_index_.find({file_, kContext, process, device, context, 0});
  if (c != container_index_.end()) {
    ctx = c->second;
  } else {
    const uint32_t gpu = Gpu(device);
    std::vector<ExtraField> fields;
    if (process != 0) fields.push_back({k_pid_, S(std::to_string(PidOf(process)))});
    ctx = NewContainer(kContext, gpu, "c" + std::to_string(file_) + ":" + ids, "Context " + std::to_string(context),
                       std::move(fields));
    container_index_[{file_, kContext, process, device, context, 0}] = ctx;
    ++report_.contexts;
  }
  std::vector<ExtraField> fields;
  if (null_streams_.count({PidOf(process), context, stream})) fields.push_back({k_null_, S("yes")});
  const uint32_t s = NewContainer(kStream, ctx, "s" + std::to_string(file_) + ":" + ids + ":" + std::to_string(stream),
                                  "Stream " + std::to_string(stream), std::move(fields));
  container_index_[{file_, kStream, process, device, context, stream}] = s;
  ++report_.streams;
  return s;
}

int64_t Importer::Time(int64_t ns) {
  int64_t t = 0;
  if (__builtin_add_overflow(ns, offset_, &t))
    throw UserError(path_ + ": time " + std::to_string(ns) + " ns is beyond what this reader holds");
  first_ = std::min(first_, t);
  last_ = std::max(last_, t);
  return t;
}

bool Importer::Times(const sqlite::Statement& s, int c, std::string_view table, int64_t& start, int64_t& end,
                     bool& open_end) {
  const auto a = IntAt(s, c);
  if (!a) {
    Skip(table, "no start time");
    return false;
  }
  start = Time(*a);
  const auto b = IntAt(s, c + 1);
  open_end = !b;
  if (!b) {
    end = start;
  } else if (*b < *a) {
    ++report_.ends_before_start;
    end = start;
  } else {
    end = Time(*b);
  }
  return true;
}

StringId Importer::StringOf(const sqlite::Statement& s, int column) {
  const auto id = IntAt(s, column);
  if (!id) return kNone;
  auto it = strings_.find(*id);
  return it == strings_.end() ? kNone : it->second;
}

void Importer::AddSpan(uint32_t container, Kind kind, int64_t start, int64_t end, bool open_end, StringId value,
                       const Fields& fields) {
  if (open_end) ++report_.unended;
  nesting_.Add({start, end, spans_read_++, container, value, kind, open_end, fields});
  uses_[kind] = true;
}

void Importer::ReadStrings() {
  strings_.clear();
  if (!schema_->HasTable("StringIds")) return;
  schema_->Require("StringIds", {"id", "value"});
  sqlite::Statement s(*db_, schema_->Select("StringIds", {"id", "value"}));
  while (s.Step())
    if (auto id = IntAt(s, 0)) strings_[*id] = S(s.Text(1));
}

void Importer::ReadSessionStart(uint32_t index) {
  std::optional<int64_t> start;
  if (schema_->HasTable("TARGET_INFO_SESSION_START_TIME") &&
      schema_->HasColumn("TARGET_INFO_SESSION_START_TIME", "utcEpochNs")) {
    sqlite::Statement s(*db_, schema_->Select("TARGET_INFO_SESSION_START_TIME", {"utcEpochNs"}));
    if (s.Step()) start = IntAt(s, 0);
  }
  offset_ = 0;
  if (index == 0) {
    first_session_start_ = start;
    first_path_ = path_;
    epoch_ = start;
    return;
  }
  // Files are placed on the first one's clock by their session starts; without
  // one there is no telling where a file's times are.
  if (!start || !first_session_start_)
    throw UserError((start ? first_path_ : path_) +
                    ": no TARGET_INFO_SESSION_START_TIME: cannot place its times beside the other files'");
  if (__builtin_sub_overflow(*start, *first_session_start_, &offset_))
    throw UserError(path_ + ": session start too far from " + first_path_ + "'s");
}

void Importer::ReadNames() {
  process_names_.clear();
  thread_names_.clear();
  gpu_names_.clear();
  null_streams_.clear();
  if (schema_->HasTable("PROCESSES")) {
    sqlite::Statement s(*db_, schema_->Select("PROCESSES", {"globalPid", "name"}));
    while (s.Step())
      if (auto g = IntAt(s, 0); g && !s.IsNull(1)) process_names_[ProcessKey(*g)] = s.Text(1);
  }
  if (schema_->HasTable("ThreadNames")) {
    sqlite::Statement s(*db_, schema_->Select("ThreadNames", {"globalTid", "nameId"}));
    while (s.Step())
      if (auto g = IntAt(s, 0))
        if (StringId name = StringOf(s, 1); name != kNone) thread_names_[*g] = std::string(trace_.strings().View(name));
  }
  if (schema_->HasTable("TARGET_INFO_GPU")) {
    sqlite::Statement s(*db_, schema_->Select("TARGET_INFO_GPU", {"id", "name"}));
    while (s.Step())
      if (auto id = IntAt(s, 0); id && !s.IsNull(1)) gpu_names_[*id] = s.Text(1);
  }
  if (schema_->HasTable("TARGET_INFO_CUDA_NULL_STREAM")) {
    sqlite::Statement s(*db_, schema_->Select("TARGET_INFO_CUDA_NULL_STREAM", {"processId", "contextId", "streamId"}));
    while (s.Step())
      if (auto p = IntAt(s, 0), c = IntAt(s, 1), st = IntAt(s, 2); p && c && st) null_streams_.insert({*p, *c, *st});
  }
}

void Importer::ReadNvtx() {
  nvtx_categories_.clear();
  nvtx_domains_.clear();
  if (!schema_->HasTable(kNvtxTable)) return;
  schema_->Require(kNvtxTable, {"start", "eventType"});
  // The names first (domains, categories, threads): ranges may come before them.
  {
    sqlite::Statement s(
        *db_, schema_->Select(kNvtxTable, {"eventType", "text", "textId", "globalTid", "domainId", "category"}));
    while (s.Step()) {
      const auto type = IntAt(s, 0);
      if (!type || (*type != kNvtxCategory && *type != kNvtxThread && *type != kNvtxDomainCreate)) continue;
      StringId text = s.IsNull(1) ? StringOf(s, 2) : S(s.Text(1));
      if (text == kNone) continue;
      const int64_t domain = IntAt(s, 4).value_or(0);
      if (*type == kNvtxDomainCreate) {
        nvtx_domains_[domain] = text;
      } else if (*type == kNvtxCategory) {
        if (auto category = IntAt(s, 5)) nvtx_categories_[{domain, *category}] = text;
      } else if (auto g = IntAt(s, 3); g && !thread_names_.count(*g)) {
        thread_names_[*g] = std::string(trace_.strings().View(text));
      }
    }
  }
  sqlite::Statement s(
      *db_, schema_->Select(kNvtxTable, {"start", "end", "eventType", "text", "textId", "globalTid", "endGlobalTid",
                                         "domainId", "category", "color", "int64Value", "uint64Value", "doubleValue",
                                         "int32Value", "uint32Value", "floatValue"}));
  const StringId unnamed = S("(unnamed)");
  while (s.Step()) {
    ++report_.rows;
    const auto type = IntAt(s, 2);
    if (type &&
        (*type == kNvtxCategory || *type == kNvtxThread || *type == kNvtxDomainCreate || *type == kNvtxDomainDestroy))
      continue;
    if (!type || (*type != kNvtxMark && *type != kNvtxPushPopRange && *type != kNvtxStartEndRange)) {
      Skip(kNvtxTable, "event type " + (type ? std::to_string(*type) : std::string("NULL")) + " not read");
      continue;
    }
    const auto tid = IntAt(s, 5);
    if (!tid) {
      Skip(kNvtxTable, "no thread (globalTid)");
      continue;
    }
    int64_t start = 0, end = 0;
    bool open_end = false;
    if (!Times(s, 0, kNvtxTable, start, end, open_end)) continue;
    StringId text = s.IsNull(3) ? StringOf(s, 4) : S(s.Text(3));
    if (text == kNone) text = unnamed;
    const int64_t domain_id = IntAt(s, 7).value_or(0);
    StringId domain = kNone, category = kNone, color = kNone, payload = kNone, end_thread = kNone;
    if (auto d = nvtx_domains_.find(domain_id); d != nvtx_domains_.end()) domain = d->second;
    if (auto c = IntAt(s, 8); c && *c != 0) {
      auto named = nvtx_categories_.find({domain_id, *c});
      category = named != nvtx_categories_.end() ? named->second : S(std::to_string(*c));
    }
    if (auto c = IntAt(s, 9)) {
      char hex[16];
      std::snprintf(hex, sizeof hex, "#%08" PRIx32, static_cast<uint32_t>(*c));
      color = S(hex);
    }
    for (int column = 10; column <= 15 && payload == kNone; ++column)
      if (!s.IsNull(column)) payload = S(s.Text(column));
    const uint32_t thread = Thread(*tid);
    if (auto e = IntAt(s, 6); e && *e != *tid) end_thread = S(std::to_string(TidOf(*e)));
    if (*type == kNvtxMark) {
      const Fields fields{
          {kDomainField, domain}, {kCategoryField, category}, {kColorField, color}, {kPayloadField, payload}};
      actions_.Add({start, marks_read_++, thread, 0, text, kNone, Op::kEvent, kNvtxMarkEvent, Group::kMarks, fields});
      uses_[kNvtxMarkEvent] = true;
      ++report_.nvtx_marks;
      continue;
    }
    AddSpan(thread, *type == kNvtxPushPopRange ? kNvtxPushPopState : kNvtxStartEndState, start, end, open_end, text,
            {{kDomainField, domain},
             {kCategoryField, category},
             {kColorField, color},
             {kPayloadField, payload},
             {kEndThreadField, end_thread}});
    ++report_.nvtx_ranges;
  }
}

std::unordered_map<int64_t, StringId> Importer::EnumNames(std::string_view table) {
  std::unordered_map<int64_t, StringId> names;
  if (!schema_->HasTable(table) || !schema_->HasColumn(table, "id") || !schema_->HasColumn(table, "name")) return names;
  sqlite::Statement s(*db_, schema_->Select(table, {"id", "name"}));
  while (s.Step())
    if (auto id = IntAt(s, 0); id && !s.IsNull(1)) names[*id] = S(s.Text(1));
  return names;
}

void Importer::ReadCalls(std::string_view table) {
  if (!schema_->HasTable(table)) return;
  schema_->Require(table, {"start", "end", "globalTid"});
  sqlite::Statement s(*db_, schema_->Select(table, {"start", "end", "globalTid", "correlationId", "nameId",
                                                    "eventClass", "returnValue", "cbid"}));
  const int64_t default_class = table == kDriverTable ? kCudaDriver : kCudaRuntime;
  const auto runtime_cbids = EnumNames("ENUM_CUDA_RUNTIME_API"), driver_cbids = EnumNames("ENUM_CUDA_DRIVER_API");
  while (s.Step()) {
    ++report_.rows;
    const auto tid = IntAt(s, 2);
    if (!tid) {
      Skip(table, "no thread (globalTid)");
      continue;
    }
    int64_t start = 0, end = 0;
    bool open_end = false;
    if (!Times(s, 0, table, start, end, open_end)) continue;
    const int64_t event_class = IntAt(s, 5).value_or(default_class);
    StringId name = StringOf(s, 4);
    if (name == kNone) {
      // No name in StringIds: the callback id CUPTI gives every API function,
      // named by the export's enum table when it has one.
      const bool driver = event_class == kCudaDriver;
      const auto cbid = IntAt(s, 7);
      const auto& names = driver ? driver_cbids : runtime_cbids;
      auto known = cbid ? names.find(*cbid) : names.end();
      name = known != names.end() ? known->second
                                  : S(std::string(driver ? "driver" : "runtime") + " cbid " +
                                      (cbid ? std::to_string(*cbid) : std::string("unknown")));
    }
    const auto correlation = IntAt(s, 3);
    const auto returned = IntAt(s, 6);
    const uint32_t thread = Thread(*tid);
    AddSpan(thread, kApiState, start, end, open_end, name,
            {{kClassField, S(CudaEventClassName(event_class))},
             {kCorrelationField, correlation ? S(std::to_string(*correlation)) : kNone},
             {kReturnField, returned ? S(std::to_string(*returned)) : kNone}});
    ++report_.api_calls;
    if (correlation)
      join_->AddLauncher({*correlation, ProcessKey(*tid), start, thread, event_class == kCudaBacktrace ? 1 : 0});
  }
}

void Importer::ReadOsrt() {
  if (!schema_->HasTable(kOsrtTable)) return;
  schema_->Require(kOsrtTable, {"start", "end", "globalTid"});
  sqlite::Statement s(
      *db_, schema_->Select(kOsrtTable, {"start", "end", "globalTid", "nameId", "returnValue", "nestingLevel"}));
  const StringId unnamed = S("(unnamed)");
  while (s.Step()) {
    ++report_.rows;
    const auto tid = IntAt(s, 2);
    if (!tid) {
      Skip(kOsrtTable, "no thread (globalTid)");
      continue;
    }
    int64_t start = 0, end = 0;
    bool open_end = false;
    if (!Times(s, 0, kOsrtTable, start, end, open_end)) continue;
    StringId name = StringOf(s, 3);
    const auto returned = IntAt(s, 4);
    const auto nesting = IntAt(s, 5);
    AddSpan(Thread(*tid), kOsrtState, start, end, open_end, name == kNone ? unnamed : name,
            {{kReturnField, returned ? S(std::to_string(*returned)) : kNone},
             {kNestingField, nesting ? S(std::to_string(*nesting)) : kNone}});
    ++report_.os_calls;
  }
}

void Importer::LinkToLauncher(std::optional<int64_t> correlation, std::optional<int64_t> global_pid, uint32_t stream,
                              int64_t start, Kind kind) {
  if (!correlation) return;
  join_->AddWork({*correlation, global_pid ? ProcessKey(*global_pid) : 0, start, gpu_work_read_++, stream, kind,
                  !global_pid});
}

void Importer::MakeLinks(LaunchJoin& join) {
  join.Join([&](const GpuWork& work, const Launcher& call, int n) {
    // The key names the correlation (and the file after the first); GPU work
    // sharing one (a CUDA graph's kernels) numbers its links after the first.
    std::string key = (file_ > 0 ? std::to_string(file_) + ":" : std::string()) + std::to_string(work.correlation);
    if (n > 1) key += "." + std::to_string(n);
    const StringId value = S(kKindInfo[work.kind].name), k = S(key);
    // In the replay, links come in the order of their GPU work, each start before its end.
    actions_.Add({call.start, 2 * work.order, kNoContainer, call.thread, value, k, Op::kLinkStart, kLaunchLink,
                  Group::kLinks, {}});
    actions_.Add({work.start, 2 * work.order + 1, kNoContainer, work.stream, value, k, Op::kLinkEnd, kLaunchLink,
                  Group::kLinks, {}});
    uses_[kLaunchLink] = true;
    ++report_.links;
  });
}

// The columns every GPU activity table starts with, in this order.
#define NSYS_GPU_COLUMNS "start", "end", "deviceId", "contextId", "streamId", "correlationId", "globalPid"

void Importer::ReadKernels() {
  if (!schema_->HasTable(kKernelTable)) return;
  schema_->Require(kKernelTable, {"start", "end", "deviceId", "contextId", "streamId"});
  sqlite::Statement s(
      *db_, schema_->Select(kKernelTable, {NSYS_GPU_COLUMNS, "shortName", "demangledName", "mangledName", "gridX",
                                           "gridY", "gridZ", "blockX", "blockY", "blockZ", "registersPerThread",
                                           "staticSharedMemory", "dynamicSharedMemory"}));
  const StringId unnamed = S("(unnamed kernel)");
  while (s.Step()) {
    ++report_.rows;
    int64_t start = 0, end = 0;
    bool open_end = false;
    if (!Times(s, 0, kKernelTable, start, end, open_end)) continue;
    const auto global_pid = IntAt(s, 6);
    const uint32_t stream = Stream(global_pid ? ProcessKey(*global_pid) : 0, IntAt(s, 2).value_or(0),
                                   IntAt(s, 3).value_or(0), IntAt(s, 4).value_or(0));
    const StringId short_name = StringOf(s, 7), demangled = StringOf(s, 8), mangled = StringOf(s, 9);
    const StringId value = short_name != kNone ? short_name : demangled != kNone ? demangled : unnamed;
    auto number = [&](int column) { return s.IsNull(column) ? kNone : S(std::to_string(s.Int(column))); };
    const bool dims = IntAt(s, 10) && IntAt(s, 13);
    const auto correlation = IntAt(s, 5);
    AddSpan(stream, kKernelState, start, end, open_end, value,
            {{kDemangledField, demangled},
             {kMangledField, mangled},
             {kGridField, dims ? S(Dims(s, 10)) : kNone},
             {kBlockField, dims ? S(Dims(s, 13)) : kNone},
             {kRegistersField, number(16)},
             {kStaticSharedField, number(17)},
             {kDynamicSharedField, number(18)},
             {kCorrelationField, correlation ? S(std::to_string(*correlation)) : kNone}});
    ++report_.kernels;
    LinkToLauncher(correlation, global_pid, stream, start, kKernelState);
  }
}

void Importer::ReadMemcpys() {
  if (!schema_->HasTable(kMemcpyTable)) return;
  schema_->Require(kMemcpyTable, {"start", "end", "deviceId", "contextId", "streamId"});
  sqlite::Statement s(*db_,
                      schema_->Select(kMemcpyTable, {NSYS_GPU_COLUMNS, "copyKind", "bytes", "srcKind", "dstKind"}));
  while (s.Step()) {
    ++report_.rows;
    int64_t start = 0, end = 0;
    bool open_end = false;
    if (!Times(s, 0, kMemcpyTable, start, end, open_end)) continue;
    const auto global_pid = IntAt(s, 6);
    const uint32_t stream = Stream(global_pid ? ProcessKey(*global_pid) : 0, IntAt(s, 2).value_or(0),
                                   IntAt(s, 3).value_or(0), IntAt(s, 4).value_or(0));
    const auto kind = IntAt(s, 7), bytes = IntAt(s, 8), src = IntAt(s, 9), dst = IntAt(s, 10);
    StringId bandwidth = kNone;
    if (bytes && end > start) {
      // Bytes per nanosecond are gigabytes (10^9 B) per second.
      char text[64];
      std::snprintf(text, sizeof text, "%.3f GB/s", static_cast<double>(*bytes) / static_cast<double>(end - start));
      bandwidth = S(text);
    }
    const auto correlation = IntAt(s, 5);
    AddSpan(stream, kMemcpyState, start, end, open_end, S(kind ? MemcpyKindName(*kind) : "Unknown"),
            {{kBytesField, bytes ? S(std::to_string(*bytes)) : kNone},
             {kBandwidthField, bandwidth},
             {kSrcKindField, src ? S(MemoryKindName(*src)) : kNone},
             {kDstKindField, dst ? S(MemoryKindName(*dst)) : kNone},
             {kCorrelationField, correlation ? S(std::to_string(*correlation)) : kNone}});
    ++report_.memcpys;
    LinkToLauncher(correlation, global_pid, stream, start, kMemcpyState);
  }
}

void Importer::ReadMemsets() {
  if (!schema_->HasTable(kMemsetTable)) return;
  schema_->Require(kMemsetTable, {"start", "end", "deviceId", "contextId", "streamId"});
  sqlite::Statement s(*db_, schema_->Select(kMemsetTable, {NSYS_GPU_COLUMNS, "bytes", "value", "memKind"}));
  const StringId memset = S("Memset");
  while (s.Step()) {
    ++report_.rows;
    int64_t start = 0, end = 0;
    bool open_end = false;
    if (!Times(s, 0, kMemsetTable, start, end, open_end)) continue;
    const auto global_pid = IntAt(s, 6);
    const uint32_t stream = Stream(global_pid ? ProcessKey(*global_pid) : 0, IntAt(s, 2).value_or(0),
                                   IntAt(s, 3).value_or(0), IntAt(s, 4).value_or(0));
    const auto bytes = IntAt(s, 7), value = IntAt(s, 8), kind = IntAt(s, 9);
    const auto correlation = IntAt(s, 5);
    AddSpan(stream, kMemsetState, start, end, open_end, memset,
            {{kBytesField, bytes ? S(std::to_string(*bytes)) : kNone},
             {kValueField, value ? S(std::to_string(*value)) : kNone},
             {kMemKindField, kind ? S(MemoryKindName(*kind)) : kNone},
             {kCorrelationField, correlation ? S(std::to_string(*correlation)) : kNone}});
    ++report_.memsets;
    LinkToLauncher(correlation, global_pid, stream, start, kMemsetState);
  }
}

#undef NSYS_GPU_COLUMNS

void Importer::AddFile(const std::string& path, uint32_t index) {
  path_ = path;
  file_ = index;
  struct stat st {};
  if (stat(path.c_str(), &st) == 0) report_.bytes += static_cast<uint64_t>(st.st_size);
  sqlite::Database db(path, sqlite::Database::Mode::kReadOnly, "the Nsight Systems export");
  Schema schema(db);
  db_ = &db;
  schema_ = &schema;
  if (!schema.IsNsightExport())
    throw UserError(path +
                    ": not an Nsight Systems export (no StringIds table beside TARGET_INFO_*, "
                    "CUPTI_ACTIVITY_KIND_* or NVTX_EVENTS tables)");
  bool any = false;
  for (std::string_view t : kEventTables) any = any || schema.HasTable(t);
  if (!any)
    throw UserError(path +
                    ": an Nsight Systems export without any table of events this reader maps "
                    "(CUPTI_ACTIVITY_KIND_RUNTIME, _KERNEL, _MEMCPY, _MEMSET, NVTX_EVENTS, OSRT_API)");
  ReadStrings();
  ReadSessionStart(index);
  ReadNames();
  LaunchJoin join(memory_ / 4);
  join_ = &join;
  ReadNvtx();
  ReadCalls(kRuntimeTable);
  ReadCalls(kDriverTable);
  ReadOsrt();
  ReadKernels();
  ReadMemcpys();
  ReadMemsets();
  MakeLinks(join);
  db_ = nullptr;
  schema_ = nullptr;
  join_ = nullptr;
}

// The types this trace uses and every container, created at the start.
void Importer::DefineTypesAndContainers() {
  sim_.DefineContainerType(root_, S(kContainerInfo[kProcess].name), ctype_[kProcess]);
  sim_.DefineContainerType(ctype_[kProcess], S(kContainerInfo[kThread].name), ctype_[kThread]);
  sim_.DefineContainerType(root_, S(kContainerInfo[kGpu].name), ctype_[kGpu]);
  sim_.DefineContainerType(ctype_[kGpu], S(kContainerInfo[kContext].name), ctype_[kContext]);
  sim_.DefineContainerType(ctype_[kContext], S(kContainerInfo[kStream].name), ctype_[kStream]);
  for (int k = 0; k < kKinds; ++k) {
    if (!uses_[k]) continue;
    const KindInfo& info = kKindInfo[k];
    if (info.kind == TypeKind::kLink) {
      sim_.DefineLinkType(root_, ctype_[kThread], ctype_[kStream], S(info.name), type_[k]);
    } else {
      const ContainerKind on = k >= kKernelState ? kStream : kThread;
      sim_.DefineEntityType(info.kind, ctype_[on], S(info.name), type_[k], kEmptyString);
    }
  }
  const double start_time = 0;
  for (const ContainerInfo& c : containers_)
    sim_.CreateContainer(start_time, ctype_[c.kind], c.parent == kNoContainer ? root_ : containers_[c.parent].alias,
                         S(c.name), c.alias, c.fields);
}

void Importer::Replay(const Action& a) {
  const double t = static_cast<double>(a.time - first_);
  std::array<ExtraField, Fields::kMax> fields;
  switch (a.op) {
    case Op::kPush:
      sim_.PushState(t, type_[a.kind], containers_[a.container].alias, a.value, a.fields.View(field_names_, fields));
      break;
    case Op::kPop:
      sim_.PopState(t, type_[a.kind], containers_[a.container].alias, {});
      break;
    case Op::kEvent:
      sim_.NewEvent(t, type_[a.kind], containers_[a.container].alias, a.value, a.fields.View(field_names_, fields));
      break;
    case Op::kLinkStart:
      sim_.StartLink(t, type_[a.kind], root_, containers_[a.peer].alias, a.value, a.key, {});
      break;
    case Op::kLinkEnd:
      sim_.EndLink(t, type_[a.kind], root_, containers_[a.peer].alias, a.value, a.key, {});
      break;
  }
}

ReadReport Importer::Finish() {
  if (first_ > last_) first_ = last_ = 0;  // no event at all
  // Every time as whole nanoseconds from the first event, exact in a double.
  int64_t length = 0;
  if (__builtin_sub_overflow(last_, first_, &length)) length = std::numeric_limits<int64_t>::max();
  CheckWholeTicks(length, first_path_);
  std::optional<int64_t> epoch;
  if (epoch_) {
    int64_t e = 0;
    if (!__builtin_add_overflow(*epoch_, first_, &e)) epoch = e;
  }
  trace_.SetTimeBase({.num = 1, .den = 1000000000, .whole_ticks = true, .origin = first_, .epoch_ns = epoch});

  // The spans' pushes and pops join the marks and links in one time-ordered
  // stream (at one time: the nesting's, the marks', the links', each in the
  // order made), replayed as it leaves the sort.
  report_.truncated_ranges += nesting_.Sweep(last_, [&](const Action& a) { actions_.Add(a); });
  root_ = S("0");
  for (int k = 0; k < kContainerKinds; ++k) ctype_[k] = S(kContainerInfo[k].alias);
  for (int k = 0; k < kKinds; ++k) type_[k] = S(kKindInfo[k].alias);
  const double end = static_cast<double>(last_ - first_);
  try {
    DefineTypesAndContainers();
    Action a;
    while (actions_.Next(a)) Replay(a);
    sim_.Finish(end);
  } catch (const SimulationError& e) {
    throw UserError(first_path_ + ": " + e.what());
  }
  trace_.SetTimeSpan(0, end);
  return report_;
}

}  // namespace

std::vector<std::string> ReadReport::Warnings() const {
  std::vector<std::string> out;
  for (const auto& [reason, n] : skipped_rows) out.push_back(std::to_string(n) + " row(s) skipped (" + reason + ")");
  if (ends_before_start)
    out.push_back(std::to_string(ends_before_start) + " row(s) ending before their start: read as ending at it");
  if (truncated_ranges)
    out.push_back(std::to_string(truncated_ranges) + " range(s) outliving the range they start in: cut at its end");
  if (unended) out.push_back(std::to_string(unended) + " range(s) or call(s) without an end: closed at the trace end");
  return out;
}

ReadReport ReadNsys(const std::vector<std::string>& files, Trace& trace, const paje::SimulatorOptions& simulation,
                    size_t memory) {
  Importer importer(trace, simulation, memory);
  for (size_t i = 0; i < files.size(); ++i) importer.AddFile(files[i], static_cast<uint32_t>(i));
  return importer.Finish();
}

}  // namespace macroscope::nsys
