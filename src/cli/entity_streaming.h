// Reading a trace for the streaming analyses (kernel subsystems, anomalies,
// correlate): every chunk of entities goes to a callback as the reader completes it,
// so the trace is never held whole; `trace` keeps the types, containers and
// time base, which the analyses read at the end.
#pragma once

#include <string>
#include <vector>

#include "model/entity_sink.h"
#include "formats/format.h"
#include "model/trace.h"

namespace macroscope::cli {

inline formats::ReadStats StreamEntities(const std::vector<std::string>& files, formats::ReadOptions options,
                                         Trace& trace, ChunkSink::Each each) {
  ChunkSink sink(std::move(each));
  options.sink = &sink;
  return formats::ReadTrace(files, options, trace);
}

}  // namespace macroscope::cli
