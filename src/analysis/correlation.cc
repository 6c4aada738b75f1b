#include "analysis/correlation.h"

#include <algorithm>
#include <cmath>

#include "util/error.h"

namespace macroscope::analysis {

namespace {

// Regular: bin i of k holds the points t with i <= (t - lo)·k / (hi - lo) < i + 1,
// the last one also hi. All points in one instant: one bin.
void RegularBins(const std::vector<double>& a, const std::vector<double>& b, CorrelationResult& out) {
  const size_t k = std::max<size_t>(1, static_cast<size_t>(std::sqrt(static_cast<double>(a.size() + b.size()))));
  double lo = a.front(), hi = a.front();
  for (const auto* series : {&a, &b})
    for (double t : *series) {
      lo = std::min(lo, t);
      hi = std::max(hi, t);
    }
  const size_t bins = hi > lo ? k : 1;
  out.per_bin_a.assign(bins, 0);
  out.per_bin_b.assign(bins, 0);
  auto bin = [&](double t) {
    if (bins == 1) return size_t{0};
    const double position = std::floor((t - lo) * static_cast<double>(bins) / (hi - lo));
    return std::min(bins - 1, static_cast<size_t>(std::max(0.0, position)));
  };
  for (double t : a) ++out.per_bin_a[bin(t)];
  for (double t : b) ++out.per_bin_b[bin(t)];
}

// Irregular: windows [p − δ, p + δ] around the smaller series' points,
// merged where they overlap; bins are the windows and the gaps of positive
// length between them within [lo, hi] (a window is closed, a gap open at
// its window ends).
void IrregularBins(const std::vector<double>& small, const std::vector<double>& other, double delta,
                   std::vector<uint64_t>& per_bin_small, std::vector<uint64_t>& per_bin_other) {
  std::vector<double> points = small;
  std::sort(points.begin(), points.end());
  std::vector<std::pair<double, double>> windows;
  for (double p : points) {
    if (!windows.empty() && p - delta <= windows.back().second)
      windows.back().second = p + delta;
    else
      windows.emplace_back(p - delta, p + delta);
  }
  double lo = points.front(), hi = points.back();
  for (double t : other) {
    lo = std::min(lo, t);
    hi = std::max(hi, t);
  }
  // Bin 2j is the gap before window j (j = windows.size(): after the last),
  // bin 2j + 1 the window j.
  const size_t m = windows.size();
  std::vector<uint64_t> s(2 * m + 1, 0), o(2 * m + 1, 0);
  auto bin = [&](double t) {
    // The first window that does not end before t.
    auto it = std::lower_bound(windows.begin(), windows.end(), t,
                               [](const std::pair<double, double>& w, double x) { return w.second < x; });
    const size_t j = static_cast<size_t>(it - windows.begin());
    return j < m && it->first <= t ? 2 * j + 1 : 2 * j;
  };
  for (double t : small) ++s[bin(t)];
  for (double t : other) ++o[bin(t)];
  for (size_t i = 0; i < s.size(); ++i) {
    if (i % 2 == 0) {  // a gap: kept when it has a length
      const size_t j = i / 2;
      const double left = j == 0 ? lo : windows[j - 1].second;
      const double right = j == m ? hi : windows[j].first;
      if (!(left < right)) continue;
    }
    per_bin_small.push_back(s[i]);
    per_bin_other.push_back(o[i]);
  }
}

}  // namespace

std::optional<double> Pearson(const std::vector<uint64_t>& x, const std::vector<uint64_t>& y) {
  const size_t n = std::min(x.size(), y.size());
  if (n < 2) return std::nullopt;
  double mx = 0, my = 0;
  for (size_t i = 0; i < n; ++i) {
    mx += static_cast<double>(x[i]);
    my += static_cast<double>(y[i]);
  }
  mx /= static_cast<double>(n);
  my /= static_cast<double>(n);
  double sxy = 0, sxx = 0, syy = 0;
  for (size_t i = 0; i < n; ++i) {
    const double dx = static_cast<double>(x[i]) - mx, dy = static_cast<double>(y[i]) - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx == 0 || syy == 0) return std::nullopt;
  return sxy / std::sqrt(sxx * syy);
}

CorrelationResult Correlation::Compute(Binning binning, double delta) const {
  if (a_.empty() || b_.empty())
    throw UserError(std::string("series ") + (a_.empty() ? "a" : "b") + " has no point: nothing to correlate");
  CorrelationResult out;
  out.count_a = a_.size();
  out.count_b = b_.size();
  if (binning == Binning::kRegular) {
    RegularBins(a_, b_, out);
  } else {
    if (!(delta > 0)) throw UserError("irregular bins need a delta > 0");
    if (a_.size() <= b_.size())
      IrregularBins(a_, b_, delta, out.per_bin_a, out.per_bin_b);
    else
      IrregularBins(b_, a_, delta, out.per_bin_b, out.per_bin_a);
  }
  out.bins = out.per_bin_a.size();
  out.r = Pearson(out.per_bin_a, out.per_bin_b);
  return out;
}

Table Correlation::ToTable(Binning binning, double delta) const {
  return CorrelationTable(binning, Compute(binning, delta));
}

Table CorrelationTable(Binning binning, const CorrelationResult& result) {
  Table table({"bins_kind", "bins", "count_a", "count_b", "r"});
  table.Put(binning == Binning::kRegular ? "regular" : "irregular");
  table.Put(static_cast<uint64_t>(result.bins));
  table.Put(result.count_a);
  table.Put(result.count_b);
  if (result.r)
    table.Put(*result.r);
  else
    table.PutEmpty();
  return table;
}

}  // namespace macroscope::analysis
