#include "analysis/temporal_qualities.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <span>

#include "analysis/interval_gains.h"
#include "analysis/parallel.h"
#include "analysis/quality.h"
#include "util/error.h"

namespace macroscope::analysis {

TemporalQualities TemporalQualities::Compute(const MicroModel& model, int threads, const Cancellation* cancel) {
  const int32_t n = model.slices();
  std::vector<std::span<const double>> series;
  for (int32_t leaf = 0; leaf < model.leaf_count(); ++leaf) {
    for (int32_t type = 0; type < model.type_count(); ++type) {
      auto values = model.Series(leaf, type);
      if (!values.empty()) series.push_back(values);
    }
  }
  if (threads <= 0) threads = DefaultThreadCount();
  // Each run of series (at least one per thread) keeps three interval
  // tables, the result two more.
  const uint64_t table = static_cast<uint64_t>(TriangleSize(n)) * sizeof(double);
  const uint64_t bytes = table * (3 * static_cast<uint64_t>(threads) + 2);
  if (bytes > kMaxBytes) {
    throw UserError("temporal aggregation over " + std::to_string(n) + " slices needs " +
                    std::to_string(bytes >> 20) + " MiB of qualities; use fewer slices");
  }
  // One accumulator per fixed run of series (not per worker, which takes
  // series as they come): the sums, and so the last bits of the
  // qualities, do not depend on timing. Up to four runs per thread, as
  // half of kMaxBytes allows: shorter runs keep the workers balanced.
  const auto rounds = std::clamp<int64_t>(
      static_cast<int64_t>(kMaxBytes / 2 / (3 * table * static_cast<uint64_t>(threads))), 1, 4);
  const int64_t runs = threads * rounds;
  std::vector<std::unique_ptr<IntervalAccumulator>> accumulators(runs);
  const auto count = static_cast<int64_t>(series.size());
  ParallelFor(runs, threads, [&](int64_t run, int) {
    const int64_t first = count * run / runs, last = count * (run + 1) / runs;
    if (first == last) return;
    accumulators[run] = std::make_unique<IntervalAccumulator>(n);
    std::vector<double> info(n);
    for (int64_t s = first; s < last; ++s) {
      for (int32_t t = 0; t < n; ++t) info[t] = XLog2X(series[s][t]);
      accumulators[run]->AddSeries(series[s].data(), info.data(), cancel);
    }
  });

  // Total of all series per slice, then per interval (long double).
  std::vector<long double> slice_total(n, 0.0L);
  for (auto values : series) {
    for (int32_t t = 0; t < n; ++t) slice_total[t] += values[t];
  }

  TemporalQualities q;
  q.slices_ = n;
  q.gain_ = ZeroedVector<double>(TriangleSize(n));
  q.loss_ = ZeroedVector<double>(TriangleSize(n));
  for (int32_t i = 0; i < n; ++i) {
    ThrowIfCancelled(cancel);
    long double total = 0;
    for (int32_t j = i; j < n; ++j) {
      total += slice_total[j];
      size_t index = TriangleIndex(n, i, j);
      long double gain = 0;
      long double magnitude = 0;
      for (const auto& acc : accumulators) {
        if (!acc) continue;
        gain += acc->Value(index);
        magnitude += acc->Magnitude(index);
      }
      long double spread = total * std::log2(static_cast<long double>(j - i + 1));
      q.gain_[index] = SnapQuality(gain, magnitude);
      q.loss_[index] = SnapQuality(spread - q.gain_[index], magnitude + spread);
    }
  }
  return q;
}

void TemporalQualities::Normalize() {
  if (normalized_) return;
  normalized_ = true;
  size_t full = TriangleIndex(slices_, 0, slices_ - 1);
  double gain_max = gain_[full] > 0 ? gain_[full] : 1.0;
  double loss_max = loss_[full] > 0 ? loss_[full] : 1.0;
  for (auto& g : gain_) g /= gain_max;
  for (auto& l : loss_) l /= loss_max;
}

}  // namespace macroscope::analysis
