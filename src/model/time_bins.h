// Dyadic time bins over a trace's span: level L cuts [begin, end] into 2^L
// bins of equal width. They are the window's columns (server/window.h) and
// the bins of the store's level-of-detail summaries, so that both count an
// entity in the same bin whatever path read it.
//
// A time's place in the span is a 62-bit fraction (Position): its bin at
// level L is the fraction's first L bits. Bins are thus nested exactly (bin
// j of level L is bins 2j and 2j + 1 of level L + 1), and no bin edge is
// ever computed as a double.
#pragma once

#include <cstdint>

namespace macroscope {

class TimeBins {
 public:
  static constexpr int kLevels = 62;  // levels 0 … kLevels
  static constexpr uint64_t kLastPosition = (uint64_t{1} << kLevels) - 1;

  TimeBins(double begin, double end) : begin_(begin), span_(end - begin) {}

  // t's place in the span: 0 at or before its beginning (and for NaN),
  // kLastPosition at or after its end; 0 for every t when the span is
  // empty.
  uint64_t Position(double t) const;
  static uint64_t Bin(uint64_t position, int level) { return position >> (kLevels - level); }
  uint64_t Bin(double t, int level) const { return Bin(Position(t), level); }
  // The finest level whose bins are at least `width` wide: between one
  // and two widths (0 when even level 0's are narrower, or the span is
  // empty; kLevels at most).
  int LevelFor(double width) const;
  // The width of level `level`'s bins.
  double BinWidth(int level) const;
  // Where bin `bin` of level `level` begins, as a time (rounded: positions
  // say which bin a time is in; this clips an entity to its bins).
  double Edge(uint64_t bin, int level) const { return begin_ + BinWidth(level) * static_cast<double>(bin); }
  // The first level whose bins part positions a and b (kLevels + 1 when
  // none does: a == b).
  static int PartingLevel(uint64_t a, uint64_t b);

 private:
  double begin_, span_;
};

}  // namespace macroscope
