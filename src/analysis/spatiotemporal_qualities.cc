#include "analysis/spatiotemporal_qualities.h"

#include <cmath>
#include <memory>

#include "analysis/interval_gains.h"
#include "analysis/parallel.h"
#include "analysis/quality.h"
#include "util/error.h"

namespace macroscope::analysis {

namespace {

// The per-slice totals of one type under one node: S (sum of values) and
// I (sum of v log2 v over the cells).
struct TypeSeries {
  int32_t type = 0;
  std::vector<double> sum;
  std::vector<double> info;
};

}  // namespace

SpatiotemporalQualities SpatiotemporalQualities::Compute(const MicroModel& model, int threads,
                                                         const Cancellation* cancel) {
  const Hierarchy& tree = model.hierarchy();
  const int32_t n = model.slices();
  const size_t triangle = TriangleSize(n);
  // Qualities (2 doubles) plus, per p, the best's choice (16 bits) per cell.
  const uint64_t bytes = static_cast<uint64_t>(tree.size()) * triangle * (2 * sizeof(double) + sizeof(uint16_t));
  if (bytes > kMaxBytes) {
    throw UserError("spatiotemporal aggregation of " + std::to_string(tree.size()) +
                    " nodes over " + std::to_string(n) + " slices needs " +
                    std::to_string(bytes >> 20) +
                    " MiB of qualities; use fewer slices or filter containers");
  }

  // Bottom-up per-node series, only for types that are non-zero there.
  std::vector<std::vector<TypeSeries>> node_series(tree.size());
  SpatiotemporalQualities q;
  q.hierarchy_ = tree;
  q.slices_ = n;
  q.leaf_count_.assign(tree.size(), 0);
  std::vector<int32_t> slot(model.type_count(), -1);
  for (NodeId k : tree.PostOrder()) {
    auto& out = node_series[k];
    if (tree.IsLeaf(k)) {
      q.leaf_count_[k] = 1;
      int32_t leaf = *model.LeafIndex(k);
      for (int32_t type = 0; type < model.type_count(); ++type) {
        auto values = model.Series(leaf, type);
        if (values.empty()) continue;
        TypeSeries series{type, {values.begin(), values.end()}, std::vector<double>(n)};
        for (int32_t t = 0; t < n; ++t) series.info[t] = XLog2X(values[t]);
        out.push_back(std::move(series));
      }
      continue;
    }
    for (NodeId child : tree.Children(k)) {
      q.leaf_count_[k] += q.leaf_count_[child];
      for (const auto& series : node_series[child]) {
        if (slot[series.type] < 0) {
          slot[series.type] = static_cast<int32_t>(out.size());
          out.push_back({series.type, std::vector<double>(n, 0.0), std::vector<double>(n, 0.0)});
        }
        auto& target = out[slot[series.type]];
        for (int32_t t = 0; t < n; ++t) {
          target.sum[t] += series.sum[t];
          target.info[t] += series.info[t];
        }
      }
    }
    for (const auto& series : out) slot[series.type] = -1;
  }

  q.gain_ = ZeroedVector<double>(tree.size() * triangle);
  q.loss_ = ZeroedVector<double>(tree.size() * triangle);
  if (threads <= 0) threads = DefaultThreadCount();
  std::vector<std::unique_ptr<IntervalAccumulator>> accumulators(threads);
  ParallelFor(tree.size(), threads, [&](int64_t node, int worker) {
    const auto& series = node_series[node];
    if (series.empty()) return;
    auto& acc = accumulators[worker];
    if (!acc) {
      acc = std::make_unique<IntervalAccumulator>(n);
    } else {
      acc->Reset();
    }
    std::vector<long double> slice_total(n, 0.0L);
    for (const auto& s : series) {
      acc->AddSeries(s.sum.data(), s.info.data(), cancel);
      for (int32_t t = 0; t < n; ++t) slice_total[t] += s.sum[t];
    }
    const long double leaves = static_cast<long double>(q.leaf_count_[node]);
    double* gain = q.gain_.data() + node * triangle;
    double* loss = q.loss_.data() + node * triangle;
    for (int32_t i = 0; i < n; ++i) {
      long double total = 0;
      for (int32_t j = i; j < n; ++j) {
        total += slice_total[j];
        size_t index = TriangleIndex(n, i, j);
        long double spread = total * Log2(static_cast<double>(leaves * (j - i + 1)));
        gain[index] = SnapQuality(acc->Value(index), acc->Magnitude(index));
        loss[index] = SnapQuality(spread - gain[index], acc->Magnitude(index) + spread);
      }
    }
  });
  return q;
}

void SpatiotemporalQualities::Normalize() {
  if (normalized_) return;
  normalized_ = true;
  size_t full = Index(Hierarchy::kRoot, 0, slices_ - 1);
  double gain_max = gain_[full] > 0 ? gain_[full] : 1.0;
  double loss_max = loss_[full] > 0 ? loss_[full] : 1.0;
  for (auto& g : gain_) g /= gain_max;
  for (auto& l : loss_) l /= loss_max;
}

}  // namespace macroscope::analysis
