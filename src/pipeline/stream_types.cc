#include "pipeline/stream_types.h"

namespace macroscope::pipeline {

EntityChunk EntityBatch::chunk(size_t k) const {
  const Owned& o = owned_[k];
  EntityChunk c = EntityChunk::Of(o.columns, 0, o.columns.size());
  c.type_name = o.type_name;
  c.container_name = o.container_name;
  return c;
}

EntityBatch::Owned& EntityBatch::Tail(const EntityChunk& like) {
  if (used_ > 0) {
    Owned& last = owned_[used_ - 1];
    const EntityStore& s = last.columns;
    if (s.container == like.container && s.type == like.type && s.kind == like.kind &&
        last.type_name == like.type_name && last.container_name == like.container_name)
      return last;
  }
  if (used_ == owned_.size()) owned_.emplace_back();
  Owned& o = owned_[used_++];
  EntityStore& s = o.columns;
  for (auto* column : {&s.start, &s.end, &s.number}) column->clear();
  for (auto* column : {&s.value, &s.key}) column->clear();
  s.level.clear();
  s.peer_start.clear();
  s.peer_end.clear();
  if (!s.extras.empty()) s.extras = ExtraColumn();  // (a fresh one allocates: most chunks have no fields)
  s.container = like.container;
  s.type = like.type;
  s.kind = like.kind;
  o.type_name = like.type_name;
  o.container_name = like.container_name;
  return o;
}

void EntityBatch::Append(const EntityChunk& chunk) {
  if (chunk.empty()) return;
  AppendChunk(Tail(chunk).columns, chunk);
  entities_ += chunk.size();
}

void EntityBatch::Append(const EntityChunk& chunk, size_t i) {
  AppendEntity(Tail(chunk).columns, chunk, i);
  ++entities_;
}

void EntityBatch::Clear() {
  used_ = 0;
  entities_ = 0;
}

}  // namespace macroscope::pipeline
