#include "analysis/interval_gains.h"

#include <algorithm>
#include <cmath>

#include "analysis/quality.h"
#include "analysis/triangle.h"

namespace macroscope::analysis {

IntervalAccumulator::IntervalAccumulator(int32_t slices)
    : slices_(slices),
      sum_(TriangleSize(slices)),
      comp_(TriangleSize(slices)),
      magnitude_(TriangleSize(slices)) {}

namespace {

// The hot loop, compiled twice (AVX2 and baseline) and picked at load time.
// Design: the seed's recurrence S[i, j] = S[i+1, j] + v[i] turns each row
// into element-wise updates of a buffer, so every step below is a
// vectorisable loop over j (Log2 is branch-free). No FMA is enabled, so
// both versions round identically.
// Rows i in [first, last), last first (the buffers carry row i + 1 to row i).
__attribute__((target_clones("avx2", "default"))) void AddSeriesKernel(
    int32_t n, int32_t first, int32_t last, const double* sums, const double* info, double* s_buf,
    double* i_buf, double* sum_base, double* comp_base, double* mag_base) {
  for (int32_t i = last - 1; i >= first; --i) {
    const double v = sums[i];
    const double c = info[i];
    for (int32_t j = i + 1; j < n; ++j) {
      s_buf[j] += v;
      i_buf[j] += c;
    }
    s_buf[i] = v;
    i_buf[i] = c;
    const size_t row = TriangleRow(n, i) - i;
    double* sum = sum_base + row;
    double* comp = comp_base + row;
    double* mag = mag_base + row;
    for (int32_t j = i; j < n; ++j) {
      const double s = s_buf[j];
      const double xs = XLog2X(s);
      const double gain = xs - i_buf[j];
      // Kahan step: comp holds the low-order part lost so far (negated).
      const double y = gain - comp[j];
      const double t = sum[j] + y;
      comp[j] = (t - sum[j]) - y;
      sum[j] = t;
      mag[j] += std::fabs(xs) + std::fabs(i_buf[j]);
    }
  }
}

}  // namespace

void IntervalAccumulator::AddSeries(const double* sums, const double* info, const Cancellation* cancel) {
  s_buf_.assign(slices_, 0.0);
  i_buf_.assign(slices_, 0.0);
  // In blocks of rows, polling `cancel` between them: a whole series at
  // 4,000 slices is 8 million intervals, 100 to 300 ms.
  constexpr int32_t kRows = 256;
  for (int32_t last = slices_; last > 0; last -= kRows) {
    ThrowIfCancelled(cancel);
    AddSeriesKernel(slices_, std::max(0, last - kRows), last, sums, info, s_buf_.data(), i_buf_.data(),
                    sum_.data(), comp_.data(), magnitude_.data());
  }
}

void IntervalAccumulator::Reset() {
  std::fill(sum_.begin(), sum_.end(), 0.0);
  std::fill(comp_.begin(), comp_.end(), 0.0);
  std::fill(magnitude_.begin(), magnitude_.end(), 0.0);
}

}  // namespace macroscope::analysis
