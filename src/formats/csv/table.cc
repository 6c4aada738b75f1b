#include "formats/csv/table.h"

#include <algorithm>
#include <cstdio>

#include "model/time_base.h"
#include "util/error.h"

namespace macroscope::csv {

namespace {

// The messages of a sorted run that cannot be written (run_file.h).
constexpr const char* kRunPurpose = "reading CSV";
constexpr const char* kRunNeed = "about four times the file's size";

}  // namespace

Table::Table(Trace& trace, bool levels_given, size_t memory)
    : levels_given(levels_given),
      memory(memory),
      trace_(trace),
      order_{.states_by_time = !levels_given},
      rows_(memory / 4, kRunPurpose, kRunNeed, order_) {}

void Table::AddEntity(const TableEntity& e) {
  const uint64_t key = (static_cast<uint64_t>(e.container) << 32) | e.type;
  const uint32_t store = store_of_.try_emplace(key, static_cast<uint32_t>(store_of_.size())).first->second;
  const TableRow row{.entity = e, .index = entity_count_++, .store = store};
  if (entity_count_ > 1 && !order_(ordered_next_, row)) return rows_.Add(row);
  ordered_next_ = row;
  if (ordered_.size() == std::max<size_t>(1, memory / 4 / sizeof(TableRow))) {
    if (!ordered_file_) ordered_file_ = std::make_unique<RunFile>(kRunPurpose, kRunNeed);
    ordered_file_->Write(ordered_.data(), ordered_.size() * sizeof(TableRow));
    ordered_.clear();
  }
  ordered_.push_back(row);
}

bool Table::NextOrdered(TableRow& row) {
  if (ordered_file_) {
    if (ordered_file_->Read(&row, sizeof row)) return true;
    ordered_file_.reset();
  }
  if (ordered_read_ == ordered_.size()) {
    ordered_ = {};  // not held while the simulator calls are replayed
    ordered_read_ = 0;
    return false;
  }
  row = ordered_[ordered_read_++];
  return true;
}

bool Table::NextRow(TableRow& row) {
  if (entity_count_ == 0) return false;
  if (!reading_) {
    reading_ = true;
    if (ordered_file_) ordered_file_->Rewind();
    ordered_head_ = NextOrdered(ordered_next_);
    sorted_head_ = rows_.Next(sorted_next_);
  }
  if (ordered_head_ && (!sorted_head_ || order_(ordered_next_, sorted_next_))) {
    row = ordered_next_;
    ordered_head_ = NextOrdered(ordered_next_);
    return true;
  }
  if (!sorted_head_) return false;
  row = sorted_next_;
  sorted_head_ = rows_.Next(sorted_next_);
  return true;
}

void Table::Fail(Source at, std::string_view message) const {
  ThrowAt(files.empty() ? std::string_view("-") : std::string_view(files[at.file]), at.line, message);
}

double Table::FromOrigin(int64_t ticks, int64_t origin, Source at) const {
  int64_t from_origin = 0;
  if (__builtin_sub_overflow(ticks, origin, &from_origin))
    Fail(at, "a time 2^63 ticks or more from the trace's first time, which macroscope cannot hold exactly");
  CheckWholeTicks(from_origin, (files.empty() ? std::string("-") : files[at.file]) + ":" + std::to_string(at.line));
  return static_cast<double>(from_origin);
}

void Table::FailTime(Source at, std::string_view text) const {
  std::string_view digits = text.starts_with('-') ? text.substr(1) : text;
  const bool decimal = digits.find_first_not_of(".0123456789") == std::string_view::npos &&
                       digits.find_first_of("0123456789") != std::string_view::npos &&
                       std::count(digits.begin(), digits.end(), '.') <= 1;
  if (decimal) Fail(at, "a time '" + std::string(text) + "' beyond 64-bit ticks, which macroscope cannot hold exactly");
  Fail(at, "bad number '" + std::string(text) + "'");
}

namespace {

const char* Article(TypeKind kind) { return kind == TypeKind::kEvent ? "an " : "a "; }

}  // namespace

uint32_t Table::TypeNamed(std::string_view name, TypeKind kind, uint32_t parent, Source at) {
  auto [it, added] = type_index_.try_emplace(std::string(name), static_cast<uint32_t>(types.size()));
  if (added) {
    types.push_back({.name = std::string(name), .kind = kind, .parent = parent, .source = at});
    return it->second;
  }
  const TableType& t = types[it->second];
  const std::string where = " (line " + std::to_string(t.source.line) + ")";
  if (t.kind != kind)
    Fail(at, "type '" + std::string(name) + "' is " + Article(t.kind) + std::string(TypeKindName(t.kind)) + " type" +
                 where + ", not " + Article(kind) + std::string(TypeKindName(kind)) + " type");
  if (t.parent != parent)
    Fail(at, "type '" + std::string(name) + "' is under container type '" +
                 (t.parent == kNone ? std::string("0") : types[t.parent].name) + "'" + where + ", not '" +
                 (parent == kNone ? std::string("0") : types[parent].name) + "'");
  return it->second;
}

uint32_t Table::ContainerNamed(std::string_view name) const {
  auto it = container_index_.find(std::string(name));
  return it == container_index_.end() ? kNone : it->second;
}

uint32_t Table::AddContainer(TableContainer c) {
  const uint32_t index = static_cast<uint32_t>(containers.size());
  container_index_[c.name] = index;
  containers.push_back(std::move(c));
  return index;
}

uint64_t MapFiles(const std::vector<std::string>& files, std::vector<std::unique_ptr<MappedFile>>& mapped,
                  const std::function<void(std::string_view, const std::string&, const MappedFile*)>& add) {
  uint64_t bytes = 0;
  for (const std::string& f : files) {
    mapped.push_back(std::make_unique<MappedFile>(f));
    add(mapped.back()->bytes(), f, mapped.back().get());
    bytes += mapped.back()->bytes().size();
  }
  return bytes;
}

void SplitFields(std::string_view line, std::vector<std::string_view>& fields) {
  fields.clear();
  auto trim = [](std::string_view f) {
    while (!f.empty() && (f.front() == ' ' || f.front() == '\t')) f.remove_prefix(1);
    while (!f.empty() && (f.back() == ' ' || f.back() == '\t' || f.back() == '\r')) f.remove_suffix(1);
    return f;
  };
  for (;;) {
    size_t comma = line.find(',');
    fields.push_back(trim(line.substr(0, comma)));
    if (comma == std::string_view::npos) return;
    line.remove_prefix(comma + 1);
  }
}

namespace {

enum class Op : uint8_t { kPush, kPop, kEvent, kVariable, kLinkStart, kLinkEnd, kDestroy };

// One simulator call with all it needs (the sort holds no index into the
// table's entities, which are not kept), as small as it goes: the calls
// are sorted, on disk beyond the budget.
struct Action {
  double time;  // where it sorts
  double at;    // the time given to the simulator
  union {
    double number;   // variables
    StringId value;  // states, events, links
  };
  uint64_t index;  // the entity's table index (a keyless link's key), or the container for kDestroy
  uint32_t store;  // the entity's (Replay::stores_)
  uint32_t other;  // links: the start (kLinkStart) or end (kLinkEnd) container; kDestroy: depth
  StringId key;
  Source source;
  Op op;
  uint32_t depth() const { return op == Op::kDestroy ? other : 0; }
};

// One time-ordered replay; at one time entities before destroys, deeper
// containers first; otherwise the order each store's sequence gave (the
// sort is stable).
struct ActionOrder {
  bool operator()(const Action& a, const Action& b) const {
    if (a.time != b.time) return a.time < b.time;
    const uint32_t da = a.depth(), db = b.depth();
    if (da == 0 || db == 0) return da == 0 && db != 0;
    return da > db;
  }
};

class Replay {
 public:
  Replay(Table& t, const paje::SimulatorOptions& options)
      : t_(t), sim_(t.trace(), options), actions_(t.memory / 2, kRunPurpose, kRunNeed) {}
  void Run(double last);

 private:
  void DefineTypes();
  void CreateContainers();
  void Row(const TableRow& row);
  void StateRow(const TableRow& row);
  void StateAction(double time, const TableRow& row, Op op);
  void PopTo(size_t level);
  void EndStore();
  void Add(double time, double at, Op op, const TableRow& row);
  void Apply(const Action& a);
  StringId ContainerId(uint32_t c) const { return c == kNone ? root_ : container_ids_[c]; }
  StringId TypeIdentifier(uint32_t type) const { return type == kNone ? root_ : type_ids_[type]; }
  uint32_t LinkContainer(uint32_t c) const { return t_.link_containers.empty() ? c : t_.link_containers[c]; }

  Table& t_;
  paje::Simulator sim_;
  StringId root_ = kEmptyString;
  std::vector<StringId> type_ids_, container_ids_;
  struct Store {
    uint32_t type, container;
  };
  std::vector<Store> stores_;  // by TableRow::store
  // The store being turned into actions: its open states (levels computed
  // from the ends in `open_`), and the time its actions reached.
  std::vector<TableRow> stack_;
  std::vector<double> open_;
  double now_ = -1e308;
  ExternalSort<Action, ActionOrder> actions_;
};

// A rank as an identifier that sorts like the rank ("t00000042").
std::string RankAlias(char prefix, uint32_t rank) {
  char text[16];
  std::snprintf(text, sizeof text, "%c%08u", prefix, rank);
  return text;
}

void Replay::DefineTypes() {
  // Container types first: link types name theirs at both ends.
  for (int pass = 0; pass < 2; ++pass)
    for (uint32_t i = 0; i < t_.types.size(); ++i) {
      const TableType& type = t_.types[i];
      if ((type.kind == TypeKind::kContainer) != (pass == 0)) continue;
      StringId name = t_.Intern(type.name);
      StringId alias = type.rank == kNone ? kEmptyString : t_.Intern(RankAlias('t', type.rank));
      type_ids_[i] = alias == kEmptyString ? name : alias;
      try {
        if (type.kind == TypeKind::kContainer)
          sim_.DefineContainerType(TypeIdentifier(type.parent), name, alias);
        else if (type.kind == TypeKind::kLink)
          sim_.DefineLinkType(TypeIdentifier(type.parent), TypeIdentifier(type.start_type),
                              TypeIdentifier(type.end_type), name, alias);
        else
          sim_.DefineEntityType(type.kind, TypeIdentifier(type.parent), name, alias, kEmptyString);
      } catch (const paje::SimulationError& e) {
        t_.Fail(type.source, e.what());
      }
    }
}

void Replay::CreateContainers() {
  for (uint32_t i = 0; i < t_.containers.size(); ++i) {
    const TableContainer& c = t_.containers[i];
    StringId name = t_.Intern(c.name);
    StringId alias = c.rank == kNone ? kEmptyString : t_.Intern(RankAlias('c', c.rank));
    container_ids_[i] = alias == kEmptyString ? name : alias;
    try {
      sim_.CreateContainer(c.start, TypeIdentifier(c.type), ContainerId(c.parent), name, alias, {});
    } catch (const paje::SimulationError& e) {
      t_.Fail(c.source, e.what());
    }
  }
}

void Replay::Add(double time, double at, Op op, const TableRow& row) {
  const TableEntity& e = row.entity;
  Action a;
  a.time = time;
  a.at = at;
  if (e.kind == TypeKind::kVariable)
    a.number = e.number;
  else
    a.value = e.value;
  a.index = row.index;
  a.store = row.store;
  const uint32_t other = op == Op::kLinkStart ? e.start_container : op == Op::kLinkEnd ? e.end_container : kNone;
  a.other = other == kNone ? kNone : LinkContainer(other);
  a.key = e.key;
  a.source = e.source;
  a.op = op;
  actions_.Add(a);
}

// One (container, type)'s states as push/pop pairs: before a state of
// level L, the open states above L end; what the stack holds at each step
// must go forward in time, or the states overlap without nesting. The
// rows come in RowOrder: by time when the levels are computed here.
void Replay::StateRow(const TableRow& row) {
  uint32_t level = row.entity.level;
  if (!t_.levels_given) {
    while (!open_.empty() && open_.back() <= row.entity.start) open_.pop_back();
    level = static_cast<uint32_t>(open_.size());
    open_.push_back(row.entity.end);
  }
  if (level > stack_.size())
    t_.Fail(row.entity.source, "imbrication " + std::to_string(level) + " but " + std::to_string(stack_.size()) +
                                   " state(s) open in its container and type");
  PopTo(level);
  StateAction(row.entity.start, row, Op::kPush);
  stack_.push_back(row);
}

void Replay::StateAction(double time, const TableRow& row, Op op) {
  // pj_dump prints states that end before they start (a pop older than
  // its push); the simulator takes no pop before the push: it ends where
  // it starts (docs/csv.md).
  const bool backwards = op == Op::kPop && t_.levels_given && time < row.entity.start;
  if (backwards) time = std::max(time, now_);
  if (time < now_ && !backwards)  // a pop is of the stack's top
    t_.Fail(row.entity.source, "a state overlapping another of its container and type without nesting in it");
  now_ = std::max(now_, time);
  Add(now_, time, op, row);
}

void Replay::PopTo(size_t level) {
  while (stack_.size() > level) {
    StateAction(stack_.back().entity.end, stack_.back(), Op::kPop);
    stack_.pop_back();
  }
}

void Replay::EndStore() {
  PopTo(0);
  open_.clear();
  now_ = -1e308;
}

void Replay::Row(const TableRow& row) {
  const TableEntity& e = row.entity;
  switch (e.kind) {
    case TypeKind::kState: StateRow(row); break;
    case TypeKind::kEvent: Add(e.start, e.start, Op::kEvent, row); break;
    case TypeKind::kVariable: Add(e.start, e.start, Op::kVariable, row); break;
    case TypeKind::kLink:
      Add(e.start, e.start, Op::kLinkStart, row);
      Add(e.end, e.end, Op::kLinkEnd, row);
      break;
    case TypeKind::kContainer: break;
  }
}

void Replay::Apply(const Action& a) {
  using VariableOp = paje::Simulator::VariableOp;
  if (a.op == Op::kDestroy) {
    const TableContainer& c = t_.containers[a.index];
    try {
      sim_.DestroyContainer(a.at, TypeIdentifier(c.type), container_ids_[a.index]);
    } catch (const paje::SimulationError& e) {
      t_.Fail(c.source, e.what());
    }
    return;
  }
  const StringId type = type_ids_[stores_[a.store].type], container = ContainerId(stores_[a.store].container);
  try {
    switch (a.op) {
      case Op::kPush: sim_.PushState(a.at, type, container, a.value, {}); break;
      case Op::kPop: sim_.PopState(a.at, type, container, {}); break;
      case Op::kEvent: sim_.NewEvent(a.at, type, container, a.value, {}); break;
      case Op::kVariable: sim_.ChangeVariable(VariableOp::kSet, a.at, type, container, a.number, {}); break;
      case Op::kLinkStart:
      case Op::kLinkEnd: {
        // Without a key of its own, the entity's index: no other link has it.
        const StringId key = a.key != kEmptyString ? a.key : t_.Intern("#" + std::to_string(a.index));
        if (a.op == Op::kLinkStart)
          sim_.StartLink(a.at, type, container, ContainerId(a.other), a.value, key, {});
        else
          sim_.EndLink(a.at, type, container, ContainerId(a.other), a.value, key, {});
        break;
      }
      case Op::kDestroy: break;
    }
  } catch (const paje::SimulationError& error) {
    t_.Fail(a.source, error.what());
  }
}

void Replay::Run(double last) {
  root_ = t_.Intern("0");
  type_ids_.resize(t_.types.size());
  container_ids_.resize(t_.containers.size());
  DefineTypes();
  CreateContainers();
  // Each store's actions in turn, as its rows come (RowOrder).
  TableRow row;
  uint32_t store = 0;
  while (t_.NextRow(row)) {
    if (row.store != store) EndStore();
    store = row.store;
    if (store == stores_.size()) stores_.push_back({row.entity.type, row.entity.container});
    Row(row);
  }
  EndStore();
  for (uint32_t i = 0; i < t_.containers.size(); ++i) {
    const TableContainer& c = t_.containers[i];
    if (c.end < 0 || c.end >= last) continue;
    uint32_t depth = 0;
    for (uint32_t p = c.parent; p != kNone; p = t_.containers[p].parent) ++depth;
    Action a;
    a.time = a.at = c.end;
    a.number = 0;
    a.index = i;
    a.store = kNone;
    a.other = depth + 1;
    a.key = kEmptyString;
    a.source = c.source;
    a.op = Op::kDestroy;
    actions_.Add(a);
  }
  Action a;
  while (actions_.Next(a)) Apply(a);
  try {
    sim_.Finish(last);
  } catch (const paje::SimulationError& e) {
    t_.Fail({static_cast<uint32_t>(t_.files.size() - 1), 1}, e.what());
  }
}

}  // namespace

void Simulate(Table& table, double last, const paje::SimulatorOptions& options) {
  Replay(table, options).Run(last);
}

}  // namespace macroscope::csv
