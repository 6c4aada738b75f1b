#include "model/entity_source.h"

namespace macroscope {

void TraceSource::VisitPiece(uint32_t k, size_t, double, double, const Visit& visit) const {
  const EntityStore& store = trace_.stores()[k];
  if (store.size() > 0) visit(EntityChunk::Of(trace_, store));
}

bool TraceSource::Find(uint32_t k, uint64_t index,
                       const std::function<void(const EntityChunk&, size_t)>& found) const {
  if (k >= trace_.stores().size() || index >= trace_.stores()[k].size()) return false;
  found(EntityChunk::Of(trace_, trace_.stores()[k]), static_cast<size_t>(index));
  return true;
}

}  // namespace macroscope
