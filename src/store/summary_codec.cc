#include "store/summary_codec.h"

#include <algorithm>

#include "model/time_bins.h"

namespace macroscope::store {

namespace {

// Terms of a value's exact time: two, unless its sum needed more.
constexpr uint64_t kMaxTerms = 64;

uint16_t Level16(In& in) {
  const uint64_t level = in.U();
  if (level > UINT16_MAX) in.Fail();
  return static_cast<uint16_t>(level);
}

// Places, each as its zigzag step from the one before.
void PutPlaces(Out& out, const std::vector<uint64_t>& places) {
  uint64_t prev = 0;
  for (uint64_t p : places) {
    out.S(static_cast<int64_t>(p - prev));
    prev = p;
  }
}

uint64_t NextPlace(In& in, uint64_t& prev, uint64_t store_size) {
  prev += static_cast<uint64_t>(in.S());
  if (prev >= store_size) in.Fail();
  return prev;
}

// One level's cells, a column at a time (doubles by the chunks' codec:
// decimal times take a few bytes).
void PutCells(Out& out, TypeKind kind, std::span<const LodCell> cells, uint64_t bin) {
  out.U(cells.size());
  std::vector<double> starts, ends, longest, mins, maxs, terms;
  std::vector<uint64_t> firsts;
  for (const LodCell& c : cells) {
    out.U(c.bin - bin);
    bin = c.bin;
    out.Id(c.row);
    out.U(c.level);
    out.U(c.cell.count);
    starts.push_back(c.cell.start);
    ends.push_back(c.cell.end);
    longest.push_back(c.cell.longest);
    mins.push_back(c.cell.min);
    maxs.push_back(c.cell.max);
    firsts.push_back(c.cell.first.index);
  }
  WriteDoubles(out, {starts});
  WriteDoubles(out, {ends});
  WriteDoubles(out, {longest});
  PutPlaces(out, firsts);
  if (kind == TypeKind::kVariable) {
    WriteDoubles(out, {mins});
    WriteDoubles(out, {maxs});
    return;
  }
  for (const LodCell& c : cells) {
    if (c.cell.count == 1) {
      out.Id(c.cell.first.from);
      out.Id(c.cell.first.to);
    }
    out.U(c.cell.tallies.size());
    for (const ValueTally& t : c.cell.tallies) {
      out.U(t.value);
      out.U(t.count);
      const std::vector<double> sum = t.time.Terms();
      out.U(sum.size());
      terms.insert(terms.end(), sum.begin(), sum.end());
    }
  }
  WriteDoubles(out, {terms});
}

// A block's cells, their bins from `bin` on, after the `cells` held.
void GetCells(In& in, TypeKind kind, int level, uint32_t store, const ChunkLimits& limits, uint64_t bin,
              std::vector<LodCell>& into) {
  const uint64_t n = in.U();
  if (n > in.Left()) in.Fail();  // a cell takes a few bytes
  const size_t before = into.size();
  into.resize(before + n);
  const std::span<LodCell> cells = std::span<LodCell>(into).subspan(before);
  for (uint64_t k = 0; k < n; ++k) {
    LodCell& c = cells[k];
    const uint64_t step = in.U();
    if (step > (uint64_t{1} << level) - 1 - bin) in.Fail();  // beyond the level's last bin
    c.bin = bin += step;
    c.row = in.IdBelow(limits.containers);
    c.level = Level16(in);
    c.cell.count = in.U();
    if (c.cell.count == 0 || c.cell.count > limits.store_size) in.Fail();
  }
  std::vector<double> starts, ends, longest, mins, maxs, terms;
  DoubleReader(in).Read(n, starts);
  DoubleReader(in).Read(n, ends);
  DoubleReader(in).Read(n, longest);
  uint64_t place = 0;
  for (uint64_t k = 0; k < n; ++k) {
    CellSummary& m = cells[k].cell;
    m.start = starts[k];
    m.end = ends[k];
    m.longest = longest[k];
    m.first = {NextPlace(in, place, limits.store_size), m.start, m.end, 0, store, kEmptyString, kNone, kNone,
               cells[k].level};
  }
  if (kind == TypeKind::kVariable) {
    DoubleReader(in).Read(n, mins);
    DoubleReader(in).Read(n, maxs);
    for (uint64_t k = 0; k < n; ++k) {
      cells[k].cell.min = mins[k];
      cells[k].cell.max = maxs[k];
      cells[k].cell.first.number = mins[k];
    }
    return;
  }
  std::vector<uint64_t> term_counts;
  for (uint64_t k = 0; k < n; ++k) {
    CellSummary& m = cells[k].cell;
    if (m.count == 1) {
      m.first.from = in.IdBelow(limits.containers);
      m.first.to = in.IdBelow(limits.containers);
    }
    const uint64_t tallies = in.U();
    if (tallies == 0 || tallies > m.count || (m.count == 1 && tallies != 1) || tallies > in.Left()) in.Fail();
    m.tallies.reserve(tallies);  // one heap block a cell, not one a doubling
    uint64_t counted = 0;
    for (uint64_t t = 0; t < tallies; ++t) {
      ValueTally& tally = m.tallies.emplace_back();
      tally.value = in.Below(limits.strings);
      tally.count = in.U();
      if (tally.count == 0 || tally.count > m.count) in.Fail();
      counted += tally.count;
      term_counts.push_back(in.U());
      if (term_counts.back() > kMaxTerms) in.Fail();
    }
    if (counted != m.count) in.Fail();
    m.first.value = m.tallies.front().value;
  }
  uint64_t all_terms = 0;
  for (uint64_t t : term_counts) all_terms += t;
  DoubleReader(in).Read(all_terms, terms);
  size_t next = 0, tally_index = 0;
  for (uint64_t k = 0; k < n; ++k) {
    for (ValueTally& tally : cells[k].cell.tallies) {
      for (uint64_t x = 0; x < term_counts[tally_index]; ++x) tally.time.Add(terms[next++]);
      ++tally_index;
    }
  }
}

void PutCrossers(Out& out, TypeKind kind, std::span<const EntityCopy> crossers) {
  out.U(crossers.size());
  std::vector<double> starts, ends, numbers;
  std::vector<uint64_t> places;
  for (const EntityCopy& e : crossers) {
    places.push_back(e.index);
    starts.push_back(e.start);
    ends.push_back(e.end);
    numbers.push_back(e.number);
  }
  PutPlaces(out, places);
  WriteDoubles(out, {starts});
  WriteDoubles(out, {ends});
  if (kind == TypeKind::kVariable) WriteDoubles(out, {numbers});
  for (const EntityCopy& e : crossers) {
    out.U(e.value);
    out.Id(e.from);
    out.Id(e.to);
    out.U(e.level);
  }
}

// A block's crossers, after those `into` holds.
void GetCrossers(In& in, TypeKind kind, uint32_t store, const ChunkLimits& limits, std::vector<EntityCopy>& all) {
  const uint64_t n = in.U();
  if (n > in.Left()) in.Fail();  // a crosser takes a few bytes
  const size_t before = all.size();
  all.resize(before + n);
  const std::span<EntityCopy> into = std::span<EntityCopy>(all).subspan(before);
  uint64_t place = 0;
  for (uint64_t k = 0; k < n; ++k) {
    EntityCopy& e = into[k];
    e.store = store;
    e.index = NextPlace(in, place, limits.store_size);
  }
  std::vector<double> starts, ends, numbers;
  DoubleReader(in).Read(n, starts);
  DoubleReader(in).Read(n, ends);
  if (kind == TypeKind::kVariable) DoubleReader(in).Read(n, numbers);
  for (uint64_t k = 0; k < n; ++k) {
    EntityCopy& e = into[k];
    e.start = starts[k];
    e.end = ends[k];
    if (kind == TypeKind::kVariable) e.number = numbers[k];
    e.value = in.Below(limits.strings);
    e.from = in.IdBelow(limits.containers);
    e.to = in.IdBelow(limits.containers);
    e.level = Level16(in);
  }
}

// A part (a level's cells, or its crossers) in blocks of kBlockItems,
// behind their index: the count, then per block its first item's key (as
// the step from the block before's) and its size in bytes. A window reads
// the index and the blocks whose keys meet its bins, not the whole level.
constexpr size_t kBlockItems = 256;

template <class T, class KeyOf, class Put>
void PutBlocks(Out& out, const std::vector<T>& items, KeyOf key_of, Put put) {
  const size_t blocks = (items.size() + kBlockItems - 1) / kBlockItems;
  std::vector<Out> coded(blocks);
  for (size_t b = 0; b < blocks; ++b) {
    const size_t at = b * kBlockItems;
    put(coded[b], std::span<const T>(items).subspan(at, std::min(kBlockItems, items.size() - at)), key_of(items[at]));
  }
  out.U(blocks);
  uint64_t key = 0;
  for (size_t b = 0; b < blocks; ++b) {
    out.U(key_of(items[b * kBlockItems]) - key);
    key = key_of(items[b * kBlockItems]);
    out.U(coded[b].bytes.size());
  }
  for (const Out& b : coded) out.bytes.insert(out.bytes.end(), b.bytes.begin(), b.bytes.end());
}

// The blocks of the part at [offset, offset + size) of the summary whose
// keys may meet [low, high] (keys below `limit`): their first key, and
// their bytes, one after the other.
struct Blocks {
  std::vector<uint64_t> keys;
  std::vector<std::span<const uint8_t>> bytes;
};

Blocks ReadBlocks(const SummaryBytes& read, uint64_t offset, uint64_t size, uint64_t low, uint64_t high,
                  uint64_t limit, const std::string& path, const std::string& what) {
  // The index: its count first, then at most 20 bytes a block.
  std::span<const uint8_t> head = read(offset, std::min<uint64_t>(size, 10));
  In count(head, path, what);
  const uint64_t blocks = count.U();
  if (blocks > size) count.Fail();
  const uint64_t index_size = std::min<uint64_t>(size, 10 + 20 * blocks);
  In in(read(offset, index_size), path, what);
  in.U();
  std::vector<uint64_t> keys(blocks), sizes(blocks);
  uint64_t key = 0, total = 0;
  for (uint64_t b = 0; b < blocks; ++b) {
    const uint64_t step = in.U();
    if (step >= limit - key) in.Fail();
    keys[b] = key += step;
    sizes[b] = in.U();
    if (sizes[b] > size) in.Fail();
    total += sizes[b];
  }
  const uint64_t index_end = index_size - in.Left();
  if (total != size - index_end) in.Fail();
  // Block b holds keys from keys[b] to keys[b + 1] (a key may run over
  // several blocks): the first block whose successor begins at `low` or
  // after, to the last beginning by `high`.
  const size_t first = blocks == 0 ? 0
                                   : static_cast<size_t>(std::lower_bound(keys.begin() + 1, keys.end(), low) -
                                                         (keys.begin() + 1));
  const size_t end = static_cast<size_t>(std::upper_bound(keys.begin(), keys.end(), high) - keys.begin());
  Blocks out;
  if (first >= end) return out;
  uint64_t at = index_end;
  for (size_t b = 0; b < first; ++b) at += sizes[b];
  uint64_t span = 0;
  for (size_t b = first; b < end; ++b) span += sizes[b];
  const std::span<const uint8_t> all = read(offset + at, span);
  uint64_t from = 0;
  for (size_t b = first; b < end; ++b) {
    out.keys.push_back(keys[b]);
    out.bytes.push_back(all.subspan(from, sizes[b]));
    from += sizes[b];
  }
  return out;
}

}  // namespace

std::vector<uint8_t> EncodeSummary(const LodSummary& summary, const TimeBins& bins,
                                   std::vector<uint64_t>& part_sizes) {
  Out out;
  part_sizes.clear();
  const TypeKind kind = summary.kind();
  for (int level = 0; level <= summary.finest(); ++level) {
    size_t before = out.bytes.size();
    PutBlocks(
        out, summary.cells(level), [](const LodCell& c) { return c.bin; },
        [&](Out& o, std::span<const LodCell> cells, uint64_t bin) { PutCells(o, kind, cells, bin); });
    part_sizes.push_back(out.bytes.size() - before);
    before = out.bytes.size();
    // Crossers of level l lie inside a bin of level l - 1: their key.
    const int node_level = std::max(level - 1, 0);
    PutBlocks(
        out, summary.crossers(level),
        [&](const EntityCopy& e) { return TimeBins::Bin(bins.Position(e.Low()), node_level); },
        [&](Out& o, std::span<const EntityCopy> crossers, uint64_t) { PutCrossers(o, kind, crossers); });
    part_sizes.push_back(out.bytes.size() - before);
  }
  return std::move(out.bytes);
}

LodSummary DecodeSummary(const SummaryEntry& entry, int level, uint64_t first_bin, uint64_t last_bin, TypeKind kind,
                         const SummaryBytes& read, const std::string& path, const std::string& what,
                         const ChunkLimits& limits) {
  LodSummary summary(kind, entry.finest);
  std::vector<uint64_t> offsets{0};
  for (uint64_t size : entry.parts) offsets.push_back(offsets.back() + size);
  const uint64_t bins = uint64_t{1} << level;
  for (int l = 1; l <= level; ++l) {
    const int shift = level - l + 1;
    const size_t p = 2 * static_cast<size_t>(l) + 1;
    const Blocks blocks = ReadBlocks(read, offsets[p], entry.parts[p], first_bin >> shift, last_bin >> shift,
                                     uint64_t{1} << (l - 1), path, what);
    for (const std::span<const uint8_t> bytes : blocks.bytes) {
      In in(bytes, path, what);
      GetCrossers(in, kind, entry.store, limits, summary.crossers(l));
      in.ExpectDone();
    }
  }
  const size_t p = 2 * static_cast<size_t>(level);
  const Blocks blocks = ReadBlocks(read, offsets[p], entry.parts[p], first_bin, last_bin, bins, path, what);
  for (size_t b = 0; b < blocks.bytes.size(); ++b) {
    In in(blocks.bytes[b], path, what);
    GetCells(in, kind, level, entry.store, limits, blocks.keys[b], summary.cells(level));
    in.ExpectDone();
  }
  return summary;
}

std::vector<uint8_t> EncodeSummaryDirectory(const SummaryDirectory& directory) {
  Out out;
  PutFrames(out, directory.frames);
  out.U(directory.summaries.size());
  for (const SummaryEntry& e : directory.summaries) {
    out.U(e.store);
    out.U(static_cast<uint64_t>(e.finest));
    out.U(e.frame);
    out.U(e.offset);
    for (uint64_t size : e.parts) out.U(size);
  }
  return std::move(out.bytes);
}

SummaryDirectory ReadSummaryDirectory(In in, uint64_t stores, const StoreFile& file) {
  SummaryDirectory d;
  d.frames = ReadFrames(in, file);
  for (const Frame& f : d.frames)
    if (f.raw > kMaxFrameRaw) in.Fail();
  // The bytes from each frame's start to the last frame's end: a summary
  // may run on over the frames after its own.
  std::vector<uint64_t> after(d.frames.size() + 1, 0);
  for (size_t f = d.frames.size(); f-- > 0;) after[f] = after[f + 1] + d.frames[f].raw;
  const uint64_t summaries = in.U();
  int64_t last = -1;
  for (uint64_t k = 0; k < summaries; ++k) {
    SummaryEntry e;
    e.store = in.Below(stores);
    if (static_cast<int64_t>(e.store) <= last) in.Fail();  // one a store, by store
    last = e.store;
    const uint64_t finest = in.U();
    if (finest > static_cast<uint64_t>(kLodMaxFinest)) in.Fail();
    e.finest = static_cast<int>(finest);
    e.frame = in.Below(d.frames.size());
    e.offset = in.U();
    if (e.offset > d.frames[e.frame].raw) in.Fail();
    const uint64_t room = after[e.frame] - e.offset;
    uint64_t size = 0;
    for (int p = 0; p < 2 * (e.finest + 1); ++p) {
      e.parts.push_back(in.U());
      if (e.parts.back() > room - size) in.Fail();
      size += e.parts.back();
    }
    d.summaries.push_back(e);
  }
  in.ExpectDone();
  return d;
}

}  // namespace macroscope::store
