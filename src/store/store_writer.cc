#include "store/store_writer.h"

#include <stdexcept>
#include <optional>
#include <unordered_map>

#include "model/lod_summary.h"
#include "model/time_bins.h"
#include "store/chunk_codec.h"
#include "store/store_file.h"
#include "store/summary_codec.h"
#include "store/trace_sections.h"
#include "util/run_file.h"

namespace macroscope::store {

namespace {

// How a spilled part that cannot be read back is named (a disk fault).
const std::string kSpillName = "the store writer's spill file";
const std::string kWrittenName = "the store being written";

// Entities whose summaries are built at once (their cells about 2^18,
// about 100 MB): the stores are summarised in groups of about this
// many, each group in one pass over the chunks in file order.
constexpr uint64_t kSummaryBatchEntities = uint64_t{1} << 23;

// What a decoded spilled part may hold: the writer checks nothing of its
// own bytes.
constexpr ChunkLimits kNoLimits{.strings = UINT64_MAX, .containers = UINT64_MAX, .store_size = UINT64_MAX};

// A store's entities received but not yet written.
struct Pending {
  EntityStore columns;
  uint64_t first = 0;               // the position of entity 0
  std::vector<uint64_t> positions;  // every entity's, once they stopped being contiguous
  bool Contiguous() const { return positions.empty(); }
};

// A part of a store set aside in the spill file: its coded bytes (as a
// chunk's, uncompressed) and what decoding them needs.
struct SpilledPart {
  uint64_t offset = 0;
  ChunkEntry entry;  // count, columns, first; `offset` and `size` in the spill file
};

}  // namespace

class StoreWriter::Impl {
 public:
  Impl(std::string path, uint64_t max_pending)
      : file_(std::move(path), kStoreVersion), max_pending_(max_pending), chunk_frames_(file_, kFrameBytes) {}

  void Add(const EntityChunk& chunk) {
    // Stores are told apart by (container, type), not by the chunk's store
    // number: a sharded reader numbers them per shard (the final numbers
    // are the trace's given to Finish).
    const uint32_t id = StoreOf(chunk);
    counts_[id] += chunk.size();
    Gather(id, chunk);
    // Beyond max_pending entities waiting in chunks not yet full (over all
    // stores), every pending chunk is set aside on disk, to be merged into
    // full chunks at the end: memory stays bounded when entities are
    // spread over very many stores, and the store still holds full
    // chunks, not the slivers a bound shared by thousands of stores would
    // leave (a query would read hundreds of them for one store).
    if (pending_entities_ > max_pending_)
      for (uint32_t s = 0; s < pending_.size(); ++s) Spill(s);
  }

  void Finish(const Trace& trace, const StoreStats& stats) {
    for (uint32_t s = 0; s < pending_.size(); ++s) {
      if (!spilled_[s].empty()) Merge(s);
      Flush(s);
    }
    chunk_frames_.Close();
    directory_.frames = chunk_frames_.frames();
    // The trace's store numbers.
    std::unordered_map<uint64_t, uint32_t> number;
    for (uint32_t i = 0; i < trace.stores().size(); ++i)
      number[Key(trace.stores()[i].container, trace.stores()[i].type)] = i;
    std::vector<uint64_t> counts(trace.stores().size(), 0);
    for (auto& [key, id] : ids_) {
      auto it = number.find(key);
      if (it == number.end()) throw std::logic_error("store writer: entities of a store the trace lacks");
      renumber_[id] = it->second;
      counts[it->second] = counts_[id];
    }
    for (ChunkEntry& e : directory_.chunks) e.store = renumber_[e.store];
    const SummaryDirectory summaries = BuildSummaries(trace, counts);
    std::vector<std::vector<uint8_t>> sections = EncodeTraceSections(trace, stats);
    Out stores;
    for (uint32_t i = 0; i < trace.stores().size(); ++i) {
      const EntityStore& s = trace.stores()[i];
      stores.U(static_cast<uint8_t>(s.kind)); stores.Id(s.container); stores.Id(s.type);
      stores.U(counts[i]);
    }
    sections.push_back(std::move(stores.bytes));
    sections.push_back(EncodeDirectory(directory_));
    sections.push_back(EncodeSummaryDirectory({}));  // section 8: the summaries before blocks, none
    sections.push_back(EncodeSummaryDirectory(summaries));
    file_.Finish(sections);
  }

  // The level-of-detail summary of each store big enough to need one
  // (model/lod_summary.h), built from its chunks read back from the file,
  // in groups of stores of about kSummaryBatchEntities entities: each
  // group in one pass over the chunks in file order (a frame of small
  // stores' chunks is decompressed once a group, not once a store), its
  // builders alone in memory. Written in frames after the chunks'.
  SummaryDirectory BuildSummaries(const Trace& trace, const std::vector<uint64_t>& counts) {
    const size_t stores = trace.stores().size();
    const TimeBins bins(trace.start_time(), trace.end_time());
    std::vector<double> first(stores, 0), last(stores, 0);
    std::vector<bool> seen(stores, false);
    for (const ChunkEntry& e : directory_.chunks) {
      first[e.store] = seen[e.store] ? std::min(first[e.store], e.start) : e.start;
      last[e.store] = seen[e.store] ? std::max(last[e.store], e.end) : e.end;
      seen[e.store] = true;
    }
    std::vector<int> finest(stores, -1);
    for (uint32_t k = 0; k < stores; ++k) finest[k] = LodFinestLevel(bins, counts[k], first[k], last[k]);
    SummaryDirectory directory;
    // Packed into frames after the chunks', each written once full (the
    // chunks read back lie before it), a summary running on from frame to
    // frame: a coarse level is read from its first frame.
    FramePacker frames(file_, kSummaryFrameBytes);
    for (uint32_t begin = 0; begin < stores;) {
      uint32_t end = begin;
      uint64_t entities = 0;
      std::vector<std::unique_ptr<LodSummaryBuilder>> builders(stores);
      for (; end < stores && (end == begin || entities + counts[end] <= kSummaryBatchEntities); ++end) {
        if (finest[end] < 0) continue;
        builders[end] = std::make_unique<LodSummaryBuilder>(bins, trace.stores()[end].kind, finest[end]);
        entities += counts[end];
      }
      if (entities > 0) ReadBackInto(trace, builders);
      for (uint32_t k = begin; k < end; ++k) {
        if (!builders[k]) continue;
        SummaryEntry& e = directory.summaries.emplace_back();
        e.store = k;
        e.finest = finest[k];
        e.frame = frames.frame();
        e.offset = frames.offset();
        frames.Spread(EncodeSummary(builders[k]->Finish(), bins, e.parts));
        builders[k].reset();
      }
      begin = end;
    }
    frames.Close();
    directory.frames = frames.frames();
    return directory;
  }

  // Every chunk of the stores that have a builder, in file order, to it.
  void ReadBackInto(const Trace& trace, const std::vector<std::unique_ptr<LodSummaryBuilder>>& builders) {
    std::vector<uint8_t> frame;
    uint32_t frame_index = UINT32_MAX;
    EntityStore part;
    std::vector<uint64_t> positions;
    for (const ChunkEntry& e : directory_.chunks) {
      LodSummaryBuilder* builder = builders[e.store].get();
      if (!builder) continue;
      if (e.frame != frame_index) {
        file_.ReadBack(directory_.frames[e.frame], frame);
        frame_index = e.frame;
      }
      DecodeChunk(In(std::span<const uint8_t>(frame).subspan(e.offset, e.size), kWrittenName, "a chunk read back"),
                  e, kNoLimits, part, positions);
      part.kind = trace.stores()[e.store].kind;
      EntityChunk view = EntityChunk::Of(part, 0, part.size());
      view.index = e.first;
      view.store = e.store;
      ForEachRun(view, positions, [&](const EntityChunk& run) { builder->Add(run); });
    }
  }

 private:
  void Append(Pending& p, const EntityChunk& c) {
    if (p.columns.size() == 0) {
      p.columns.kind = c.kind;
      p.first = c.index;
    } else if (p.Contiguous() && c.index != p.first + p.columns.size()) {
      for (uint64_t k = 0; k < p.columns.size(); ++k) p.positions.push_back(p.first + k);
    }
    if (!p.Contiguous())
      for (uint64_t k = 0; k < c.size(); ++k) p.positions.push_back(c.index + k);
    AppendChunk(p.columns, c);
    pending_entities_ += c.size();
  }

  static uint64_t Key(ContainerId container, TypeId type) { return uint64_t{container} << 32 | type; }

  // The writer's own number of the chunk's store.
  uint32_t StoreOf(const EntityChunk& chunk) {
    auto [it, added] = ids_.try_emplace(Key(chunk.container, chunk.type), static_cast<uint32_t>(pending_.size()));
    if (added) {
      pending_.emplace_back();
      spilled_.emplace_back();
      kinds_.push_back(chunk.kind);
      counts_.push_back(0);
      renumber_.push_back(0);
    }
    return it->second;
  }

  void Flush(uint32_t id) {
    Pending& p = pending_[id];
    const size_t n = p.columns.size();
    if (n == 0) return;
    EntityChunk c = EntityChunk::Of(p.columns, 0, n);
    c.index = p.first;
    Write(id, c, p.positions);
    pending_entities_ -= n;
    // Freed, not kept for the store's next chunk: thousands of stores each
    // keeping a full chunk's capacity would hold gigabytes.
    p = Pending();
  }

  // Adds `chunk`'s entities to store `id`'s pending chunk, writing each
  // chunk once full (whole chunks straight from the view, when nothing
  // waits before them).
  void Gather(uint32_t id, const EntityChunk& chunk) {
    Pending& p = pending_[id];
    size_t done = 0;
    while (p.columns.size() == 0 && chunk.size() - done >= kChunkEntities) {
      Write(id, chunk.Sub(done, kChunkEntities), {});
      done += kChunkEntities;
    }
    while (done < chunk.size()) {
      const size_t n = std::min<size_t>(chunk.size() - done, kChunkEntities - p.columns.size());
      Append(p, chunk.Sub(done, n));
      done += n;
      if (p.columns.size() == kChunkEntities) Flush(id);
    }
  }

  // Sets store `id`'s pending entities aside in the spill file.
  void Spill(uint32_t id) {
    Pending& p = pending_[id];
    const size_t n = p.columns.size();
    if (n == 0) return;
    if (!spill_) spill_.emplace("a store's entities waiting to be merged into chunks", "room for them");
    EntityChunk c = EntityChunk::Of(p.columns, 0, n);
    c.index = p.first;
    const std::vector<uint8_t> bytes = EncodeChunk(c, p.positions);
    SpilledPart part;
    part.offset = spill_size_;
    part.entry.first = p.Contiguous() ? p.first : p.positions[0];
    part.entry.count = n;
    part.entry.columns = ColumnsOf(c) | (p.Contiguous() ? uint64_t{0} : uint64_t{kHasPositions});
    part.entry.size = bytes.size();
    spill_->Write(bytes.data(), bytes.size());
    spill_size_ += bytes.size();
    spilled_[id].push_back(part);
    pending_entities_ -= n;
    p = Pending();
  }

  // Store `id`'s spilled parts, then its pending entities, in the order
  // they came, cut into full chunks by Gather (the last stays
  // pending). Memory: one chunk and one part.
  void Merge(uint32_t id) {
    Pending tail = std::move(pending_[id]);
    pending_[id] = Pending();
    pending_entities_ -= tail.columns.size();
    std::vector<uint8_t> bytes;
    EntityStore part;
    std::vector<uint64_t> positions;
    auto append = [&](const EntityChunk& run) { Gather(id, run); };
    for (const SpilledPart& s : spilled_[id]) {
      bytes.resize(s.entry.size);
      spill_->ReadAt(s.offset, bytes.data(), bytes.size());
      DecodeChunk(In(bytes, kSpillName, "a spilled part"), s.entry, kNoLimits, part, positions);
      part.kind = kinds_[id];
      EntityChunk view = EntityChunk::Of(part, 0, part.size());
      view.index = s.entry.first;
      ForEachRun(view, positions, append);
    }
    spilled_[id] = {};
    if (tail.columns.size() > 0) {
      EntityChunk view = EntityChunk::Of(tail.columns, 0, tail.columns.size());
      view.index = tail.first;
      ForEachRun(view, tail.positions, append);
    }
  }

  // Codes a chunk into the frame being filled (`id`: the writer's number
  // of its store, renumbered at the end).
  void Write(uint32_t id, const EntityChunk& c, std::span<const uint64_t> positions) {
    ChunkEntry e;
    e.store = id;
    e.first = positions.empty() ? c.index : positions[0];
    e.count = c.size();
    e.columns = ColumnsOf(c) | (positions.empty() ? uint64_t{0} : uint64_t{kHasPositions});
    std::tie(e.start, e.end) = TimeRange(c);
    e.frame = chunk_frames_.frame();
    e.offset = chunk_frames_.offset();
    const std::vector<uint8_t> bytes = EncodeChunk(c, positions);
    e.size = bytes.size();
    directory_.chunks.push_back(e);
    chunk_frames_.Put(bytes);
  }

  StoreFileWriter file_;
  const uint64_t max_pending_;
  std::unordered_map<uint64_t, uint32_t> ids_;  // (container, type) -> the writer's store number
  std::vector<Pending> pending_;                // by the writer's store number
  std::vector<std::vector<SpilledPart>> spilled_;  // by the writer's store number, in the order they came
  std::vector<TypeKind> kinds_;                 // by the writer's store number
  std::optional<RunFile> spill_;                // created at the first spill
  uint64_t spill_size_ = 0;
  std::vector<uint64_t> counts_;                // entities received, by the writer's store number
  std::vector<uint32_t> renumber_;              // the trace's store number, set by Finish
  uint64_t pending_entities_ = 0;
  FramePacker chunk_frames_;
  ChunkDirectory directory_;                    // its frames set once every chunk is written
};

StoreWriter::StoreWriter(std::string path, uint64_t max_pending)
    : impl_(std::make_unique<Impl>(std::move(path), max_pending)) {}
StoreWriter::~StoreWriter() = default;

void StoreWriter::Completed(const Trace&, const EntityChunk& chunk) { impl_->Add(chunk); }

void StoreWriter::Finish(const Trace& trace, const StoreStats& stats) { impl_->Finish(trace, stats); }

}  // namespace macroscope::store
