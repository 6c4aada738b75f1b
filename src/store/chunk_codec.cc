#include "store/chunk_codec.h"

#include <algorithm>

namespace macroscope::store {

namespace {

template <class T>
void PutInts(Out& out, std::span<const T> column) {
  for (T v : column) out.U(v);
}

}  // namespace

uint64_t ColumnsOf(const EntityChunk& c) {
  uint64_t flags = 0;
  if (!c.end.empty()) flags |= kHasEnd;
  if (!c.value.empty()) flags |= kHasValue;
  if (!c.number.empty()) flags |= kHasNumber;
  if (!c.level.empty()) flags |= kHasLevel;
  if (!c.key.empty()) flags |= kHasKey;
  if (!c.peer_start.empty() || !c.peer_end.empty()) flags |= kHasPeers;
  if (c.HasFields()) flags |= kHasFields;
  return flags;
}

std::vector<uint8_t> EncodeChunk(const EntityChunk& c, std::span<const uint64_t> positions) {
  const uint64_t flags = ColumnsOf(c) | (positions.empty() ? uint64_t{0} : uint64_t{kHasPositions});
  Out out;
  if (!positions.empty()) {  // each position's step from the previous + 1, zigzag
    uint64_t next = positions[0];
    for (uint64_t p : positions) {
      out.S(static_cast<int64_t>(p - next));
      next = p + 1;
    }
  }
  WriteDoubles(out, {c.start});
  if (flags & kHasEnd) WriteDoubles(out, {c.end});
  if (flags & kHasValue) PutInts(out, c.value);
  if (flags & kHasNumber) WriteDoubles(out, {c.number});
  if (flags & kHasLevel) PutInts(out, c.level);
  if (flags & kHasKey) PutInts(out, c.key);
  if (flags & kHasPeers) {
    for (size_t i = 0; i < c.size(); ++i) out.Id(c.PeerStart(i));
    for (size_t i = 0; i < c.size(); ++i) out.Id(c.PeerEnd(i));
  }
  if (flags & kHasFields) {
    std::vector<ExtraField> fields;
    for (size_t i = 0; i < c.size(); ++i) {
      fields.clear();
      c.ForEachField(i, [&](const ExtraField& f) { fields.push_back(f); });
      out.U(fields.size());
      for (const ExtraField& f : fields) { out.U(f.name); out.U(f.value); }
    }
  }
  return std::move(out.bytes);
}

std::pair<double, double> TimeRange(const EntityChunk& c) {
  double start = c.start.empty() ? 0 : c.start[0], end = start;
  // An entity's extent is [min, max] of its two times: a state a reader
  // ended before it began (at a trace's end) still lies within the range.
  for (size_t i = 0; i < c.size(); ++i) {
    start = std::min({start, c.start[i], c.End(i)});
    end = std::max({end, c.start[i], c.End(i)});
  }
  return {start, end};
}

void DecodeChunk(In in, const ChunkEntry& entry, const ChunkLimits& limits, EntityStore& s,
                 std::vector<uint64_t>& positions) {
  const uint64_t n = entry.count;
  const uint64_t flags = entry.columns;
  for (auto* column : {&s.start, &s.end, &s.number}) column->clear();
  for (auto* column : {&s.value, &s.key, &s.peer_start, &s.peer_end}) column->clear();
  s.level.clear();
  s.extras = ExtraColumn();
  positions.clear();
  if (flags & kHasPositions) {
    uint64_t next = entry.first;
    for (uint64_t k = 0; k < n; ++k) {
      const uint64_t p = next + static_cast<uint64_t>(in.S());
      if (p >= limits.store_size) in.Fail();
      positions.push_back(p);
      next = p + 1;
    }
  }
  auto doubles = [&](std::vector<double>& column) {
    DoubleReader reader(in);
    column.reserve(n);
    reader.Read(n, column);
  };
  doubles(s.start);
  if (flags & kHasEnd) doubles(s.end);
  if (flags & kHasValue) ReadIds(in, n, limits.strings, s.value);
  if (flags & kHasNumber) doubles(s.number);
  if (flags & kHasLevel) ReadIds(in, n, 65536, s.level);
  if (flags & kHasKey) ReadIds(in, n, limits.strings, s.key);
  if (flags & kHasPeers) {
    for (auto* column : {&s.peer_start, &s.peer_end})
      for (uint64_t k = 0; k < n; ++k) column->push_back(in.IdBelow(limits.containers));
  }
  if (flags & kHasFields) {
    std::vector<ExtraField> fields;
    for (uint64_t k = 0; k < n; ++k) {
      const uint64_t count = in.U();
      fields.clear();
      for (uint64_t f = 0; f < count; ++f) {
        const StringId name = in.Below(limits.strings);
        fields.push_back({name, in.Below(limits.strings)});
      }
      if (!fields.empty()) s.extras.SetStart(k, s.extras.AddList(fields));
    }
  }
  in.ExpectDone();
}

void PutFrames(Out& out, const std::vector<Frame>& frames) {
  out.U(frames.size());
  for (const Frame& f : frames) { out.U(f.offset); out.U(f.size); out.U(f.raw); out.U(f.hash); }
}

std::vector<Frame> ReadFrames(In& in, const StoreFile& file) {
  std::vector<Frame> frames;  // grown frame by frame: the count is a claim
  const uint64_t n = in.U();
  for (uint64_t k = 0; k < n; ++k) {
    Frame f;
    f.offset = in.U();
    f.size = in.U();
    f.raw = in.U();
    f.hash = in.U();
    if (!file.Holds(f)) in.Fail();
    frames.push_back(f);
  }
  return frames;
}

std::vector<uint8_t> EncodeDirectory(const ChunkDirectory& d) {
  Out out;
  PutFrames(out, d.frames);
  out.U(d.chunks.size());
  for (const ChunkEntry& e : d.chunks) {
    out.U(e.store); out.U(e.first); out.U(e.count); out.U(e.columns); out.D(e.start); out.D(e.end);
    out.U(e.frame); out.U(e.offset); out.U(e.size);
  }
  return std::move(out.bytes);
}

ChunkDirectory ReadDirectory(In in, const std::vector<uint64_t>& store_sizes, const StoreFile& file) {
  ChunkDirectory d;  // grown entry by entry: the counts are claims
  d.frames = ReadFrames(in, file);
  const uint64_t n_chunks = in.U();
  for (uint64_t k = 0; k < n_chunks; ++k) {
    ChunkEntry e;
    e.store = in.Below(store_sizes.size());
    e.first = in.U();
    e.count = in.U();
    e.columns = in.U();
    e.start = in.D();
    e.end = in.D();
    e.frame = in.Below(d.frames.size());
    e.offset = in.U();
    e.size = in.U();
    const uint64_t size = store_sizes[e.store];
    // An entity takes at least a byte of its chunk (its start). A chunk
    // with places has them checked as they are decoded.
    const bool contiguous = (e.columns & kHasPositions) == 0;
    if (e.count == 0 || e.count > kMaxChunkEntities || e.count > e.size || e.first >= size ||
        (contiguous && e.count > size - e.first) ||
        (e.columns & ~kAllColumns) != 0 || e.offset > d.frames[e.frame].raw ||
        e.size > d.frames[e.frame].raw - e.offset)
      in.Fail();
    d.chunks.push_back(e);
  }
  in.ExpectDone();
  return d;
}

void ForEachRun(const EntityChunk& whole, std::span<const uint64_t> positions,
                const std::function<void(const EntityChunk&)>& f) {
  if (positions.empty()) {
    f(whole);
    return;
  }
  for (size_t begin = 0, end; begin < positions.size(); begin = end) {
    for (end = begin + 1; end < positions.size() && positions[end] == positions[end - 1] + 1;) ++end;
    EntityChunk run = whole.Sub(begin, end - begin);
    run.index = positions[begin];
    f(run);
  }
}

}  // namespace macroscope::store
