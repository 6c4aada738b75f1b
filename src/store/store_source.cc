#include "store/store_source.h"

#include <algorithm>

namespace macroscope::store {

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

}  // namespace

StoreSource::StoreSource(const std::string& path, size_t budget) : reader_(path, trace_), budget_(budget) {
  chunks_of_.resize(trace_.stores().size());
  const std::vector<ChunkEntry>& chunks = reader_.chunks();
  for (size_t c = 0; c < chunks.size(); ++c) {
    chunks_of_[chunks[c].store].push_back(static_cast<uint32_t>(c));
    // Chunks lie in file order: a frame's are consecutive.
    if (chunks[c].frame >= frame_first_.size()) frame_first_.resize(chunks[c].frame + 1, c);
  }
}

size_t StoreSource::cached_bytes() const {
  std::lock_guard lock(mutex_);
  return bytes_;
}

std::shared_ptr<const StoreSource::DecodedFrame> StoreSource::Frame(uint32_t frame) const {
  {
    std::lock_guard lock(mutex_);
    auto it = held_.find(frame);
    if (it != held_.end()) {
      lru_.splice(lru_.begin(), lru_, it->second.place);
      return it->second.frame;
    }
  }
  // Decoded outside the lock: two threads may decode one frame at once,
  // and the first to finish keeps it.
  auto decoded = std::make_shared<DecodedFrame>();
  decoded->first_chunk = frame_first_[frame];
  const std::vector<ChunkEntry>& chunks = reader_.chunks();
  StoreReader::FrameBuffer buffer;
  for (size_t c = decoded->first_chunk; c < chunks.size() && chunks[c].frame == frame; ++c) {
    DecodedChunk& chunk = decoded->chunks.emplace_back();
    reader_.Read(c, chunk.columns, chunk.positions, buffer);
    decoded->bytes += BytesOf(chunk.columns, chunk.positions);
  }
  std::lock_guard lock(mutex_);
  auto [it, inserted] = held_.try_emplace(frame);
  if (!inserted) {
    lru_.splice(lru_.begin(), lru_, it->second.place);
    return it->second.frame;
  }
  lru_.push_front(frame);
  it->second = {decoded, lru_.begin()};
  bytes_ += decoded->bytes;
  // The least recently used leave; a frame still in use by a query lives
  // on in its shared_ptr until the query is done.
  while (bytes_ > budget_ && lru_.size() > 1) {
    auto last = held_.find(lru_.back());
    bytes_ -= last->second.frame->bytes;
    held_.erase(last);
    lru_.pop_back();
  }
  return decoded;
}

void StoreSource::VisitChunk(size_t c, const Visit& visit) const {
  const std::shared_ptr<const DecodedFrame> frame = Frame(reader_.chunks()[c].frame);
  const DecodedChunk& chunk = frame->chunks[c - frame->first_chunk];
  ForEachRun(reader_.View(c, chunk.columns), chunk.positions, visit);
}

void StoreSource::ForEachChunk(uint32_t k, double t1, double t2, const Visit& visit) const {
  const std::vector<ChunkEntry>& chunks = reader_.chunks();
  for (uint32_t c : chunks_of_[k]) {
    // Its zone map: the earliest and latest times of its entities.
    if (chunks[c].end < t1 || chunks[c].start > t2) continue;
    VisitChunk(c, visit);
  }
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
