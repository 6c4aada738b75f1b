// The store: a simulated Trace saved as a compact columnar file that opens
// in well under a second (format in docs/store.md). Written atomically;
// checksummed; a store from a newer format version is refused.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "model/entity_sink.h"
#include "model/trace.h"

namespace macroscope::store {

inline constexpr uint32_t kStoreVersion = 2;  // 2: the time base

// What the original reader reported, kept so commands (info) print the same.
struct StoreStats {
  uint64_t events = 0;
  uint64_t bytes = 0;
};

// True when `head` (the first bytes of a file) starts with the store magic.
bool LooksLikeStore(std::string_view head);

// Writes `trace` to `path` (temporary file, then rename). Throws UserError
// on I/O failure; nothing is left at `path` then.
void WriteStore(const Trace& trace, const StoreStats& stats, const std::string& path);

// Reads the store at `path` into `trace` (a freshly constructed Trace),
// exactly as it was written. Throws UserError naming the file for a
// truncated, corrupt or newer store.
// With a sink (streaming): types, containers and strings are read into
// `trace`, and the entities go to the sink store by store, in chunks of
// at most 65536 (each chunk entities 0.. of the store object it is handed
// with); the trace's stores end empty.
StoreStats ReadStore(const std::string& path, Trace& trace, EntitySink* sink = nullptr);

}  // namespace macroscope::store
