// Design note. The seed leaves a bottom-up strategy as future work:
// interpolate linear runs first, then interpolate the interpolations. We
// keep the trace as a sequence of *items*; each item is a loop nest (or a
// single value) described by a shape (the nest without its numbers) and a
// coefficient vector. One pass scans the items left to right; at each
// item it looks for the shortest block of q consecutive items
// (q <= kMaxBlockItems) repeated at least three times with the same shapes and with
// coefficients that change by the same vector d from one repetition to
// the next. Such a run of k blocks becomes one item: a loop of k
// intervals whose body is the block, with coefficients interleaved as
// (d_t, c_t) — exactly the (A_y, B_y) layout of the model, so no
// conversion is needed later. Passes repeat until nothing changes; each
// pass is linear in the number of items, and the number of items shrinks
// geometrically on nested traces.
//
// The count of a loop item is its first coefficient, not part of its
// shape: blocks whose inner loops run 3, 4, 5... times group like any
// other coefficient that changes by a constant, which gives loops whose
// bounds are affine in the outer indices (triangular nests, the seed's av
// mode) in the same linear pass.
//
// A greedy scan can swallow the first block of the next repetition when
// it happens to continue the progression; when the block after the run
// starts a run of its own together with the last block of the run, that
// last block is given back (the "give-back" rule), which keeps nests of
// equal-sized intervals aligned.
#include "loops/bottom_up.h"

#include <algorithm>
#include <map>
#include <memory>
#include <span>
#include <utility>

namespace macroscope::loops {

namespace {

struct Shape {
  bool loop = false;           // false: a single value
  std::vector<uint32_t> body;  // shapes of the loop body, in order
  int64_t coefs = 1;           // coefficients at width 1 (a loop: its count, then (d, c) per body coefficient)
  int depth = 0;
};

// With `affine_bounds` off (the af mode forced), the count is part of the
// shape too, so only loops of equal counts group.
class ShapeTable {
 public:
  explicit ShapeTable(bool affine_bounds) : affine_bounds_(affine_bounds) {
    shapes_.push_back(Shape{});  // id 0: a single value
  }

  uint32_t Loop(std::vector<uint32_t> body, int64_t count) {
    auto key = std::make_pair(affine_bounds_ ? 0 : count, body);
    auto it = index_.find(key);
    if (it != index_.end()) return it->second;
    Shape shape;
    shape.loop = true;
    for (uint32_t b : body) {
      shape.coefs += 2 * shapes_[b].coefs;
      shape.depth = std::max(shape.depth, shapes_[b].depth + 1);
    }
    shape.body = std::move(body);
    const uint32_t id = static_cast<uint32_t>(shapes_.size());
    shapes_.push_back(std::move(shape));
    index_.emplace(std::move(key), id);
    return id;
  }

  const Shape& operator[](uint32_t id) const { return shapes_[id]; }

 private:
  bool affine_bounds_;
  std::vector<Shape> shapes_;
  std::map<std::pair<int64_t, std::vector<uint32_t>>, uint32_t> index_;
};

struct Items {
  std::vector<uint32_t> shape;
  std::vector<int64_t> begin;  // coefficient offsets, size() + 1 entries
  std::vector<uint64_t> coef;
  int64_t size() const { return static_cast<int64_t>(shape.size()); }
};

class Pass {
 public:
  Pass(const Items& in, ShapeTable& table, int max_depth)
      : in_(in), table_(table), max_depth_(max_depth) {}

  struct Result {
    bool changed = false;   // at least one loop was formed
    int64_t consumed = 0;   // items of `in` turned into `out`
  };

  // Scans the items into `out` (cleared first). Not `final`: more items
  // will follow the input, so the scan stops, before the end, at the
  // first item whose decision could depend on items not yet there (a run
  // reaching the end, too little lookahead); the caller feeds the rest
  // again with what follows. The decisions taken are those of a scan of
  // the whole input.
  Result Run(Items& out, bool final) {
    const int64_t n = in_.size();
    out.shape.clear();
    out.coef.clear();
    out.begin.assign(1, 0);
    out.shape.reserve(static_cast<size_t>(n / 2 + 1));
    out.begin.reserve(static_cast<size_t>(n / 2 + 2));
    out.coef.reserve(in_.coef.size() / 2 + 1);
    Result result;
    int64_t i = 0;
    while (i < n) {
      if (!final && i + 3 * kMaxBlockItems > n) break;
      int64_t best_q = 0, best_k = 0;
      bool reached_end = false;
      for (int64_t q = 1; q <= kMaxBlockItems && i + 3 * q <= n; ++q) {
        if (!Starts(i, q)) continue;
        int64_t k = 3;
        while (true) {
          if (i + (k + 1) * q > n) {
            reached_end = true;
            break;
          }
          if (!SameShapes(i, i + k * q, q) || !Linked(i + (k - 2) * q, q)) break;
          ++k;
        }
        // The shortest repeated block wins: inner loops are formed
        // first and the outer ones on later passes, as in the seed's
        // "linear runs first, then runs of runs".
        best_k = k;
        best_q = q;
        break;
      }
      if (best_q == 0) {
        Copy(i, out);
        ++i;
        continue;
      }
      const int64_t last = i + (best_k - 1) * best_q;
      if (!final && (reached_end || last + 3 * best_q > n)) break;
      if (best_k >= 4 && last + 3 * best_q <= n && Starts(last, best_q)) --best_k;
      Group(i, best_q, best_k, out);
      i += best_k * best_q;
      result.changed = true;
    }
    result.consumed = i;
    return result;
  }

 private:
  bool SameShapes(int64_t a, int64_t b, int64_t q) const {
    for (int64_t j = 0; j < q; ++j) {
      if (in_.shape[a + j] != in_.shape[b + j]) return false;
    }
    return true;
  }

  // Blocks a, a+q, a+2q (same shapes assumed) change by the same vector.
  bool Linked(int64_t a, int64_t q) const {
    const uint64_t* x = &in_.coef[in_.begin[a]];
    const uint64_t* y = &in_.coef[in_.begin[a + q]];
    const uint64_t* z = &in_.coef[in_.begin[a + 2 * q]];
    const int64_t len = in_.begin[a + q] - in_.begin[a];
    for (int64_t t = 0; t < len; ++t) {
      if (y[t] - x[t] != z[t] - y[t]) return false;
    }
    return true;
  }

  // Three blocks of q items from a form the start of a loop.
  bool Starts(int64_t a, int64_t q) const {
    // Cheap rejection on the first item before the whole blocks.
    if (in_.shape[a] != in_.shape[a + q] || in_.shape[a] != in_.shape[a + 2 * q]) return false;
    if (!SameShapes(a, a + q, q) || !SameShapes(a, a + 2 * q, q)) return false;
    int depth = 0;
    for (int64_t j = 0; j < q; ++j) depth = std::max(depth, table_[in_.shape[a + j]].depth + 1);
    if (depth > max_depth_) return false;
    return Linked(a, q);
  }

  void Copy(int64_t i, Items& out) const {
    out.shape.push_back(in_.shape[i]);
    out.coef.insert(out.coef.end(), in_.coef.begin() + in_.begin[i], in_.coef.begin() + in_.begin[i + 1]);
    out.begin.push_back(static_cast<int64_t>(out.coef.size()));
  }

  void Group(int64_t i, int64_t q, int64_t k, Items& out) {
    std::vector<uint32_t> body(in_.shape.begin() + i, in_.shape.begin() + i + q);
    out.shape.push_back(table_.Loop(std::move(body), k));
    out.coef.push_back(static_cast<uint64_t>(k));
    const uint64_t* first = &in_.coef[in_.begin[i]];
    const uint64_t* second = &in_.coef[in_.begin[i + q]];
    const int64_t len = in_.begin[i + q] - in_.begin[i];
    for (int64_t t = 0; t < len; ++t) {
      out.coef.push_back(second[t] - first[t]);
      out.coef.push_back(first[t]);
    }
    out.begin.push_back(static_cast<int64_t>(out.coef.size()));
  }

  const Items& in_;
  ShapeTable& table_;
  int max_depth_;
};

// Turns an item of shape `id` (coefficients at `coef`, width `width`) into
// phases appended to `out`; consecutive single values share one literal.
// `position` counts the elements before the item while they are known
// (no earlier sibling varies); only top-level positions are used.
void Emit(const ShapeTable& table, uint32_t id, const uint64_t* coef, int width, int64_t& position,
          std::vector<Node>& out) {
  const Shape& shape = table[id];
  if (!shape.loop) {
    if (out.empty() || out.back().kind != NodeKind::kLiteral) {
      Node literal;
      literal.kind = NodeKind::kLiteral;
      literal.start = position;
      out.push_back(std::move(literal));
    }
    out.back().values.insert(out.back().values.end(), coef, coef + width);
    position += 1;
    return;
  }
  Node node;
  node.kind = NodeKind::kLoop;
  node.start = position;
  // The count is affine in the enclosing indices; it is a constant when
  // only the last context entry (the monomial 1) is used.
  const bool constant_count = std::all_of(coef, coef + width - 1, [](uint64_t c) { return c == 0; });
  if (constant_count) {
    node.count = static_cast<int64_t>(coef[width - 1]);
  } else {
    node.count_coefs.assign(coef, coef + width);
  }
  int64_t inner_position = 0;
  const uint64_t* at = coef + width;
  for (uint32_t b : shape.body) {
    Emit(table, b, at, 2 * width, inner_position, node.body);
    at += table[b].coefs * 2 * width;
  }
  const bool body_varies = std::any_of(node.body.begin(), node.body.end(), [](const Node& n) { return Varies(n); });
  node.period = body_varies ? kVaryingPeriod : inner_position;
  position += Varies(node) ? (width == 1 ? NodeLength(node, 1) : 0) : NodeLength(node, width);
  out.push_back(std::move(node));
}

}  // namespace

// Pass 1 (runs of single values) is taken over the input in chunks, so a
// streamed trace is held as its pass-1 items (a few per innermost run)
// plus one chunk; later passes work on the items in memory.
struct BottomUpBuilder::State {
  State(const Options& options, int64_t chunk_values)
      : table(options.mode == Mode::kAuto), max_depth(options.max_depth), chunk(chunk_values), next_scan(chunk) {}

  // Runs pass 1 over the pending values, keeping those it cannot decide yet.
  void Scan(bool final) {
    Pass pass(pending, table, max_depth);
    Items part;
    const Pass::Result result = pass.Run(part, final);
    changed = changed || result.changed;
    const int64_t base = static_cast<int64_t>(items.coef.size());
    items.shape.insert(items.shape.end(), part.shape.begin(), part.shape.end());
    items.coef.insert(items.coef.end(), part.coef.begin(), part.coef.end());
    for (size_t j = 1; j < part.begin.size(); ++j) items.begin.push_back(base + part.begin[j]);
    // The values left wait for more (single values: begin is the identity).
    const int64_t left = pending.size() - result.consumed;
    pending.coef.erase(pending.coef.begin(), pending.coef.begin() + result.consumed);
    pending.shape.resize(static_cast<size_t>(left));
    pending.begin.resize(static_cast<size_t>(left) + 1);
    // A run longer than a chunk is kept whole: scan again once it doubled.
    next_scan = std::max<int64_t>(chunk, 2 * left);
  }

  ShapeTable table;
  int max_depth;
  int64_t chunk;
  Items pending;  // single values not scanned yet
  Items items;    // pass-1 items so far
  bool changed = false;
  int64_t next_scan;
};

BottomUpBuilder::BottomUpBuilder(const Options& options, int64_t chunk_values)
    : state_(std::make_unique<State>(options, std::max<int64_t>(chunk_values, 4 * kMaxBlockItems))) {
  state_->items.begin.assign(1, 0);
  state_->pending.begin.assign(1, 0);
}

BottomUpBuilder::~BottomUpBuilder() = default;

void BottomUpBuilder::Add(std::span<const uint64_t> values) {
  State& s = *state_;
  while (!values.empty()) {
    // Single values: shape 0, coefficient offsets the identity.
    const size_t take = std::min(values.size(), static_cast<size_t>(std::max<int64_t>(s.next_scan - s.pending.size(), 1)));
    const int64_t before = s.pending.size();
    s.pending.coef.insert(s.pending.coef.end(), values.begin(), values.begin() + static_cast<std::ptrdiff_t>(take));
    s.pending.shape.resize(s.pending.shape.size() + take, 0);
    s.pending.begin.resize(s.pending.begin.size() + take);
    for (size_t j = 1; j <= take; ++j) s.pending.begin[before + j] = before + static_cast<int64_t>(j);
    values = values.subspan(take);
    if (s.pending.size() >= s.next_scan) s.Scan(false);
  }
}

std::vector<Node> BottomUpBuilder::Finish() {
  State& s = *state_;
  s.Scan(true);
  Items items = std::move(s.items);
  Items next;
  bool changed = s.changed;
  while (changed) {
    Pass pass(items, s.table, s.max_depth);
    changed = pass.Run(next, true).changed;
    if (changed) std::swap(items, next);
  }
  std::vector<Node> phases;
  int64_t position = 0;
  for (int64_t i = 0; i < items.size(); ++i) {
    Emit(s.table, items.shape[i], &items.coef[items.begin[i]], 1, position, phases);
  }
  return phases;
}

std::vector<Node> BottomUpPhases(const uint64_t* data, int64_t n, const Options& options) {
  BottomUpBuilder builder(options);
  builder.Add(std::span<const uint64_t>(data, static_cast<size_t>(n)));
  return builder.Finish();
}

}  // namespace macroscope::loops
