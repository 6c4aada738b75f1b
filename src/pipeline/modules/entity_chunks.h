// The modules that feed an analysis class chunk by chunk (anomalies,
// correlate, kernel-processes, kernel-subsystems, kernel-memory) read their
// input through this: every chunk of one trace, as the commands hand the
// same classes the chunks a reader completes (model/entity_sink.h).
#pragma once

#include <memory>
#include <string>

#include "model/entity_chunk.h"
#include "pipeline/module.h"
#include "pipeline/stream_types.h"
#include "util/error.h"

namespace macroscope::pipeline {

// Calls `each(trace, chunk)` for every chunk of `in` until its end and
// returns the source trace (null when no entity came). Throws UserError,
// naming `kind`, when the entities come from several traces. `trace` is
// the source, still being read: its strings may be read, the rest only
// after the end (stream_types.h).
template <class Each>
std::shared_ptr<const Trace> ForEachChunk(Input<EntityBatch>& in, const std::string& kind, Each&& each) {
  std::shared_ptr<const Trace> trace;
  while (const EntityBatch* batch = in.Next()) {
    if (batch->empty()) continue;
    if (!trace) trace = batch->trace;
    if (batch->trace != trace) throw UserError(kind + ": entities of several traces (one trace only)");
    for (size_t k = 0; k < batch->chunks(); ++k) each(*trace, batch->chunk(k));
  }
  return trace;
}

}  // namespace macroscope::pipeline
