// A store's level-of-detail summary (model/lod_summary.h) as the bytes a
// store of format 3 keeps of it (docs/store.md), and the directory of the
// summaries (section 8). The writer builds each summary from the store's
// chunks once they are written (BuildSummaries, store_writer.cc); a reader
// decodes one when a query first asks for it. Internal to src/store.
#pragma once

#include <cstdint>
#include <vector>

#include "model/lod_summary.h"
#include "model/trace.h"
#include "store/chunk_codec.h"
#include "store/store_bytes.h"
#include "store/store_file.h"

namespace macroscope::store {

std::vector<uint8_t> EncodeSummary(const LodSummary& summary);

// Decodes the summary of store `store` (of `kind`); every id, place and
// bin is checked (`limits`): a UserError naming the file otherwise.
LodSummary DecodeSummary(In in, TypeKind kind, uint32_t store, const ChunkLimits& limits);

// Where each store's summary lies: frames of their own, after the chunks'.
struct SummaryEntry {
  uint32_t store = 0;
  uint32_t frame = 0;
  uint64_t offset = 0, size = 0;  // in the frame, once decompressed
};
struct SummaryDirectory {
  std::vector<Frame> frames;
  std::vector<SummaryEntry> summaries;  // at most one a store, by store
};
std::vector<uint8_t> EncodeSummaryDirectory(const SummaryDirectory& directory);
// Throws UserError on entries that do not fit the frames and stores.
SummaryDirectory ReadSummaryDirectory(In in, uint64_t stores, const StoreFile& file);

}  // namespace macroscope::store
