#include "model/lod_summary.h"

#include <algorithm>
#include <tuple>

namespace macroscope {

namespace {

constexpr uint64_t kEntitiesPerBin = 64;
constexpr uint64_t kMaxBins = uint64_t{1} << 18;

}  // namespace

size_t LodSummary::bytes() const {
  size_t bytes = sizeof *this;
  for (const auto& level : cells_) {
    bytes += level.capacity() * sizeof(LodCell);
    for (const LodCell& c : level) bytes += c.cell.tallies.capacity() * sizeof(ValueTally);
  }
  for (const auto& level : crossers_) bytes += level.capacity() * sizeof(EntityCopy);
  return bytes;
}

int LodFinestLevel(const TimeBins& bins, uint64_t entities, double first, double last) {
  if (entities < 2 * kEntitiesPerBin) return -1;
  const uint64_t from = bins.Position(first), to = bins.Position(last);
  int finest = 0;
  for (int level = 1; level <= kLodMaxFinest; ++level) {
    const uint64_t touched = TimeBins::Bin(to, level) - TimeBins::Bin(from, level) + 1;
    if (touched > kMaxBins || touched * kEntitiesPerBin > entities) break;
    finest = level;
  }
  return finest;
}

LodSummaryBuilder::LodSummaryBuilder(const TimeBins& bins, TypeKind kind, int finest)
    : bins_(bins),
      summary_(kind, finest),
      inside_(finest + 1),
      last_cell_(finest + 1, nullptr),
      last_key_(finest + 1) {}

void LodSummaryBuilder::Add(const EntityChunk& chunk) {
  const TypeKind kind = summary_.kind();
  const int finest = summary_.finest();
  for (size_t i = 0; i < chunk.size(); ++i) {
    const EntityCopy e = EntityCopy::Of(chunk, i);
    const uint64_t a = bins_.Position(e.Low()), b = bins_.Position(e.High());
    const int parting = TimeBins::PartingLevel(a, b);
    if (parting <= finest) summary_.crossers(parting).push_back(e);
    const int level = std::min(parting - 1, finest);
    const Key key{TimeBins::Bin(a, level), kind == TypeKind::kLink ? e.from : 0,
                  kind == TypeKind::kState ? e.level : uint16_t{0}};
    CellSummary*& cell = last_cell_[level];
    if (!cell || std::tie(key.bin, key.row, key.level) !=
                     std::tie(last_key_[level].bin, last_key_[level].row, last_key_[level].level)) {
      cell = &inside_[level][key];  // std::map: the pointer stays valid
      last_key_[level] = key;
    }
    cell->Add(kind, e);
  }
}

LodSummary LodSummaryBuilder::Finish() {
  const TypeKind kind = summary_.kind();
  for (int level = summary_.finest(); level >= 0; --level) {
    std::vector<LodCell>& cells = summary_.cells(level);
    cells.reserve(inside_[level].size());
    for (auto& [key, cell] : inside_[level]) {
      if (level > 0) inside_[level - 1][{key.bin >> 1, key.row, key.level}].Merge(kind, cell);
      cells.push_back({key.bin, key.row, key.level, std::move(cell)});
    }
    std::map<Key, CellSummary>().swap(inside_[level]);
  }
  for (int level = 1; level <= summary_.finest(); ++level) {
    std::vector<EntityCopy>& crossers = summary_.crossers(level);
    std::sort(crossers.begin(), crossers.end(), [&](const EntityCopy& x, const EntityCopy& y) {
      const uint64_t px = bins_.Position(x.Low()), py = bins_.Position(y.Low());
      return px != py ? px < py : x < y;
    });
  }
  return std::move(summary_);
}

}  // namespace macroscope
