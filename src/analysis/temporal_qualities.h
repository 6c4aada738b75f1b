// Qualities of temporal aggregation: for every slice interval [i, j], the
// gain and loss of aggregating it over all resources, each (leaf, type)
// series scored against itself (n = j - i + 1):
//   gain[i,j] = sum over series of (S log2 S - I)
//   loss[i,j] = sum over series of (S log2 n) - gain[i,j]
// Cost O(|T|^2) per non-zero series, spread over threads; memory O(|T|^2).
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/cancellation.h"
#include "analysis/zeroed_vector.h"
#include "analysis/micro_model.h"
#include "analysis/triangle.h"

namespace macroscope::analysis {

class TemporalQualities {
 public:
  // Largest working memory Compute() accepts, in bytes.
  static constexpr uint64_t kMaxBytes = uint64_t{6} << 30;

  // threads = 0: DefaultThreadCount(). Throws UserError when the tables
  // would exceed kMaxBytes; Cancelled once `cancel` is set (polled every
  // 256 rows of a series and before each row of the result).
  static TemporalQualities Compute(const MicroModel& model, int threads = 0, const Cancellation* cancel = nullptr);

  int32_t slices() const { return slices_; }
  double gain(int32_t i, int32_t j) const { return gain_[TriangleIndex(slices_, i, j)]; }
  double loss(int32_t i, int32_t j) const { return loss_[TriangleIndex(slices_, i, j)]; }
  // Row i: values for j = i..slices-1.
  const double* gain_row(int32_t i) const { return gain_.data() + TriangleRow(slices_, i); }
  const double* loss_row(int32_t i) const { return loss_.data() + TriangleRow(slices_, i); }

  // Divides every gain by the full aggregate's gain and every loss by its
  // loss (a zero divisor is left at 1). Idempotent.
  void Normalize();
  bool normalized() const { return normalized_; }
  // Bytes its tables hold.
  size_t bytes() const { return (gain_.size() + loss_.size()) * sizeof(double); }

 private:
  int32_t slices_ = 0;
  bool normalized_ = false;
  ZeroedVector<double> gain_;
  ZeroedVector<double> loss_;
};

}  // namespace macroscope::analysis
