// The common face of temporal and spatiotemporal aggregation: qualities are
// computed once at construction; each call with a new p re-runs only the
// best-cut step.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/cancellation.h"
#include "analysis/hierarchy.h"
#include "analysis/quality.h"

namespace macroscope::analysis {

// One part: all leaves under `node` over slices [first_slice, last_slice]
// (inclusive, 0-based). Temporal parts have node = Hierarchy::kRoot.
struct Part {
  NodeId node = Hierarchy::kRoot;
  int32_t first_slice = 0;
  int32_t last_slice = 0;
  double gain = 0;
  double loss = 0;
};

struct Partition {
  Quality quality;          // sums over the parts; parts = parts.size()
  std::vector<Part> parts;  // by first slice, then hierarchy order
};

class Aggregation {
 public:
  virtual ~Aggregation() = default;

  virtual int32_t slices() const = 0;
  // The single-part partition: its gain and loss bound every partition's
  // and serve as the scale of the tie rule's tolerances.
  virtual Quality FullAggregate() const = 0;
  // Quality of the optimal partition at p in [0, 1] (no reconstruction).
  // `cancel` is polled between steps (rows of the tables): once set, the
  // call throws Cancelled. Overrides repeat the default.
  virtual Quality Evaluate(double p, const Cancellation* cancel = nullptr) const = 0;
  // The optimal partition at p in [0, 1]; `cancel` as for Evaluate.
  virtual Partition Best(double p, const Cancellation* cancel = nullptr) const = 0;
  virtual bool normalized() const = 0;
  // Bytes it holds (its qualities, mostly: O(slices²), times the nodes
  // for a spatiotemporal one), for a cache's budget.
  virtual size_t bytes() const = 0;
};

}  // namespace macroscope::analysis
