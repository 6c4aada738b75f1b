// Where a streaming reader hands the entities it completed, instead of
// keeping them all in the Trace: a workflow (src/pipeline) reads traces
// larger than memory this way. Without a sink the Trace keeps everything,
// which is how the in-memory model is built.
//
// The reader keeps in its Trace what streaming needs: types, containers,
// declared values, strings, and the entities still open (states on a
// stack, a variable's last value, a link waiting for its other end).
// Entities are handed over per store, in chunks (model/entity_chunk.h),
// each chunk in the store's own order (the order the in-memory model holds
// them); the Trace forgets them after the call. Events, variables and links come out in store
// order; a state still open when the states opened after it are handed
// over comes later, when it is closed (so a state open for the whole trace
// does not hold back the ones nested in it); a chunk's `index` gives its
// place in the store's order. Calls come from the reading thread.
// docs/streaming.md says what each format holds meanwhile.
#pragma once

#include <cstddef>
#include <functional>
#include <utility>

#include "model/entity_chunk.h"
#include "model/trace.h"

namespace macroscope {

class EntitySink {
 public:
  virtual ~EntitySink() = default;
  // The entities of `chunk` are complete; `trace` gives names, containers
  // and the time base (which a reader may refine until its end; the last
  // call's is final). The chunk is valid during the call only.
  virtual void Completed(const Trace& trace, const EntityChunk& chunk) = 0;
};

// An EntitySink that hands every chunk to a function.
class ChunkSink : public EntitySink {
 public:
  using Each = std::function<void(const Trace&, const EntityChunk&)>;
  explicit ChunkSink(Each each) : each_(std::move(each)) {}
  void Completed(const Trace& trace, const EntityChunk& chunk) override { each_(trace, chunk); }

 private:
  Each each_;
};

}  // namespace macroscope
