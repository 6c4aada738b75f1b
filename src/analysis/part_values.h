// What views of an aggregation (pictures, the web UI) need to know of each
// part: its per-type sums of the model's values, and where the node's leaves
// sit in depth-first order.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/aggregation.h"
#include "analysis/micro_model.h"

namespace macroscope::analysis {

// Leaves under a node: indices [first, first + count) of MicroModel::leaves().
struct LeafSpan {
  int32_t first = 0;
  int32_t count = 0;
};

// The leaf span of every node, by NodeId.
std::vector<LeafSpan> NodeLeafSpans(const Hierarchy& hierarchy);

struct PartValues {
  std::vector<double> per_type;  // sums over the part's cells, by type index
  double total = 0;
  int32_t dominant = -1;  // type with the largest sum (lowest index on ties); -1 when total = 0
  int64_t cells = 0;      // leaves x slices
};

// Sums over leaves [span] x slices [first_slice, last_slice].
PartValues SumValues(const MicroModel& model, LeafSpan span, int32_t first_slice,
                     int32_t last_slice);

// One entry per part of `partition`, in its order.
std::vector<PartValues> PartSums(const MicroModel& model,
                                 const Partition& partition,
                                 const std::vector<LeafSpan>& spans);

}  // namespace macroscope::analysis
