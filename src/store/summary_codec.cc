#include "store/summary_codec.h"

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
void PutCells(Out& out, TypeKind kind, const std::vector<LodCell>& cells) {
  out.U(cells.size());
  uint64_t bin = 0;
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

void GetCells(In& in, TypeKind kind, int level, uint32_t store, const ChunkLimits& limits,
              std::vector<LodCell>& cells) {
  const uint64_t n = in.U();
  uint64_t bin = 0;
  for (uint64_t k = 0; k < n; ++k) {
    LodCell& c = cells.emplace_back();
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
    if (tallies == 0 || tallies > m.count || (m.count == 1 && tallies != 1)) in.Fail();
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

void PutCrossers(Out& out, TypeKind kind, const std::vector<EntityCopy>& crossers) {
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

void GetCrossers(In& in, TypeKind kind, uint32_t store, const ChunkLimits& limits, std::vector<EntityCopy>& into) {
  const uint64_t n = in.U();
  uint64_t place = 0;
  for (uint64_t k = 0; k < n; ++k) {
    EntityCopy& e = into.emplace_back();
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

}  // namespace

std::vector<uint8_t> EncodeSummary(const LodSummary& summary, std::vector<uint64_t>& part_sizes) {
  Out out;
  part_sizes.clear();
  for (int level = 0; level <= summary.finest(); ++level) {
    size_t before = out.bytes.size();
    PutCells(out, summary.kind(), summary.cells(level));
    part_sizes.push_back(out.bytes.size() - before);
    before = out.bytes.size();
    PutCrossers(out, summary.kind(), summary.crossers(level));
    part_sizes.push_back(out.bytes.size() - before);
  }
  return std::move(out.bytes);
}

uint64_t SummaryPrefix(const SummaryEntry& entry, int level) {
  uint64_t size = 0;
  for (int p = 0; p < 2 * (level + 1); ++p) size += entry.parts[static_cast<size_t>(p)];
  return size;
}

LodSummary DecodeSummary(const SummaryEntry& entry, int level, TypeKind kind, std::span<const uint8_t> bytes,
                         const std::string& path, const std::string& what, const ChunkLimits& limits) {
  LodSummary summary(kind, entry.finest);
  auto part = [&](size_t index) {
    uint64_t offset = 0;
    for (size_t p = 0; p < index; ++p) offset += entry.parts[p];
    return In(bytes.subspan(offset, entry.parts[index]), path, what);
  };
  for (int l = 1; l <= level; ++l) {
    In in = part(2 * l + 1);
    GetCrossers(in, kind, entry.store, limits, summary.crossers(l));
    in.ExpectDone();
  }
  In in = part(2 * level);
  GetCells(in, kind, level, entry.store, limits, summary.cells(level));
  in.ExpectDone();
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
    if (finest > TimeBins::kLevels) in.Fail();
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
