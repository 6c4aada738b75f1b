#include "query/entity_scan.h"

#include <algorithm>

#include "model/entity_chunk.h"

namespace macroscope::query {

EntityPlan EntityPlan::Of(const Trace& trace, std::optional<TypeKind> kind) {
  EntityPlan plan;
  for (uint32_t k = 0; k < trace.stores().size(); ++k)
    if (!kind || trace.stores()[k].kind == *kind) plan.stores.push_back(k);
  return plan;
}

void EntityPlan::KeepTypes(const Trace& trace, std::span<const std::string_view> names) {
  KeepStores([&](uint32_t k) {
    const std::string_view name = trace.Str(trace.type(trace.stores()[k].type).name);
    return std::find(names.begin(), names.end(), name) != names.end();
  });
}

EntityScan::EntityScan(const EntitySource& source, EntityPlan plan) : source_(source), plan_(std::move(plan)) {
  if (plan_.t1 > plan_.t2) plan_.none = true;
  if (plan_.none) plan_.stores.clear();
}

// A view of the trace in memory, or a copy of a chunk of a store on disk
// (whose view is valid during the visit only): with a window, a copy of
// each run of its entities that meet it (a chunk at the window's edge
// holds a few), else of the whole chunk.
void EntityScan::Keep(const EntityChunk& c, bool in_memory) {
  if (in_memory) {
    chunks_.push_back(c);
    return;
  }
  if (!plan_.windowed()) return Copy(c);
  for (size_t i = 0; i < c.size();) {
    if (!plan_.MeetsWindow(c, i)) {
      ++i;
      continue;
    }
    size_t j = i + 1;
    while (j < c.size() && plan_.MeetsWindow(c, j)) ++j;
    Copy(i == 0 && j == c.size() ? c : c.Sub(i, j - i));
    i = j;
  }
}

void EntityScan::Copy(const EntityChunk& c) {
  EntityStore& copy = owned_.emplace_back();
  copy.kind = c.kind;
  copy.container = c.container;
  copy.type = c.type;
  AppendChunk(copy, c);
  EntityChunk view = EntityChunk::Of(copy, 0, copy.size());
  view.store = c.store;
  view.index = c.index;
  view.type_name = c.type_name;
  view.container_name = c.container_name;
  chunks_.push_back(view);
}

// A store in memory with its interval index, and a window: the runs of
// the entities the index says meet it, in store order (ids ascending, as
// a scan gives them). False (nothing done) when the index is not there or
// the window holds most of the store: the whole store is then read.
bool EntityScan::InWindow(const EntityStore& store) {
  if (plan_.t1 == -EntityPlan::kInf && plan_.t2 == EntityPlan::kInf) return false;
  if (store.index.size() != store.size() || store.size() == 0) return false;
  std::vector<uint32_t> places = store.index.Query(plan_.t1, plan_.t2);
  if (places.size() * 2 > store.size()) return false;
  std::sort(places.begin(), places.end());
  for (size_t i = 0; i < places.size();) {
    size_t j = i + 1;
    while (j < places.size() && places[j] == places[j - 1] + 1) ++j;
    chunks_.push_back(EntityChunk::Of(source_.trace(), store, places[i], places[j - 1] + size_t{1}));
    i = j;
  }
  return true;
}

bool EntityScan::NextPiece() {
  owned_.clear();
  chunks_.clear();
  if (plan_.one) {  // the one entity, once
    if (done_one_ || plan_.stores.empty()) return false;
    done_one_ = true;
    const bool in_memory = source_.in_memory(plan_.store) != nullptr;
    source_.Find(plan_.store, plan_.place, [&](const EntityChunk& c, size_t i) { Keep(c.Sub(i, 1), in_memory); });
    return !chunks_.empty();
  }
  while (store_pos_ < plan_.stores.size()) {
    const uint32_t k = plan_.stores[store_pos_];
    const size_t pieces = source_.pieces(k);
    const EntityStore* memory = source_.in_memory(k);
    const bool in_memory = memory != nullptr;
    if (in_memory && next_piece_ == 0 && InWindow(*memory)) {
      ++store_pos_;
      if (!chunks_.empty()) return true;
      continue;
    }
    while (next_piece_ < pieces) {
      source_.VisitPiece(k, next_piece_++, plan_.t1, plan_.t2, [&](const EntityChunk& c) { Keep(c, in_memory); });
      if (!chunks_.empty()) return true;
    }
    ++store_pos_;
    next_piece_ = 0;
  }
  return false;
}

}  // namespace macroscope::query
