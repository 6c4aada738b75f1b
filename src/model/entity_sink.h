// Where a streaming reader hands the entities it completed, instead of
// keeping them all in the Trace: a workflow (src/pipeline) reads traces
// larger than memory this way. Without a sink the Trace keeps everything,
// which is how the in-memory model is built.
//
// The reader keeps in its Trace what streaming needs: types, containers,
// declared values, strings, and the entities still open (states on a
// stack, a variable's last value, a link waiting for its other end).
// Entities are handed over per store, in chunks, each chunk in the store's
// own order (the order the in-memory model holds them); the Trace forgets
// them after the call. Events, variables and links come out in store
// order; a state still open when the states opened after it are handed
// over comes later, when it is closed (so a state open for the whole trace
// does not hold back the ones nested in it). Calls come from the reading
// thread. docs/streaming.md says what each format holds meanwhile.
#pragma once

#include <cstddef>

#include "model/trace.h"

namespace macroscope {

class EntitySink {
 public:
  virtual ~EntitySink() = default;
  // Entities [begin, end) of `store` are complete; `trace` gives names,
  // containers and the time base (which a reader may refine until its
  // end; the last call's is final). The store's user fields are readable
  // for those entities (store.extras.ForEach).
  virtual void Completed(const Trace& trace, const EntityStore& store, size_t begin, size_t end) = 0;
};

}  // namespace macroscope
