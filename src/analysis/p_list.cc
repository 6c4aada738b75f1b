#include "analysis/p_list.h"

#include <algorithm>
#include <stdexcept>

namespace macroscope::analysis {

namespace {

double LineValue(const Quality& q, double p) { return Pic(p, q.gain, q.loss); }

struct Bracket {
  double pa;
  Quality a;
  double pb;
  Quality b;
};

}  // namespace

std::vector<PListEntry> SignificantPsExact(const Aggregation& aggregation, const Cancellation* cancel) {
  const Quality full = aggregation.FullAggregate();
  const TieRule same(0, full.gain, full.loss);
  std::vector<PListEntry> list{{0.0, aggregation.Evaluate(0.0, cancel)}};
  Quality last = aggregation.Evaluate(1.0, cancel);
  std::vector<Bracket> work;
  if (!same.Same(list[0].quality, last)) work.push_back({0.0, list[0].quality, 1.0, last});
  while (!work.empty()) {
    Bracket bracket = work.back();
    work.pop_back();
    const Quality& a = bracket.a;
    const Quality& b = bracket.b;
    // Crossing of the two lines: -La + p Sa = -Lb + p Sb.
    double slope_a = a.gain + a.loss;
    double slope_b = b.gain + b.loss;
    double cross = (slope_b > slope_a) ? (b.loss - a.loss) / (slope_b - slope_a)
                                       : 0.5 * (bracket.pa + bracket.pb);
    // kMinWidth: below it, rounding of the crossing dominates; the change is
    // taken to be there (also bounds the work on degenerate inputs).
    constexpr double kMinWidth = 1e-13;
    if (!(cross > bracket.pa && cross < bracket.pb) || bracket.pb - bracket.pa < kMinWidth) {
      // Rounding put the crossing on an end: the change is there.
      list.push_back({std::clamp(cross, bracket.pa, bracket.pb), b});
      continue;
    }
    Quality c = aggregation.Evaluate(cross, cancel);
    TieRule rule(cross, full.gain, full.loss);
    bool above = LineValue(c, cross) > LineValue(a, cross) + rule.pic_tolerance() &&
                 !same.Same(c, a) && !same.Same(c, b);
    if (!above) {
      list.push_back({cross, b});
      continue;
    }
    work.push_back({cross, c, bracket.pb, b});
    work.push_back({bracket.pa, a, cross, c});
  }
  std::sort(list.begin(), list.end(),
            [](const PListEntry& x, const PListEntry& y) { return x.p < y.p; });
  return list;
}

std::vector<PListEntry> SignificantPsDichotomy(const Aggregation& aggregation, double threshold) {
  if (!(threshold > 0)) throw std::invalid_argument("the threshold must be > 0");
  const Quality full = aggregation.FullAggregate();
  const TieRule same(0, full.gain, full.loss);
  std::vector<PListEntry> found{{0.0, aggregation.Evaluate(0.0)}};
  std::vector<Bracket> work;
  Quality last = aggregation.Evaluate(1.0);
  if (!same.Same(found[0].quality, last)) work.push_back({0.0, found[0].quality, 1.0, last});
  while (!work.empty()) {
    Bracket bracket = work.back();
    work.pop_back();
    if (same.Same(bracket.a, bracket.b)) continue;
    if (bracket.pb - bracket.pa < threshold) {
      found.push_back({bracket.pb, bracket.b});
      continue;
    }
    double mid = 0.5 * (bracket.pa + bracket.pb);
    Quality m = aggregation.Evaluate(mid);
    work.push_back({mid, m, bracket.pb, bracket.b});
    work.push_back({bracket.pa, bracket.a, mid, m});
  }
  std::sort(found.begin(), found.end(),
            [](const PListEntry& x, const PListEntry& y) { return x.p < y.p; });
  std::vector<PListEntry> list;
  for (const auto& entry : found) {
    if (!list.empty() && same.Same(list.back().quality, entry.quality)) continue;
    list.push_back(entry);
  }
  return list;
}

double KneeP(const std::vector<PListEntry>& list, const Quality& full) {
  if (list.empty()) return 0.5;
  size_t k = 0;
  double best = -1;
  for (size_t i = 0; i < list.size(); ++i) {
    const double gain = full.gain > 0 ? list[i].quality.gain / full.gain : 0;
    const double loss = full.loss > 0 ? list[i].quality.loss / full.loss : 0;
    if (gain - loss >= best - 1e-12) {
      best = gain - loss;
      k = i;
    }
  }
  const double from = list[k].p;
  const double to = k + 1 < list.size() ? list[k + 1].p : 1.0;
  return (from + to) / 2;
}

}  // namespace macroscope::analysis
