#include "store/store_source.h"

#include <unistd.h>

#include <algorithm>

namespace macroscope::store {

size_t CacheBudget::DefaultBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page) / 16 : size_t{1} << 30;
}

namespace {

template <class T>
size_t BytesOf(const std::vector<T>& column) {
  return column.capacity() * sizeof(T);
}

// What a decoded chunk holds in memory.
size_t BytesOf(const EntityStore& s, const std::vector<uint64_t>& positions) {
  const ExtraColumn& x = s.extras;
  return BytesOf(s.start) + BytesOf(s.end) + BytesOf(s.value) + BytesOf(s.number) + BytesOf(s.level) +
         BytesOf(s.key) + BytesOf(s.peer_start) + BytesOf(s.peer_end) + BytesOf(positions) + BytesOf(x.fields()) +
         BytesOf(x.list_begin()) + BytesOf(x.at_start()) + BytesOf(x.at_end()) + sizeof(EntityStore);
}

// Summaries' frames share the frames' cache, keyed apart from chunks'.
constexpr uint64_t kSummaryFrame = uint64_t{1} << 63;

}  // namespace

StoreSource::StoreSource(const std::string& path, CacheBudget budget)
    : reader_(path, trace_), chunks_(budget.chunks), frames_(budget.frames), summaries_(budget.summaries) {
  chunks_of_.resize(trace_.stores().size());
  const std::vector<ChunkEntry>& chunks = reader_.chunks();
  for (size_t c = 0; c < chunks.size(); ++c) chunks_of_[chunks[c].store].push_back(static_cast<uint32_t>(c));
}

void StoreSource::VisitChunk(size_t c, const Visit& visit) const {
  const auto chunk = chunks_.Get(c, [&] {
    const auto frame = frames_.Get(reader_.chunks()[c].frame, [&] {
      std::vector<uint8_t> bytes;
      reader_.ReadFrameOf(c, bytes);
      const size_t size = bytes.capacity();
      return std::pair(std::move(bytes), size);
    });
    DecodedChunk decoded;
    reader_.Decode(c, *frame, decoded.columns, decoded.positions);
    const size_t size = BytesOf(decoded.columns, decoded.positions);
    return std::pair(std::move(decoded), size);
  });
  ForEachRun(reader_.View(c, chunk->columns), chunk->positions, visit);
}

void StoreSource::VisitPiece(uint32_t k, size_t piece, double t1, double t2, const Visit& visit) const {
  const uint32_t c = chunks_of_[k][piece];
  // Its zone map: the earliest and latest times of its entities.
  const ChunkEntry& entry = reader_.chunks()[c];
  if (entry.end < t1 || entry.start > t2) return;
  VisitChunk(c, visit);
}

std::shared_ptr<const LodSummary> StoreSource::summary(uint32_t k, int level, uint64_t first_bin,
                                                      uint64_t last_bin) const {
  if (k >= chunks_of_.size() || level < 0 || level > reader_.summary_finest(k)) return nullptr;
  const auto decode = [&] {
    LodSummary decoded = reader_.DecodeSummary(k, level, first_bin, last_bin, [&](uint32_t f) {
      return frames_.Get(kSummaryFrame | f, [&] {
        std::vector<uint8_t> bytes;
        reader_.ReadSummaryFrame(f, bytes);
        const size_t size = bytes.capacity();
        return std::pair(std::move(bytes), size);
      });
    });
    const size_t size = decoded.bytes();
    return std::pair(std::move(decoded), size);
  };
  // Levels go to kLodMaxFinest (16: bins fit 16 bits); the key is the
  // store, the level and the bins asked.
  if (k >= (uint32_t{1} << 27)) return std::make_shared<const LodSummary>(decode().first);
  const uint64_t bins = (uint64_t{1} << level) - 1;
  const uint64_t key = uint64_t{k} << 37 | static_cast<uint64_t>(level) << 32 | std::min(first_bin, bins) << 16 |
                       std::min(last_bin, bins);
  return summaries_.Get(key, decode);
}

bool StoreSource::Find(uint32_t k, uint64_t index,
                       const std::function<void(const EntityChunk&, size_t)>& found) const {
  if (k >= chunks_of_.size() || index >= size(k)) return false;
  const std::vector<ChunkEntry>& chunks = reader_.chunks();
  for (uint32_t c : chunks_of_[k]) {
    const ChunkEntry& e = chunks[c];
    // A chunk of contiguous places says where it lies; one with a places
    // column may hold any (streamed states), and is looked into.
    if (!(e.columns & kHasPositions) && (index < e.first || index >= e.first + e.count)) continue;
    bool hit = false;
    VisitChunk(c, [&](const EntityChunk& run) {
      if (!hit && index >= run.index && index < run.index + run.size()) {
        hit = true;
        found(run, static_cast<size_t>(index - run.index));
      }
    });
    if (hit) return true;
  }
  return false;
}

}  // namespace macroscope::store
