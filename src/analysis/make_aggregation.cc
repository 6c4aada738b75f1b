#include "analysis/make_aggregation.h"

#include "analysis/spatiotemporal_partition.h"
#include "analysis/temporal_partition.h"

namespace macroscope::analysis {

std::unique_ptr<Aggregation> MakeAggregation(const MicroModel& model, bool spatiotemporal, bool normalize,
                                             int threads, const Cancellation* cancel) {
  if (!spatiotemporal) {
    auto qualities = TemporalQualities::Compute(model, threads, cancel);
    if (normalize) qualities.Normalize();
    return std::make_unique<TemporalAggregation>(std::move(qualities));
  }
  auto qualities = SpatiotemporalQualities::Compute(model, threads, cancel);
  if (normalize) qualities.Normalize();
  return std::make_unique<SpatiotemporalAggregation>(std::move(qualities), threads);
}

}  // namespace macroscope::analysis
