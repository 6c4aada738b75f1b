#include "store/store_reader.h"

#include <algorithm>
#include <functional>

namespace macroscope::store {

namespace {

// Format 3's sections after the shared ones (trace_sections.h).
// Summaries came later: section 8 held them before they were coded in
// blocks, and the writer now leaves it empty; section 9 holds them. A
// store without section 9 opens without summaries (its queries read its
// chunks, to the same answers).
enum ChunkedSection : uint32_t {
  kChunks = kStores + 1,
  kSectionCount,
  kUnblockedSummaries = kSectionCount,
  kSummaries
};

// Copies `from` (a column of a decoded chunk) into `to` (its store's,
// sized whole) at `positions` (or first, first + 1, …).
template <class T>
void Place(std::vector<T>& to, const std::vector<T>& from, uint64_t first, const std::vector<uint64_t>& positions) {
  if (from.empty()) return;
  if (positions.empty()) std::copy(from.begin(), from.end(), to.begin() + static_cast<ptrdiff_t>(first));
  else
    for (size_t k = 0; k < from.size(); ++k) to[positions[k]] = from[k];
}

}  // namespace

StoreReader::StoreReader(const std::string& path, Trace& trace) : file_(path), trace_(trace) {
  if (file_.version() != 3) throw std::logic_error("StoreReader: not a chunked store");
  if (file_.section_count() < kSectionCount) throw UserError(path + ": corrupt store (directory)");
  meta_ = ReadTraceSections(file_, trace_);
  stats_ = meta_.stats;
  {
    In in = file_.OpenSection(kStores, "stores");
    for (uint64_t i = 0; i < meta_.stores; ++i) {
      EntityStore s;
      s.kind = static_cast<TypeKind>(in.Below(5));
      s.container = in.IdBelow(meta_.containers);
      s.type = in.IdBelow(meta_.types);
      if (s.container == kNone || s.type == kNone || trace_.type(s.type).kind != s.kind) in.Fail();
      sizes_.push_back(in.U());
      trace_.AppendStore(std::move(s));
    }
    in.ExpectDone();
  }
  directory_ = ReadDirectory(file_.OpenSection(kChunks, "chunks"), sizes_, file_);
  std::vector<uint64_t> counted(sizes_.size(), 0);
  for (const ChunkEntry& e : directory_.chunks) counted[e.store] += e.count;
  if (counted != sizes_) throw UserError(path + ": corrupt store (chunk directory)");
  uint64_t entities = 0;
  for (uint64_t n : sizes_) entities += n;
  if (entities > kMaxEntities) throw UserError(path + ": corrupt store (too many entities)");
  summary_of_.assign(sizes_.size(), -1);
  if (file_.section_count() > kSummaries) {
    summaries_ = ReadSummaryDirectory(file_.OpenSection(kSummaries, "summaries"), sizes_.size(), file_);
    for (size_t i = 0; i < summaries_.summaries.size(); ++i) summary_of_[summaries_.summaries[i].store] = i;
  }
  ReadStrings(file_, meta_, trace_);
}

void StoreReader::ReadSummaryFrame(uint32_t frame, std::vector<uint8_t>& bytes) const {
  file_.ReadFrame(summaries_.frames[frame], "summary frame " + std::to_string(frame), bytes);
}

LodSummary StoreReader::DecodeSummary(uint32_t k, int level, uint64_t first_bin, uint64_t last_bin,
                                      const SummaryFrame& frame_of) const {
  const SummaryEntry& e = summaries_.summaries[summary_of_[k]];
  const EntityStore& s = trace_.store(k);
  const std::string what = "the summary of type '" + std::string(trace_.Str(trace_.type(s.type).name)) +
                           "' in container '" + std::string(trace_.Str(trace_.container(s.container).name)) + "'";
  const ChunkLimits limits{.strings = meta_.strings, .containers = meta_.containers, .store_size = sizes_[k]};
  // The summary runs on from (e.frame, e.offset) over the frames after:
  // bytes within one frame are a view of it, others are joined.
  std::vector<std::shared_ptr<const std::vector<uint8_t>>> held;
  std::vector<std::vector<uint8_t>> joined;
  auto read = [&](uint64_t offset, uint64_t size) -> std::span<const uint8_t> {
    uint32_t f = e.frame;
    uint64_t at = e.offset + offset;
    while (f < summaries_.frames.size() && at >= summaries_.frames[f].raw) at -= summaries_.frames[f++].raw;
    if (f >= summaries_.frames.size()) throw UserError(path() + ": corrupt store (" + what + ")");
    held.push_back(frame_of(f));
    const std::vector<uint8_t>& first = *held.back();
    if (at + size <= first.size()) return std::span<const uint8_t>(first).subspan(at, size);
    std::vector<uint8_t>& bytes = joined.emplace_back(first.begin() + static_cast<std::ptrdiff_t>(at), first.end());
    while (bytes.size() < size) {
      if (++f >= summaries_.frames.size()) throw UserError(path() + ": corrupt store (" + what + ")");
      const auto next = frame_of(f);
      bytes.insert(bytes.end(), next->begin(),
                   next->begin() + static_cast<std::ptrdiff_t>(std::min<uint64_t>(next->size(), size - bytes.size())));
    }
    return bytes;
  };
  return store::DecodeSummary(e, level, first_bin, last_bin, s.kind, read, path(), what, limits);
}

std::string StoreReader::ChunkName(size_t k) const {
  const ChunkEntry& e = directory_.chunks[k];
  const EntityStore& s = trace_.store(e.store);
  return "chunk " + std::to_string(k) + ": entities from " + std::to_string(e.first) + " of type '" +
         std::string(trace_.Str(trace_.type(s.type).name)) + "' in container '" +
         std::string(trace_.Str(trace_.container(s.container).name)) + "'";
}

void StoreReader::ReadFrameOf(size_t k, std::vector<uint8_t>& bytes) const {
  file_.ReadFrame(directory_.frames[directory_.chunks[k].frame], ChunkName(k), bytes);
}

void StoreReader::Decode(size_t k, std::span<const uint8_t> frame, EntityStore& into,
                         std::vector<uint64_t>& positions) const {
  const ChunkEntry& e = directory_.chunks[k];
  const EntityStore& s = trace_.store(e.store);
  into.kind = s.kind;
  into.container = s.container;
  into.type = s.type;
  const ChunkLimits limits{.strings = meta_.strings, .containers = meta_.containers, .store_size = sizes_[e.store]};
  DecodeChunk(In(frame.subspan(e.offset, e.size), path(), ChunkName(k)), e, limits, into, positions);
}

void StoreReader::Read(size_t k, EntityStore& into, std::vector<uint64_t>& positions, FrameBuffer& buffer) const {
  const uint32_t frame = directory_.chunks[k].frame;
  if (buffer.frame != frame) {
    buffer.frame = UINT32_MAX;  // until it is whole
    ReadFrameOf(k, buffer.bytes);
    buffer.frame = frame;
  }
  Decode(k, buffer.bytes, into, positions);
}

void StoreReader::ReadAll() {
  const std::vector<ChunkEntry>& chunks = directory_.chunks;
  // Each store's columns, sized whole for the columns its chunks hold, so
  // that the chunks then land in place from any thread.
  std::vector<uint64_t> columns(sizes_.size(), 0);
  for (const ChunkEntry& e : chunks) columns[e.store] |= e.columns;
  std::vector<std::vector<size_t>> by_frame(directory_.frames.size());
  for (size_t k = 0; k < chunks.size(); ++k) by_frame[chunks[k].frame].push_back(k);
  // User fields go to their stores' lists after the threads (a list is
  // appended to), in chunk order.
  struct Fields {
    uint32_t store;
    uint64_t position;
    std::vector<ExtraField> fields;
  };
  std::vector<std::vector<Fields>> fields_by_frame(by_frame.size());
  RunTasks(sizes_.size(), [&](size_t t) {
    EntityStore& s = trace_.store(static_cast<uint32_t>(t));
    const uint64_t n = sizes_[t], c = columns[t];
    s.start.resize(n);
    if (c & kHasEnd) s.end.resize(n);
    if (c & kHasValue) s.value.resize(n);
    if (c & kHasNumber) s.number.resize(n);
    if (c & kHasLevel) s.level.resize(n);
    if (c & kHasKey) s.key.resize(n);
    if (c & kHasPeers) s.peer_start.resize(n, kNone), s.peer_end.resize(n, kNone);
  });
  RunTasks(by_frame.size(), [&](size_t frame) {
    FrameBuffer buffer;
    EntityStore chunk;
    std::vector<uint64_t> positions;
    for (size_t k : by_frame[frame]) {
      Read(k, chunk, positions, buffer);
      const ChunkEntry& e = chunks[k];
      EntityStore& s = trace_.store(e.store);
      Place(s.start, chunk.start, e.first, positions);
      Place(s.end, chunk.end, e.first, positions);
      Place(s.value, chunk.value, e.first, positions);
      Place(s.number, chunk.number, e.first, positions);
      Place(s.level, chunk.level, e.first, positions);
      Place(s.key, chunk.key, e.first, positions);
      Place(s.peer_start, chunk.peer_start, e.first, positions);
      Place(s.peer_end, chunk.peer_end, e.first, positions);
      if (chunk.extras.empty()) continue;
      const EntityChunk view = EntityChunk::Of(chunk, 0, chunk.size());
      for (size_t i = 0; i < view.size(); ++i) {
        Fields f{e.store, positions.empty() ? e.first + i : positions[i], {}};
        view.ForEachField(i, [&](const ExtraField& field) { f.fields.push_back(field); });
        if (!f.fields.empty()) fields_by_frame[frame].push_back(std::move(f));
      }
    }
  });
  for (const std::vector<Fields>& frame : fields_by_frame)
    for (const Fields& f : frame) {
      ExtraColumn& extras = trace_.store(f.store).extras;
      extras.SetStart(f.position, extras.AddList(f.fields));
    }
}

EntityChunk StoreReader::View(size_t k, const EntityStore& decoded) const {
  const ChunkEntry& e = directory_.chunks[k];
  EntityChunk whole = EntityChunk::Of(decoded, 0, decoded.size());
  whole.store = e.store;
  whole.type_name = trace_.type(decoded.type).name;
  whole.container_name = trace_.container(decoded.container).name;
  whole.index = e.first;
  return whole;
}

void StoreReader::Stream(EntitySink& sink) {
  EntityStore chunk;
  std::vector<uint64_t> positions;
  FrameBuffer buffer;
  for (size_t k = 0; k < directory_.chunks.size(); ++k) {
    Read(k, chunk, positions, buffer);
    ForEachRun(View(k, chunk), positions, [&](const EntityChunk& run) { sink.Completed(trace_, run); });
  }
}

}  // namespace macroscope::store
