#include "analysis/temporal_partition.h"

#include <stdexcept>

namespace macroscope::analysis {

TemporalAggregation::TemporalAggregation(TemporalQualities qualities)
    : qualities_(std::move(qualities)) {}

Quality TemporalAggregation::FullAggregate() const {
  int32_t n = slices();
  return {qualities_.gain(0, n - 1), qualities_.loss(0, n - 1), 1};
}

TemporalAggregation::Cuts TemporalAggregation::Solve(double p, const Cancellation* cancel) const {
  if (!(p >= 0 && p <= 1)) throw std::invalid_argument("p must be in [0, 1]");
  const int32_t n = slices();
  std::vector<double> gain(n + 1, 0.0), loss(n + 1, 0.0), pic(n + 1, 0.0);
  std::vector<int64_t> parts(n + 1, 0);
  Cuts out;
  out.cut.assign(n, n - 1);
  for (int32_t i = n - 1; i >= 0; --i) {
    // A row is |T| - i steps: 10,000 slices are 40 us a row.
    ThrowIfCancelled(cancel);
    const double* g = qualities_.gain_row(i);
    const double* l = qualities_.loss_row(i);
    TieRule rule(p, g[n - 1 - i], l[n - 1 - i]);
    int32_t best_cut = n - 1;
    double best_gain = g[n - 1 - i];
    double best_loss = l[n - 1 - i];
    double best_pic = Pic(p, best_gain, best_loss);
    for (int32_t c = i; c < n - 1; ++c) {
      double cg = g[c - i] + gain[c + 1];
      double cl = l[c - i] + loss[c + 1];
      double cp = Pic(p, g[c - i], l[c - i]) + pic[c + 1];
      if (rule.Better(cp, cg, cl, best_pic, best_gain, best_loss)) {
        best_cut = c;
        best_gain = cg;
        best_loss = cl;
        best_pic = cp;
      }
    }
    out.cut[i] = best_cut;
    gain[i] = best_gain;
    loss[i] = best_loss;
    pic[i] = best_pic;
    parts[i] = 1 + parts[best_cut + 1];
  }
  out.best = {gain[0], loss[0], parts[0]};
  return out;
}

Quality TemporalAggregation::Evaluate(double p, const Cancellation* cancel) const { return Solve(p, cancel).best; }

Partition TemporalAggregation::Best(double p, const Cancellation* cancel) const {
  Cuts cuts = Solve(p, cancel);
  Partition partition;
  partition.quality = cuts.best;
  for (int32_t i = 0; i < slices(); i = cuts.cut[i] + 1) {
    int32_t j = cuts.cut[i];
    partition.parts.push_back(
        {Hierarchy::kRoot, i, j, qualities_.gain(i, j), qualities_.loss(i, j)});
  }
  return partition;
}

}  // namespace macroscope::analysis
