// Optimal spatiotemporal partitions (parts are hierarchy node x slice
// interval).
//
// Design: for every node k (children before parents) and interval [i, j]
// (i descending, j ascending):
//   atom[k,i,j] = the better of the part (k, [i, j]) itself and, for an
//                 internal k, the spatial cut: sum of best[child, i, j];
//   best[k,i,j] = the better of atom[k,i,j] and, for each c in [i, j-1],
//                 atom[k,i,c] + best[k,c+1,j]   (c = the leftmost cut).
// This is the spec's recursion (no cut / spatial / best + best) with each
// partition reached through one cut sequence only — the leftmost temporal
// cut of a node's interval is unique — which is the same optimum, but
// equal-quality duplicates no longer tie at every c (they made the
// tie-rule path the hot path at small p). Comparisons follow the tie rule
// of quality.h (reference: the part (k, [i, j])); a full tie keeps the
// first candidate in the order above. O(|H| |T|^3) per p. The cut scan
// of a row i runs over c outside and a block of j inside: atom[k,i,c] plus
// a contiguous block of row c + 1 of best's pIC (kept in a square layout,
// -inf below the diagonal), keeping per j the largest pIC, the second
// largest and the first c reaching the largest (vectorised: 16 float lanes
// with AVX-512, 8 with AVX2). The scan runs in float, twice the lanes of
// double; its rounding error is bounded by the node's largest magnitude.
// The tie rule then needs, per interval, only the largest cut against the
// atom (without branches, in double) unless the second may be within
// tolerance too (rounding included), when every cut within tolerance is
// checked in double in order of c, as a plain scan would.
//
// Subtrees are solved in parallel: a frontier of disjoint subtrees is cut
// from the top of the tree, each solved by one worker, then the nodes above
// it are solved in post-order. Inside a subtree a node's best is never
// stored whole: each row, once solved, is added to its parent's spatial
// sums (children in order, so the sums are the same), and the worker's
// scratch stays in cache; only the frontier's and upper nodes' tables are
// kept whole for their parent. Tables are pooled per worker.
#pragma once

#include <memory>
#include <vector>

#include "analysis/aggregation.h"
#include "analysis/spatiotemporal_qualities.h"

namespace macroscope::analysis {

class SpatiotemporalAggregation : public Aggregation {
 public:
  static constexpr int32_t kMaxSlices = 0x8000;

  // threads = 0: DefaultThreadCount(). Throws std::invalid_argument beyond
  // kMaxSlices.
  explicit SpatiotemporalAggregation(SpatiotemporalQualities qualities, int threads = 0);

  int32_t slices() const override { return qualities_.slices(); }
  Quality FullAggregate() const override;
  Quality Evaluate(double p, const Cancellation* cancel = nullptr) const override;
  Partition Best(double p, const Cancellation* cancel = nullptr) const override;
  bool normalized() const override { return qualities_.normalized(); }
  size_t bytes() const override;
  const SpatiotemporalQualities& qualities() const { return qualities_; }

 private:
  // Per (node, interval [i, j]), one choice: the low bits hold c - i for
  // the leftmost cut c (j - i: best is the atom), kSpatial is set when the
  // atom is the children's best rather than the part. So |T| <= kMaxSlices.
  static constexpr uint16_t kSpatial = 0x8000;
  struct Solution {
    std::unique_ptr<uint16_t[]> choice;
    Quality best;  // of (root, whole range)
  };
  // keep_cuts: fill Solution::choice (needed only to rebuild
  // the partition).
  Solution Solve(double p, bool keep_cuts, const Cancellation* cancel) const;

  SpatiotemporalQualities qualities_;
  int threads_;
  std::vector<NodeId> frontier_;  // roots of the subtrees solved in parallel
  std::vector<NodeId> upper_;     // the nodes above them, in post-order
  std::vector<int32_t> preorder_rank_;
  // Nodes whose best table is kept whole for the parent (the root, and the
  // children of upper_ nodes); the others are summed into their parent's
  // spatial cuts row by row as they are solved.
  std::vector<char> persist_;
};

}  // namespace macroscope::analysis
