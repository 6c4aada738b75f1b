// A Trace made again from the entities a writer receives (write-paje,
// write-store): the entities are kept in columnar stores as they arrive;
// at the end of the stream, when the source trace is complete and safe to
// read (stream_types.h), its strings, types, containers, declared values
// and time base are copied and each store is given its type and container.
//
// Memory grows with the entities written (about 40 bytes each, plus user
// fields) and the source's strings and containers.
//
// Ids: a chunk's ids (container, type, link peers) are the source's, and
// the source's strings (interned in id order), types and containers are
// copied in id order, so every id keeps its meaning and nothing is looked
// up by name.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "pipeline/stream_types.h"

namespace macroscope::pipeline {

class TraceRebuilder {
 public:
  // `kind` and `what` name the writer and its output in messages ("write-paje", "a Pajé file").
  TraceRebuilder(std::string kind, std::string what) : kind_(std::move(kind)), what_(std::move(what)) {}

  // Keeps the batch's chunks. Throws UserError when they come from
  // another source trace than the previous batches'.
  void Add(const EntityBatch& batch);
  uint64_t entities() const { return entities_; }

  // The trace, after the end of the stream. An empty trace when no batch came.
  std::unique_ptr<Trace> Build();

 private:
  struct StoreKey {
    ContainerId container;
    TypeId type;
    TypeKind kind;
    bool operator==(const StoreKey&) const = default;
  };
  struct StoreKeyHash {
    size_t operator()(const StoreKey& k) const {
      return std::hash<uint64_t>()((uint64_t{k.container} << 32 | k.type) * 8 + static_cast<uint64_t>(k.kind));
    }
  };
  struct Pending {
    StoreKey key;
    EntityStore store;
  };
  // The store kept for the chunk's (container, type, kind).
  EntityStore& StoreFor(const EntityChunk& chunk);

  std::string kind_, what_;
  std::shared_ptr<const Trace> source_;
  std::unordered_map<StoreKey, uint32_t, StoreKeyHash> index_;
  std::vector<Pending> pending_;
  uint32_t last_ = UINT32_MAX;  // the store of the previous chunk (runs are common)
  uint64_t entities_ = 0;
  double first_ = 0, last_time_ = 0;  // the entities' time span
};

}  // namespace macroscope::pipeline
