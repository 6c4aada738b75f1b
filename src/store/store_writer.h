// Writing a store (format 3, docs/store.md) as entities come: a sink that
// takes chunks from a streaming reader (or a whole trace's stores), cuts
// them into chunks of at most kChunkEntities per store, compresses and
// writes each as soon as it is full, and ends with the trace's
// description, the chunk directory and the footer. Memory: the entities
// of the chunks not yet full, at most `max_pending` over all stores:
// beyond, they are set aside in a spill file (in TMPDIR, unlinked) and
// merged into full chunks at the end, store by store, so that a trace of
// thousands of stores is still stored in full chunks.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/entity_sink.h"
#include "model/trace.h"
#include "store/store.h"

namespace macroscope::store {

// Entities pending in chunks not yet full, over all stores, before they
// are set aside: about 100 MB.
inline constexpr uint64_t kMaxPending = uint64_t{1} << 21;

class StoreWriter : public EntitySink {
 public:
  // Creates the temporary file beside `path` (nothing appears at `path`
  // unless Finish succeeds). Throws UserError.
  explicit StoreWriter(std::string path, uint64_t max_pending = kMaxPending);
  ~StoreWriter() override;

  // Entities of `chunk` (its `store` names the store in the trace given to
  // Finish; its `index` places them in that store).
  void Completed(const Trace& trace, const EntityChunk& chunk) override;
  // Writes what is pending, then `trace`'s types, containers, strings and
  // stores (their entities are the chunks received, whatever `trace`'s
  // stores hold now) and renames the file into place.
  void Finish(const Trace& trace, const StoreStats& stats);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace macroscope::store
