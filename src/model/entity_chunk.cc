#include "model/entity_chunk.h"

#include <vector>

namespace macroscope {

namespace {

template <class T>
void Append(std::vector<T>& to, std::span<const T> from, size_t begin, size_t n) {
  if (!from.empty()) to.insert(to.end(), from.begin() + begin, from.begin() + begin + n);
}

void AppendFields(EntityStore& store, const EntityChunk& chunk, size_t begin, size_t n, size_t at) {
  if (!chunk.HasFields()) return;
  std::vector<ExtraField> fields;
  for (size_t i = begin; i < begin + n; ++i) {
    fields.clear();
    chunk.ForEachField(i, [&](const ExtraField& f) { fields.push_back(f); });
    if (!fields.empty()) store.extras.SetStart(at + (i - begin), store.extras.AddList(fields));
  }
}

void AppendRange(EntityStore& store, const EntityChunk& c, size_t begin, size_t n) {
  const size_t at = store.size();
  Append(store.start, c.start, begin, n);
  Append(store.end, c.end, begin, n);
  Append(store.value, c.value, begin, n);
  Append(store.level, c.level, begin, n);
  Append(store.number, c.number, begin, n);
  Append(store.key, c.key, begin, n);
  Append(store.peer_start, c.peer_start, begin, n);
  Append(store.peer_end, c.peer_end, begin, n);
  AppendFields(store, c, begin, n, at);
}

}  // namespace

void AppendEntity(EntityStore& store, const EntityChunk& chunk, size_t i) { AppendRange(store, chunk, i, 1); }

void AppendChunk(EntityStore& store, const EntityChunk& chunk) { AppendRange(store, chunk, 0, chunk.size()); }

}  // namespace macroscope
