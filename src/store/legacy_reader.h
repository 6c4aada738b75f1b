// Reading stores of format versions 1 and 2 (legacy_reader.cc).
#pragma once

#include "model/entity_sink.h"
#include "model/trace.h"
#include "store/store.h"
#include "store/store_file.h"

namespace macroscope::store {

// As ReadStore (store.h), for a store of version 1 or 2.
StoreStats ReadLegacy(const StoreFile& file, Trace& trace, EntitySink* sink);

}  // namespace macroscope::store
