// Qualities of spatiotemporal aggregation: for every hierarchy node k and
// slice interval [i, j], the gain and loss of the part "all leaves under k
// over [i, j]", summed over types, with n = |leaves(k)| * (j - i + 1):
//   gain[k,i,j] = sum over types of (S log2 S - I)
//   loss[k,i,j] = sum over types of (S log2 n) - gain[k,i,j]
// where S and I are the part's total and sum of v log2 v. An internal node's
// per-slice S and I are sums over its children, so each node costs
// O(|types| * |T|^2) whatever its size; nodes are spread over threads.
// Memory: 16 bytes per (node, interval).
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/cancellation.h"
#include "analysis/zeroed_vector.h"
#include "analysis/hierarchy.h"
#include "analysis/micro_model.h"
#include "analysis/triangle.h"

namespace macroscope::analysis {

class SpatiotemporalQualities {
 public:
  // Largest quality table Compute() accepts, in bytes.
  static constexpr uint64_t kMaxBytes = uint64_t{6} << 30;

  // Throws UserError when the tables would exceed kMaxBytes; Cancelled
  // once `cancel` is set (polled every 256 rows of a series).
  static SpatiotemporalQualities Compute(const MicroModel& model, int threads = 0,
                                         const Cancellation* cancel = nullptr);

  const Hierarchy& hierarchy() const { return hierarchy_; }
  int32_t slices() const { return slices_; }
  int64_t LeafCount(NodeId node) const { return leaf_count_[node]; }
  // Bytes its tables hold.
  size_t bytes() const {
    return (gain_.size() + loss_.size()) * sizeof(double) + leaf_count_.size() * sizeof(int64_t);
  }
  double gain(NodeId k, int32_t i, int32_t j) const { return gain_[Index(k, i, j)]; }
  double loss(NodeId k, int32_t i, int32_t j) const { return loss_[Index(k, i, j)]; }
  // Row (k, i): values for j = i..slices-1.
  const double* gain_row(NodeId k, int32_t i) const { return gain_.data() + Index(k, i, i); }
  const double* loss_row(NodeId k, int32_t i) const { return loss_.data() + Index(k, i, i); }

  // Divides every gain by the root's full-range gain and every loss by its
  // loss (a zero divisor is left at 1). Idempotent.
  void Normalize();
  bool normalized() const { return normalized_; }

 private:
  size_t Index(NodeId k, int32_t i, int32_t j) const {
    return static_cast<size_t>(k) * TriangleSize(slices_) + TriangleIndex(slices_, i, j);
  }

  Hierarchy hierarchy_;
  int32_t slices_ = 0;
  bool normalized_ = false;
  std::vector<int64_t> leaf_count_;
  ZeroedVector<double> gain_;
  ZeroedVector<double> loss_;
};

}  // namespace macroscope::analysis
