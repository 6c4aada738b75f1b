// Design note. The seed searches, for each candidate period p in
// decreasing autocorrelation order, the largest run of whole intervals in
// which every value is linked to the values p and 2p further on; the
// largest phase wins (ties: smaller period), then the parts left and right
// are searched the same way. For a fixed p the linked positions are
// computed once, and a maximal run of linked positions [a, b) yields the
// phase starting at a with 2 + (b - a) / p intervals, so each period costs
// one linear scan (the seed's O(n^3) becomes O(n^2)). The autocorrelation
// order only serves to prune: a period whose best possible phase
// (floor(n/p) * p values) cannot beat the current best is skipped, so the
// answer is that of the exhaustive search.
//
// The variable (av) and distant (df) configurations and the recurrences
// (RPLI) add candidates of their own on the trace level; a candidate is
// measured by the number of values it interpolates, and on ties the
// simpler configuration (fixed, adjacent, linear) wins.
#include "loops/search.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "loops/autocorrelation.h"
#include "loops/find_model.h"

namespace macroscope::loops {

namespace {

enum class CandidateKind { kNone, kFixed, kVariable, kDistant, kRecurrence };

struct Candidate {
  CandidateKind kind = CandidateKind::kNone;
  int64_t start = 0;
  int64_t size = 0;    // values covered
  int64_t weight = 0;  // values interpolated (size minus gaps)
  int64_t period = 0;
  int64_t count = 0;
  int64_t period_step = 0;
  int64_t gap = 0;
  int64_t gap_step = 0;
  int64_t order = 0;
  std::vector<uint64_t> coefficients;  // recurrences
};

// True when `c` should replace `best`.
bool Better(const Candidate& c, const Candidate& best) {
  if (best.kind == CandidateKind::kNone) return true;
  if (c.weight != best.weight) return c.weight > best.weight;
  if (c.kind != best.kind) return c.kind < best.kind;
  return c.period < best.period;
}

class Searcher {
 public:
  Searcher(const uint64_t* data, int64_t n, int width, int depth, const Options& options)
      : data_(data), n_(n), width_(width), depth_(depth), options_(options) {}

  std::vector<Node> Run() {
    std::vector<Node> out;
    Range(0, n_, out);
    return out;
  }

 private:
  uint64_t At(int64_t i) const { return data_[i]; }  // width 1 only

  bool Linked(int64_t j, int64_t p) const {
    const uint64_t* a = data_ + j * width_;
    const uint64_t* b = a + p * width_;
    const uint64_t* c = b + p * width_;
    for (int k = 0; k < width_; ++k) {
      if (b[k] - a[k] != c[k] - b[k]) return false;
    }
    return true;
  }

  void Range(int64_t lo, int64_t hi, std::vector<Node>& out) {
    if (hi <= lo) return;
    Candidate best = BestFixed(lo, hi);
    if (width_ == 1) {
      const int64_t n = hi - lo;
      const Mode mode = options_.mode;
      const bool variable = mode == Mode::kAdjacentVariable || mode == Mode::kDistantVariable;
      const bool distant = mode == Mode::kDistantFixed || mode == Mode::kDistantVariable;
      if (variable && n <= kVariableSearchLimit) BestVariable(lo, hi, false, best);
      if (distant && n <= kVariableSearchLimit) BestDistant(lo, hi, best);
      if (mode == Mode::kDistantVariable && n <= kDistantVariableSearchLimit) {
        BestVariable(lo, hi, true, best);
      }
      if (options_.recurrence_order > 0) BestRecurrence(lo, hi, best);
    }
    if (best.kind == CandidateKind::kNone) {
      out.push_back(Fallback(lo, hi));
      return;
    }
    Range(lo, best.start, out);
    Node node = Build(best);
    node.start = best.start;
    out.push_back(std::move(node));
    Range(best.start + best.size, hi, out);
  }

  // Nothing periodic: two values are always an affine pair, more are
  // listed.
  Node Fallback(int64_t lo, int64_t hi) {
    if (hi - lo == 2) {
      Node node = MakeFixedLoop(data_, width_, depth_, lo, 1, 2, options_);
      node.start = lo;
      return node;
    }
    Node node;
    node.kind = NodeKind::kLiteral;
    node.start = lo;
    node.values.assign(data_ + lo * width_, data_ + hi * width_);
    return node;
  }

  Candidate BestFixed(int64_t lo, int64_t hi) {
    Candidate best;
    const int64_t n = hi - lo;
    if (n < 3) return best;
    const std::vector<int64_t> periods = PeriodsByAutocorrelation(data_ + lo * width_, n, width_, n / 3);
    for (int64_t p : periods) {
      const int64_t bound = (n / p) * p;
      if (best.kind != CandidateKind::kNone &&
          (bound < best.size || (bound == best.size && p >= best.period))) {
        continue;
      }
      // Maximal runs of linked positions j in [lo, hi - 2p).
      int64_t j = lo;
      const int64_t last = hi - 2 * p;
      while (j < last) {
        if (!Linked(j, p)) {
          ++j;
          continue;
        }
        const int64_t a = j;
        while (j < last && Linked(j, p)) ++j;
        const int64_t k = 2 + (j - a) / p;
        if (k >= 3) {
          Candidate c;
          c.kind = CandidateKind::kFixed;
          c.start = a;
          c.period = p;
          c.count = k;
          c.size = c.weight = k * p;
          if (c.size > best.size || (c.size == best.size && p < best.period) ||
              best.kind == CandidateKind::kNone) {
            best = c;
          }
        }
      }
    }
    return best;
  }

  // Adjacent intervals whose sizes follow L0 + delta * X (delta != 0),
  // optionally each followed by a gap of the same growth (dv). Following
  // the seed, linked intervals have linked first values, which filters
  // the (start, L0, delta) triples before the full check.
  void BestVariable(int64_t lo, int64_t hi, bool with_gaps, Candidate& best) {
    const int64_t n = hi - lo;
    for (int64_t s = lo; s < hi; ++s) {
      for (int64_t l0 = 1; 3 * l0 <= n; ++l0) {
        const int64_t max_g0 = with_gaps ? n / 3 : 0;
        for (int64_t g0 = with_gaps ? 1 : 0; g0 <= max_g0; ++g0) {
          const int64_t s1 = s + l0 + g0;
          if (s1 >= hi) break;
          for (int64_t delta = -(l0 - 1); ; ++delta) {
            if (delta == 0) continue;
            const int64_t gstep = with_gaps ? delta : 0;
            if (g0 + 2 * gstep < 0 && with_gaps) continue;
            const int64_t s2 = s1 + l0 + delta + g0 + gstep;
            if (s2 + l0 + 2 * delta > hi || s2 >= hi) break;
            if (At(s1) - At(s) != At(s2) - At(s1)) continue;
            TryVariable(lo, hi, s, l0, delta, g0, gstep, best);
          }
        }
      }
    }
  }

  void TryVariable(int64_t lo, int64_t hi, int64_t s, int64_t l0, int64_t delta, int64_t g0,
                   int64_t gstep, Candidate& best) {
    (void)lo;
    // Interval starts; extend while the next interval fits and links.
    std::vector<int64_t> starts{s};
    int64_t weight = 0;
    int64_t end = s;
    for (int64_t x = 0;; ++x) {
      const int64_t size = l0 + delta * x;
      const int64_t gap = g0 + gstep * x;
      if (size < 1 || gap < 0) break;
      const int64_t begin = starts.back();
      if (begin + size + gap > hi) break;
      if (x >= 2) {
        // Every position of this interval must be linked to the same
        // position in the two previous intervals, where they exist.
        bool ok = true;
        for (int64_t y = 0; y < size && ok; ++y) {
          if (y >= l0 + delta * (x - 2) || y >= l0 + delta * (x - 1)) {
            // Fewer than three samples: only check with two when delta < 0
            // never happens (sizes shrink, earlier intervals are longer).
            continue;
          }
          const uint64_t a = At(starts[x - 2] + y), b = At(starts[x - 1] + y), c = At(begin + y);
          ok = (b - a == c - b);
        }
        if (!ok) break;
      }
      end = begin + size + gap;
      starts.push_back(end);
      const int64_t count = x + 1;
      if (count >= 3) {
        Candidate c;
        c.kind = gstep != 0 || g0 != 0 ? CandidateKind::kDistant : CandidateKind::kVariable;
        c.start = s;
        c.period = l0;
        c.period_step = delta;
        c.gap = g0;
        c.gap_step = gstep;
        c.count = count;
        c.size = end - s;
        // Only values at positions held by three intervals or more are
        // interpolated (the seed's nbpi); the others would fit anything.
        weight = 0;
        const int64_t longest = std::max(l0, l0 + delta * (count - 1));
        for (int64_t y = 0; y < longest; ++y) {
          int64_t holders = 0;
          for (int64_t z = 0; z < count; ++z) holders += y < l0 + delta * z;
          if (holders >= 3) weight += holders;
        }
        c.weight = weight;
        if (Better(c, best)) best = c;
      }
    }
  }

  // Intervals of P = p + g values whose first p values are linked across
  // intervals; the g others form a gap modelled apart.
  void BestDistant(int64_t lo, int64_t hi, Candidate& best) {
    const int64_t n = hi - lo;
    std::vector<int32_t> run(static_cast<size_t>(n) + 1);
    for (int64_t big = 2; 3 * big <= n; ++big) {
      // At best every interval but one value per interval is linked.
      if ((n / big) * (big - 1) <= best.weight) continue;
      // run[j]: linked positions j, j+P, j+2P, ... in a row.
      for (int64_t j = hi - 1; j >= lo; --j) {
        const bool linked = j + 2 * big < hi && Linked(j, big);
        run[j - lo] = linked ? 1 + (j + big < hi ? run[j + big - lo] : 0) : 0;
      }
      for (int64_t s = lo; s + 3 * big <= hi; ++s) {
        if (run[s - lo] == 0 || (2 + run[s - lo]) * (big - 1) <= best.weight) continue;
        int64_t m = run[s - lo];
        for (int64_t p = 1; p < big; ++p) {
          m = std::min<int64_t>(m, run[s + p - 1 - lo]);
          if (m == 0) break;
          const int64_t k = 2 + m;
          if (s + k * big > hi) continue;
          Candidate c;
          c.kind = CandidateKind::kDistant;
          c.start = s;
          c.period = p;
          c.gap = big - p;
          c.count = k;
          c.size = k * big;
          c.weight = k * p;
          if (Better(c, best)) best = c;
        }
      }
    }
  }

  // Periodic-linear recurrences u_i = sum_j a_j u_{i-j*p} + c (per residue
  // of i mod p), orders 1..K. Coefficients are solved in floating point
  // from the first order+1 equations, rounded, and kept only if they hold
  // exactly (mod 2^64) on every value they cover.
  void BestRecurrence(int64_t lo, int64_t hi, Candidate& best) {
    const int64_t n = hi - lo;
    const int64_t last_start = n <= kRecurrenceSearchLimit ? hi : lo + 1;
    for (int64_t k = 1; k <= options_.recurrence_order; ++k) {
      for (int64_t p = 1; p <= kRecurrenceMaxPeriod && (2 * k + 2) * p <= n; ++p) {
        for (int64_t s = lo; s < last_start && s + (2 * k + 2) * p <= hi; ++s) {
          std::vector<uint64_t> coef;
          if (!SolveRecurrence(s, k, p, coef)) continue;
          int64_t i = s + k * p;
          while (i < hi && Holds(s, i, k, p, coef)) ++i;
          const int64_t size = i - s;
          if (size < (2 * k + 2) * p) continue;
          Candidate c;
          c.kind = CandidateKind::kRecurrence;
          c.start = s;
          c.size = c.weight = size;
          c.period = p;
          c.order = k;
          c.coefficients = std::move(coef);
          if (Better(c, best)) best = c;
        }
      }
    }
  }

  bool Holds(int64_t s, int64_t i, int64_t k, int64_t p, const std::vector<uint64_t>& coef) const {
    const uint64_t* row = &coef[((i - s) % p) * (k + 1)];
    uint64_t value = row[k];
    for (int64_t j = 1; j <= k; ++j) value += row[j - 1] * At(i - j * p);
    return value == At(i);
  }

  bool SolveRecurrence(int64_t s, int64_t k, int64_t p, std::vector<uint64_t>& coef) const {
    const int64_t m = k + 1;
    coef.assign(static_cast<size_t>(p * m), 0);
    for (int64_t y = 0; y < p; ++y) {
      std::vector<long double> a(static_cast<size_t>(m * (m + 1)));
      for (int64_t t = 0; t < m; ++t) {
        const int64_t i = s + k * p + t * p + y;
        for (int64_t j = 1; j <= k; ++j) {
          a[t * (m + 1) + (j - 1)] = static_cast<long double>(static_cast<int64_t>(At(i - j * p)));
        }
        a[t * (m + 1) + k] = 1.0L;
        a[t * (m + 1) + m] = static_cast<long double>(static_cast<int64_t>(At(i)));
      }
      // Gaussian elimination with partial pivoting.
      for (int64_t col = 0; col < m; ++col) {
        int64_t pivot = col;
        for (int64_t r = col + 1; r < m; ++r) {
          if (std::fabs(a[r * (m + 1) + col]) > std::fabs(a[pivot * (m + 1) + col])) pivot = r;
        }
        if (std::fabs(a[pivot * (m + 1) + col]) < 1e-9L) return false;
        if (pivot != col) {
          for (int64_t c = 0; c <= m; ++c) std::swap(a[col * (m + 1) + c], a[pivot * (m + 1) + c]);
        }
        for (int64_t r = 0; r < m; ++r) {
          if (r == col) continue;
          const long double f = a[r * (m + 1) + col] / a[col * (m + 1) + col];
          if (f == 0.0L) continue;
          for (int64_t c = col; c <= m; ++c) a[r * (m + 1) + c] -= f * a[col * (m + 1) + c];
        }
      }
      for (int64_t j = 0; j < m; ++j) {
        const long double x = a[j * (m + 1) + m] / a[j * (m + 1) + j];
        if (!std::isfinite(x) || std::fabs(x) > 9.0e18L) return false;
        coef[y * m + j] = static_cast<uint64_t>(static_cast<int64_t>(std::llround(x)));
      }
      // The rounded solution must satisfy its own equations exactly.
      for (int64_t t = 0; t < m; ++t) {
        if (!Holds(s, s + k * p + t * p + y, k, p, coef)) return false;
      }
    }
    return true;
  }

  Node Build(const Candidate& c) {
    switch (c.kind) {
      case CandidateKind::kFixed:
        return MakeFixedLoop(data_, width_, depth_, c.start, c.period, c.count, options_);
      case CandidateKind::kVariable:
      case CandidateKind::kDistant:
        return MakeGeneralLoop(c);
      case CandidateKind::kRecurrence: {
        Node node;
        node.kind = NodeKind::kRecurrence;
        node.length = c.size;
        node.rec_period = c.period;
        node.order = c.order;
        node.coefficients = c.coefficients;
        node.values.assign(data_ + c.start, data_ + c.start + c.order * c.period);
        return node;
      }
      case CandidateKind::kNone:
        break;
    }
    return Node{};
  }

  // Loops of the variable and distant configurations (trace level only).
  Node MakeGeneralLoop(const Candidate& c) {
    Node node;
    node.kind = NodeKind::kLoop;
    node.count = c.count;
    node.period = c.period;
    node.period_step = c.period_step;
    node.gap = c.gap;
    node.gap_step = c.gap_step;
    std::vector<int64_t> starts;
    std::vector<uint64_t> gap_values;
    int64_t at = c.start;
    for (int64_t x = 0; x < c.count; ++x) {
      starts.push_back(at);
      const int64_t size = c.period + c.period_step * x;
      const int64_t gap = c.gap + c.gap_step * x;
      for (int64_t g = 0; g < gap; ++g) gap_values.push_back(At(at + size + g));
      at += size + gap;
    }
    const int64_t longest = BodyLength(node);
    // (A_y, B_y) from the first two intervals holding y; positions held by
    // one interval only extrapolate A linearly (the seed sets a_4 = 5 in
    // its example the same way).
    std::vector<uint64_t> body(static_cast<size_t>(2 * longest));
    for (int64_t y = 0; y < longest; ++y) {
      int64_t first = -1, second = -1;
      for (int64_t x = 0; x < c.count; ++x) {
        if (y < c.period + c.period_step * x) {
          if (first < 0) first = x;
          else if (second < 0) second = x;
        }
      }
      uint64_t a;
      // The intervals holding y are consecutive (sizes are monotonic).
      if (second >= 0) {
        a = At(starts[second] + y) - At(starts[first] + y);
      } else if (y >= 2) {
        a = 2 * body[2 * (y - 1)] - body[2 * (y - 2)];
      } else if (y == 1) {
        a = body[0];
      } else {
        a = 0;
      }
      body[2 * y] = a;
      body[2 * y + 1] = At(starts[first] + y) - a * static_cast<uint64_t>(first);
    }
    Options body_options = options_;
    body_options.mode = Mode::kAdjacentFixed;
    if (depth_ + 1 < options_.max_depth) {
      node.body = SearchPhases(body.data(), longest, 2, depth_ + 1, body_options);
    } else {
      Node literal;
      literal.values = std::move(body);
      node.body.push_back(std::move(literal));
    }
    if (!gap_values.empty()) {
      std::vector<int64_t> signed_gaps(gap_values.begin(), gap_values.end());
      Options gap_options = options_;
      gap_options.mode = Mode::kAdjacentFixed;
      gap_options.tolerance = 0.0;
      node.gaps = std::make_shared<Model>(FindModel(signed_gaps, gap_options));
    }
    return node;
  }

  const uint64_t* data_;
  int64_t n_;
  int width_;
  int depth_;
  const Options& options_;
};

}  // namespace

Node MakeFixedLoop(const uint64_t* data, int width, int depth, int64_t start, int64_t period,
                   int64_t count, const Options& options) {
  Node node;
  node.kind = NodeKind::kLoop;
  node.count = count;
  node.period = period;
  const int inner = 2 * width;
  std::vector<uint64_t> body(static_cast<size_t>(period * inner));
  for (int64_t y = 0; y < period; ++y) {
    const uint64_t* first = data + (start + y) * width;
    const uint64_t* second = first + period * width;
    for (int c = 0; c < width; ++c) {
      body[y * inner + c] = second[c] - first[c];
      body[y * inner + width + c] = first[c];
    }
  }
  if (period > 1 && depth + 1 < options.max_depth) {
    Options body_options = options;
    body_options.mode = Mode::kAdjacentFixed;
    node.body = SearchPhases(body.data(), period, inner, depth + 1, body_options);
  } else {
    Node literal;
    literal.values = std::move(body);
    node.body.push_back(std::move(literal));
  }
  return node;
}

std::vector<Node> SearchPhases(const uint64_t* data, int64_t n, int width, int depth,
                               const Options& options) {
  return Searcher(data, n, width, depth, options).Run();
}

}  // namespace macroscope::loops
