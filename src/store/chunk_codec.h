// One chunk of a store of format 3 (docs/store.md): a run of entities of
// one store, its columns coded one after the other, and its directory
// entry (which entities, which columns, their time range, where its bytes
// lie). Chunks are packed into zstd frames of about kFrameBytes (a big
// chunk alone, the small chunks of many stores together, so they compress
// well). The writer codes a chunk with EncodeChunk; every reader decodes
// one with DecodeChunk. Internal to src/store.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "model/entity_chunk.h"
#include "model/trace.h"
#include "store/store_bytes.h"
#include "store/store_file.h"

namespace macroscope::store {

// The writer cuts each store into chunks of this many entities. A chunk's
// zone map (its time range) is what lets a query skip it, so a chunk
// must cover a short time: a window over 0.01 % of a trace reads one
// chunk a store, 4096 entities, not a whole small store. And not shorter:
// a store of 10^9 entities has a directory of ~250,000 entries (~7 MB),
// read when the store is opened.
inline constexpr uint64_t kChunkEntities = 4096;
// What a reader accepts (stores written with chunks of up to 65536).
inline constexpr uint64_t kMaxChunkEntities = 65536;

// A frame is closed once it holds this many bytes of chunks. A query
// decompresses a whole frame for one chunk: with frames of 1 MiB, a window
// over 0.01 % of every row of a 10^7-entity store took 1.4 s with a cold
// cache (the frames' decompression), 0.43 s with 64 KiB, for a store 6 %
// larger (32 KiB: 0.40 s, 10 % larger).
inline constexpr uint64_t kFrameBytes = uint64_t{1} << 16;

// A chunk's directory entry, with its zone map.
struct ChunkEntry {
  uint32_t store = 0;  // the store's index in the trace
  uint64_t first = 0;  // the position in its store of entity 0
  uint64_t count = 0;
  uint64_t columns = 0;  // which columns it holds (ColumnFlag)
  double start = 0;    // the earliest time of its entities (start or end)
  double end = 0;      // the latest (an event's end is its time)
  uint32_t frame = 0;  // its frame, and where its bytes lie once decompressed
  uint64_t offset = 0, size = 0;
};

// The columns a chunk may hold (a column the kind lacks is empty).
enum ColumnFlag : uint64_t {
  kHasEnd = 1, kHasValue = 2, kHasNumber = 4, kHasLevel = 8, kHasKey = 16, kHasPeers = 32, kHasFields = 64,
  kHasPositions = 128, kAllColumns = 255
};
// Which of those `chunk` holds (positions aside).
uint64_t ColumnsOf(const EntityChunk& chunk);

// The raw bytes of `chunk`'s entities. `positions`: each entity's position
// in its store when they are not first, first + 1, … (empty otherwise).
std::vector<uint8_t> EncodeChunk(const EntityChunk& chunk, std::span<const uint64_t> positions);

// The earliest and latest times (starts or ends) of `chunk`'s entities.
std::pair<double, double> TimeRange(const EntityChunk& chunk);

// What ids a chunk may hold, and its store's size.
struct ChunkLimits {
  uint64_t strings = 0;
  uint64_t containers = 0;
  uint64_t store_size = 0;
};

// Decodes a chunk: its columns into `into` (emptied first; its kind,
// container and type are the caller's), user fields into `into.extras`,
// and, when they are not contiguous, each entity's position in its store
// into `positions` (emptied first). Throws UserError on anything the
// entry and the limits rule out.
void DecodeChunk(In in, const ChunkEntry& entry, const ChunkLimits& limits, EntityStore& into,
                 std::vector<uint64_t>& positions);

// f(run) for each run of contiguous places of `whole` (a chunk's view,
// its index the chunk's first place), given each entity's place in
// `positions`; f(whole) once when `positions` is empty.
void ForEachRun(const EntityChunk& whole, std::span<const uint64_t> positions,
                const std::function<void(const EntityChunk&)>& f);

// The directory section: the frames, then every chunk's entry.
struct ChunkDirectory {
  std::vector<Frame> frames;
  std::vector<ChunkEntry> chunks;
};
std::vector<uint8_t> EncodeDirectory(const ChunkDirectory& directory);
// A list of frames, as both directories (chunks', summaries') write it:
// the count, then each frame's offset, compressed size, decompressed size
// and hash. Reading checks each lies within the file's frames.
void PutFrames(Out& out, const std::vector<Frame>& frames);
std::vector<Frame> ReadFrames(In& in, const StoreFile& file);
// Throws UserError on entries that do not fit the frames and stores.
ChunkDirectory ReadDirectory(In in, const std::vector<uint64_t>& store_sizes, const StoreFile& file);

}  // namespace macroscope::store
