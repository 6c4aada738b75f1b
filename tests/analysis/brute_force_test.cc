// Optimality against brute force: qualities recomputed from their
// definition, every admissible partition enumerated, over a grid of p.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "analysis/p_list.h"
#include "analysis/spatiotemporal_partition.h"
#include "analysis/temporal_partition.h"
#include "test_models.h"

namespace macroscope::analysis {
namespace {

// gain and loss of one set of cells, straight from the definition.
struct Direct {
  long double gain = 0;
  long double loss = 0;
  void AddSet(const std::vector<double>& cells) {
    long double total = 0;
    for (double v : cells) total += v;
    if (total <= 0) return;
    long double info = 0;
    long double loss_here = 0;
    for (double v : cells) {
      if (v <= 0) continue;
      info += v * std::log2(static_cast<long double>(v));
      loss_here += v * std::log2(cells.size() * static_cast<long double>(v) / total);
    }
    gain += total * std::log2(total) - info;
    loss += loss_here;
  }
};

std::vector<NodeId> LeavesUnder(const Hierarchy& tree, NodeId node) {
  if (tree.IsLeaf(node)) return {node};
  std::vector<NodeId> out;
  for (NodeId child : tree.Children(node)) {
    auto sub = LeavesUnder(tree, child);
    out.insert(out.end(), sub.begin(), sub.end());
  }
  return out;
}

Quality DirectTemporal(const MicroModel& model, int32_t i, int32_t j) {
  Direct d;
  for (NodeId leaf : model.leaves()) {
    for (int32_t type = 0; type < model.type_count(); ++type) {
      std::vector<double> cells;
      for (int32_t t = i; t <= j; ++t) cells.push_back(model.Value(leaf, type, t));
      d.AddSet(cells);
    }
  }
  return {static_cast<double>(d.gain), static_cast<double>(d.loss), 1};
}

Quality DirectPart(const MicroModel& model, NodeId node, int32_t i, int32_t j) {
  Direct d;
  auto leaves = LeavesUnder(model.hierarchy(), node);
  for (int32_t type = 0; type < model.type_count(); ++type) {
    std::vector<double> cells;
    for (NodeId leaf : leaves) {
      for (int32_t t = i; t <= j; ++t) cells.push_back(model.Value(leaf, type, t));
    }
    d.AddSet(cells);
  }
  return {static_cast<double>(d.gain), static_cast<double>(d.loss), 1};
}

// Keeps the best quality at each p under the tie rule.
struct BestPerP {
  std::vector<double> ps;
  std::vector<Quality> best;
  std::vector<bool> set;
  Quality reference;
  // Checks p = 0, 0.05, ..., 1 and `extra` p values.
  explicit BestPerP(Quality full, const std::vector<double>& extra = {}) : reference(full) {
    for (int k = 0; k <= 20; ++k) ps.push_back(k / 20.0);
    ps.insert(ps.end(), extra.begin(), extra.end());
    best.resize(ps.size());
    set.assign(ps.size(), false);
  }
  void Offer(double gain, double loss, int64_t parts) {
    for (size_t k = 0; k < ps.size(); ++k) {
      TieRule rule(ps[k], reference.gain, reference.loss);
      double pic = Pic(ps[k], gain, loss);
      if (!set[k] || rule.Better(pic, gain, loss, Pic(ps[k], best[k].gain, best[k].loss),
                                 best[k].gain, best[k].loss)) {
        best[k] = {gain, loss, parts};
        set[k] = true;
      }
    }
  }
  void Check(const Aggregation& aggregation) {
    for (size_t k = 0; k < ps.size(); ++k) {
      Quality q = aggregation.Evaluate(ps[k]);
      double tol = 1e-9 * (reference.gain + reference.loss + 1);
      EXPECT_NEAR(Pic(ps[k], q.gain, q.loss), Pic(ps[k], best[k].gain, best[k].loss), tol)
          << "p = " << ps[k];
      EXPECT_NEAR(q.gain, best[k].gain, tol) << "p = " << ps[k];
      EXPECT_NEAR(q.loss, best[k].loss, tol) << "p = " << ps[k];
      // The reconstructed partition sums to the same quality.
      Partition partition = aggregation.Best(ps[k]);
      double gain = 0, loss = 0;
      for (const auto& part : partition.parts) {
        gain += part.gain;
        loss += part.loss;
      }
      EXPECT_NEAR(gain, q.gain, tol);
      EXPECT_NEAR(loss, q.loss, tol);
      EXPECT_EQ(static_cast<int64_t>(partition.parts.size()), q.parts);
    }
  }
};

class TemporalBruteForce : public ::testing::TestWithParam<uint64_t> {};

TEST_P(TemporalBruteForce, OptimalOverAllPartitions) {
  const int32_t n = 8;
  MicroModel model =
      testing::RandomModel(GetParam(), n, 2, GetParam() % 2 == 0, GetParam() % 3 == 0 ? 0.4 : 0.0);
  TemporalAggregation aggregation(TemporalQualities::Compute(model));
  const auto& q = aggregation.qualities();
  for (int32_t i = 0; i < n; ++i) {
    for (int32_t j = i; j < n; ++j) {
      Quality direct = DirectTemporal(model, i, j);
      EXPECT_NEAR(q.gain(i, j), direct.gain, 1e-10 * (1 + direct.gain));
      EXPECT_NEAR(q.loss(i, j), direct.loss, 1e-10 * (1 + direct.gain + direct.loss));
    }
  }
  BestPerP best(DirectTemporal(model, 0, n - 1));
  for (uint32_t cuts = 0; cuts < (1u << (n - 1)); ++cuts) {
    double gain = 0, loss = 0;
    int64_t parts = 0;
    int32_t start = 0;
    for (int32_t t = 0; t < n; ++t) {
      if (t == n - 1 || (cuts >> t) & 1) {
        gain += q.gain(start, t);
        loss += q.loss(start, t);
        ++parts;
        start = t + 1;
      }
    }
    best.Offer(gain, loss, parts);
  }
  best.Check(aggregation);
}

INSTANTIATE_TEST_SUITE_P(Seeds, TemporalBruteForce, ::testing::Range<uint64_t>(1, 13));

struct SpatialCase {
  uint64_t seed;
  int32_t slices;
  bool deep;
  double zero_share;
};

class SpatiotemporalBruteForce : public ::testing::TestWithParam<SpatialCase> {};

TEST_P(SpatiotemporalBruteForce, OptimalOverAllPartitions) {
  const SpatialCase c = GetParam();
  MicroModel model = testing::RandomModel(c.seed, c.slices, 2, c.deep, c.zero_share);
  const Hierarchy& tree = model.hierarchy();
  const int32_t n = c.slices;
  SpatiotemporalAggregation aggregation(SpatiotemporalQualities::Compute(model));
  const auto& q = aggregation.qualities();

  // Qualities of every part, from the definition.
  std::vector<std::vector<Quality>> part(tree.size(), std::vector<Quality>(n * n));
  for (NodeId k = 0; k < tree.size(); ++k) {
    for (int32_t i = 0; i < n; ++i) {
      for (int32_t j = i; j < n; ++j) {
        Quality d = DirectPart(model, k, i, j);
        part[k][i * n + j] = d;
        EXPECT_NEAR(q.gain(k, i, j), d.gain, 1e-10 * (1 + d.gain));
        EXPECT_NEAR(q.loss(k, i, j), d.loss, 1e-10 * (1 + d.gain + d.loss));
      }
    }
  }

  // Every tiling of the (slice, leaf) grid by node x interval parts: the
  // part covering the first uncovered cell (slice-major) starts at its slice.
  const auto& leaves = model.leaves();
  const int32_t width = model.leaf_count();
  std::vector<std::vector<int32_t>> node_leaves(tree.size());
  for (NodeId k = 0; k < tree.size(); ++k) {
    for (NodeId leaf : LeavesUnder(tree, k)) node_leaves[k].push_back(*model.LeafIndex(leaf));
  }
  std::vector<char> covered(n * width, 0);
  // Beside each significant p, 1e-7 away: there the pIC of the partitions
  // that swap differ by far less than float's precision (the cut scan's
  // float must then defer to double) but more than the tie tolerance.
  std::vector<double> near_breakpoints;
  for (const PListEntry& entry : SignificantPsExact(aggregation)) {
    for (double p : {entry.p - 1e-7, entry.p + 1e-7}) {
      if (p >= 0 && p <= 1) near_breakpoints.push_back(p);
    }
  }
  BestPerP best(part[Hierarchy::kRoot][n - 1], near_breakpoints);
  int64_t tilings = 0;
  std::function<void(double, double, int64_t)> enumerate = [&](double gain, double loss,
                                                               int64_t parts) {
    int32_t cell = 0;
    while (cell < n * width && covered[cell]) ++cell;
    if (cell == n * width) {
      ++tilings;
      best.Offer(gain, loss, parts);
      return;
    }
    int32_t t = cell / width;
    NodeId leaf = leaves[cell % width];
    for (NodeId k = leaf; k != Hierarchy::kNoParent; k = tree.Parent(k)) {
      auto free_at = [&](int32_t slice) {
        for (int32_t l : node_leaves[k]) {
          if (covered[slice * width + l]) return false;
        }
        return true;
      };
      for (int32_t j = t; j < n && free_at(j); ++j) {
        for (int32_t s = t; s <= j; ++s) {
          for (int32_t l : node_leaves[k]) covered[s * width + l] = 1;
        }
        const Quality& pq = part[k][t * n + j];
        enumerate(gain + pq.gain, loss + pq.loss, parts + 1);
        for (int32_t s = t; s <= j; ++s) {
          for (int32_t l : node_leaves[k]) covered[s * width + l] = 0;
        }
      }
    }
  };
  enumerate(0, 0, 0);
  EXPECT_GT(tilings, 100);
  best.Check(aggregation);
}

INSTANTIATE_TEST_SUITE_P(
    Seeds, SpatiotemporalBruteForce,
    ::testing::Values(SpatialCase{1, 4, false, 0.0}, SpatialCase{2, 4, false, 0.0},
                      SpatialCase{3, 4, false, 0.3}, SpatialCase{4, 5, false, 0.0},
                      SpatialCase{5, 3, true, 0.0}, SpatialCase{6, 3, true, 0.0},
                      SpatialCase{7, 3, true, 0.4}, SpatialCase{8, 2, true, 0.0}));

}  // namespace
}  // namespace macroscope::analysis
