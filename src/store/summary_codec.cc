#include "store/summary_codec.h"

#include "model/time_bins.h"

namespace macroscope::store {

namespace {

// Terms of a value's exact time: two, unless its sum needed more.
constexpr uint64_t kMaxTerms = 64;

void PutCell(Out& out, TypeKind kind, const LodCell& c) {
  const CellSummary& m = c.cell;
  out.Id(c.row);
  out.U(c.level);
  out.U(m.count);
  out.D(m.start);
  out.D(m.end);
  out.D(m.longest);
  out.U(m.first.index);
  if (kind == TypeKind::kVariable) {
    out.D(m.min);
    out.D(m.max);
    return;
  }
  if (m.count == 1) {
    out.Id(m.first.from);
    out.Id(m.first.to);
  }
  out.U(m.tallies.size());
  for (const ValueTally& t : m.tallies) {
    out.U(t.value);
    out.U(t.count);
    const std::vector<double> terms = t.time.Terms();
    out.U(terms.size());
    for (double x : terms) out.D(x);
  }
}

void PutEntity(Out& out, const EntityCopy& e) {
  out.U(e.index);
  out.D(e.start);
  out.D(e.end);
  out.D(e.number);
  out.U(e.value);
  out.Id(e.from);
  out.Id(e.to);
  out.U(e.level);
}

EntityCopy GetEntity(In& in, uint32_t store, const ChunkLimits& limits) {
  EntityCopy e;
  e.store = store;
  e.index = in.U();
  if (e.index >= limits.store_size) in.Fail();
  e.start = in.D();
  e.end = in.D();
  e.number = in.D();
  e.value = in.Below(limits.strings);
  e.from = in.IdBelow(limits.containers);
  e.to = in.IdBelow(limits.containers);
  const uint64_t level = in.U();
  if (level > UINT16_MAX) in.Fail();
  e.level = static_cast<uint16_t>(level);
  return e;
}

}  // namespace

std::vector<uint8_t> EncodeSummary(const LodSummary& summary) {
  Out out;
  out.U(static_cast<uint64_t>(summary.finest()));
  for (int level = 0; level <= summary.finest(); ++level) {
    const std::vector<LodCell>& cells = summary.cells(level);
    out.U(cells.size());
    uint64_t bin = 0;
    for (const LodCell& c : cells) {
      out.U(c.bin - bin);
      bin = c.bin;
      PutCell(out, summary.kind(), c);
    }
    const std::vector<EntityCopy>& crossers = summary.crossers(level);
    out.U(crossers.size());
    for (const EntityCopy& e : crossers) PutEntity(out, e);
  }
  return std::move(out.bytes);
}

LodSummary DecodeSummary(In in, TypeKind kind, uint32_t store, const ChunkLimits& limits) {
  const uint64_t finest = in.U();
  if (finest > TimeBins::kLevels) in.Fail();
  LodSummary summary(kind, static_cast<int>(finest));
  for (int level = 0; level <= summary.finest(); ++level) {
    const uint64_t cells = in.U();
    std::vector<LodCell>& into = summary.cells(level);
    uint64_t bin = 0;
    for (uint64_t k = 0; k < cells; ++k) {
      LodCell c;
      const uint64_t step = in.U();
      if (step > (uint64_t{1} << level) - 1 - bin) in.Fail();  // beyond the level's last bin
      c.bin = bin += step;
      c.row = in.IdBelow(limits.containers);
      const uint64_t nesting = in.U();
      if (nesting > UINT16_MAX) in.Fail();
      c.level = static_cast<uint16_t>(nesting);
      CellSummary& m = c.cell;
      m.count = in.U();
      if (m.count == 0 || m.count > limits.store_size) in.Fail();
      m.start = in.D();
      m.end = in.D();
      m.longest = in.D();
      m.first.store = store;
      m.first.index = in.U();
      if (m.first.index >= limits.store_size) in.Fail();
      m.first.start = m.start;
      m.first.end = m.end;
      m.first.level = c.level;
      if (kind == TypeKind::kVariable) {
        m.min = in.D();
        m.max = in.D();
        m.first.number = m.min;
      } else {
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
          const uint64_t terms = in.U();
          if (terms > kMaxTerms) in.Fail();
          for (uint64_t x = 0; x < terms; ++x) tally.time.Add(in.D());
          counted += tally.count;
        }
        if (counted != m.count) in.Fail();
        m.first.value = m.tallies.front().value;
      }
      into.push_back(std::move(c));
    }
    const uint64_t crossers = in.U();
    if (level == 0 && crossers != 0) in.Fail();
    for (uint64_t k = 0; k < crossers; ++k) summary.crossers(level).push_back(GetEntity(in, store, limits));
  }
  in.ExpectDone();
  return summary;
}

std::vector<uint8_t> EncodeSummaryDirectory(const SummaryDirectory& directory) {
  Out out;
  out.U(directory.frames.size());
  for (const Frame& f : directory.frames) {
    out.U(f.offset);
    out.U(f.size);
    out.U(f.raw);
    out.U(f.hash);
  }
  out.U(directory.summaries.size());
  for (const SummaryEntry& e : directory.summaries) {
    out.U(e.store);
    out.U(e.frame);
    out.U(e.offset);
    out.U(e.size);
  }
  return std::move(out.bytes);
}

SummaryDirectory ReadSummaryDirectory(In in, uint64_t stores, const StoreFile& file) {
  SummaryDirectory d;
  const uint64_t frames = in.U();
  for (uint64_t k = 0; k < frames; ++k) {
    Frame f;
    f.offset = in.U();
    f.size = in.U();
    f.raw = in.U();
    f.hash = in.U();
    if (!file.Holds(f) || f.raw > kMaxFrameRaw) in.Fail();
    d.frames.push_back(f);
  }
  const uint64_t summaries = in.U();
  int64_t last = -1;
  for (uint64_t k = 0; k < summaries; ++k) {
    SummaryEntry e;
    e.store = in.Below(stores);
    if (static_cast<int64_t>(e.store) <= last) in.Fail();  // one a store, by store
    last = e.store;
    e.frame = in.Below(d.frames.size());
    e.offset = in.U();
    e.size = in.U();
    const uint64_t raw = d.frames[e.frame].raw;
    if (e.offset > raw || e.size > raw - e.offset) in.Fail();
    d.summaries.push_back(e);
  }
  in.ExpectDone();
  return d;
}

}  // namespace macroscope::store
