// Optimal temporal partitions (parts are slice intervals over all
// resources).
//
// Design: best[i] is the best partition of the suffix [i, |T|-1]:
//   best[i] = max over c in [i, |T|-1] of pIC(i..c) + best[c+1], best[|T|] = 0
// under the tie rule of quality.h; on a full tie the first candidate wins,
// in the order c = |T|-1 (no cut), then c = i, i+1, ... O(|T|^2) per p.
#pragma once

#include "analysis/aggregation.h"
#include "analysis/temporal_qualities.h"

namespace macroscope::analysis {

class TemporalAggregation : public Aggregation {
 public:
  explicit TemporalAggregation(TemporalQualities qualities);

  int32_t slices() const override { return qualities_.slices(); }
  Quality FullAggregate() const override;
  Quality Evaluate(double p, const Cancellation* cancel = nullptr) const override;
  Partition Best(double p, const Cancellation* cancel = nullptr) const override;
  bool normalized() const override { return qualities_.normalized(); }
  size_t bytes() const override { return sizeof *this + qualities_.bytes(); }
  const TemporalQualities& qualities() const { return qualities_; }

 private:
  struct Cuts {
    std::vector<int32_t> cut;  // last slice of the first part of suffix i
    Quality best;              // of the whole range
  };
  Cuts Solve(double p, const Cancellation* cancel) const;

  TemporalQualities qualities_;
};

}  // namespace macroscope::analysis
