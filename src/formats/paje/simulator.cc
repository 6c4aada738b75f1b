#include "formats/paje/simulator.h"

#include <cmath>

namespace macroscope::paje {

namespace {

std::string Quote(const Trace& trace, StringId id) { return "'" + std::string(trace.Str(id)) + "'"; }

}  // namespace

Simulator::Simulator(Trace& trace, SimulatorOptions options) : trace_(trace), options_(options) {
  StringId zero = trace_.strings().Intern("0");
  type_by_identifier_.assign(zero + 1, kNone);
  type_by_identifier_[zero] = kRootType;
  container_by_identifier_.assign(zero + 1, kNone);
  container_by_identifier_[zero] = kRootContainer;
  container_states_.resize(1);
  routes_.resize(1);
}

TypeId Simulator::LookupType(StringId identifier) const {
  return identifier < type_by_identifier_.size() ? type_by_identifier_[identifier] : kNone;
}

ContainerId Simulator::LookupContainer(StringId identifier, const char* role) const {
  ContainerId c = identifier < container_by_identifier_.size() ? container_by_identifier_[identifier] : kNone;
  if (c == kNone) throw SimulationError(std::string("unknown ") + role + " " + Quote(trace_, identifier));
  return c;
}

static void Put(std::vector<uint32_t>& map, StringId key, uint32_t value) {
  if (key >= map.size()) map.resize(key + 1 + map.size() / 2, kNone);
  map[key] = value;
}

void Simulator::DefineContainerType(StringId parent_type, StringId name, StringId alias) {
  DefineEntityType(TypeKind::kContainer, parent_type, name, alias, kEmptyString);
}

void Simulator::DefineEntityType(TypeKind kind, StringId parent_type, StringId name, StringId alias,
                                 StringId color) {
  TypeId parent = LookupType(parent_type);
  if (parent == kNone) throw SimulationError("unknown container type " + Quote(trace_, parent_type));
  if (trace_.type(parent).kind != TypeKind::kContainer)
    throw SimulationError("type " + Quote(trace_, parent_type) + " is not a container type");
  StringId identifier = alias != kEmptyString ? alias : name;
  if (LookupType(identifier) != kNone)
    throw SimulationError(std::string(TypeKindName(kind)) + " type " + Quote(trace_, identifier) +
                          " is already defined");
  TypeId id = trace_.AddType(parent, kind, name, alias);
  trace_.type(id).color = color;
  Put(type_by_identifier_, identifier, id);
}

void Simulator::DefineLinkType(StringId parent_type, StringId start_type, StringId end_type, StringId name,
                               StringId alias) {
  TypeId start = LookupType(start_type);
  if (start == kNone) throw SimulationError("unknown start container type " + Quote(trace_, start_type));
  TypeId end = LookupType(end_type);
  if (end == kNone) throw SimulationError("unknown end container type " + Quote(trace_, end_type));
  DefineEntityType(TypeKind::kLink, parent_type, name, alias, kEmptyString);
  Type& t = trace_.type(static_cast<TypeId>(trace_.types().size() - 1));
  t.start_type = start;
  t.end_type = end;
}

void Simulator::DefineValue(StringId type_identifier, StringId name, StringId alias, StringId color) {
  TypeId type = LookupType(type_identifier);
  if (type == kNone) throw SimulationError("unknown type " + Quote(trace_, type_identifier));
  TypeKind kind = trace_.type(type).kind;
  if (kind == TypeKind::kContainer || kind == TypeKind::kVariable)
    throw SimulationError("values cannot be defined for " + std::string(TypeKindName(kind)) + " type " +
                          Quote(trace_, type_identifier));
  auto key = [type](StringId s) { return (uint64_t{type} << 32) | s; };
  auto check = [&](StringId identifier) {
    if (value_names_.count(key(identifier)))
      throw SimulationError("value " + Quote(trace_, identifier) + " is already defined for type " +
                            Quote(trace_, type_identifier));
    if (undeclared_values_.count(key(identifier)))
      throw SimulationError("value " + Quote(trace_, identifier) + " of type " + Quote(trace_, type_identifier) +
                            " was used before this definition (pj_dump: a redefinition)");
  };
  if (alias != kEmptyString) check(alias);
  check(name);
  trace_.AddValue(type, name, alias, color);
  value_names_[key(name)] = name;
  if (alias != kEmptyString) value_names_[key(alias)] = name;
}

StringId Simulator::NewValue(uint64_t key) {
  const auto value = static_cast<StringId>(key);
  auto it = value_names_.find(key);
  if (it == value_names_.end()) undeclared_values_.insert(key);
  auto& r = resolved_.Slot(key);
  r = {key, it == value_names_.end() ? value : it->second};
  return r.value;
}

void Simulator::CreateContainer(double time, StringId type_identifier, StringId parent_identifier,
                                StringId name, StringId alias, Extras extras) {
  TypeId type = LookupType(type_identifier);
  if (type == kNone) throw SimulationError("unknown container type " + Quote(trace_, type_identifier));
  if (trace_.type(type).kind != TypeKind::kContainer)
    throw SimulationError("type " + Quote(trace_, type_identifier) + " is not a container type");
  ContainerId parent = LookupContainer(parent_identifier);
  if (trace_.type(type).parent != trace_.container(parent).type)
    throw SimulationError("container type " + Quote(trace_, type_identifier) +
                          " is not a child type of the type of container " + Quote(trace_, parent_identifier));
  StringId identifier = alias != kEmptyString ? alias : name;
  if (identifier < container_by_identifier_.size() && container_by_identifier_[identifier] != kNone)
    throw SimulationError("container " + Quote(trace_, identifier) + " already exists");
  ContainerId id = trace_.AddContainer(parent, type, name, alias, time);
  trace_.container(id).extras.assign(extras.begin(), extras.end());
  Put(container_by_identifier_, identifier, id);
  container_states_.emplace_back();
  routes_.emplace_back();
}

TypeId Simulator::EntityType(StringId type_identifier, ContainerId container, TypeKind kind) const {
  TypeId type = LookupType(type_identifier);
  if (type == kNone) throw SimulationError("unknown type " + Quote(trace_, type_identifier));
  const Type& t = trace_.type(type);
  if (t.kind != kind)
    throw SimulationError("type " + Quote(trace_, type_identifier) + " is not a " +
                          std::string(TypeKindName(kind)) + " type");
  if (t.parent != trace_.container(container).type)
    throw SimulationError("type " + Quote(trace_, type_identifier) + " is not a child type of the type of container " +
                          Quote(trace_, trace_.container(container).name));
  return type;
}

bool Simulator::NewRoute(StringId type_identifier, StringId container_identifier, TypeKind kind, Target& out) {
  out.container = LookupContainer(container_identifier);
  out.type = EntityType(type_identifier, out.container, kind);
  out.store = StoreIndex(out.container, out.type);
  if (trace_.container(out.container).destroyed) return false;
  RouteSet& set = routes_[out.container];
  set.entry[set.next] = {type_identifier, kind, out};
  set.next = static_cast<uint8_t>((set.next + 1) % RouteSet::kWays);
  return true;
}

void Simulator::Prefetch(StringId type_identifier, StringId container_identifier, int stage) const {
  if (container_identifier >= container_by_identifier_.size()) return;
  ContainerId c = container_by_identifier_[container_identifier];
  if (c == kNone) return;
  const RouteEntry* r = routes_[c].Find(type_identifier);
  if (r == nullptr) return;
  const EntityStore& s = trace_.stores()[r->target.store];
  if (stage == 0) {  // the store's times, and its values or numbers (model/trace.h)
    __builtin_prefetch(&s);
    __builtin_prefetch(reinterpret_cast<const char*>(&s) + (r->kind == TypeKind::kVariable ? 128 : 64));
    __builtin_prefetch(&store_states_[r->target.store]);
    return;
  }
  size_t n = s.size();
  __builtin_prefetch(s.start.data() + n, 1);
  if (n > 0) __builtin_prefetch(s.end.data() + n - 1, 1);
  if (s.kind == TypeKind::kVariable) {  // the last value ends, the next starts
    __builtin_prefetch(s.end.data() + n, 1);
    __builtin_prefetch(s.number.data() + n, 1);
    if (n > 0) __builtin_prefetch(s.number.data() + n - 1, 1);
    return;
  }
  if (s.kind != TypeKind::kEvent) __builtin_prefetch(s.end.data() + n, 1);
  __builtin_prefetch(s.value.data() + n, 1);
  if (s.kind == TypeKind::kState) __builtin_prefetch(s.level.data() + n, 1);
  const auto& stack = store_states_[r->target.store].stack;
  if (!stack.empty()) __builtin_prefetch(s.end.data() + stack.front(), 1);
}

uint32_t Simulator::StoreIndex(ContainerId container, TypeId type) {
  for (auto& [t, index] : trace_.container(container).stores)
    if (t == type) return index;
  trace_.Store(container, type);
  store_states_.emplace_back();
  return static_cast<uint32_t>(trace_.stores().size() - 1);
}

void Simulator::TimeGoesBack(const EntityStore& s) const {
  throw TimeOrderError("time goes backwards for type " + Quote(trace_, trace_.type(s.type).name) + " in container " +
                       Quote(trace_, trace_.container(s.container).name) + " (pj_dump: trace is not time-ordered)");
}

void Simulator::NewEvent(double time, StringId type_identifier, StringId container_identifier, StringId value,
                         Extras extras) {
  MaybeDrain();
  Target target;
  if (!Route(type_identifier, container_identifier, TypeKind::kEvent, target)) return;
  const TypeId type = target.type;
  const uint32_t si = target.store;
  EntityStore& s = trace_.store(si);
  CheckTimeOrder(si, time);
  s.start.push_back(time);  // an event has no end column
  NoteLast(si, s, time, kOpen);
  s.value.push_back(ResolveValue(type, value));
  if (!extras.empty()) s.extras.SetStart(s.size() - 1, s.extras.AddList(extras));
  Appended(si);
}

uint32_t Simulator::OpenState(uint32_t si, double time, StringId value, uint16_t level, uint32_t extras) {
  EntityStore& s = trace_.store(si);
  AppendTimes(si, s, time, kOpen);
  s.value.push_back(value);
  s.level.push_back(level);
  auto index = static_cast<uint32_t>(s.size() - 1);
  if (extras != 0) s.extras.SetStart(index, extras);
  store_states_[si].stack.push_back(index);
  Appended(si);
  return index;
}

void Simulator::SetState(double time, StringId type_identifier, StringId container_identifier, StringId value,
                         Extras extras) {
  MaybeDrain();
  Target target;
  if (!Route(type_identifier, container_identifier, TypeKind::kState, target)) return;
  const TypeId type = target.type;
  const uint32_t si = target.store;
  EntityStore& s = trace_.store(si);
  CheckTimeOrder(si, time);
  EndOpenStates(si, s, time);  // with their own fields only (as in pj_dump)
  OpenState(si, time, ResolveValue(type, value), 0, s.extras.AddList(extras));
}

void Simulator::ResetState(double time, StringId type_identifier, StringId container_identifier, Extras extras) {
  MaybeDrain();
  Target target;
  if (!Route(type_identifier, container_identifier, TypeKind::kState, target)) return;
  const uint32_t si = target.store;
  EntityStore& s = trace_.store(si);
  CheckTimeOrder(si, time);
  (void)extras;  // like a set, a reset gives no fields to the states it ends
  EndOpenStates(si, s, time);
  Touched(si);
}

void Simulator::PushState(double time, StringId type_identifier, StringId container_identifier, StringId value,
                          Extras extras) {
  MaybeDrain();
  Target target;
  if (!Route(type_identifier, container_identifier, TypeKind::kState, target)) return;
  const TypeId type = target.type;
  const uint32_t si = target.store;
  EntityStore& s = trace_.store(si);
  CheckTimeOrder(si, time);
  uint32_t list = s.extras.AddList(extras);
  auto& stack = store_states_[si].stack;
  uint16_t level = 0;
  if (!stack.empty()) {
    uint32_t top = stack.back();
    level = static_cast<uint16_t>(s.level[top] + 1);
    if (options_.no_imbrication) {  // the state below is interrupted, not nested
      End(si, s, top, time);
      if (list != 0) s.extras.SetEnd(top, list);
    }
  }
  OpenState(si, time, ResolveValue(type, value), level, list);
}

void Simulator::PopState(double time, StringId type_identifier, StringId container_identifier, Extras extras) {
  MaybeDrain();
  Target target;
  if (!Route(type_identifier, container_identifier, TypeKind::kState, target)) return;
  const ContainerId c = target.container;
  const TypeId type = target.type;
  const uint32_t si = target.store;
  EntityStore& s = trace_.store(si);
  CheckTimeOrder(si, time);
  auto& stack = store_states_[si].stack;
  if (stack.empty())
    throw SimulationError("pop of state type " + Quote(trace_, trace_.type(type).name) + " in container " +
                          Quote(trace_, trace_.container(c).name) + " whose stack is empty");
  uint32_t list = s.extras.AddList(extras);
  uint32_t top = stack.back();
  End(si, s, top, time);
  if (list != 0) s.extras.SetEnd(top, list);
  stack.pop_back();
  Touched(si);
  if (options_.no_imbrication && !stack.empty()) {  // the interrupted state resumes
    uint32_t below = stack.back();
    stack.pop_back();
    OpenState(si, time, s.value[below], s.level[below], list);
  }
}

void Simulator::ChangeVariable(VariableOp op, double time, StringId type_identifier,
                               StringId container_identifier, double value, Extras extras) {
  MaybeDrain();
  Target target;
  const bool alive = Route(type_identifier, container_identifier, TypeKind::kVariable, target);
  const ContainerId c = target.container;
  const TypeId type = target.type;
  EntityStore& s = trace_.store(target.store);
  if (op != VariableOp::kSet && s.size() == 0)
    throw SimulationError(std::string(op == VariableOp::kAdd ? "addition to" : "subtraction from") + " variable " +
                          Quote(trace_, trace_.type(type).name) + " in container " +
                          Quote(trace_, trace_.container(c).name) + " that has no value yet");
  if (!alive) return;  // pj_dump drops what comes after the end
  const uint32_t si = target.store;
  // By reference: a set reads no earlier value, whose line then stays
  // unread (only written).
  auto changed = [&](const double& previous) {
    return op == VariableOp::kSet ? value : op == VariableOp::kAdd ? previous + value : previous - value;
  };
  uint32_t list = s.extras.AddList(extras);
  if (s.size() > 0) {
    CheckTimeOrder(si, time);
    size_t last = s.size() - 1;
    if (store_states_[si].last_start == time) {  // same instant: the last value changes in place
      s.number[last] = changed(s.number[last]);
      return;
    }
    End(si, s, last, time);  // the next value's fields stay with the next value
    s.number.push_back(changed(s.number[last]));
  } else {
    s.number.push_back(changed(0));
  }
  AppendTimes(si, s, time, kOpen);
  if (list != 0) s.extras.SetStart(s.size() - 1, list);
  Appended(si);
}

void Simulator::FinishLink(uint32_t si, const PendingLink& link, StringId key) {
  EntityStore& s = trace_.store(si);
  AppendTimes(si, s, link.start, link.end);
  s.value.push_back(link.value);
  s.key.push_back(key);
  s.peer_start.push_back(link.start_container);
  s.peer_end.push_back(link.end_container);
  if (link.first_extras != 0) s.extras.SetStart(s.size() - 1, link.first_extras);
  if (link.second_extras != 0) s.extras.SetEnd(s.size() - 1, link.second_extras);
  Appended(si);
}

void Simulator::StartLink(double time, StringId type_identifier, StringId container_identifier,
                          StringId start_identifier, StringId value, StringId key, Extras extras) {
  LinkEnd(true, time, type_identifier, container_identifier, start_identifier, value, key, extras);
}

void Simulator::EndLink(double time, StringId type_identifier, StringId container_identifier,
                        StringId end_identifier, StringId value, StringId key, Extras extras) {
  LinkEnd(false, time, type_identifier, container_identifier, end_identifier, value, key, extras);
}

// Either half of a link: the first to come waits under its key in the
// holding container; the second completes the link, which is stored then.
void Simulator::LinkEnd(bool is_start, double time, StringId type_identifier, StringId container_identifier,
                        StringId peer_identifier, StringId value, StringId key, Extras extras) {
  MaybeDrain();
  const char* side = is_start ? "start" : "end";
  ContainerId c = LookupContainer(container_identifier);
  ContainerId peer = LookupContainer(peer_identifier, is_start ? "start container" : "end container");
  TypeId type = EntityType(type_identifier, c, TypeKind::kLink);
  const Type& link_type = trace_.type(type);
  if ((is_start ? link_type.start_type : link_type.end_type) != trace_.container(peer).type)
    throw SimulationError("container " + Quote(trace_, peer_identifier) + " is not of the " + side +
                          " container type of link type " + Quote(trace_, type_identifier));
  value = ResolveValue(type, value);
  if (trace_.container(c).destroyed) return;  // pj_dump drops what comes after the end
  ContainerState& cs = container_states_[c];
  uint32_t* held = cs.keys.Find(key);
  if (held != nullptr && *held == kUsedKey)
    throw SimulationError("link key " + Quote(trace_, key) + " was already used in container " +
                          Quote(trace_, trace_.container(c).name));
  uint32_t si = StoreIndex(c, type);
  EntityStore& s = trace_.store(si);
  const bool first = held == nullptr;
  PendingLink link = first ? PendingLink{type, kOpen, kOpen, value, kNone, kNone, 0, 0} : pending_links_[*held];
  (is_start ? link.start : link.end) = time;
  (is_start ? link.start_container : link.end_container) = peer;
  (first ? link.first_extras : link.second_extras) = s.extras.AddList(extras);
  if (first) {
    cs.keys.Insert(key, Hold(link));
    ++cs.pending;
    return;
  }
  if (link.value != value)
    throw SimulationError(std::string(is_start ? "PajeStartLink" : "PajeEndLink") + " with value " +
                          Quote(trace_, value) + " but its " + (is_start ? "PajeEndLink" : "PajeStartLink") +
                          " (key " + Quote(trace_, key) + ") had " + Quote(trace_, link.value));
  CheckTimeOrder(si, time);
  FinishLink(si, link, key);
  Release(*held);
  *held = kUsedKey;
  --cs.pending;
}

uint32_t Simulator::Hold(const PendingLink& link) {
  if (free_pending_.empty()) {
    pending_links_.push_back(link);
    return static_cast<uint32_t>(pending_links_.size() - 1);
  }
  const uint32_t index = free_pending_.back();
  free_pending_.pop_back();
  pending_links_[index] = link;
  return index;
}

void Simulator::DestroyContainer(double time, StringId type_identifier, StringId name) {
  TypeId type = LookupType(type_identifier);
  if (type == kNone) throw SimulationError("unknown container type " + Quote(trace_, type_identifier));
  ContainerId c = LookupContainer(name);
  if (trace_.container(c).type != type)
    throw SimulationError("container " + Quote(trace_, name) + " is not of type " + Quote(trace_, type_identifier));
  if (trace_.container(c).destroyed)
    throw SimulationError("container " + Quote(trace_, name) + " is already destroyed");
  DestroyTree(c, time);
}

void Simulator::DestroyTree(ContainerId root, double time) {
  // Parents before children, skipping those already destroyed (pj_dump's order).
  std::vector<ContainerId> todo{root};
  for (size_t visited = 0; !todo.empty(); ++visited) {
    ContainerId c = todo.back();
    todo.pop_back();
    if (!trace_.container(c).destroyed) Destroy(c, time, visited);
    for (ContainerId child : trace_.container(c).children) todo.push_back(child);
  }
}

void Simulator::Destroy(ContainerId c, double time, size_t rank) {
  Container& container = trace_.container(c);
  routes_[c] = RouteSet{};
  container.destroyed = true;
  container.end = time;
  for (auto& [type, si] : container.stores) {
    EntityStore& s = trace_.store(si);
    if (s.size() > 0 && !s.end.empty() && s.end.back() == kOpen) End(si, s, s.size() - 1, time);
  }
  ContainerState& cs = container_states_[c];
  if (cs.pending > 0) {
    if (!options_.ignore_incomplete_links) {
      StringId key = kNone;
      uint32_t waiting = kUsedKey;
      cs.keys.ForEach([&](StringId k, uint32_t held) {
        if (held != kUsedKey && key == kNone) key = k, waiting = held;
      });
      const PendingLink& link = pending_links_[waiting];
      throw SimulationError(std::to_string(cs.pending) + " incomplete link(s) at the end of container " +
                            Quote(trace_, container.name) + ", e.g. key " + Quote(trace_, key) + " of type " +
                            Quote(trace_, trace_.type(link.type).name), rank);
    }
    cs.keys.ForEach([this](StringId, uint32_t held) {
      if (held != kUsedKey) Release(held);
    });
  }
  cs = ContainerState{};  // nothing comes for a destroyed container: its keys can go
  for (auto& [type, si] : trace_.container(c).stores) {
    EndOpenStates(si, trace_.store(si), time);
    Touched(si);  // nothing can come for it any more: hand it over at the next drain
  }
}

void Simulator::Finish(double last_time) {
  if (options_.progress != nullptr) CountProgress();
  DestroyTree(kRootContainer, last_time);
  if (options_.sink != nullptr) Drain(true);
  trace_.SetTimeSpan(0, last_time);
}

}  // namespace macroscope::paje
