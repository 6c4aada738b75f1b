#include "formats/otf2/part_stores.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "formats/paje/sharded_simulation.h"
#include "formats/paje/stores_exchange.h"

namespace macroscope::otf2 {

void GatherStores(formats::PartExchange& share, Trace& trace, const std::vector<ReadingPosition>& stores_at,
                  const std::vector<StoreUse>& link_uses) {
  // The positions first (a few per store), then the stores.
  formats::BytesOut positions;
  positions.Put<uint64_t>(stores_at.size());
  for (const ReadingPosition& at : stores_at) PutPosition(positions, at);
  for (const StoreUse& u : link_uses) {
    PutPosition(positions, u.at);
    positions.Put(u.container), positions.Put(u.type.parent), positions.Put(u.type.start), positions.Put(u.type.end);
  }
  const std::vector<std::string> all_positions = share.Gather(positions.bytes());
  paje::BuiltStores mine;
  paje::TakeStores(trace, mine);
  std::vector<std::string> parts =
      share.Gather(share.part() == 0 ? std::string() : StoresToBytes(mine, trace.strings()));
  if (share.part() != 0) return;

  // The link types, by (parent, start, end): one name ("MPI message").
  std::map<std::tuple<TypeId, TypeId, TypeId>, TypeId> link_type;
  for (TypeId id = 0; id < trace.types().size(); ++id) {
    const Type& t = trace.type(id);
    if (t.kind == TypeKind::kLink) link_type.emplace(std::make_tuple(t.parent, t.start_type, t.end_type), id);
  }
  std::vector<std::vector<ReadingPosition>> created_at(all_positions.size());
  std::map<std::pair<ContainerId, TypeId>, ReadingPosition> link_first;
  for (size_t k = 0; k < all_positions.size(); ++k) {
    formats::BytesIn in(all_positions[k]);
    created_at[k].resize(in.Get<uint64_t>());
    for (ReadingPosition& at : created_at[k]) at = GetPosition(in);
    while (!in.done()) {
      const ReadingPosition at = GetPosition(in);
      const auto container = in.Get<ContainerId>();
      const auto parent = in.Get<TypeId>(), start = in.Get<TypeId>(), end = in.Get<TypeId>();
      auto [it, added] = link_first.emplace(std::make_pair(container, link_type.at({parent, start, end})), at);
      if (!added) it->second = std::min(it->second, at);
    }
  }

  std::vector<paje::BuiltStores> built;
  built.push_back(std::move(mine));
  for (size_t k = 1; k < parts.size(); ++k) {
    built.push_back(paje::StoresFromBytes(parts[k], trace.strings()));
    parts[k] = std::string();
  }
  // Every store at its position in a whole reading, ranked.
  std::vector<std::tuple<ReadingPosition, size_t, uint32_t>> made;
  for (size_t k = 0; k < built.size(); ++k)
    for (uint32_t i = 0; i < built[k].stores.size(); ++i) {
      const EntityStore& s = built[k].stores[i];
      made.emplace_back(i < created_at[k].size() ? created_at[k][i] : link_first.at({s.container, s.type}), k, i);
    }
  std::sort(made.begin(), made.end());
  for (uint64_t rank = 0; rank < made.size(); ++rank) {
    auto [at, k, i] = made[rank];
    built[k].created.emplace_back(rank, i);
  }
  paje::MergeStores(built, trace);
  for (ContainerId c = 0; c < trace.containers().size(); ++c) {
    auto& stores = trace.container(c).stores;
    std::sort(stores.begin(), stores.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  }
}

}  // namespace macroscope::otf2
