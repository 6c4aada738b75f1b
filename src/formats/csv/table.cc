#include "formats/csv/table.h"

#include <algorithm>
#include <cstdio>

#include "model/time_base.h"
#include "util/error.h"

namespace macroscope::csv {

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
                  const std::function<void(std::string_view, const std::string&)>& add) {
  uint64_t bytes = 0;
  for (const std::string& f : files) {
    mapped.push_back(std::make_unique<MappedFile>(f));
    add(mapped.back()->bytes(), f);
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

struct Action {
  double time;     // where it sorts
  double at;       // the time given to the simulator
  uint32_t depth;  // destroys: deeper first at one time
  Op op;
  uint32_t index;  // entity, or container for kDestroy
};

class Replay {
 public:
  Replay(Table& t, const paje::SimulatorOptions& options) : t_(t), sim_(t.trace(), options) {}
  void Run(double last);

 private:
  void DefineTypes();
  void CreateContainers();
  void StoreActions(std::vector<uint32_t>& store);
  void StateActions(std::vector<uint32_t>& store);
  void Apply(const Action& a);
  StringId ContainerId(uint32_t c) const { return c == kNone ? root_ : container_ids_[c]; }
  StringId TypeIdentifier(uint32_t type) const { return type == kNone ? root_ : type_ids_[type]; }

  Table& t_;
  paje::Simulator sim_;
  StringId root_ = kEmptyString;
  std::vector<StringId> type_ids_, container_ids_;
  std::vector<Action> actions_;
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

// One (container, type)'s states as push/pop pairs: before a state of
// level L, the open states above L end; what the stack holds at each step
// must go forward in time, or the states overlap without nesting.
void Replay::StateActions(std::vector<uint32_t>& store) {
  auto& e = t_.entities;
  if (!t_.levels_given) {
    std::stable_sort(store.begin(), store.end(), [&](uint32_t a, uint32_t b) {
      return e[a].start < e[b].start || (e[a].start == e[b].start && e[a].end > e[b].end);
    });
    std::vector<uint32_t> open;
    for (uint32_t i : store) {
      while (!open.empty() && e[open.back()].end <= e[i].start) open.pop_back();
      e[i].level = static_cast<uint32_t>(open.size());
      open.push_back(i);
    }
  }
  std::vector<uint32_t> stack;
  double now = -1e308;
  auto at = [&](double time, uint32_t i, Op op) {
    // pj_dump prints states that end before they start (a pop older than
    // its push); the simulator takes no pop before the push: it ends where
    // it starts (docs/csv.md).
    const bool backwards = op == Op::kPop && t_.levels_given && time < e[i].start;
    if (backwards) time = std::max(time, now);
    if (time < now && !backwards) {
      const TableEntity& culprit = e[op == Op::kPush ? i : stack.back()];
      t_.Fail(culprit.source, "a state overlapping another of its container and type without nesting in it");
    }
    now = std::max(now, time);
    actions_.push_back({now, time, 0, op, i});
  };
  for (uint32_t i : store) {
    if (e[i].level > stack.size())
      t_.Fail(e[i].source, "imbrication " + std::to_string(e[i].level) + " but " + std::to_string(stack.size()) +
                               " state(s) open in its container and type");
    while (stack.size() > e[i].level) {
      at(e[stack.back()].end, stack.back(), Op::kPop);
      stack.pop_back();
    }
    at(e[i].start, i, Op::kPush);
    stack.push_back(i);
  }
  while (!stack.empty()) {
    at(e[stack.back()].end, stack.back(), Op::kPop);
    stack.pop_back();
  }
}

void Replay::StoreActions(std::vector<uint32_t>& store) {
  const TableEntity& first = t_.entities[store.front()];
  if (first.kind == TypeKind::kState) return StateActions(store);
  for (uint32_t i : store) {
    const TableEntity& e = t_.entities[i];
    switch (e.kind) {
      case TypeKind::kEvent: actions_.push_back({e.start, e.start, 0, Op::kEvent, i}); break;
      case TypeKind::kVariable: actions_.push_back({e.start, e.start, 0, Op::kVariable, i}); break;
      case TypeKind::kLink:
        actions_.push_back({e.start, e.start, 0, Op::kLinkStart, i});
        actions_.push_back({e.end, e.end, 0, Op::kLinkEnd, i});
        break;
      default: break;
    }
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
  const TableEntity& e = t_.entities[a.index];
  const StringId type = type_ids_[e.type], container = ContainerId(e.container);
  try {
    switch (a.op) {
      case Op::kPush: sim_.PushState(a.at, type, container, e.value, {}); break;
      case Op::kPop: sim_.PopState(a.at, type, container, {}); break;
      case Op::kEvent: sim_.NewEvent(a.at, type, container, e.value, {}); break;
      case Op::kVariable: sim_.ChangeVariable(VariableOp::kSet, a.at, type, container, e.number, {}); break;
      case Op::kLinkStart:
      case Op::kLinkEnd: {
        // Without a key of its own, the entity's index: no other link has it.
        const StringId key = e.key != kEmptyString ? e.key : t_.Intern("#" + std::to_string(a.index));
        if (a.op == Op::kLinkStart)
          sim_.StartLink(a.at, type, container, ContainerId(e.start_container), e.value, key, {});
        else
          sim_.EndLink(a.at, type, container, ContainerId(e.end_container), e.value, key, {});
        break;
      }
      case Op::kDestroy: break;
    }
  } catch (const paje::SimulationError& error) {
    t_.Fail(e.source, error.what());
  }
}

void Replay::Run(double last) {
  root_ = t_.Intern("0");
  type_ids_.resize(t_.types.size());
  container_ids_.resize(t_.containers.size());
  DefineTypes();
  CreateContainers();
  // Each (container, type)'s entities, in table order, stores in order of appearance.
  std::unordered_map<uint64_t, uint32_t> store_of;
  std::vector<std::vector<uint32_t>> stores;
  for (uint32_t i = 0; i < t_.entities.size(); ++i) {
    const TableEntity& e = t_.entities[i];
    uint64_t key = (static_cast<uint64_t>(e.container) << 32) | e.type;
    auto [it, added] = store_of.try_emplace(key, static_cast<uint32_t>(stores.size()));
    if (added) stores.emplace_back();
    stores[it->second].push_back(i);
  }
  store_of.clear();
  for (auto& store : stores) StoreActions(store);
  stores.clear();
  for (uint32_t i = 0; i < t_.containers.size(); ++i) {
    const TableContainer& c = t_.containers[i];
    if (c.end < 0 || c.end >= last) continue;
    uint32_t depth = 0;
    for (uint32_t p = c.parent; p != kNone; p = t_.containers[p].parent) ++depth;
    actions_.push_back({c.end, c.end, depth + 1, Op::kDestroy, i});
  }
  // One time-ordered replay; at one time entities before destroys, deeper
  // containers first; otherwise the order each store's sequence gave.
  std::stable_sort(actions_.begin(), actions_.end(), [](const Action& a, const Action& b) {
    if (a.time != b.time) return a.time < b.time;
    if (a.depth == 0 || b.depth == 0) return a.depth == 0 && b.depth != 0;
    return a.depth > b.depth;
  });
  for (const Action& a : actions_) Apply(a);
  actions_ = {};
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
