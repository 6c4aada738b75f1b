#include "pipeline/modules/trace_rebuilding.h"

#include <algorithm>
#include <span>
#include <stdexcept>

#include "util/error.h"

namespace macroscope::pipeline {

void TraceRebuilder::Add(const EntityBatch& batch) {
  if (!batch.trace) return;
  if (!source_) source_ = batch.trace;
  if (batch.trace != source_)
    throw UserError(kind_ + ": its entities come from several traces, and " + what_ +
                    " holds one: give each trace its own writer");
  for (const Entity& e : batch.entities) {
    const StoreKey key{e.container_id, e.type, e.kind};
    if (last_ == UINT32_MAX || !(pending_[last_].key == key)) {
      auto [it, added] = index_.try_emplace(key, static_cast<uint32_t>(pending_.size()));
      if (added) pending_.push_back({key, {}});
      last_ = it->second;
    }
    EntityStore& s = pending_[last_].store;
    const size_t i = s.start.size();
    s.start.push_back(e.start);
    switch (e.kind) {
      case TypeKind::kState:
        s.end.push_back(e.end);
        s.value.push_back(e.value);
        s.level.push_back(e.level);
        break;
      case TypeKind::kEvent:
        s.value.push_back(e.value);
        break;
      case TypeKind::kVariable:
        s.end.push_back(e.end);
        s.number.push_back(e.number);
        break;
      case TypeKind::kLink:
        s.end.push_back(e.end);
        s.value.push_back(e.value);
        s.key.push_back(e.key);
        s.peer_start.push_back(e.peer_start);
        s.peer_end.push_back(e.peer_end);
        break;
      case TypeKind::kContainer:
        break;
    }
    if (e.fields_end > e.fields_begin) {
      std::span<const ExtraField> fields(batch.fields.data() + e.fields_begin, e.fields_end - e.fields_begin);
      s.extras.SetStart(i, s.extras.AddList(fields));
    }
    first_ = entities_ == 0 ? e.start : std::min(first_, e.start);
    last_time_ = entities_ == 0 ? e.end : std::max(last_time_, e.end);
    ++entities_;
  }
}

TypeId TraceRebuilder::FindType(const Trace& source, const StoreKey& key) const {
  const TypeId container_type = source.container(key.container).type;
  TypeId found = kNone;
  for (TypeId id = 1; id < source.types().size(); ++id) {
    const Type& t = source.type(id);
    if (t.kind != key.kind || t.name != key.type) continue;
    if (t.parent == container_type) return id;
    if (found == kNone) found = id;
  }
  if (found == kNone)
    throw UserError(kind_ + ": the source trace has no " + std::string(TypeKindName(key.kind)) + " type '" +
                    std::string(source.Str(key.type)) + "'");
  return found;
}

std::unique_ptr<Trace> TraceRebuilder::Build() {
  auto out = std::make_unique<Trace>();
  if (!source_) return out;
  const Trace& source = *source_;
  for (StringId id = 1; id < source.strings().size(); ++id) {
    if (out->strings().Intern(source.Str(id)) != id)
      throw std::logic_error("trace rebuilding: the source's string pool does not start as a new trace's");
  }
  out->type(kRootType) = source.type(kRootType);
  for (TypeId id = 1; id < source.types().size(); ++id) out->AppendType(source.type(id));
  for (ContainerId id = 0; id < source.containers().size(); ++id) {
    Container c = source.container(id);
    c.stores.clear();  // the source's stores: those made here replace them
    if (id == kRootContainer)
      out->container(kRootContainer) = std::move(c);
    else
      out->AppendContainer(std::move(c));
  }
  for (const EntityValue& v : source.values()) out->AddValue(v.type, v.name, v.alias, v.color);

  // A link's peers by name, preferring containers under the link's own.
  std::unordered_map<StringId, std::vector<ContainerId>> by_name;
  auto peer = [&](StringId name, ContainerId within) {
    if (name == kEmptyString) return kNone;  // the source had no container there either
    if (by_name.empty())
      for (ContainerId id = 0; id < source.containers().size(); ++id) by_name[source.container(id).name].push_back(id);
    auto it = by_name.find(name);
    if (it == by_name.end())
      throw UserError(kind_ + ": a link names container '" + std::string(source.Str(name)) +
                      "', which the source trace does not have");
    for (ContainerId c : it->second)
      for (ContainerId up = c; up != kNone; up = source.container(up).parent)
        if (up == within) return c;
    return it->second.front();
  };
  for (Pending& p : pending_) {
    if (p.key.container >= source.containers().size())
      throw UserError(kind_ + ": an entity names a container the source trace does not have");
    EntityStore& s = out->Store(p.key.container, FindType(source, p.key));
    s.start = std::move(p.store.start);
    s.end = std::move(p.store.end);
    s.value = std::move(p.store.value);
    s.number = std::move(p.store.number);
    s.level = std::move(p.store.level);
    s.key = std::move(p.store.key);
    s.peer_start = std::move(p.store.peer_start);
    s.peer_end = std::move(p.store.peer_end);
    for (ContainerId& c : s.peer_start) c = peer(c, p.key.container);
    for (ContainerId& c : s.peer_end) c = peer(c, p.key.container);
    s.extras = std::move(p.store.extras);
  }
  pending_.clear();
  index_.clear();
  double start = source.start_time(), end = source.end_time();
  if (entities_ > 0) {
    start = std::min(start, first_);
    end = std::max(end, last_time_);
  }
  out->SetTimeSpan(start, end);
  out->SetTimeBase(source.time_base());
  return out;
}

}  // namespace macroscope::pipeline
