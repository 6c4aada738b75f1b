#include "model/time_bins.h"

#include <bit>
#include <cmath>

namespace macroscope {

uint64_t TimeBins::Position(double t) const {
  if (!(span_ > 0)) return 0;
  const double fraction = (t - begin_) / span_;
  if (!(fraction > 0)) return 0;
  if (fraction >= 1) return kLastPosition;
  // Scaling by a power of two is exact: the bins of every level are cut
  // from the same rounded fraction.
  const auto position = static_cast<uint64_t>(std::ldexp(fraction, kLevels));
  return position < kLastPosition ? position : kLastPosition;
}

int TimeBins::LevelFor(double width) const {
  if (!(span_ > 0)) return 0;
  for (int level = 1; level <= kLevels; ++level) {
    if (BinWidth(level) < width) return level - 1;
  }
  return kLevels;
}

double TimeBins::BinWidth(int level) const { return std::ldexp(span_, -level); }

int TimeBins::PartingLevel(uint64_t a, uint64_t b) {
  const uint64_t differ = a ^ b;
  if (differ == 0) return kLevels + 1;
  // Positions have kLevels bits: the highest differing one, counted from
  // the top of those, is the level (1-based) whose bins part them.
  return std::countl_zero(differ) - (64 - kLevels) + 1;
}

}  // namespace macroscope
