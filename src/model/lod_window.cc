#include "model/lod_window.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace macroscope {

namespace {

// The crossers of levels 1 … `level` that may meet bins [first_bin,
// last_bin] of `level`: those of level l lie inside a bin of level l - 1,
// which must hold one of those bins.
template <class F>
void ForEachCrosserNear(const LodSummary& summary, const TimeBins& bins, int level, uint64_t first_bin,
                        uint64_t last_bin, F&& f) {
  for (int l = 1; l <= level; ++l) {
    const std::vector<EntityCopy>& crossers = summary.crossers(l);
    const int shift = level - l + 1;
    const uint64_t first = first_bin >> shift, last = last_bin >> shift;
    auto node = [&](const EntityCopy& e) { return TimeBins::Bin(bins.Position(e.Low()), l - 1); };
    auto it = std::partition_point(crossers.begin(), crossers.end(),
                                   [&](const EntityCopy& e) { return node(e) < first; });
    for (; it != crossers.end() && node(*it) <= last; ++it) f(*it);
  }
}

// The cells of bins [first_bin, last_bin] of `level`.
std::pair<std::vector<LodCell>::const_iterator, std::vector<LodCell>::const_iterator> CellsIn(
    const LodSummary& summary, int level, uint64_t first_bin, uint64_t last_bin) {
  const std::vector<LodCell>& cells = summary.cells(level);
  const auto begin =
      std::partition_point(cells.begin(), cells.end(), [&](const LodCell& c) { return c.bin < first_bin; });
  const auto end = std::partition_point(begin, cells.end(), [&](const LodCell& c) { return c.bin <= last_bin; });
  return {begin, end};
}

}  // namespace

void ForEachInWindow(const LodSummary& summary, const EntitySource& source, uint32_t k, const TimeBins& bins,
                     const LodWindow& window, const std::function<void(const EntityCopy&)>& entity,
                     const std::function<void(const LodCell&)>& cell) {
  const double t1 = window.start, t2 = window.end;
  const int level = window.level;
  const uint64_t first_bin = bins.Bin(t1, level), last_bin = bins.Bin(t2, level);
  // The crossers of levels up to the window's that meet it.
  ForEachCrosserNear(summary, bins, level, first_bin, last_bin, [&](const EntityCopy& e) {
    if (e.Low() <= t2 && e.High() >= t1) entity(e);
  });
  // The entities inside the window's bins: their cells, whole, but for the
  // bins read from the chunks (each with the time its entities span).
  const auto [begin, end] = CellsIn(summary, level, first_bin, last_bin);
  std::vector<std::pair<uint64_t, std::pair<double, double>>> read;
  for (auto c = begin; c != end; ++c) {
    const CellSummary& m = c->cell;
    if ((c->bin == first_bin && m.start < t1) || (c->bin == last_bin && m.end > t2) ||
        m.longest >= window.whole_cells_below) {
      if (read.empty() || read.back().first != c->bin) read.push_back({c->bin, {m.start, m.end}});
    }
  }
  for (auto c = begin; c != end; ++c) {
    auto at = std::partition_point(read.begin(), read.end(), [&](const auto& r) { return r.first < c->bin; });
    if (at != read.end() && at->first == c->bin) {
      at->second.first = std::min(at->second.first, c->cell.start);
      at->second.second = std::max(at->second.second, c->cell.end);
      continue;
    }
    cell(*c);
  }
  for (const auto& edge : read) {
    const uint64_t bin = edge.first;  // not a structured binding: a lambda captures it
    source.ForEachChunk(k, edge.second.first, edge.second.second, [&](const EntityChunk& chunk) {
      for (size_t i = 0; i < chunk.size(); ++i) {
        const EntityCopy e = EntityCopy::Of(chunk, i);
        if (e.Low() > t2 || e.High() < t1) continue;
        if (bins.Bin(e.Low(), level) != bin || bins.Bin(e.High(), level) != bin) continue;
        entity(e);
      }
    });
  }
}

void ForEachInBins(const LodSummary& summary, const TimeBins& bins, int level, uint64_t first_bin, uint64_t last_bin,
                   const std::function<void(const EntityCopy&)>& entity,
                   const std::function<void(const LodCell&)>& cell) {
  ForEachCrosserNear(summary, bins, level, first_bin, last_bin, [&](const EntityCopy& e) {
    if (bins.Bin(e.Low(), level) <= last_bin && bins.Bin(e.High(), level) >= first_bin) entity(e);
  });
  const auto [begin, end] = CellsIn(summary, level, first_bin, last_bin);
  for (auto c = begin; c != end; ++c) cell(*c);
}

}  // namespace macroscope
