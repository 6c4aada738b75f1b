// Small models shared by the analysis tests.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "analysis/micro_model.h"

namespace macroscope::analysis::testing {

// "<prefix><i>" (appending avoids a GCC 12 -Wrestrict false alarm).
inline std::string Numbered(const char* prefix, size_t i) {
  std::string name(prefix);
  name += std::to_string(i);
  return name;
}

// One type; one leaf per series, named s1, s2, ... under the root.
inline MicroModel SeriesModel(const std::vector<std::vector<double>>& series) {
  Hierarchy tree;
  for (size_t s = 0; s < series.size(); ++s) tree.AddChild(Hierarchy::kRoot, Numbered("s", s + 1));
  MicroModel model(std::move(tree), {"t"}, static_cast<int32_t>(series[0].size()));
  for (size_t s = 0; s < series.size(); ++s) {
    for (size_t t = 0; t < series[s].size(); ++t) {
      model.Add(model.leaves()[s], 0, static_cast<int32_t>(t), series[s][t]);
    }
  }
  return model;
}

// Thesis Fig. 5.7: 2 resources x 10 slices, one type.
inline MicroModel Figure57Model() {
  return SeriesModel(
      {{23, 25, 22, 30, 55, 21, 26, 35, 19, 30}, {75, 72, 71, 69, 92, 73, 75, 35, 70, 71}});
}

// A random small hierarchy: root -> a -> {a1, a2}, root -> b, optionally
// root -> c -> {c1 -> {c1x, c1y}}; `types` types; values uniform in
// [0.1, 10), each cell zero with probability `zero_share`.
inline MicroModel RandomModel(uint64_t seed, int32_t slices, int types, bool deep,
                              double zero_share) {
  Hierarchy tree;
  NodeId a = tree.AddChild(Hierarchy::kRoot, "a");
  tree.AddChild(a, "a1");
  tree.AddChild(a, "a2");
  tree.AddChild(Hierarchy::kRoot, "b");
  if (deep) {
    NodeId c = tree.AddChild(Hierarchy::kRoot, "c");
    NodeId c1 = tree.AddChild(c, "c1");
    tree.AddChild(c1, "c1x");
    tree.AddChild(c1, "c1y");
  }
  std::vector<std::string> names;
  for (int t = 0; t < types; ++t) names.push_back(Numbered("type", t));
  MicroModel model(std::move(tree), names, slices);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> value(0.1, 10.0);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  for (NodeId leaf : model.leaves()) {
    for (int t = 0; t < types; ++t) {
      for (int32_t s = 0; s < slices; ++s) {
        double v = value(rng);
        if (coin(rng) >= zero_share) model.Add(leaf, t, s, v);
      }
    }
  }
  return model;
}

}  // namespace macroscope::analysis::testing
