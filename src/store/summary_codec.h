// A store's level-of-detail summary (model/lod_summary.h) as the bytes a
// store of format 3 keeps of it (docs/store.md), and the directory of the
// summaries (section 8). The writer builds each summary from the store's
// chunks once they are written (BuildSummaries, store_writer.cc); a reader
// decodes the parts a query needs when it first asks for them. Internal
// to src/store.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "model/lod_summary.h"
#include "model/trace.h"
#include "store/chunk_codec.h"
#include "store/store_bytes.h"
#include "store/store_file.h"

namespace macroscope::store {

// Where each store's summary lies: frames of their own, after the chunks',
// each summary in parts, per level its cells then its crossers, so that a
// window reads the parts it needs only. A summary begins at `offset` in
// `frame` and runs on into the next frames when it is longer (stores
// written before may hold each in one frame: it reads the same).
struct SummaryEntry {
  uint32_t store = 0;
  int finest = 0;
  uint32_t frame = 0;
  uint64_t offset = 0;          // in the frame, once decompressed
  std::vector<uint64_t> parts;  // sizes: cells of level 0, crossers of level 0, cells of level 1, …
};
struct SummaryDirectory {
  std::vector<Frame> frames;
  std::vector<SummaryEntry> summaries;  // at most one a store, by store
};

// How many of the summary's first bytes hold what `level` needs (<= finest).
uint64_t SummaryPrefix(const SummaryEntry& entry, int level);

// The summary's bytes, and its parts' sizes into `part_sizes`.
std::vector<uint8_t> EncodeSummary(const LodSummary& summary, std::vector<uint64_t>& part_sizes);

// Of the summary at `entry` (of a store of `kind`), the cells of `level`
// and the crossers of levels up to it (level <= entry.finest), decoded out
// of `bytes` (the summary's, from its offset in its frame); every id,
// place and bin is checked (`limits`): a UserError naming `path` and
// `what` otherwise. `bytes` begin where the summary does, and hold at
// least its SummaryPrefix for `level`.
LodSummary DecodeSummary(const SummaryEntry& entry, int level, TypeKind kind, std::span<const uint8_t> bytes,
                         const std::string& path, const std::string& what, const ChunkLimits& limits);

std::vector<uint8_t> EncodeSummaryDirectory(const SummaryDirectory& directory);
// Throws UserError on entries that do not fit the frames and stores.
SummaryDirectory ReadSummaryDirectory(In in, uint64_t stores, const StoreFile& file);

}  // namespace macroscope::store
