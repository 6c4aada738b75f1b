// Index answering "which intervals intersect [t1, t2]" in O(log n + k),
// whatever the nesting or overlap of the intervals (states of a push/pop
// stack, links that cross, ...).
//
// Design: an implicit augmented binary search tree over the intervals
// sorted by start. The node of sorted position i sits at level
// (number of trailing one bits of i); the children of a node at level k are
// i -/+ 2^(k-1). Each node keeps the largest end of its subtree, so a query
// prunes every subtree that ends before t1 and every right part that starts
// after t2. No pointers, three arrays, built in O(n log n).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace macroscope {

class IntervalIndex {
 public:
  IntervalIndex() = default;
  // starts[i] <= ends[i] is not required (links may end before they start);
  // such an interval is treated as [min, max].
  IntervalIndex(std::span<const double> starts, std::span<const double> ends);

  // Calls out for the original position of every interval with
  // lo <= t2 and hi >= t1, in increasing start order.
  std::vector<uint32_t> Query(double t1, double t2) const;
  size_t size() const { return order_.size(); }

 private:
  std::vector<uint32_t> order_;  // sorted position -> original position
  std::vector<double> lo_, hi_, max_hi_;
  int max_level_ = 0;
};

}  // namespace macroscope
