#include "model/interval_index.h"

#include <algorithm>
#include <numeric>

namespace macroscope {

IntervalIndex::IntervalIndex(std::span<const double> starts, std::span<const double> ends) {
  const size_t n = starts.size();
  order_.resize(n);
  std::iota(order_.begin(), order_.end(), 0u);
  auto lo_of = [&](uint32_t i) { return std::min(starts[i], ends[i]); };
  std::stable_sort(order_.begin(), order_.end(),
                   [&](uint32_t a, uint32_t b) { return lo_of(a) < lo_of(b); });
  lo_.resize(n);
  hi_.resize(n);
  for (size_t p = 0; p < n; ++p) {
    lo_[p] = lo_of(order_[p]);
    hi_[p] = std::max(starts[order_[p]], ends[order_[p]]);
  }
  max_hi_ = hi_;
  if (n == 0) return;
  // Level by level, bottom-up: a node's max covers its children's.
  size_t k = 1;
  for (; (size_t{1} << k) <= n; ++k) {
    size_t half = size_t{1} << (k - 1);
    size_t step = size_t{1} << (k + 1);
    for (size_t i = (size_t{1} << k) - 1; i < n; i += step) {
      double m = max_hi_[i];
      m = std::max(m, max_hi_[i - half]);
      if (i + half < n) m = std::max(m, max_hi_[i + half]);
      else {
        // The right subtree is cut by n: its max is that of the nodes that exist.
        for (size_t j = i + 1; j < n; ++j) m = std::max(m, hi_[j]);
      }
      max_hi_[i] = m;
    }
  }
  max_level_ = static_cast<int>(k - 1);
}

std::vector<uint32_t> IntervalIndex::Query(double t1, double t2) const {
  std::vector<uint32_t> found;
  const size_t n = order_.size();
  if (n == 0) return found;
  struct Frame {
    size_t node;
    int level;
    bool left_done;
  };
  Frame stack[64];
  int top = 0;
  stack[top++] = {(size_t{1} << max_level_) - 1, max_level_, false};
  while (top > 0) {
    Frame f = stack[--top];
    if (f.level < 3) {  // small subtree: scan it linearly
      size_t first = f.node >> f.level << f.level;
      size_t last = std::min(n, first + (size_t{1} << (f.level + 1)) - 1);
      for (size_t i = first; i < last && lo_[i] <= t2; ++i)
        if (hi_[i] >= t1) found.push_back(static_cast<uint32_t>(i));
      continue;
    }
    size_t half = size_t{1} << (f.level - 1);
    if (!f.left_done) {
      stack[top++] = {f.node, f.level, true};
      size_t left = f.node - half;
      // Nodes past n exist only on the right spine: descend them unpruned.
      if (left >= n || max_hi_[left] >= t1) stack[top++] = {left, f.level - 1, false};
      continue;
    }
    if (f.node < n) {
      if (lo_[f.node] > t2) continue;  // this node and its right subtree start too late
      if (hi_[f.node] >= t1) found.push_back(static_cast<uint32_t>(f.node));
    }
    size_t right = f.node + half;
    if (f.node + 1 < n && (right >= n || max_hi_[right] >= t1))
      stack[top++] = {right, f.level - 1, false};
  }
  for (auto& p : found) p = order_[p];
  return found;
}

}  // namespace macroscope
