// The kernel shared by temporal and spatiotemporal qualities: for one series
// of per-slice sums and per-slice information terms, the gain of every
// interval, added into compensated accumulators.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/cancellation.h"
#include "analysis/zeroed_vector.h"

namespace macroscope::analysis {

// Per-interval sums kept with Kahan compensation (value = sum - comp), plus
// a plain sum of the magnitudes that went in: the scale of the rounding
// error, used to snap values that are zero up to rounding.
class IntervalAccumulator {
 public:
  explicit IntervalAccumulator(int32_t slices);

  int32_t slices() const { return slices_; }
  long double Value(size_t index) const {
    return static_cast<long double>(sum_[index]) - comp_[index];
  }
  double Magnitude(size_t index) const { return magnitude_[index]; }

  // For every interval [i, j] of a series with per-slice sums `sums` and
  // per-slice information terms `info` (sum of v log2 v of the cells in the
  // slice), adds gain = S log2 S - I with S, I the interval's totals.
  // Throws Cancelled once `cancel` is set (polled every 256 rows); the
  // accumulator is then only good for Reset() or destruction.
  void AddSeries(const double* sums, const double* info, const Cancellation* cancel = nullptr);
  // Back to all zeros.
  void Reset();

 private:
  int32_t slices_;
  // Zeroed as first touched, in AddSeries (which polls its cancellation).
  ZeroedVector<double> sum_;
  ZeroedVector<double> comp_;
  ZeroedVector<double> magnitude_;
  std::vector<double> s_buf_;  // scratch: S[i, j] for the current row
  std::vector<double> i_buf_;  // scratch: I[i, j]
};

// Snaps a quality that is zero up to rounding (|value| <= tiny relative to
// the magnitude it was computed from) to exactly 0, and clamps negatives
// (gain and loss are >= 0 by construction).
inline double SnapQuality(long double value, long double magnitude) {
  constexpr long double kRoundingScale = 1e-12L;
  if (value <= kRoundingScale * magnitude) return 0.0;
  return static_cast<double>(value);
}

}  // namespace macroscope::analysis
