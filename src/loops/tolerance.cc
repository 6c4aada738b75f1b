#include "loops/tolerance.h"

#include <algorithm>
#include <numeric>

#include "loops/search.h"

namespace macroscope::loops {

namespace {

// The phase stretched over [begin, end): a whole number of its intervals,
// possibly rotated (begin need not be the phase start modulo the period).
struct Extension {
  int64_t begin = 0;
  int64_t end = 0;
  std::vector<Exception> exceptions;
};

bool Extendable(const Node& node) {
  return node.kind == NodeKind::kLoop && node.period_step == 0 && node.gap == 0 &&
         node.gap_step == 0 && !node.gaps && node.period > 0;
}

int64_t FloorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// What `loop` predicts at trace positions [lower, upper), continuing its
// intervals on both sides.
std::vector<uint64_t> Predict(const Node& loop, int64_t lower, int64_t upper) {
  const int64_t p = loop.period;
  std::vector<uint64_t> predicted;
  predicted.reserve(static_cast<size_t>(upper - lower));
  std::vector<uint64_t> values;
  const int64_t first = FloorDiv(lower - loop.start, p);
  const int64_t last = FloorDiv(upper - 1 - loop.start, p);
  for (int64_t x = first; x <= last; ++x) {
    values.clear();
    const uint64_t context[2] = {static_cast<uint64_t>(x), 1};
    for (const Node& child : loop.body) GenerateNode(child, 2, context, values);
    for (int64_t y = 0; y < p; ++y) {
      const int64_t i = loop.start + x * p + y;
      if (i >= lower && i < upper) predicted.push_back(y < static_cast<int64_t>(values.size()) ? values[y] : 0);
    }
  }
  return predicted;
}

// Stretches `loop` within [lower, upper): first as far as the
// mispredicted share allows on each side, then the whole-interval range
// inside that stretch with the best score (values covered minus three
// per exception: an exception costs two integers, a listed value one).
Extension Extend(const uint64_t* data, const Node& loop, int64_t lower, int64_t upper, double tolerance,
                 std::vector<uint64_t>& predicted) {
  predicted = Predict(loop, lower, upper);
  const int64_t begin = loop.start;
  const int64_t end = loop.start + NodeLength(loop, 1);
  std::vector<int64_t> misses(static_cast<size_t>(upper - lower) + 1, 0);  // prefix counts
  for (int64_t i = lower; i < upper; ++i) {
    misses[i - lower + 1] = misses[i - lower] + (predicted[i - lower] != data[i] ? 1 : 0);
  }
  const auto count = [&](int64_t a, int64_t b) { return misses[b - lower] - misses[a - lower]; };
  const auto fits = [&](int64_t a, int64_t b) {
    return static_cast<double>(count(a, b)) <= tolerance * static_cast<double>(b - a);
  };
  int64_t right_max = end;
  for (int64_t i = end + 1; i <= upper && fits(begin, i); ++i) right_max = i;
  int64_t left_max = begin;
  for (int64_t i = begin - 1; i >= lower && fits(i, right_max); --i) left_max = i;
  const int64_t p = loop.period;
  Extension e;
  e.begin = begin;
  e.end = end;
  int64_t best_score = end - begin;
  for (int64_t right = end; right <= right_max; ++right) {
    // The widest left end aligned on whole intervals, then narrower ones.
    for (int64_t left = left_max + (right - left_max) % p; left <= begin; left += p) {
      if (left < left_max || !fits(left, right)) continue;
      const int64_t score = (right - left) - 3 * count(left, right);
      if (score > best_score) {
        best_score = score;
        e.begin = left;
        e.end = right;
      }
      break;
    }
  }
  for (int64_t i = e.begin; i < e.end; ++i) {
    if (predicted[i - lower] != data[i]) e.exceptions.push_back({i, data[i]});
  }
  return e;
}

struct Range {
  int64_t begin = 0;
  int64_t end = 0;
};

}  // namespace

void ApplyTolerance(const uint64_t* data, int64_t n, double tolerance, const Options& body_options,
                    const ExactModeller& modeller, Model& model) {
  std::vector<Node>& phases = model.phases;
  std::vector<size_t> order(phases.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return NodeLength(phases[a], 1) > NodeLength(phases[b], 1);
  });
  std::vector<Range> chosen;  // kept sorted by begin
  std::vector<Node> extended;
  std::vector<Exception> exceptions;
  for (size_t index : order) {
    const Node& phase = phases[index];
    if (!Extendable(phase)) continue;
    const int64_t begin = phase.start;
    const int64_t end = begin + NodeLength(phase, 1);
    // Room between the chosen ranges around this phase; a phase that
    // overlaps a chosen range is left to the re-modelling.
    int64_t lower = 0, upper = n;
    bool overlaps = false;
    for (const Range& r : chosen) {
      if (r.end <= begin) lower = std::max(lower, r.end);
      else if (r.begin >= end) upper = std::min(upper, r.begin);
      else overlaps = true;
    }
    if (overlaps) continue;
    std::vector<uint64_t> predicted;
    Extension e = Extend(data, phase, lower, upper, tolerance, predicted);
    if (e.begin == begin && e.end == end) continue;
    Node node;
    if ((begin - e.begin) % phase.period == 0) {
      // Same alignment: re-base the loop.
      node = phase;
      const int64_t before = (begin - e.begin) / phase.period;
      if (before > 0) ShiftLoop(node, 1, before);
      node.count = (e.end - e.begin) / phase.period;
      node.start = e.begin;
    } else {
      // Rotated: rebuild the loop from the predicted values, which are
      // exactly periodic-linear.
      node = MakeFixedLoop(predicted.data() + (e.begin - lower), 1, 0, 0, phase.period,
                           (e.end - e.begin) / phase.period, body_options);
      node.start = e.begin;
    }
    const Range range{node.start, node.start + NodeLength(node, 1)};
    chosen.insert(std::upper_bound(chosen.begin(), chosen.end(), range,
                                   [](const Range& a, const Range& b) { return a.begin < b.begin; }),
                  range);
    extended.push_back(std::move(node));
    exceptions.insert(exceptions.end(), e.exceptions.begin(), e.exceptions.end());
  }
  if (extended.empty()) return;
  std::sort(extended.begin(), extended.end(),
            [](const Node& a, const Node& b) { return a.start < b.start; });
  // Rebuild the phase list: extended loops, and between them either the
  // untouched original phases (when they tile the gap) or a fresh exact
  // model of the gap.
  std::vector<Node> result;
  auto fill = [&](int64_t a, int64_t b) {
    if (a >= b) return;
    std::vector<Node> inside;
    int64_t at = a;
    for (const Node& p : phases) {
      if (p.start == at && p.start + NodeLength(p, 1) <= b) {
        inside.push_back(p);
        at += NodeLength(p, 1);
      }
    }
    if (at == b) {
      for (Node& p : inside) result.push_back(std::move(p));
      return;
    }
    for (Node& p : modeller(a, b)) {
      p.start += a;
      result.push_back(std::move(p));
    }
  };
  int64_t at = 0;
  for (Node& node : extended) {
    fill(at, node.start);
    at = node.start + NodeLength(node, 1);
    result.push_back(std::move(node));
  }
  fill(at, n);
  phases = std::move(result);
  std::sort(exceptions.begin(), exceptions.end(),
            [](const Exception& a, const Exception& b) { return a.index < b.index; });
  model.exceptions = std::move(exceptions);
}

}  // namespace macroscope::loops
