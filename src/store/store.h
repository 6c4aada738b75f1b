// The store: a simulated Trace saved as a compact columnar file, its
// entities in compressed chunks read only when asked for (format in
// docs/store.md). Written atomically, as the entities come
// (store_writer.h); checksummed; a store from a newer format version is
// refused. store_reader.h opens one without reading its entities.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/entity_sink.h"
#include "model/trace.h"

namespace macroscope::store {

inline constexpr uint32_t kStoreVersion = 3;  // 2: the time base; 3: chunks

// What the original reader reported, kept so commands (info) print the same.
struct StoreStats {
  uint64_t events = 0;
  uint64_t bytes = 0;
  std::vector<uint64_t> store_sizes = {};  // by store: set by a read for the description only
};

// True when `head` (the first bytes of a file) starts with the store magic.
bool LooksLikeStore(std::string_view head);
// True when the file at `path` is a store of format 3 or later (its
// entities in chunks: store_reader.h opens it without reading them).
bool IsChunkedStore(const std::string& path);

// Writes `trace` to `path` (temporary file, then rename). Throws UserError
// on I/O failure; nothing is left at `path` then.
void WriteStore(const Trace& trace, const StoreStats& stats, const std::string& path);

// Reads the store at `path` into `trace` (a freshly constructed Trace),
// exactly as it was written. Throws UserError naming the file for a
// truncated, corrupt or newer store.
// With a sink (streaming): types, containers and strings are read into
// `trace`, and the entities go to the sink chunk by chunk (each at most
// kMaxChunkEntities of one store, its `index` its place in the store); the
// trace's stores end empty.
// `description_only`: types, containers, strings and the (empty) stores,
// with each store's size in the result; of a chunked store (format 3) no
// chunk is read, an older one is read whole.
StoreStats ReadStore(const std::string& path, Trace& trace, EntitySink* sink = nullptr,
                     bool description_only = false);

}  // namespace macroscope::store
