#include "formats/otf2/event_translator.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <optional>

#include <absl/strings/str_cat.h>

#include "model/time_base.h"

namespace macroscope::otf2 {

namespace {

const char* LocationGroupTypeName(OTF2_LocationGroupType type) {
  switch (type) {
    case OTF2_LOCATION_GROUP_TYPE_PROCESS: return "PROCESS";
    case OTF2_LOCATION_GROUP_TYPE_ACCELERATOR: return "ACCELERATOR";
    default: return "UNKNOWN";
  }
}

const char* LocationTypeName(OTF2_LocationType type) {
  switch (type) {
    case OTF2_LOCATION_TYPE_CPU_THREAD: return "CPU_THREAD";
    case OTF2_LOCATION_TYPE_ACCELERATOR_STREAM: return "ACCELERATOR_STREAM";
    case OTF2_LOCATION_TYPE_METRIC: return "METRIC";
    default: return "UNKNOWN";
  }
}

double MetricNumber(OTF2_Type type, const OTF2_MetricValue& value) {
  switch (type) {
    case OTF2_TYPE_INT64: return static_cast<double>(value.signed_int);
    case OTF2_TYPE_UINT64: return static_cast<double>(value.unsigned_int);
    default: return value.floating_point;
  }
}

// The kind of entity a record makes (a message whose peer is unknown is
// left out with the links).
TypeKind KindOf(EventRecord::Kind kind) {
  switch (kind) {
    case EventRecord::Kind::kEnter:
    case EventRecord::Kind::kLeave: return TypeKind::kState;
    case EventRecord::Kind::kMessage: return TypeKind::kLink;
    case EventRecord::Kind::kMetric: return TypeKind::kVariable;
    default: return TypeKind::kEvent;
  }
}

}  // namespace

OTF2_CallbackCode EventTranslator::Take(const EventRecord& r) {
  return Record(r.time, r.location, [&](double when) {
    if (!kinds_.Has(KindOf(r.kind))) return;
    if (hold_messages_) Position(r.location, r.time);
    switch (r.kind) {
      case EventRecord::Kind::kPunctual:
        return Punctual(r.location, when, r.name, trace_.strings().Intern(r.name), r.attributes);
      case EventRecord::Kind::kProgramBegin:
        return Punctual(r.location, when, "PROGRAM_BEGIN",
                        trace_.strings().Intern(defs_.String(static_cast<OTF2_StringRef>(r.ref))), r.attributes);
      case EventRecord::Kind::kEnter: {
        const Location& at = At(r.location);
        return simulator_.PushState(when, RegionType(at.container), at.identifier, RegionName(r.ref),
                                    Attributes(r.attributes));
      }
      case EventRecord::Kind::kLeave: {
        const Location& at = At(r.location);
        return simulator_.PopState(when, RegionType(at.container), at.identifier, Attributes(r.attributes));
      }
      case EventRecord::Kind::kMessage:
        return Message(r.send, r.location, when, r.peer, r.comm, r.tag, r.length, r.attributes, r.name);
      case EventRecord::Kind::kMetric:
        return Metric(r, when);
    }
  });
}

void EventTranslator::Metric(const EventRecord& r, double when) {
  auto metric = static_cast<OTF2_MetricRef>(r.ref);
  auto it = defs_.metrics.find(metric);
  if (it == defs_.metrics.end()) {
    Punctual(r.location, when, "METRIC", trace_.strings().Intern("METRIC"), r.attributes);
    return;
  }
  const Definitions::Metric& m = it->second;
  // A metric instance's values describe its scope (a location, a
  // process, a node), not necessarily the location that recorded them.
  ContainerId container = At(r.location).container;
  if (m.instance) {
    if (m.scope_kind == OTF2_SCOPE_LOCATION) container = At(m.scope).container;
    if (m.scope_kind == OTF2_SCOPE_LOCATION_GROUP && groups_.count(static_cast<OTF2_LocationGroupRef>(m.scope)))
      container = groups_.at(static_cast<OTF2_LocationGroupRef>(m.scope));
    if (m.scope_kind == OTF2_SCOPE_SYSTEM_TREE_NODE && nodes_.count(static_cast<OTF2_SystemTreeNodeRef>(m.scope)))
      container = nodes_.at(static_cast<OTF2_SystemTreeNodeRef>(m.scope));
  }
  const size_t count = r.metric_values.size();
  if (count != m.members.size())
    throw paje::SimulationError("METRIC record with " + std::to_string(count) + " values for metric " +
                                std::to_string(metric) + " of " + std::to_string(m.members.size()) + " members");
  paje::Extras extras = Attributes(r.attributes);
  StringId identifier = Identifier(container);
  for (size_t i = 0; i < count; ++i) {
    auto member = defs_.metric_members.find(m.members[i]);
    std::string name = member == defs_.metric_members.end() ? "metric member " + std::to_string(m.members[i])
                                                            : defs_.String(member->second);
    simulator_.ChangeVariable(paje::Simulator::VariableOp::kSet, when,
                              EntityType(TypeKind::kVariable, container, name), identifier,
                              MetricNumber(r.metric_types[i], r.metric_values[i]), extras);
  }
}

EventTranslator::EventTranslator(const Definitions& defs, Trace& trace, paje::Simulator& simulator)
    : defs_(defs), trace_(trace), simulator_(simulator) {
  // Known from the definitions: set before any entity, so that a streaming
  // sink sees the final time base from the first hand-over on.
  trace_.SetTimeBase({.num = 1,
                      .den = defs_.timer_resolution,
                      .whole_ticks = true,
                      .origin = static_cast<int64_t>(defs_.global_offset),
                      .epoch_ns = defs_.realtime_ns});
}

template <class F>
OTF2_CallbackCode EventTranslator::Record(OTF2_TimeStamp time, OTF2_LocationRef location, F&& f) {
  if (error_) return OTF2_CALLBACK_INTERRUPT;
  try {
    ++records_;
    double when = ModelTime(time, location);
    if (!started_) {
      CreateContainers(when);
      started_ = true;
      first_ = last_ = when;
    }
    first_ = std::min(first_, when);
    last_ = std::max(last_, when);
    f(when);
    // Stores a record creates (links are created at the end, when shared).
    if (hold_messages_)
      while (stores_at_.size() < trace_.stores().size()) stores_at_.push_back({now_.latest, now_.location, ++now_.seq});
    return OTF2_CALLBACK_SUCCESS;
  } catch (...) {
    error_ = std::current_exception();
    return OTF2_CALLBACK_INTERRUPT;
  }
}

double EventTranslator::ModelTime(OTF2_TimeStamp time, OTF2_LocationRef location) const {
  // Whole ticks from the global offset (time_base.h): subtracted in
  // integers (the offset is below 2^63: definitions.cc), exact in a double
  // below 2^53. Beyond, refused: a SimulationError, which the reader
  // places (the archive, the record's number).
  const auto offset = static_cast<int64_t>(defs_.global_offset);
  int64_t ticks = 0;
  if (time > static_cast<uint64_t>(INT64_MAX) || __builtin_sub_overflow(static_cast<int64_t>(time), offset, &ticks) ||
      static_cast<double>(ticks < 0 ? -ticks : ticks) >= kMaxWholeTicks) {
    auto known = defs_.locations.find(location);
    const std::string name = known == defs_.locations.end() ? "" : " '" + defs_.String(known->second.name) + "'";
    throw paje::SimulationError("location " + std::to_string(location) + name + ": a timestamp of " +
                                std::to_string(time) + " ticks, 2^53 ticks or more from the clock's global offset " +
                                std::to_string(defs_.global_offset) + ", which macroscope cannot hold exactly");
  }
  return static_cast<double>(ticks);
}

void EventTranslator::Finish() {
  if (!started_) {
    CreateContainers(0);
    started_ = true;
  }
  Finish(first_, last_);
}

void EventTranslator::Finish(double first, double last) {
  simulator_.Finish(last);
  trace_.SetTimeSpan(first, last);
}

StringId EventTranslator::Identifier(ContainerId container) const {
  const Container& c = trace_.container(container);
  return c.alias != kEmptyString ? c.alias : c.name;
}

StringId EventTranslator::ContainerType(TypeId parent_type, const std::string& name) {
  auto key = std::make_tuple(parent_type, TypeKind::kContainer, name);
  auto it = types_.find(key);
  if (it != types_.end()) return it->second;
  const Type& parent = trace_.type(parent_type);
  StringId parent_identifier = parent.alias != kEmptyString ? parent.alias : parent.name;
  StringId identifier = trace_.strings().Intern("type:" + std::to_string(types_.size() + link_types_.size()));
  simulator_.DefineContainerType(parent_identifier, trace_.strings().Intern(name), identifier);
  types_.emplace(std::move(key), identifier);
  return identifier;
}

StringId EventTranslator::RegionType(ContainerId container) {
  auto it = region_types_.find(container);
  if (it == region_types_.end())
    it = region_types_.emplace(container, EntityType(TypeKind::kState, container, "Region")).first;
  return it->second;
}

StringId EventTranslator::RegionName(uint64_t region) {
  auto it = region_names_.find(region);
  if (it != region_names_.end()) return it->second;
  auto def = defs_.regions.find(static_cast<OTF2_RegionRef>(region));
  std::string name = def == defs_.regions.end() ? "region " + std::to_string(region) : defs_.String(def->second);
  return region_names_.emplace(region, trace_.strings().Intern(name)).first->second;
}

StringId EventTranslator::EntityType(TypeKind kind, ContainerId container, const std::string& name) {
  TypeId parent_type = trace_.container(container).type;
  auto key = std::make_tuple(parent_type, kind, name);
  auto it = types_.find(key);
  if (it != types_.end()) return it->second;
  const Type& parent = trace_.type(parent_type);
  StringId parent_identifier = parent.alias != kEmptyString ? parent.alias : parent.name;
  StringId identifier = trace_.strings().Intern("type:" + std::to_string(types_.size() + link_types_.size()));
  simulator_.DefineEntityType(kind, parent_identifier, trace_.strings().Intern(name), identifier, kEmptyString);
  types_.emplace(std::move(key), identifier);
  if (hold_messages_) NoteUse({kind, parent_type, kNone, kNone, name});
  return identifier;
}

void EventTranslator::Position(OTF2_LocationRef location, OTF2_TimeStamp time) {
  auto it = locations_.find(location);
  if (it == locations_.end()) return;  // the record fails (At)
  it->second.latest = std::max(it->second.latest, time);
  now_.latest = it->second.latest;
  now_.location = location;
}

void EventTranslator::NoteUse(TypeKey type) {
  if (!noted_.insert(type).second) return;
  ++now_.seq;
  type_uses_.push_back({now_, std::move(type)});
}

void EventTranslator::NoteLinkUse(OTF2_LocationRef sender, OTF2_LocationRef receiver) {
  if (!noted_pairs_.emplace(sender, receiver).second) return;
  ContainerId from = At(sender).container, to = At(receiver).container;
  ContainerId common = Common(from, to);
  TypeKey type{TypeKind::kLink, trace_.container(common).type, trace_.container(from).type,
               trace_.container(to).type, "MPI message"};
  link_store_uses_.push_back({{now_.latest, now_.location, ++now_.seq}, common, type});
  NoteUse(std::move(type));
}

StringId EventTranslator::LinkType(ContainerId parent, ContainerId start, ContainerId end) {
  auto key = std::make_tuple(trace_.container(parent).type, trace_.container(start).type, trace_.container(end).type);
  auto it = link_types_.find(key);
  if (it != link_types_.end()) return it->second;
  auto type_identifier = [this](TypeId id) {
    const Type& t = trace_.type(id);
    return t.alias != kEmptyString ? t.alias : t.name;
  };
  StringId identifier = trace_.strings().Intern("type:" + std::to_string(types_.size() + link_types_.size()));
  simulator_.DefineLinkType(type_identifier(std::get<0>(key)), type_identifier(std::get<1>(key)),
                            type_identifier(std::get<2>(key)), trace_.strings().Intern("MPI message"), identifier);
  link_types_.emplace(key, identifier);
  return identifier;
}

ContainerId EventTranslator::Create(double time, ContainerId parent, const std::string& type_name, StringId name,
                                    const std::string& identifier, const std::vector<TextField>& properties) {
  StringId type = ContainerType(trace_.container(parent).type, type_name);
  std::vector<ExtraField> extras;
  for (const auto& [field, text] : properties)
    extras.push_back({trace_.strings().Intern(field), trace_.strings().Intern(text)});
  StringId alias = trace_.strings().Intern(identifier);
  simulator_.CreateContainer(time, type, Identifier(parent), name, alias, extras);
  return static_cast<ContainerId>(trace_.containers().size() - 1);
}

ContainerId EventTranslator::CreateSystemTreeNode(OTF2_SystemTreeNodeRef ref, double time, int depth) {
  auto done = nodes_.find(ref);
  if (done != nodes_.end()) return done->second;
  auto it = defs_.system_tree_nodes.find(ref);
  if (it == defs_.system_tree_nodes.end()) return kRootContainer;  // undefined parent: the top
  // Parents usually come first; a cycle in the parent references would recurse forever.
  if (depth > 1000) throw paje::SimulationError("the SYSTEM_TREE_NODE parents form a cycle");
  const Definitions::SystemTreeNode& node = it->second;
  ContainerId parent = node.parent == OTF2_UNDEFINED_SYSTEM_TREE_NODE
                           ? kRootContainer
                           : CreateSystemTreeNode(node.parent, time, depth + 1);
  std::string class_name = defs_.String(node.class_name);
  ContainerId id = Create(time, parent, class_name.empty() ? "SYSTEM_TREE_NODE" : class_name,
                          trace_.strings().Intern(defs_.String(node.name)), "stn:" + std::to_string(ref),
                          node.properties);
  nodes_.emplace(ref, id);
  return id;
}

ContainerId EventTranslator::CreateLocationGroup(OTF2_LocationGroupRef ref, double time) {
  auto done = groups_.find(ref);
  if (done != groups_.end()) return done->second;
  auto it = defs_.location_groups.find(ref);
  if (it == defs_.location_groups.end()) return kRootContainer;
  const Definitions::LocationGroup& group = it->second;
  ContainerId parent = CreateSystemTreeNode(group.parent, time, 0);
  ContainerId id = Create(time, parent, LocationGroupTypeName(group.type),
                          trace_.strings().Intern(defs_.String(group.name)), "lg:" + std::to_string(ref),
                          group.properties);
  groups_.emplace(ref, id);
  return id;
}

void EventTranslator::CreateContainers(double time) {
  for (const auto& [ref, node] : defs_.system_tree_nodes) CreateSystemTreeNode(ref, time, 0);
  for (const auto& [ref, group] : defs_.location_groups) CreateLocationGroup(ref, time);
  for (const auto& [ref, location] : defs_.locations) {
    ContainerId parent = CreateLocationGroup(location.group, time);
    std::string identifier = "loc:" + std::to_string(ref);
    ContainerId id = Create(time, parent, LocationTypeName(location.type),
                            trace_.strings().Intern(defs_.String(location.name)), identifier, location.properties);
    locations_[ref] = {trace_.strings().Intern(identifier), id};
  }
}

const EventTranslator::Location& EventTranslator::At(OTF2_LocationRef location) const {
  auto it = locations_.find(location);
  if (it == locations_.end())
    throw paje::SimulationError("event of location " + std::to_string(location) + ", which is not defined");
  return it->second;
}

paje::Extras EventTranslator::Attributes(std::span<const RawAttribute> attributes) {
  extras_.clear();
  for (const RawAttribute& a : attributes) {
    auto it = defs_.attributes.find(a.ref);
    std::string name =
        it == defs_.attributes.end() ? "attribute " + std::to_string(a.ref) : defs_.String(it->second.name);
    extras_.push_back({trace_.strings().Intern(name), trace_.strings().Intern(defs_.ValueText(a.type, a.value))});
  }
  return extras_;
}

void EventTranslator::Punctual(OTF2_LocationRef location, double time, const std::string& kind, StringId value,
                               std::span<const RawAttribute> attributes) {
  const Location& at = At(location);
  simulator_.NewEvent(time, EntityType(TypeKind::kEvent, at.container, kind), at.identifier, value,
                      Attributes(attributes));
}

void EventTranslator::Message(bool send, OTF2_LocationRef location, double time, uint32_t peer_rank,
                              OTF2_CommRef comm, uint32_t tag, uint64_t length,
                              std::span<const RawAttribute> attributes, const char* kind) {
  At(location);
  std::optional<OTF2_LocationRef> peer_ref = defs_.RankLocation(comm, peer_rank, location);
  // The definitions do not say who the peer is: keep the record as an event.
  if (!peer_ref || !locations_.count(*peer_ref)) {
    Punctual(location, time, kind, trace_.strings().Intern(kind), attributes);
    return;
  }
  MessageHalf half{send, time, send ? location : *peer_ref, send ? *peer_ref : location, comm, tag, length, 0, {}, {}};
  half.n = (send ? sent_ : received_)[Channel{comm, half.sender, half.receiver, tag}]++;
  if (!hold_messages_) return Simulate(half, attributes);
  NoteLinkUse(half.sender, half.receiver);  // a whole reading defines its type here
  half.at = {now_.latest, now_.location, ++now_.seq};
  Attributes(attributes);
  half.fields = extras_;
  held_.push_back(std::move(half));
}

ContainerId EventTranslator::Common(ContainerId a, ContainerId b) const {
  std::vector<ContainerId> above_a;
  for (ContainerId c = a; c != kNone; c = trace_.container(c).parent) above_a.push_back(c);
  ContainerId common = b;
  while (std::find(above_a.begin(), above_a.end(), common) == above_a.end()) common = trace_.container(common).parent;
  return common;
}

void EventTranslator::Simulate(const MessageHalf& half, std::span<const RawAttribute> attributes) {
  const Location& sender = At(half.sender);
  const Location& receiver = At(half.receiver);
  // The link lives in the lowest container holding both ends.
  auto [route, new_route] = routes_.try_emplace(std::pair{sender.container, receiver.container});
  if (new_route) {
    const ContainerId common = Common(sender.container, receiver.container);
    route->second = {LinkType(common, sender.container, receiver.container), Identifier(common)};
  }
  const Route link = route->second;  // by value: the map may grow below
  if (hold_messages_)
    extras_ = half.fields;
  else
    Attributes(attributes);
  StringPool& strings = trace_.strings();
  char text[128];
  const auto number = [&](uint64_t n) {
    return strings.Intern(std::string_view(text, std::to_chars(text, text + sizeof text, n).ptr));
  };
  if (half.send) {  // once per link: the start's fields
    if (tag_field_ == kEmptyString) tag_field_ = strings.Intern("Tag");
    extras_.push_back({tag_field_, number(half.tag)});
    if (length_field_ == kEmptyString) length_field_ = strings.Intern("Length");
    extras_.push_back({length_field_, number(half.length)});
  }
  auto [name, new_name] = comm_names_.try_emplace(half.comm);
  if (new_name) {
    auto c = defs_.comms.find(half.comm);
    name->second = strings.Intern(c == defs_.comms.end() ? "comm " + std::to_string(half.comm)
                                                         : defs_.String(c->second.name));
  }
  const StringId value = name->second;
  // The key: "c<comm>:<sender>><receiver>:t<tag>#<n>", the n-th message of its channel.
  key_.clear();
  absl::StrAppend(&key_, "c", half.comm, ":", half.sender, ">", half.receiver, ":t", half.tag, "#",
                  half.n);
  const StringId key_id = strings.Intern(key_);
  if (half.send)
    simulator_.StartLink(half.time, link.type, link.holder, sender.identifier, value, key_id, extras_);
  else
    simulator_.EndLink(half.time, link.type, link.holder, receiver.identifier, value, key_id, extras_);
}

void EventTranslator::FinishShared(formats::PartExchange& share,
                                   const std::function<int(OTF2_LocationRef)>& owner) {
  // The span of the whole archive (a part without records has none).
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  double first = share.Min(started_ ? first_ : kInfinity);
  double last = share.Max(started_ ? last_ : -kInfinity);
  if (first > last) first = last = 0;  // no records at all, as Finish()

  // Each half to the part that reads its sender, which holds the send half.
  std::vector<formats::BytesOut> out(static_cast<size_t>(share.parts()));
  std::vector<MessageHalf> halves;
  for (MessageHalf& h : held_) {
    int to = owner(h.sender);
    if (to == share.part()) {
      halves.push_back(std::move(h));
      continue;
    }
    formats::BytesOut& o = out[static_cast<size_t>(to)];
    o.Put(h.send), o.Put(h.time), o.Put(h.sender), o.Put(h.receiver), o.Put(h.comm), o.Put(h.tag);
    // The position's location is the half's own (the sender's, or the receiver's).
    o.Put(h.length), o.Put(h.n), o.Put(h.at.latest), o.Put(h.at.seq);
    o.Put<uint64_t>(h.fields.size());
    for (const ExtraField& f : h.fields) o.PutString(trace_.Str(f.name)), o.PutString(trace_.Str(f.value));
  }
  held_.clear();
  std::vector<std::string> to;
  for (formats::BytesOut& o : out) to.push_back(std::move(o.bytes()));
  const std::vector<std::string> from = share.AllToAll(to);
  // Types defined in several orders: the whole reading's.
  std::vector<TypeKey> types;
  if (share.parts() > 1) types = AgreeOnTypes(type_uses_, share);
  // No collective call below: a part may throw from here on.

  for (const std::string& bytes : from) {
    formats::BytesIn in(bytes);
    while (!in.done()) {
      MessageHalf h;
      h.send = in.Get<bool>(), h.time = in.Get<double>(), h.sender = in.Get<OTF2_LocationRef>();
      h.receiver = in.Get<OTF2_LocationRef>(), h.comm = in.Get<OTF2_CommRef>(), h.tag = in.Get<uint32_t>();
      h.length = in.Get<uint64_t>(), h.n = in.Get<uint64_t>();
      h.at.latest = in.Get<OTF2_TimeStamp>(), h.at.location = h.send ? h.sender : h.receiver;
      h.at.seq = in.Get<uint64_t>();
      for (auto k = in.Get<uint64_t>(); k > 0; --k) {
        StringId name = trace_.strings().Intern(in.GetString());
        h.fields.push_back({name, trace_.strings().Intern(in.GetString())});
      }
      halves.push_back(std::move(h));
    }
  }
  if (!started_) {
    CreateContainers(first);
    started_ = true;
  }
  // Containers begin with the archive's first record, as in a whole reading.
  for (ContainerId c = 1; c < trace_.containers().size(); ++c) trace_.container(c).start = first;

  // Links in the order a whole reading completes them: at their later
  // half's record (link stores stay in time order).
  std::map<std::tuple<OTF2_CommRef, OTF2_LocationRef, OTF2_LocationRef, uint32_t, uint64_t>, std::vector<size_t>>
      links;
  for (size_t i = 0; i < halves.size(); ++i) {
    const MessageHalf& h = halves[i];
    links[{h.comm, h.sender, h.receiver, h.tag, h.n}].push_back(i);
  }
  std::vector<std::pair<ReadingPosition, const std::vector<size_t>*>> order;
  for (auto& [key, ends] : links) {
    std::sort(ends.begin(), ends.end(), [&](size_t a, size_t b) { return halves[a].at < halves[b].at; });
    order.emplace_back(halves[ends.back()].at, &ends);
  }
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [time, ends] : order)
    for (size_t i : *ends) Simulate(halves[i], {});
  Finish(first, last);
  if (share.parts() > 1) NumberTypesAsWhole(trace_, types);
}

}  // namespace macroscope::otf2
