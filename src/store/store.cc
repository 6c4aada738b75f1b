#include "store/store.h"

#include <fstream>
#include <new>
#include <stdexcept>

#include "store/legacy_reader.h"
#include "store/store_bytes.h"
#include "store/store_file.h"
#include "store/store_reader.h"
#include "store/store_writer.h"

namespace macroscope::store {

bool LooksLikeStore(std::string_view head) {
  return head.size() >= sizeof kMagic && std::memcmp(head.data(), kMagic, sizeof kMagic) == 0;
}

bool IsChunkedStore(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char head[12] = {};
  if (!in.read(head, sizeof head) || !LooksLikeStore({head, sizeof head})) return false;
  return VersionOf(reinterpret_cast<const uint8_t*>(head)) >= 3;
}

void WriteStore(const Trace& trace, const StoreStats& stats, const std::string& path) {
  StoreWriter writer(path);
  for (const EntityStore& s : trace.stores()) writer.Completed(trace, EntityChunk::Of(trace, s));
  writer.Finish(trace, stats);
}

StoreStats ReadStore(const std::string& path, Trace& trace, EntitySink* sink, bool description_only) {
  try {
    // The version from the first bytes: the file is mapped and checked once,
    // by the reader of its version.
    if (!IsChunkedStore(path)) return ReadLegacy(StoreFile(path), trace, sink);
    StoreReader reader(path, trace);
    StoreStats stats = reader.stats();
    if (description_only) {
      for (uint32_t i = 0; i < trace.stores().size(); ++i) stats.store_sizes.push_back(reader.store_size(i));
    } else if (sink != nullptr) {
      reader.Stream(*sink);
    } else {
      reader.ReadAll();
    }
    return stats;
  } catch (const std::bad_alloc&) {
    // Counts are checked against the section sizes, and those against the
    // file's size (kMaxZstdRatio), not against this machine's memory.
    throw UserError(path + ": the store does not fit in memory (or its sizes are corrupt)");
  } catch (const std::length_error&) {
    throw UserError(path + ": the store does not fit in memory (or its sizes are corrupt)");
  }
}

}  // namespace macroscope::store
