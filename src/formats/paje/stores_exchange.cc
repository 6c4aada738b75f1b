#include "formats/paje/stores_exchange.h"

#include <cstdint>
#include <vector>

#include "formats/part_exchange.h"

namespace macroscope::paje {

namespace {

template <class T>
void PutColumn(formats::BytesOut& out, const std::vector<T>& column) {
  out.Put<uint64_t>(column.size());
  for (const T& x : column) out.Put(x);
}

template <class T>
void GetColumn(formats::BytesIn& in, std::vector<T>& column) {
  column.resize(in.Get<uint64_t>());
  for (T& x : column) x = in.Get<T>();
}

// Ids of the sender's pool to ids of the receiver's.
void Renumber(const std::vector<StringId>& to, std::vector<StringId>& ids) {
  for (StringId& id : ids) id = to.at(id);
}

}  // namespace

std::string StoresToBytes(const BuiltStores& built, const StringPool& strings) {
  formats::BytesOut out;
  out.Put<uint64_t>(strings.size());
  for (size_t id = 0; id < strings.size(); ++id) out.PutString(strings.View(static_cast<StringId>(id)));
  out.Put<uint64_t>(built.lists.size());
  for (const auto& list : built.lists) {
    out.Put<uint64_t>(list.size());
    for (auto [type, store] : list) out.Put(type), out.Put(store);
  }
  out.Put<uint64_t>(built.created.size());
  for (auto [record, store] : built.created) out.Put(record), out.Put(store);
  out.Put<uint64_t>(built.stores.size());
  for (const EntityStore& s : built.stores) {
    out.Put(static_cast<uint8_t>(s.kind)), out.Put(s.container), out.Put(s.type);
    PutColumn(out, s.start), PutColumn(out, s.end), PutColumn(out, s.value), PutColumn(out, s.number);
    PutColumn(out, s.level), PutColumn(out, s.key), PutColumn(out, s.peer_start), PutColumn(out, s.peer_end);
    out.Put<uint64_t>(s.extras.fields().size());
    for (const ExtraField& f : s.extras.fields()) out.Put(f.name), out.Put(f.value);
    PutColumn(out, s.extras.list_begin()), PutColumn(out, s.extras.at_start()), PutColumn(out, s.extras.at_end());
  }
  return std::move(out.bytes());
}

BuiltStores StoresFromBytes(std::string_view bytes, StringPool& strings) {
  formats::BytesIn in(bytes);
  std::vector<StringId> to(in.Get<uint64_t>());
  for (StringId& id : to) id = strings.Intern(in.GetString());
  BuiltStores built;
  built.lists.resize(in.Get<uint64_t>());
  for (auto& list : built.lists) {
    list.resize(in.Get<uint64_t>());
    for (auto& [type, store] : list) type = in.Get<TypeId>(), store = in.Get<uint32_t>();
  }
  built.created.resize(in.Get<uint64_t>());
  for (auto& [record, store] : built.created) record = in.Get<uint64_t>(), store = in.Get<uint32_t>();
  built.stores.resize(in.Get<uint64_t>());
  for (EntityStore& s : built.stores) {
    s.kind = static_cast<TypeKind>(in.Get<uint8_t>());
    s.container = in.Get<ContainerId>();
    s.type = in.Get<TypeId>();
    GetColumn(in, s.start), GetColumn(in, s.end), GetColumn(in, s.value), GetColumn(in, s.number);
    GetColumn(in, s.level), GetColumn(in, s.key), GetColumn(in, s.peer_start), GetColumn(in, s.peer_end);
    Renumber(to, s.value), Renumber(to, s.key);
    std::vector<ExtraField> fields(in.Get<uint64_t>());
    for (ExtraField& f : fields) f.name = to.at(in.Get<StringId>()), f.value = to.at(in.Get<StringId>());
    std::vector<uint32_t> list_begin, at_start, at_end;
    GetColumn(in, list_begin), GetColumn(in, at_start), GetColumn(in, at_end);
    s.extras.Restore(std::move(fields), std::move(list_begin), std::move(at_start), std::move(at_end));
  }
  return built;
}

}  // namespace macroscope::paje
