#include "pipeline/modules/trace_rebuilding.h"

#include <algorithm>
#include <stdexcept>

#include "util/error.h"

namespace macroscope::pipeline {

void TraceRebuilder::Add(const EntityBatch& batch) {
  if (!batch.trace) return;
  if (!source_) source_ = batch.trace;
  if (batch.trace != source_)
    throw UserError(kind_ + ": its entities come from several traces, and " + what_ +
                    " holds one: give each trace its own writer");
  for (size_t k = 0; k < batch.chunks(); ++k) {
    const EntityChunk c = batch.chunk(k);
    if (c.empty()) continue;
    AppendChunk(StoreFor(c), c);
    if (entities_ == 0) first_ = last_time_ = c.start[0];
    for (size_t i = 0; i < c.size(); ++i) {
      first_ = std::min(first_, c.start[i]);
      last_time_ = std::max(last_time_, c.End(i));
    }
    entities_ += c.size();
  }
}

EntityStore& TraceRebuilder::StoreFor(const EntityChunk& chunk) {
  const StoreKey key{chunk.container, chunk.type, chunk.kind};
  if (last_ == UINT32_MAX || !(pending_[last_].key == key)) {
    auto [it, added] = index_.try_emplace(key, static_cast<uint32_t>(pending_.size()));
    if (added) {
      Pending& p = pending_.emplace_back(Pending{key, {}});
      p.store.container = key.container;
      p.store.type = key.type;
      p.store.kind = key.kind;
    }
    last_ = it->second;
  }
  return pending_[last_].store;
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

  for (Pending& p : pending_) {
    if (p.key.container >= source.containers().size())
      throw UserError(kind_ + ": an entity names a container the source trace does not have");
    if (p.key.type >= source.types().size() || source.type(p.key.type).kind != p.key.kind)
      throw UserError(kind_ + ": the source trace has no " + std::string(TypeKindName(p.key.kind)) +
                      " type with the entities' id");
    out->Store(p.key.container, p.key.type) = std::move(p.store);
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
