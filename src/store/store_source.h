// A store of format 3 as an EntitySource (model/entity_source.h): opening
// it reads the description and the chunk directory only; a query's chunks
// are found by their zone maps and decoded when first reached. Two caches
// keep what was read for the next queries, each bounded in bytes
// (CacheBudget): decoded chunks, and decompressed frames (the small
// chunks of many stores share a frame, so a window over many rows finds
// its next chunk's frame there); the least recently used leave first.
// Level-of-detail summaries are decoded when a window first needs one, and
// kept in a third cache.
// `serve` answers a chunked store through it, holding the budget and the
// description, however large the store.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/entity_source.h"
#include "model/trace.h"
#include "store/byte_lru.h"
#include "store/store_reader.h"

namespace macroscope::store {

// What the caches may keep, in bytes.
struct CacheBudget {
  size_t chunks = 0;     // decoded chunks
  size_t frames = 0;     // decompressed frames
  size_t summaries = 0;  // decoded level-of-detail summaries

  // A server's: half for the chunks, which the next queries read again,
  // and three eighths for the summaries (a whole-span window over 200 rows
  // of a 10^9-entity store holds about 500 MB of them: with an eighth of
  // 1.5 GB, or a quarter, each such window decoded them again, 1.5 s
  // against 0.4 s).
  static CacheBudget Serving(size_t bytes) { return {bytes / 2, bytes / 8, bytes - bytes / 2 - bytes / 8}; }
  // What Serving is given unless told (`--memory`): a sixteenth of the
  // machine's memory (1 GiB where it cannot be told).
  static size_t DefaultBytes();
  // A command that reads a store once (stats): no chunk is read twice,
  // but the frames shared by many small stores are decompressed once, not
  // once per store.
  static CacheBudget Scanning() { return {0, size_t{256} << 20, 0}; }
};

class StoreSource : public EntitySource {
 public:
  // Opens the store at `path` (a UserError when it is not of format 3 or
  // its description is corrupt); its caches keep about `budget` (a query
  // holds the chunk it reads besides).
  StoreSource(const std::string& path, CacheBudget budget);

  const Trace& trace() const override { return trace_; }
  uint64_t size(uint32_t k) const override { return reader_.store_size(k); }
  const EntityStore* in_memory(uint32_t) const override { return nullptr; }
  size_t pieces(uint32_t k) const override { return chunks_of_[k].size(); }
  void VisitPiece(uint32_t k, size_t piece, double t1, double t2, const Visit& visit) const override;
  bool Find(uint32_t k, uint64_t index, const std::function<void(const EntityChunk&, size_t)>& found) const override;
  int summary_finest(uint32_t k) const override { return reader_.summary_finest(k); }
  std::shared_ptr<const LodSummary> summary(uint32_t k, int level, uint64_t first_bin,
                                            uint64_t last_bin) const override;

  const StoreReader& reader() const { return reader_; }
  // The bytes the caches hold now.
  size_t cached_bytes() const { return chunks_.bytes() + frames_.bytes() + summaries_.bytes(); }

 private:
  struct DecodedChunk {
    EntityStore columns;
    std::vector<uint64_t> positions;  // empty when contiguous
  };
  // Chunk `c` decoded, as the chunk views `visit` gets (runs of
  // contiguous places).
  void VisitChunk(size_t c, const Visit& visit) const;

  Trace trace_;
  StoreReader reader_;
  std::vector<std::vector<uint32_t>> chunks_of_;  // by store: its chunks, in file order
  mutable ByteLru<DecodedChunk> chunks_;
  mutable ByteLru<std::vector<uint8_t>> frames_;  // chunks' frames, then summaries' (kSummaryFrame | frame)
  mutable ByteLru<LodSummary> summaries_;
};

}  // namespace macroscope::store
