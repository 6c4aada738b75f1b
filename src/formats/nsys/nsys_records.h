// The records the Nsight reader (nsys_reader.cc) turns rows into, and the
// two steps between reading and simulating that need them in another order
// than the export's: the nesting of each container's spans and the links
// from calls to the GPU work they launched. Every record goes through an
// external sort (util/external_sort.h), held up to a memory budget and in
// sorted runs in $TMPDIR beyond it, so that no step holds every row: a
// read takes bounded memory whatever the export's size. Records are
// trivially copyable (runs hold their bytes): names are StringIds, and
// user fields are inline.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <optional>
#include <tuple>
#include <vector>

#include "formats/paje/simulator.h"
#include "model/trace.h"
#include "util/external_sort.h"

namespace macroscope::nsys {

// The messages of a run file that cannot be written (util/run_file.h).
inline constexpr const char* kRunPurpose = "reading an Nsight Systems export";
inline constexpr const char* kRunNeed = "up to about ten times the export's size";

// The entity types, each defined once the trace uses it.
enum Kind : uint8_t {
  kApiState,           // CUDA runtime and driver calls, on threads
  kNvtxPushPopState,   // NVTX push/pop ranges, on threads
  kNvtxStartEndState,  // NVTX start/end ranges, on their start thread
  kOsrtState,          // OS runtime calls, on threads
  kNvtxMarkEvent,      // NVTX marks (events), on threads
  kKernelState,        // on streams
  kMemcpyState,        // on streams
  kMemsetState,        // on streams
  kLaunchLink,         // links from a call to its GPU work
  kKinds
};

inline constexpr uint32_t kNoContainer = UINT32_MAX;

// The names of the entities' user fields (docs/nsys.md), by number: records
// hold the number, the reader the name's StringId.
enum FieldName : uint8_t {
  kClassField, kCorrelationField, kReturnField, kDomainField, kCategoryField, kColorField, kPayloadField,
  kEndThreadField, kDemangledField, kMangledField, kGridField, kBlockField, kRegistersField, kStaticSharedField,
  kDynamicSharedField, kBytesField, kBandwidthField, kSrcKindField, kDstKindField, kMemKindField, kValueField,
  kNestingField, kFieldNames
};
inline constexpr const char* kFieldNameText[kFieldNames] = {
    "class", "correlationId", "returnValue", "domain", "category", "color", "payload", "endTid", "demangledName",
    "mangledName", "grid", "block", "registersPerThread", "staticSharedMemory", "dynamicSharedMemory", "bytes",
    "bandwidth", "srcKind", "dstKind", "memKind", "value", "nestingLevel"};
using FieldNameIds = std::array<StringId, kFieldNames>;

struct Field {
  FieldName name;
  StringId value;  // kNone: the entity has no such field
};

// An entity's user fields, held in its record: those without a value left
// out, at most a kernel's eight.
struct Fields {
  static constexpr uint32_t kMax = 8;
  std::array<StringId, kMax> values{};
  std::array<FieldName, kMax> names{};
  uint8_t count = 0;

  Fields() = default;
  Fields(std::initializer_list<Field> fields);
  // The fields as the simulator takes them, written to `buffer`; `ids`: the
  // trace's StringIds of the names.
  paje::Extras View(const FieldNameIds& ids, std::array<ExtraField, kMax>& buffer) const;
};

// A span (a state) of a container, in reading order `index`.
struct Span {
  int64_t start, end;
  uint64_t index;
  uint32_t container;
  StringId value;
  Kind kind;
  bool open_end;  // no end in the file: ends with the trace
  Fields fields;
};

// One call of the simulator, replayed in time order at the end.
enum class Op : uint8_t { kPush, kPop, kEvent, kLinkStart, kLinkEnd };
// Actions at one time replay as the nesting made them (each store's pushes
// and pops, store after store), then the marks, then the links, each group
// in the order it was made (`Action::order`).
enum class Group : uint8_t { kNesting, kMarks, kLinks };
struct Action {
  int64_t time;
  uint64_t order;  // within its group
  uint32_t container;
  uint32_t peer;  // links: the thread or stream
  StringId value, key;
  Op op;
  Kind kind;
  Group group;
  Fields fields;
};
struct ActionOrder {
  bool operator()(const Action& a, const Action& b) const {
    return std::tie(a.time, a.group, a.order) < std::tie(b.time, b.group, b.order);
  }
};
using ActionSort = ExternalSort<Action, ActionOrder>;

// Turns the spans of each (container, type) into properly nested push/pop
// pairs: ordered by start (the longer first at equal starts, then in
// reading order), each span is pushed after popping those that ended by
// its start; one that outlives the span it starts in is cut at that span's
// end. The spans are sorted in `memory`; what is held while they are swept
// is the stack of one store.
class Nesting {
 public:
  explicit Nesting(size_t memory);
  void Add(const Span& span) { spans_.Add(span); }
  // After the last Add(): every span's push and pop, in nesting order, to
  // `out` (group kNesting), spans without an end ending at `last`. Returns
  // how many spans were cut.
  uint64_t Sweep(int64_t last, const std::function<void(const Action&)>& out);

 private:
  // By container, type and start, the longer first, then reading order. A
  // span without an end ends at the trace end, unknown while the spans are
  // sorted: it sorts as the longest of all, and Next() puts it back among
  // those ending at the trace end.
  struct Order {
    static int64_t SortEnd(const Span& s) { return s.open_end ? std::numeric_limits<int64_t>::max() : s.end; }
    bool operator()(const Span& a, const Span& b) const {
      const int64_t a_end = SortEnd(a), b_end = SortEnd(b);
      return std::tie(a.container, a.kind, a.start, b_end, a.index) <
             std::tie(b.container, b.kind, b.start, a_end, b.index);
    }
  };
  // The spans in the sweep's order, their ends set.
  bool Next(Span& span);
  bool Pull(Span& span);  // the sort's next, open ends set to last_

  ExternalSort<Span, Order> spans_;
  int64_t last_ = 0;
  std::optional<Span> ahead_;       // pulled, not given yet
  std::vector<Span> ending_last_;   // spans of one start ending at the trace end, in reading order
  size_t next_ending_last_ = 0;
};

// A call that may have launched GPU work: it has a correlationId.
struct Launcher {
  int64_t correlation;
  int64_t process;  // ProcessKey of its thread
  int64_t start;
  uint32_t thread;  // container
  int32_t rank;     // lower is preferred: the API call itself before its backtrace span
};

// GPU work with a correlationId, to be linked to the call that launched it.
struct GpuWork {
  int64_t correlation;
  int64_t process;  // ProcessKey of its globalPid
  int64_t start;
  uint64_t order;  // reading order: the order of the links it makes
  uint32_t stream;
  Kind kind;
  bool any_process;  // no globalPid: a call of any process may have launched it
};

// Matches one file's GPU work with its launching calls by correlationId:
// both sorted by it (in `memory`), then merged; what is held is the calls
// of one correlationId.
class LaunchJoin {
 public:
  explicit LaunchJoin(size_t memory);
  void AddLauncher(const Launcher& call) { launchers_.Add(call); }
  void AddWork(const GpuWork& work) { works_.Add(work); }
  // After the last Add(): `link(work, call, n)` for each work that a call
  // of its process launched, `call` the preferred one (lowest rank, then
  // earliest, then first read), `n` the work's number among the links of
  // its correlationId (1, 2, ... in reading order).
  void Join(const std::function<void(const GpuWork&, const Launcher&, int)>& link);

 private:
  struct ByCorrelation {
    template <typename T>
    bool operator()(const T& a, const T& b) const {
      return a.correlation < b.correlation;
    }
  };
  ExternalSort<Launcher, ByCorrelation> launchers_;  // stable: reading order within a correlationId
  ExternalSort<GpuWork, ByCorrelation> works_;
};

}  // namespace macroscope::nsys
