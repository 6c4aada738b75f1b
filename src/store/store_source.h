// A store of format 3 as an EntitySource (model/entity_source.h): opening
// it reads the description and the chunk directory only; a query's chunks
// are found by their zone maps and decoded when first reached, a frame at
// a time (all the chunks packed in it: the small chunks of many stores
// share a frame, and a query over many rows wants them all), into a cache
// of decoded frames bounded by a byte budget, the least recently used
// leaving first. `serve` answers a chunked store through it, holding the
// budget and the description, however large the store.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/entity_source.h"
#include "model/trace.h"
#include "store/store_reader.h"

namespace macroscope::store {

// The budget of a command that reads a store once (stats): frames shared
// by many small stores are decoded once, not once per store.
inline constexpr size_t kScanBudget = size_t{256} << 20;

class StoreSource : public EntitySource {
 public:
  // Opens the store at `path` (a UserError when it is not of format 3 or
  // its description is corrupt); at most `budget` bytes of decoded frames
  // are kept (one frame is, whatever the budget, while it is used).
  StoreSource(const std::string& path, size_t budget);

  const Trace& trace() const override { return trace_; }
  uint64_t size(uint32_t k) const override { return reader_.store_size(k); }
  const EntityStore* in_memory(uint32_t) const override { return nullptr; }
  void ForEachChunk(uint32_t k, double t1, double t2, const Visit& visit) const override;
  using EntitySource::ForEachChunk;
  bool Find(uint32_t k, uint64_t index, const std::function<void(const EntityChunk&, size_t)>& found) const override;

  const StoreReader& reader() const { return reader_; }
  // The bytes of decoded frames held now.
  size_t cached_bytes() const;

 private:
  // A frame's chunks, decoded: chunk `first_chunk + j` is chunks[j].
  struct DecodedChunk {
    EntityStore columns;
    std::vector<uint64_t> positions;  // empty when contiguous
  };
  struct DecodedFrame {
    size_t first_chunk = 0;
    std::vector<DecodedChunk> chunks;
    size_t bytes = 0;
  };
  std::shared_ptr<const DecodedFrame> Frame(uint32_t frame) const;
  // Chunk `c` decoded, as the chunk views `visit` gets (runs of
  // contiguous places).
  void VisitChunk(size_t c, const Visit& visit) const;

  Trace trace_;
  StoreReader reader_;
  std::vector<std::vector<uint32_t>> chunks_of_;  // by store: its chunks, in file order
  std::vector<size_t> frame_first_;               // by frame: its first chunk
  const size_t budget_;

  mutable std::mutex mutex_;  // guards what follows
  using Lru = std::list<uint32_t>;  // frames, the most recently used first
  struct Held {
    std::shared_ptr<const DecodedFrame> frame;
    Lru::iterator place;
  };
  mutable Lru lru_;
  mutable std::unordered_map<uint32_t, Held> held_;
  mutable size_t bytes_ = 0;
};

}  // namespace macroscope::store
