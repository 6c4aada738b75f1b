// Writes any trace of the model as Chrome Trace Event JSON (object form),
// which chrome://tracing, catapult and the Perfetto UI open.
//
// Flattening (Chrome knows only processes and threads): every container
// that is a leaf, holds states or ends a link becomes a thread (one per
// state type when it has several); a leaf's process is its parent, any
// other container is its own process. Process names are the container
// paths joined with "/", thread names the container names; M sort_index
// metadata keep the creation order. States become X events (parents first
// at equal times), events i (thread, process or global scope), variables
// C (with an "id" when they belong to a thread's container), links s/f
// flow pairs. Times: model times (from the trace origin) -> microseconds
// through the trace's TimeBase, rounded to the
// nanosecond. User fields become args (a field "args" holding a JSON
// object is merged, a field "cat" becomes the category).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "model/trace.h"

namespace macroscope::chrome {

struct WriteStats {
  uint64_t events = 0;  // trace events written (metadata included)
  uint64_t processes = 0;
  uint64_t threads = 0;
};

// Writes to a stream; throws UserError when it cannot be written.
WriteStats WriteChrome(const Trace& trace, std::FILE* out);

// Writes to `path` whole or not at all (AtomicFile).
WriteStats WriteChromeFile(const Trace& trace, const std::string& path);

}  // namespace macroscope::chrome
