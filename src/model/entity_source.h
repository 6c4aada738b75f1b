// Where a query reads a trace's entities from, whatever holds them: the
// trace in memory, whole (TraceSource below), or a store on disk whose
// chunks are decompressed as queries reach them (store/store_source.h).
// The window, the overview's model, the statistics, an entity's details and
// the search all read through it, so `serve` answers a store of any size
// the way it answers a trace in memory, with the same bytes.
//
// `trace()` is the description: types, containers, values, strings, the
// time span, and one EntityStore per store for its container, type and
// kind; its columns are empty when the entities live elsewhere, so a
// store's size is `size(k)`, not `trace().stores()[k].size()`.
//
// Chunks are handed out as EntityChunks (model/entity_chunk.h) with their
// `store` and `index` set: entity i of a chunk is entity `index + i` of its
// store, the place an entity's id names ("store:index"), the same in both
// sources. A chunk is valid during the call only. Every method is const
// and may be called from several threads at once.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>

#include "model/entity_chunk.h"
#include "model/lod_summary.h"
#include "model/trace.h"

namespace macroscope {

class EntitySource {
 public:
  using Visit = std::function<void(const EntityChunk&)>;

  virtual ~EntitySource() = default;

  virtual const Trace& trace() const = 0;
  // The number of entities of store `k`.
  virtual uint64_t size(uint32_t k) const = 0;
  // The store's columns in memory, whole, with its interval index built:
  // a narrow query may ask the index instead of reading chunks. Null when
  // the entities live elsewhere.
  virtual const EntityStore* in_memory(uint32_t k) const = 0;
  // Calls `visit` for chunks of store `k` that together hold every entity
  // meeting [t1, t2] (its start or its end inside, or spanning it), in no
  // set order; they may hold others too, which the caller filters.
  void ForEachChunk(uint32_t k, double t1, double t2, const Visit& visit) const {
    for (size_t p = 0, n = pieces(k); p < n; ++p) VisitPiece(k, p, t1, t2, visit);
  }
  // Every chunk of store `k`.
  void ForEachChunk(uint32_t k, const Visit& visit) const {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    ForEachChunk(k, -kInf, kInf, visit);
  }
  // The same in pieces, for a reader that pulls the chunks one piece at a
  // time (a query's cursor, query/entity_tables.h): ForEachChunk is piece
  // 0, 1, … pieces(k) - 1 in turn. A piece is one chunk of a store on
  // disk, the whole store in memory; it may visit nothing (its chunks
  // miss the window).
  virtual size_t pieces(uint32_t k) const = 0;
  virtual void VisitPiece(uint32_t k, size_t piece, double t1, double t2, const Visit& visit) const = 0;
  // Calls found(chunk, i) with the chunk holding entity `index` of store
  // `k` and its place in it; false (and no call) when there is none.
  virtual bool Find(uint32_t k, uint64_t index, const std::function<void(const EntityChunk&, size_t)>& found) const = 0;
  // The finest level of store `k`'s level-of-detail summary
  // (model/lod_summary.h) over the trace's time bins, -1 when it has none
  // (a trace in memory, a small store, a store written before summaries).
  virtual int summary_finest(uint32_t /*k*/) const { return -1; }
  // Store `k`'s summary holding at least the cells of `level` in bins
  // [first_bin, last_bin] and the crossers of the levels up to it that may
  // reach into them (it may hold more: readers pick by bins,
  // model/lod_window.h); null when `level` is beyond summary_finest(k).
  virtual std::shared_ptr<const LodSummary> summary(uint32_t /*k*/, int /*level*/, uint64_t /*first_bin*/,
                                                    uint64_t /*last_bin*/) const {
    return nullptr;
  }
};

// The trace in memory: each store is one chunk.
class TraceSource : public EntitySource {
 public:
  // `trace` must outlive the source and not change; its indexes built
  // (Trace::BuildIndexes) for in_memory() to offer them.
  explicit TraceSource(const Trace& trace) : trace_(trace) {}

  const Trace& trace() const override { return trace_; }
  uint64_t size(uint32_t k) const override { return trace_.stores()[k].size(); }
  const EntityStore* in_memory(uint32_t k) const override { return &trace_.stores()[k]; }
  size_t pieces(uint32_t) const override { return 1; }
  void VisitPiece(uint32_t k, size_t piece, double t1, double t2, const Visit& visit) const override;
  bool Find(uint32_t k, uint64_t index, const std::function<void(const EntityChunk&, size_t)>& found) const override;

 private:
  const Trace& trace_;
};

}  // namespace macroscope
