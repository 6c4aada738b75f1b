// A store of format 3 (docs/store.md) opened: the header, the directories
// and the trace's description (types, values, containers, strings, the
// stores and their sizes) are read at open; the entities stay in their
// chunks, in the memory-mapped file, until asked for: one chunk (Read),
// all of them into the trace's stores (ReadAll: the in-memory model), or
// all of them to a sink in file order (Stream: bounded memory).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "model/entity_sink.h"
#include "model/trace.h"
#include "store/chunk_codec.h"
#include "store/store.h"
#include "store/store_file.h"
#include "store/summary_codec.h"
#include "store/trace_sections.h"

namespace macroscope::store {

class StoreReader {
 public:
  // Opens the store at `path` into `trace` (a fresh Trace, which must
  // outlive the reader); throws UserError for a store that is not of
  // format 3 or whose description or directory is corrupt.
  StoreReader(const std::string& path, Trace& trace);

  const std::string& path() const { return file_.path(); }
  const Trace& trace() const { return trace_; }
  const StoreStats& stats() const { return stats_; }
  // The chunks, in file order, each with its store, place and time range.
  const std::vector<ChunkEntry>& chunks() const { return directory_.chunks; }
  // The number of entities of store `i`.
  uint64_t store_size(uint32_t i) const { return sizes_[i]; }

  // The last frame a reader decompressed, kept for its next chunk (one
  // per thread).
  struct FrameBuffer {
    uint32_t frame = UINT32_MAX;
    std::vector<uint8_t> bytes;
  };
  // The bytes of chunk `k`'s frame, decompressed; its hash is checked
  // first: a corrupt frame is a UserError naming the file and the chunk.
  void ReadFrameOf(size_t k, std::vector<uint8_t>& bytes) const;
  // Decodes chunk `k` out of its frame's bytes (ReadFrameOf) into `into`,
  // as Read does.
  void Decode(size_t k, std::span<const uint8_t> frame, EntityStore& into, std::vector<uint64_t>& positions) const;
  // Decodes chunk `k` into `into` (its kind, container and type set) and,
  // when its entities are not contiguous in their store, their positions
  // into `positions` (emptied otherwise). Checks its frame's hash first:
  // a corrupt chunk is a UserError naming the file and the chunk.
  void Read(size_t k, EntityStore& into, std::vector<uint64_t>& positions, FrameBuffer& buffer) const;
  // Chunk `k`, decoded into `decoded` (by Read), as the view consumers
  // take: store, names and place set.
  EntityChunk View(size_t k, const EntityStore& decoded) const;
  // The finest level of store `k`'s level-of-detail summary, -1 when it
  // has none (stores written before summaries have none).
  int summary_finest(uint32_t k) const {
    return summary_of_[k] < 0 ? -1 : summaries_.summaries[summary_of_[k]].finest;
  }
  // The cells of `level` (<= summary_finest(k)) in the blocks meeting
  // bins [first_bin, last_bin], and the crossers that may reach into them,
  // of store `k`'s summary, decoded out of the bytes `frame_of` gives
  // (frame f of the summaries, decompressed: ReadSummaryFrame): a
  // UserError naming the file and the store when corrupt.
  using SummaryFrame = std::function<std::shared_ptr<const std::vector<uint8_t>>(uint32_t f)>;
  LodSummary DecodeSummary(uint32_t k, int level, uint64_t first_bin, uint64_t last_bin,
                           const SummaryFrame& frame_of) const;
  void ReadSummaryFrame(uint32_t frame, std::vector<uint8_t>& bytes) const;
  // Every entity into the trace's stores, in their order (two threads).
  void ReadAll();
  // Every entity to `sink`, chunk by chunk in file order (each handed as
  // runs of contiguous positions); the trace's stores stay empty.
  void Stream(EntitySink& sink);

 private:
  std::string ChunkName(size_t k) const;

  StoreFile file_;
  Trace& trace_;
  StoreMeta meta_;
  StoreStats stats_;
  ChunkDirectory directory_;
  SummaryDirectory summaries_;
  std::vector<int64_t> summary_of_;  // by store: its entry in summaries_, or -1
  std::vector<uint64_t> sizes_;  // by store
};

}  // namespace macroscope::store
