#include "analysis/spatiotemporal_partition.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include "analysis/parallel.h"

namespace macroscope::analysis {

namespace {

// The quality of one candidate for an interval (a part, a spatial cut, an
// atom, a best): its pIC, gain, loss and part count. Together, so that the
// cut step reads one cache line where it looks one up; the count is a double
// (exact below 2^53) so that cells add as vectors of four doubles.
struct Cell {
  double pic;
  double gain;
  double loss;
  double parts;
};

// A cut: the left part's and the right part's qualities together.
Cell Sum(const Cell& a, const Cell& b) { return {a.pic + b.pic, a.gain + b.gain, a.loss + b.loss, a.parts + b.parts}; }

// Adds `len` cells of `from` to `to` (a cell is one AVX2 vector).
__attribute__((target_clones("avx2", "default"))) void AddCells(Cell* to, const Cell* from, int32_t len) {
  for (int32_t q = 0; q < len; ++q) {
    to[q].pic += from[q].pic;
    to[q].gain += from[q].gain;
    to[q].loss += from[q].loss;
    to[q].parts += from[q].parts;
  }
}

// The bits of the largest magnitude of `len` floats, at least `m`: an
// integer max, which vectorises (AVX2 has an unsigned one), and orders inf
// and NaN above the rest.
__attribute__((target_clones("avx2", "default"))) uint32_t MaxMagnitudeBits(uint32_t m, const float* x, int32_t len) {
  for (int32_t q = 0; q < len; ++q) m = std::max(m, std::bit_cast<uint32_t>(x[q]) & 0x7fffffffU);
  return m;
}

// For q in [1, len): whether every cut of (i, i + q) is below its atom by
// more than the part's tie tolerance, from the scan's largest cut top[q]
// and the atom's pIC rounded to float (both within `slack` of their double
// values): then the atom is the best, with no need to look at the cut.
// part_gain, part_loss and atom are at q, top at i + q. True when the atom
// wins for every q.
__attribute__((target_clones("avx2", "default"))) bool AtomWins(double p, double slack, const float* top,
                                                                const float* atom, const double* part_gain,
                                                                const double* part_loss, int32_t len,
                                                                char* wins) {
  char all = 1;
  for (int32_t q = 1; q < len; ++q) {
    const double tolerance = TieRule(p, part_gain[q], part_loss[q]).pic_tolerance();
    wins[q] = static_cast<double>(top[q]) + 2 * slack < static_cast<double>(atom[q]) - tolerance;
    all &= wins[q];
  }
  return all;
}

// choice[q] |= q for q in [1, len): each interval's best is its atom.
void ChooseAtoms(uint16_t* choice, int32_t len) {
  for (int32_t q = 1; q < len; ++q) choice[q] |= static_cast<uint16_t>(q);
}

// The best partitions of one node, for every interval (triangle layout).
using NodeTable = std::vector<Cell>;

// TieRule with its tolerances in reach, and Better() as one expression of
// the same comparisons (no branches: the outcome is data-dependent).
struct Tolerances {
  Tolerances(double p, double reference_gain, double reference_loss)
      : gain(kRelativeEpsilon * std::fabs(reference_gain)),
        loss(kRelativeEpsilon * std::fabs(reference_loss)),
        pic(TieRule(p, reference_gain, reference_loss).pic_tolerance()) {}
  bool Better(double pic_a, double gain_a, double loss_a, double pic_b, double gain_b,
              double loss_b) const {
    const bool pic_up = pic_a > pic_b + pic;
    const bool pic_level = !(pic_a < pic_b - pic);
    const bool gain_up = gain_a > gain_b + gain;
    const bool gain_level = !(gain_a < gain_b - gain);
    const bool loss_down = loss_a < loss_b - loss;
    return pic_up | (pic_level & (gain_up | (gain_level & loss_down)));
  }
  template <class A, class B>
  bool Better(const A& a, const B& b) const {
    return Better(a.pic, a.gain, a.loss, b.pic, b.gain, b.loss);
  }
  double gain = 0;
  double loss = 0;
  double pic = 0;
};

// Width of a block of intervals [i, j0..j0+kBlock-1] scanned together; the
// square tables' rows are padded to a multiple of it.
constexpr int32_t kBlock = 16;

// How many rows ahead the qualities are prefetched.
constexpr int32_t kPrefetchRows = 3;

// A worker's scratch for one node: the spatial cuts and the atoms of the
// current row i ((i, j) at [j - i]); the node's best in a square layout, row
// r holding (r, j) at [r * stride + j]; its pIC rounded to float in the same
// layout for the cut scan, with -inf for j < r and in the padding, so that
// a block of a row can be read whole (the -inf lanes never win); and the
// current row's results of that scan.
struct Scratch {
  std::vector<Cell> split;
  std::vector<Cell> atom;
  std::vector<float> atom_float;  // atom pIC rounded, for the scan
  std::vector<Cell> square;
  std::vector<float> square_float;
  int32_t stride = 0;
  std::vector<float> top;     // largest pIC of a cut (rounded sums), per j
  std::vector<float> second;  // the second largest (equal values count twice)
  std::vector<float> arg;     // the first c reaching `top`
  std::vector<char> atom_wins;  // per j - i, see AtomWins
  std::vector<float> indexes;   // 0, 1, ..., n - 1, for the scan's arg
  // Tables no longer in use, for reuse.
  std::vector<std::unique_ptr<NodeTable>> pool;
  void Resize(int32_t n) {
    split.resize(n);
    atom.resize(n);
    atom_float.resize(n);
    stride = (n + kBlock - 1) / kBlock * kBlock;
    // Only the cells (r, j), r <= j < n, are ever written: the rest of the
    // float square stays -inf across nodes.
    const size_t cells = static_cast<size_t>(n) * stride;
    square.resize(cells);
    square_float.assign(cells, -std::numeric_limits<float>::infinity());
    top.resize(stride);
    second.resize(stride);
    arg.resize(stride);
    atom_wins.resize(n);
    indexes.resize(n);
    for (int32_t k = 0; k < n; ++k) indexes[k] = static_cast<float>(k);
  }
};

// The cut scan of row i, in float: for every j > i (in blocks of kBlock,
// aligned), over c in [i, j - 1], the largest and second largest of
// atom[c - i] + square[(c + 1) * stride + j] and the first c reaching the
// largest. Each c adds one scalar to one contiguous block of row c + 1; the
// lanes with j <= c read -inf. Float doubles the lanes of a vector; the
// caller bounds the rounding error and checks in double what it decides.
// V is a vector of floats (a block is kBlock / lanes of them); max and min
// are exact, so the results do not depend on the lane order.
template <class V>
[[gnu::always_inline]] inline void ScanRowWith(const float* atom, const float* indexes, const float* square,
                                               int32_t stride, int32_t n, int32_t i, float* top,
                                               float* second, float* arg) {
  constexpr int kLanes = sizeof(V) / sizeof(float);
  constexpr int kVecs = kBlock / kLanes;
  const V minus_inf = V{} - std::numeric_limits<float>::infinity();
  for (int32_t j0 = (i + 1) / kBlock * kBlock; j0 < n; j0 += kBlock) {
    V m1[kVecs];
    V m2[kVecs];
    V at[kVecs];
    for (int v = 0; v < kVecs; ++v) {
      m1[v] = minus_inf;
      m2[v] = minus_inf;
      // Every lane has a cut c = i reaching at least -inf: `arg` stays in
      // [i, j).
      at[v] = V{} + static_cast<float>(i);
    }
    const int32_t c_end = std::min(j0 + kBlock, n) - 1;  // c < the block's last j
    const float* row = square + static_cast<size_t>(i + 1) * stride + j0;
    for (int32_t c = i; c < c_end; ++c, row += stride) {
      // Broadcasts from memory (x - 0 is x, and folds; x + 0 is not, for
      // x = -0): loads, not arithmetic, which is the scan's bottleneck.
      const V s = atom[c - i] - V{};
      const V cv = indexes[c] - V{};  // c, in every lane
      for (int v = 0; v < kVecs; ++v) {
        V x;
        std::memcpy(&x, row + kLanes * v, sizeof(x));
        x = s + x;
        const auto greater = x > m1[v];
        const V low = x < m1[v] ? x : m1[v];
        m2[v] = low > m2[v] ? low : m2[v];
        m1[v] = greater ? x : m1[v];
        at[v] = greater ? cv : at[v];
      }
    }
    for (int v = 0; v < kVecs; ++v) {
      std::memcpy(top + j0 + kLanes * v, &m1[v], sizeof(V));
      std::memcpy(second + j0 + kLanes * v, &m2[v], sizeof(V));
      std::memcpy(arg + j0 + kLanes * v, &at[v], sizeof(V));
    }
  }
}

using Vec8f = float __attribute__((vector_size(32)));
using Vec16f = float __attribute__((vector_size(64)));

// 16 lanes where AVX-512 has them; 8 (AVX2) or 4 (baseline) elsewhere,
// where wider vectors would be split into slow code.
__attribute__((target("avx512f"))) void ScanRow512(const float* atom, const float* indexes, const float* square,
                                                  int32_t stride, int32_t n, int32_t i, float* top,
                                                  float* second, float* arg) {
  ScanRowWith<Vec16f>(atom, indexes, square, stride, n, i, top, second, arg);
}

__attribute__((target_clones("avx2", "default"))) void ScanRow256(const float* atom, const float* indexes,
                                                                  const float* square, int32_t stride, int32_t n,
                                                                  int32_t i, float* top, float* second,
                                                                  float* arg) {
  ScanRowWith<Vec8f>(atom, indexes, square, stride, n, i, top, second, arg);
}

// indexes: 0, 1, ..., n - 1 as floats (broadcast into `arg`).
void ScanRow(const float* atom, const float* indexes, const float* square, int32_t stride, int32_t n, int32_t i,
             float* top, float* second, float* arg) {
  static const bool avx512 = __builtin_cpu_supports("avx512f");
  (avx512 ? ScanRow512 : ScanRow256)(atom, indexes, square, stride, n, i, top, second, arg);
}

// Post-order of the subtree under `top`.
std::vector<NodeId> SubtreePostOrder(const Hierarchy& tree, NodeId top) {
  std::vector<NodeId> order;
  std::vector<NodeId> stack{top};
  while (!stack.empty()) {
    NodeId node = stack.back();
    stack.pop_back();
    order.push_back(node);
    for (NodeId child : tree.Children(node)) stack.push_back(child);
  }
  std::reverse(order.begin(), order.end());
  return order;
}

}  // namespace

SpatiotemporalAggregation::SpatiotemporalAggregation(SpatiotemporalQualities qualities, int threads)
    : qualities_(std::move(qualities)), threads_(threads > 0 ? threads : DefaultThreadCount()) {
  if (slices() > kMaxSlices) {
    throw std::invalid_argument("a spatiotemporal aggregation takes at most " + std::to_string(kMaxSlices) +
                                " slices");
  }
  const Hierarchy& tree = qualities_.hierarchy();
  // Split the largest frontier subtree until there are enough to balance.
  std::vector<int64_t> size(tree.size(), 1);
  for (NodeId k : tree.PostOrder()) {
    for (NodeId child : tree.Children(k)) size[k] += size[child];
  }
  std::vector<NodeId> frontier{Hierarchy::kRoot};
  std::vector<char> is_upper(tree.size(), 0);
  const size_t wanted = threads_ > 1 ? 4 * static_cast<size_t>(threads_) : 1;
  while (frontier.size() < wanted) {
    auto largest = std::max_element(frontier.begin(), frontier.end(),
                                    [&](NodeId a, NodeId b) { return size[a] < size[b]; });
    NodeId node = *largest;
    if (tree.IsLeaf(node)) break;
    is_upper[node] = 1;
    frontier.erase(largest);
    for (NodeId child : tree.Children(node)) frontier.push_back(child);
  }
  std::sort(frontier.begin(), frontier.end(),
            [&](NodeId a, NodeId b) { return size[a] > size[b]; });
  frontier_ = frontier;
  for (NodeId k : tree.PostOrder()) {
    if (is_upper[k]) upper_.push_back(k);
  }
  persist_.assign(tree.size(), 0);
  for (NodeId k = 0; k < tree.size(); ++k) {
    persist_[k] = k == Hierarchy::kRoot || is_upper[tree.Parent(k)];
  }
  preorder_rank_.assign(tree.size(), 0);
  // Pre-order rank: reverse post-order of a right-to-left walk is not it, so
  // walk explicitly.
  std::vector<NodeId> stack{Hierarchy::kRoot};
  int32_t rank = 0;
  while (!stack.empty()) {
    NodeId node = stack.back();
    stack.pop_back();
    preorder_rank_[node] = rank++;
    auto children = tree.Children(node);
    for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(*it);
  }
}

Quality SpatiotemporalAggregation::FullAggregate() const {
  int32_t n = slices();
  return {qualities_.gain(Hierarchy::kRoot, 0, n - 1), qualities_.loss(Hierarchy::kRoot, 0, n - 1),
          1};
}

SpatiotemporalAggregation::Solution SpatiotemporalAggregation::Solve(double p, bool keep_cuts,
                                                                     const Cancellation* cancel) const {
  if (!(p >= 0 && p <= 1)) throw std::invalid_argument("p must be in [0, 1]");
  const Hierarchy& tree = qualities_.hierarchy();
  const int32_t n = slices();
  const size_t triangle = TriangleSize(n);
  const size_t cells = keep_cuts ? tree.size() * triangle : 0;
  Solution solution;
  if (keep_cuts) {
    // Every cell is written below.
    solution.choice = std::make_unique_for_overwrite<uint16_t[]>(cells);
  }
  // The best of the nodes in persist_ (solved by different workers).
  std::vector<std::unique_ptr<NodeTable>> tables(tree.size());
  // For a node inside a frontier subtree, the sum of its children's best,
  // accumulated row by row as each child is solved (children in order, so
  // each cell is the same sum from 0 as a per-interval one).
  std::vector<std::unique_ptr<NodeTable>> sums(tree.size());
  auto from_pool = [&](Scratch& scratch) {
    std::unique_ptr<NodeTable> table;
    if (scratch.pool.empty()) {
      table = std::make_unique<NodeTable>(triangle);
    } else {
      table = std::move(scratch.pool.back());
      scratch.pool.pop_back();
    }
    return table;
  };

  // Solves node k; its children are solved.
  auto solve_node = [&](NodeId k, Scratch& scratch) {
    std::unique_ptr<NodeTable> kept = persist_[k] ? from_pool(scratch) : nullptr;
    NodeTable* table = kept.get();  // null unless k's table is kept whole
    // The parent's sums, when it accumulates k (k's row i is added to them
    // once solved).
    NodeTable* parent_sums = nullptr;
    bool first_child = false;
    if (!persist_[k]) {
      const NodeId parent = tree.Parent(k);
      first_child = tree.Children(parent).front() == k;
      if (first_child) sums[parent] = from_pool(scratch);
      parent_sums = sums[parent].get();
    }
    uint16_t* choice = keep_cuts ? solution.choice.get() + static_cast<size_t>(k) * triangle : nullptr;
    const int32_t stride = scratch.stride;
    auto children = tree.Children(k);
    const NodeTable* own_sums = sums[k].get();
    Cell* atom = scratch.atom.data();  // row i's atoms at [c - i]
    float* atom_float = scratch.atom_float.data();
    Cell* square = scratch.square.data();
    // The largest magnitude among the node's atoms and bests so far (the
    // bits of a float): it bounds the rounding error of the float cut scan.
    uint32_t magnitude = 0;
    for (int32_t i = n - 1; i >= 0; --i) {
      // A row is O(|T|^2) steps: about a millisecond at 1,000 slices.
      ThrowIfCancelled(cancel);
      const int32_t len = n - i;
      const double* part_gain = qualities_.gain_row(k, i);
      const double* part_loss = qualities_.loss_row(k, i);
      if (i >= kPrefetchRows) {
        // A later row's qualities (rows are visited backwards, which the
        // hardware prefetcher follows poorly).
        const int32_t ahead = i - kPrefetchRows;
        const char* next_gain = reinterpret_cast<const char*>(qualities_.gain_row(k, ahead));
        const char* next_loss = reinterpret_cast<const char*>(qualities_.loss_row(k, ahead));
        for (size_t b = 0; b < static_cast<size_t>(n - ahead) * sizeof(double); b += 64) {
          __builtin_prefetch(next_gain + b);
          __builtin_prefetch(next_loss + b);
        }
      }
      const size_t row = TriangleRow(n, i);
      // The spatial cuts of row i: sums of the children's best, one child at
      // a time (in the children's order, from 0).
      const Cell* split = nullptr;
      if (own_sums) {
        split = own_sums->data() + row;
      } else if (!children.empty()) {
        std::fill_n(scratch.split.data(), len, Cell{0, 0, 0, 0});
        for (NodeId child : children) AddCells(scratch.split.data(), tables[child]->data() + row, len);
        split = scratch.split.data();
      }
      // Atoms of row i: the part itself or, better, the children's best.
      if (split) {
        for (int32_t q = 0; q < len; ++q) {
          const Cell part{Pic(p, part_gain[q], part_loss[q]), part_gain[q], part_loss[q], 1};
          const bool spatial = Tolerances(p, part.gain, part.loss).Better(split[q], part);
          atom[q] = spatial ? split[q] : part;
          atom_float[q] = static_cast<float>(atom[q].pic);
          if (choice) choice[row + q] = spatial ? kSpatial : 0;
        }
      } else {
        for (int32_t q = 0; q < len; ++q) {
          const double pic = Pic(p, part_gain[q], part_loss[q]);
          atom[q] = Cell{pic, part_gain[q], part_loss[q], 1};
          atom_float[q] = static_cast<float>(pic);
        }
        if (choice) std::fill_n(choice + row, len, 0);
      }
      magnitude = MaxMagnitudeBits(magnitude, atom_float, len);
      // Best of row i: the atom, or a leftmost cut c: atom [i, c] followed
      // by the best of [c + 1, j] (rows below i are complete). The scan
      // finds, per j, the largest pIC over the cuts, the second largest and
      // where the largest is first reached, in float. The tie rule is then
      // applied, in the order of c, to the cuts within tolerance of the
      // overall best (the atom's or the largest cut's), starting from the
      // atom: that is the largest cut alone (or none) unless the second
      // may be within tolerance too, when every cut is checked in double.
      // A float sum is within 4u(|a| + |b|) <= 8u * magnitude of the
      // double one (u = 2^-24; magnitude, taken over the rounded values, is
      // within a factor 1 + u): `slack` is twice that, and infinite when the
      // magnitudes overflow float.
      const double slack = magnitude < std::bit_cast<uint32_t>(1e36F)
                               ? std::bit_cast<float>(magnitude) * 0x1p-20
                               : std::numeric_limits<double>::infinity();
      Cell* best_row = square + static_cast<size_t>(i) * stride;
      float* best_float_row = scratch.square_float.data() + static_cast<size_t>(i) * stride;
      ScanRow(atom_float, scratch.indexes.data(), scratch.square_float.data(), stride, n, i, scratch.top.data(),
              scratch.second.data(), scratch.arg.data());
      best_row[i] = atom[0];  // (i, i): the atom
      best_float_row[i] = atom_float[0];
      // The common case where aggregating wins: the atom, cuts unseen (for
      // the whole row at once when it wins everywhere).
      const bool all_atoms =
          AtomWins(p, slack, scratch.top.data() + i, atom_float, part_gain, part_loss, len, scratch.atom_wins.data());
      if (all_atoms) {
        std::copy_n(atom + 1, len - 1, best_row + i + 1);
        std::copy_n(atom_float + 1, len - 1, best_float_row + i + 1);
        if (choice) ChooseAtoms(choice + row, len);
      }
      for (int32_t j = all_atoms ? n : i + 1; j < n; ++j) {
        if (scratch.atom_wins[j - i]) {
          if (choice) choice[row + (j - i)] |= static_cast<uint16_t>(j - i);
          best_row[j] = atom[j - i];
          best_float_row[j] = atom_float[j - i];
          continue;
        }
        const Tolerances tol(p, part_gain[j - i], part_loss[j - i]);
        // (r, j) at column[r * stride]
        const Cell* column = square + j;
        // The scan's largest cut, in double.
        const auto top_cut = static_cast<int32_t>(scratch.arg[j]);
        const Cell& top_below = column[static_cast<size_t>(top_cut + 1) * stride];
        double cut_top = atom[top_cut - i].pic + top_below.pic;
        Cell best = atom[j - i];
        int32_t best_cut = j;
        double floor = std::max(cut_top, best.pic) - tol.pic;
        if (scratch.second[j] + slack >= floor) [[unlikely]] {
          // Several cuts may be within tolerance: the largest again, and
          // the tie rule over all, in double.
          for (int32_t c = i; c < j; ++c) {
            cut_top = std::max(cut_top, atom[c - i].pic + column[static_cast<size_t>(c + 1) * stride].pic);
          }
          floor = std::max(cut_top, best.pic) - tol.pic;
          for (int32_t c = i; c < j; ++c) {
            const Cell candidate = Sum(atom[c - i], column[static_cast<size_t>(c + 1) * stride]);
            if (candidate.pic < floor) continue;
            if (tol.Better(candidate, best)) {
              best_cut = c;
              best = candidate;
            }
          }
        } else {
          // At most one: the largest (its pIC is cut_top), if within
          // tolerance (the others are below the floor even with the
          // slack). Without branches: which one wins is data-dependent.
          const Cell candidate = Sum(atom[top_cut - i], top_below);  // its pIC is cut_top
          const bool take = (cut_top >= floor) & tol.Better(candidate, best);
          best_cut = take ? top_cut : best_cut;
          best = take ? candidate : best;
        }
        if (choice) choice[row + (j - i)] |= static_cast<uint16_t>(best_cut - i);
        best_row[j] = best;
        best_float_row[j] = static_cast<float>(best.pic);
      }
      // Else the row's magnitudes are the atoms'.
      if (!all_atoms) magnitude = MaxMagnitudeBits(magnitude, best_float_row + i, len);
      if (table) std::copy_n(best_row + i, len, table->data() + row);
      if (parent_sums) {
        Cell* sum = parent_sums->data() + row;
        if (first_child) std::fill_n(sum, len, Cell{0, 0, 0, 0});
        AddCells(sum, best_row + i, len);
      }
    }
    if (sums[k]) scratch.pool.push_back(std::move(sums[k]));
    for (NodeId child : children) {
      if (tables[child]) scratch.pool.push_back(std::move(tables[child]));
    }
    if (kept) tables[k] = std::move(kept);
  };

  std::vector<Scratch> scratch(threads_);
  ParallelFor(static_cast<int64_t>(frontier_.size()), threads_, [&](int64_t f, int worker) {
    if (scratch[worker].stride == 0) scratch[worker].Resize(n);
    for (NodeId k : SubtreePostOrder(tree, frontier_[f])) solve_node(k, scratch[worker]);
  });
  if (scratch[0].stride == 0) scratch[0].Resize(n);
  for (NodeId k : upper_) solve_node(k, scratch[0]);

  const Cell& whole = (*tables[Hierarchy::kRoot])[TriangleIndex(n, 0, n - 1)];
  solution.best = {whole.gain, whole.loss, static_cast<int64_t>(whole.parts)};
  return solution;
}

Quality SpatiotemporalAggregation::Evaluate(double p, const Cancellation* cancel) const {
  return Solve(p, false, cancel).best;
}

Partition SpatiotemporalAggregation::Best(double p, const Cancellation* cancel) const {
  Solution solution = Solve(p, true, cancel);
  const Hierarchy& tree = qualities_.hierarchy();
  const int32_t n = slices();
  const size_t triangle = TriangleSize(n);
  Partition partition;
  partition.quality = solution.best;
  struct Area {
    NodeId node;
    int32_t i, j;
    bool atom;  // only the atom of (node, i, j): the part or a spatial cut
  };
  std::vector<Area> stack{{Hierarchy::kRoot, 0, n - 1, false}};
  while (!stack.empty()) {
    Area area = stack.back();
    stack.pop_back();
    const size_t index =
        static_cast<size_t>(area.node) * triangle + TriangleIndex(n, area.i, area.j);
    const uint16_t choice = solution.choice[index];
    const int32_t cut = area.atom ? area.j : area.i + (choice & ~kSpatial);
    if (cut != area.j) {
      stack.push_back({area.node, area.i, cut, true});
      stack.push_back({area.node, cut + 1, area.j, false});
    } else if (choice & kSpatial) {
      for (NodeId child : tree.Children(area.node)) stack.push_back({child, area.i, area.j, false});
    } else {
      partition.parts.push_back({area.node, area.i, area.j,
                                 qualities_.gain(area.node, area.i, area.j),
                                 qualities_.loss(area.node, area.i, area.j)});
    }
  }
  std::sort(partition.parts.begin(), partition.parts.end(), [&](const Part& a, const Part& b) {
    if (a.first_slice != b.first_slice) return a.first_slice < b.first_slice;
    return preorder_rank_[a.node] < preorder_rank_[b.node];
  });
  return partition;
}

size_t SpatiotemporalAggregation::bytes() const {
  return sizeof *this + qualities_.bytes() +
         (frontier_.size() + upper_.size()) * sizeof(NodeId) + preorder_rank_.size() * sizeof(int32_t) +
         persist_.size();
}

}  // namespace macroscope::analysis
