// The value at fraction p of sorted values, interpolated linearly between
// the order statistics (h = (n - 1) p; numpy's default "linear" and R's
// type 7): what box plots (render/charts.h) draw and campaigns
// (analysis/compare/campaign.h) tabulate, the same numbers.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

namespace macroscope {

// `sorted` must be sorted and not empty; 0 <= p <= 1.
inline double Quantile(const std::vector<double>& sorted, double p) {
  const double h = static_cast<double>(sorted.size() - 1) * p;
  const auto i = static_cast<size_t>(std::floor(h));
  if (i + 1 >= sorted.size()) return sorted.back();
  return sorted[i] + (h - static_cast<double>(i)) * (sorted[i + 1] - sorted[i]);
}

}  // namespace macroscope
