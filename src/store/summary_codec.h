// A store's level-of-detail summary (model/lod_summary.h) as the bytes a
// store of format 3 keeps of it (docs/store.md), and the directory of the
// summaries (section 8). The writer builds each summary from the store's
// chunks once they are written (BuildSummaries, store_writer.cc); a reader
// decodes the parts a query needs when it first asks for them. Internal
// to src/store.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "model/lod_summary.h"
#include "model/time_bins.h"
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
// Summaries are packed into frames of this size, smaller than the chunks':
// a window or an overview at a coarse level reads a few KiB of each
// store's summary, and decompresses the whole frame holding them.
inline constexpr uint64_t kSummaryFrameBytes = uint64_t{1} << 14;

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

// The summary's bytes, and its parts' sizes into `part_sizes`: each part
// (a level's cells, its crossers) in blocks of a few hundred behind an
// index of their first bins, so that a window reads the blocks meeting
// its bins only (`bins`: the trace's).
std::vector<uint8_t> EncodeSummary(const LodSummary& summary, const TimeBins& bins,
                                   std::vector<uint64_t>& part_sizes);

// The summary's bytes [offset, offset + size): valid until the decoding
// that asked for them returns.
using SummaryBytes = std::function<std::span<const uint8_t>(uint64_t offset, uint64_t size)>;

// Of the summary at `entry` (of a store of `kind`), the cells of `level`
// in the blocks meeting bins [first_bin, last_bin], and the crossers of
// levels up to it in the blocks that may reach into them (level <=
// entry.finest), decoded out of the bytes `read` gives; every id, place
// and bin is checked (`limits`): a UserError naming `path` and `what`
// otherwise.
LodSummary DecodeSummary(const SummaryEntry& entry, int level, uint64_t first_bin, uint64_t last_bin, TypeKind kind,
                         const SummaryBytes& read, const std::string& path, const std::string& what,
                         const ChunkLimits& limits);

std::vector<uint8_t> EncodeSummaryDirectory(const SummaryDirectory& directory);
// Throws UserError on entries that do not fit the frames and stores.
SummaryDirectory ReadSummaryDirectory(In in, uint64_t stores, const StoreFile& file);

}  // namespace macroscope::store
