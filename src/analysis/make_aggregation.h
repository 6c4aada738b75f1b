// The aggregation of a model in one of the two modes, its qualities
// computed (and normalised when asked) once, so that each p only runs the
// best-cut step.
#pragma once

#include <memory>

#include "analysis/aggregation.h"
#include "analysis/micro_model.h"

namespace macroscope::analysis {

// `threads` as in the qualities (0: one per core). The result does not
// refer to `model`. Throws Cancelled once `cancel` is set.
std::unique_ptr<Aggregation> MakeAggregation(const MicroModel& model, bool spatiotemporal, bool normalize,
                                             int threads, const Cancellation* cancel = nullptr);

}  // namespace macroscope::analysis
