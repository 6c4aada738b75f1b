// The modules that feed an analysis class one entity at a time (anomalies,
// kernel-processes, kernel-subsystems) read their input through this: every
// entity of one trace as an analysis::EntityRecord, the record the commands
// hand the same classes (analysis/entity_records.h).
#pragma once

#include <memory>
#include <span>
#include <string>

#include "analysis/entity_records.h"
#include "pipeline/module.h"
#include "pipeline/stream_types.h"
#include "util/error.h"

namespace macroscope::pipeline {

// Calls `each(trace, record)` for every entity of `in` until its end and
// returns the source trace (null when no entity came). Throws UserError,
// naming `kind`, when the entities come from several traces.
template <class Each>
std::shared_ptr<const Trace> ForEachRecord(Input<EntityBatch>& in, const std::string& kind, Each&& each) {
  std::shared_ptr<const Trace> trace;
  analysis::EntityRecord r;
  while (const EntityBatch* batch = in.Next()) {
    if (batch->entities.empty()) continue;
    if (!trace) trace = batch->trace;
    if (batch->trace != trace) throw UserError(kind + ": entities of several traces (one trace only)");
    const std::span<const ExtraField> fields = batch->fields;
    for (const Entity& e : batch->entities) {
      r = {e.kind, e.level, e.type, e.value, e.container_id, e.start, e.end,
           fields.subspan(e.fields_begin, e.fields_end - e.fields_begin)};
      each(*trace, r);
    }
  }
  return trace;
}

}  // namespace macroscope::pipeline
