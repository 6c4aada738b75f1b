#include "formats/otf2/part_types.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace macroscope::otf2 {

namespace {

TypeKey KeyOf(const Trace& trace, const Type& t) {
  return {t.kind, t.parent, t.start_type, t.end_type, std::string(trace.Str(t.name))};
}

}  // namespace

void PutPosition(formats::BytesOut& out, const ReadingPosition& at) {
  out.Put(at.latest), out.Put(at.location), out.Put(at.seq);
}

ReadingPosition GetPosition(formats::BytesIn& in) {
  ReadingPosition at;
  at.latest = in.Get<OTF2_TimeStamp>(), at.location = in.Get<OTF2_LocationRef>(), at.seq = in.Get<uint64_t>();
  return at;
}

std::vector<TypeKey> AgreeOnTypes(const std::vector<TypeUse>& mine, formats::PartExchange& share) {
  formats::BytesOut out;
  for (const TypeUse& u : mine) {
    PutPosition(out, u.at);
    out.Put(static_cast<uint8_t>(u.type.kind)), out.Put(u.type.parent), out.Put(u.type.start), out.Put(u.type.end);
    out.PutString(u.type.name);
  }
  std::map<TypeKey, ReadingPosition> first;
  for (const std::string& bytes : share.AllGather(out.bytes())) {
    formats::BytesIn in(bytes);
    while (!in.done()) {
      TypeUse u;
      u.at = GetPosition(in);
      u.type.kind = static_cast<TypeKind>(in.Get<uint8_t>());
      u.type.parent = in.Get<TypeId>(), u.type.start = in.Get<TypeId>(), u.type.end = in.Get<TypeId>();
      u.type.name = in.GetString();
      auto [it, added] = first.emplace(std::move(u.type), u.at);
      if (!added) it->second = std::min(it->second, u.at);
    }
  }
  std::vector<std::pair<ReadingPosition, TypeKey>> order;
  for (auto& [type, at] : first) order.emplace_back(at, type);
  std::sort(order.begin(), order.end());
  std::vector<TypeKey> types;
  for (auto& [at, type] : order) types.push_back(std::move(type));
  return types;
}

void NumberTypesAsWhole(Trace& trace, const std::vector<TypeKey>& order) {
  // Container types: [0, containers).
  TypeId containers = 0;
  while (containers < trace.types().size() && trace.type(containers).kind == TypeKind::kContainer) ++containers;
  std::map<TypeKey, TypeId> old_id;
  for (auto id = containers; id < trace.types().size(); ++id) {
    if (trace.type(id).kind == TypeKind::kContainer)
      throw std::logic_error("OTF2 types: a container type after an entity type");
    old_id.emplace(KeyOf(trace, trace.type(id)), id);
  }
  std::vector<Type> types(trace.types().begin(), trace.types().begin() + containers);
  for (Type& t : types)
    std::erase_if(t.children, [&](TypeId child) { return child >= containers; });
  std::vector<TypeId> new_id(trace.types().size(), kNone);
  for (const TypeKey& key : order) {
    const auto id = static_cast<TypeId>(types.size());
    Type t;
    if (auto it = old_id.find(key); it != old_id.end()) {
      t = trace.type(it->second);
      t.children.clear();
      new_id[it->second] = id;
    }
    t.kind = key.kind, t.parent = key.parent, t.start_type = key.start, t.end_type = key.end;
    t.name = trace.strings().Intern(key.name);
    // The translator's alias: "type:N", N the types it defined before (the
    // root is not one of them).
    t.alias = trace.strings().Intern("type:" + std::to_string(id - 1));
    types[key.parent].children.push_back(id);
    types.push_back(std::move(t));
  }
  for (auto id = containers; id < new_id.size(); ++id)
    if (new_id[id] == kNone) throw std::logic_error("OTF2 types: a part's type missing from the agreed order");

  const auto had = static_cast<TypeId>(trace.types().size());
  for (TypeId id = 0; id < types.size(); ++id) {
    if (id < had) trace.type(id) = std::move(types[id]);
    else trace.AppendType(std::move(types[id]));
  }
  for (uint32_t s = 0; s < trace.stores().size(); ++s) trace.store(s).type = new_id[trace.store(s).type];
  for (ContainerId c = 0; c < trace.containers().size(); ++c)
    for (auto& [type, store] : trace.container(c).stores) type = new_id[type];
}

}  // namespace macroscope::otf2
