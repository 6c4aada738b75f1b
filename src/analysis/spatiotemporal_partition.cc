#include "analysis/spatiotemporal_partition.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>

#include "analysis/parallel.h"

namespace macroscope::analysis {

namespace {

// The best partitions of one node, for every interval (triangle layout).
struct NodeTable {
  std::vector<double> pic;
  std::vector<double> gain;
  std::vector<double> loss;
  std::vector<int64_t> parts;
  void Resize(size_t size) {
    pic.resize(size);
    gain.resize(size);
    loss.resize(size);
    parts.resize(size);
  }
};

// TieRule with its tolerances in reach, and Better() as one expression of
// the same comparisons (no branches: the outcome is data-dependent).
struct Tolerances {
  Tolerances() = default;
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
  double gain = 0;
  double loss = 0;
  double pic = 0;
};

// Width of a block of intervals [i, j0..j0+kBlock-1] scanned together; the
// square table's rows are padded to a multiple of it.
constexpr int32_t kBlock = 8;

// How many rows ahead the qualities are prefetched.
constexpr int32_t kPrefetchRows = 3;

// A worker's scratch for one node: the spatial cuts and the atoms of the
// current row i ((i, j) at [j - i]); the node's best pIC in a square layout,
// row r holding (r, j) at [r * stride + j] with -inf for j < r and in the
// padding, so that a block of a row can be read whole (the -inf lanes never
// win); and the current row's results of the cut scan.
struct Scratch {
  NodeTable split;
  NodeTable atom;
  std::vector<double> square;
  // The best's gain, loss and part count, in the same square layout.
  std::vector<double> square_gain;
  std::vector<double> square_loss;
  std::vector<int64_t> square_parts;
  int32_t stride = 0;
  std::vector<double> top;     // largest pIC of a cut, per j
  std::vector<double> second;  // the second largest (equal values count twice)
  std::vector<double> arg;     // the first c reaching `top`
  std::vector<Tolerances> tolerances;  // of the parts of row i, at [j - i]
  // Tables no longer in use, for reuse.
  std::vector<std::unique_ptr<NodeTable>> pool;
  void Resize(int32_t n) {
    split.Resize(n);
    atom.Resize(n);
    stride = (n + kBlock - 1) / kBlock * kBlock;
    // Only the cells (r, j), r <= j < n, are ever written: the rest stays
    // -inf across nodes.
    square.assign(static_cast<size_t>(n) * stride, -std::numeric_limits<double>::infinity());
    square_gain.assign(static_cast<size_t>(n) * stride, 0.0);
    square_loss.assign(static_cast<size_t>(n) * stride, 0.0);
    square_parts.assign(static_cast<size_t>(n) * stride, 0);
    top.resize(stride);
    second.resize(stride);
    arg.resize(stride);
    tolerances.resize(n);
  }
};

using Vec4 = double __attribute__((vector_size(32)));

// The cut scan of row i: for every j > i (in blocks of kBlock, aligned),
// over c in [i, j - 1], the largest and second largest of
// atom_pic[c - i] + square[(c + 1) * stride + j] and the first c reaching
// the largest. Each c adds one scalar to one contiguous block of row c + 1;
// the lanes with j <= c read -inf. Compiled for AVX-512, AVX2 and baseline;
// max and min are exact, so the results do not depend on the lane order.
__attribute__((target_clones("avx512f", "avx2", "default"))) void ScanRow(
    const double* atom_pic, const double* square, int32_t stride, int32_t n, int32_t i, double* top,
    double* second, double* arg) {
  constexpr int kVecs = kBlock / 4;
  const Vec4 minus_inf = {-std::numeric_limits<double>::infinity(),
                          -std::numeric_limits<double>::infinity(),
                          -std::numeric_limits<double>::infinity(),
                          -std::numeric_limits<double>::infinity()};
  for (int32_t j0 = (i + 1) / kBlock * kBlock; j0 < n; j0 += kBlock) {
    Vec4 m1[kVecs];
    Vec4 m2[kVecs];
    Vec4 at[kVecs];
    for (int v = 0; v < kVecs; ++v) {
      m1[v] = minus_inf;
      m2[v] = minus_inf;
      at[v] = Vec4{0, 0, 0, 0};
    }
    const int32_t c_end = std::min(j0 + kBlock, n) - 1;  // c < the block's last j
    const double* row = square + static_cast<size_t>(i + 1) * stride + j0;
    for (int32_t c = i; c < c_end; ++c, row += stride) {
      const double a = atom_pic[c - i];
      const Vec4 s = {a, a, a, a};
      const double cd = static_cast<double>(c);
      const Vec4 cv = {cd, cd, cd, cd};
      for (int v = 0; v < kVecs; ++v) {
        Vec4 x;
        std::memcpy(&x, row + 4 * v, sizeof(x));
        x = s + x;
        const auto greater = x > m1[v];
        const Vec4 low = x < m1[v] ? x : m1[v];
        m2[v] = low > m2[v] ? low : m2[v];
        m1[v] = greater ? x : m1[v];
        at[v] = greater ? cv : at[v];
      }
    }
    for (int v = 0; v < kVecs; ++v) {
      std::memcpy(top + j0 + 4 * v, &m1[v], sizeof(Vec4));
      std::memcpy(second + j0 + 4 * v, &m2[v], sizeof(Vec4));
      std::memcpy(arg + j0 + 4 * v, &at[v], sizeof(Vec4));
    }
  }
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

SpatiotemporalAggregation::Solution SpatiotemporalAggregation::Solve(double p,
                                                                     bool keep_cuts) const {
  if (!(p >= 0 && p <= 1)) throw std::invalid_argument("p must be in [0, 1]");
  const Hierarchy& tree = qualities_.hierarchy();
  const int32_t n = slices();
  const size_t triangle = TriangleSize(n);
  const size_t cells = keep_cuts ? tree.size() * triangle : 0;
  Solution solution;
  if (keep_cuts) {
    // Every cell is written below.
    solution.cut = std::make_unique_for_overwrite<int32_t[]>(cells);
    solution.spatial = std::make_unique_for_overwrite<char[]>(cells);
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
      table = std::make_unique<NodeTable>();
      table->Resize(triangle);
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
    int32_t* cut = keep_cuts ? solution.cut.get() + static_cast<size_t>(k) * triangle : nullptr;
    char* spatial = keep_cuts ? solution.spatial.get() + static_cast<size_t>(k) * triangle : nullptr;
    const int32_t stride = scratch.stride;
    auto children = tree.Children(k);
    const NodeTable* own_sums = sums[k].get();
    // Atoms of row i at [c - i].
    double* atom_pic = scratch.atom.pic.data();
    double* atom_gain = scratch.atom.gain.data();
    double* atom_loss = scratch.atom.loss.data();
    int64_t* atom_parts = scratch.atom.parts.data();
    for (int32_t i = n - 1; i >= 0; --i) {
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
      const double* split_pic = nullptr;
      const double* split_gain = nullptr;
      const double* split_loss = nullptr;
      const int64_t* split_parts = nullptr;
      if (own_sums) {
        split_pic = own_sums->pic.data() + row;
        split_gain = own_sums->gain.data() + row;
        split_loss = own_sums->loss.data() + row;
        split_parts = own_sums->parts.data() + row;
      } else if (!children.empty()) {
        double* sum_pic = scratch.split.pic.data();
        double* sum_gain = scratch.split.gain.data();
        double* sum_loss = scratch.split.loss.data();
        int64_t* sum_parts = scratch.split.parts.data();
        std::fill_n(sum_pic, len, 0.0);
        std::fill_n(sum_gain, len, 0.0);
        std::fill_n(sum_loss, len, 0.0);
        std::fill_n(sum_parts, len, 0);
        for (NodeId child : children) {
          const NodeTable& t = *tables[child];
          const double* t_pic = t.pic.data() + row;
          const double* t_gain = t.gain.data() + row;
          const double* t_loss = t.loss.data() + row;
          const int64_t* t_parts = t.parts.data() + row;
          for (int32_t q = 0; q < len; ++q) {
            sum_pic[q] += t_pic[q];
            sum_gain[q] += t_gain[q];
            sum_loss[q] += t_loss[q];
            sum_parts[q] += t_parts[q];
          }
        }
        split_pic = sum_pic;
        split_gain = sum_gain;
        split_loss = sum_loss;
        split_parts = sum_parts;
      }
      // Atoms of row i: the part itself or, better, the children's best.
      const bool has_split = split_pic != nullptr;
      for (int32_t q = 0; q < len; ++q) {
        const double g0 = part_gain[q];
        const double l0 = part_loss[q];
        const double pic0 = Pic(p, g0, l0);
        const Tolerances tol(p, g0, l0);
        scratch.tolerances[q] = tol;
        // Read only when there is a split (the pointers are null otherwise).
        const double s_pic = has_split ? split_pic[q] : 0.0;
        const double s_gain = has_split ? split_gain[q] : 0.0;
        const double s_loss = has_split ? split_loss[q] : 0.0;
        const bool split = has_split & tol.Better(s_pic, s_gain, s_loss, pic0, g0, l0);
        atom_pic[q] = split ? s_pic : pic0;
        atom_gain[q] = split ? s_gain : g0;
        atom_loss[q] = split ? s_loss : l0;
        atom_parts[q] = split ? split_parts[q] : 1;
        if (spatial) spatial[row + q] = split ? 1 : 0;
      }
      // Best of row i: the atom, or a leftmost cut c: atom [i, c] followed
      // by the best of [c + 1, j] (rows below i are complete). The scan
      // finds, per j, the largest pIC over the cuts, the second largest and
      // where the largest is first reached. The tie rule is then applied,
      // in the order of c, to the cuts within tolerance of the overall best
      // (the atom's or the largest cut's), starting from the atom: that is
      // the largest cut alone (or none) unless the second is within
      // tolerance too, when every cut is checked.
      const size_t square_row = static_cast<size_t>(i) * stride;
      double* best_pic_row = scratch.square.data() + square_row;
      double* best_gain_row = scratch.square_gain.data() + square_row;
      double* best_loss_row = scratch.square_loss.data() + square_row;
      int64_t* best_parts_row = scratch.square_parts.data() + square_row;
      const double* square_gain = scratch.square_gain.data();
      const double* square_loss = scratch.square_loss.data();
      const int64_t* square_parts = scratch.square_parts.data();
      ScanRow(atom_pic, scratch.square.data(), stride, n, i, scratch.top.data(),
              scratch.second.data(), scratch.arg.data());
      {
        // (i, i): the atom.
        if (cut) cut[row] = i;
        best_pic_row[i] = atom_pic[0];
        best_gain_row[i] = atom_gain[0];
        best_loss_row[i] = atom_loss[0];
        best_parts_row[i] = atom_parts[0];
      }
      for (int32_t j = i + 1; j < n; ++j) {
        const size_t index = row + (j - i);
        const Tolerances& tol = scratch.tolerances[j - i];
        const double cut_top = scratch.top[j];
        double best_pic = atom_pic[j - i];
        double best_gain = atom_gain[j - i];
        double best_loss = atom_loss[j - i];
        int64_t best_parts = atom_parts[j - i];
        int32_t best_cut = j;
        const double floor = std::max(cut_top, best_pic) - tol.pic;
        if (scratch.second[j] >= floor) [[unlikely]] {
          // Several cuts within tolerance.
          const double* column = scratch.square.data() + j;  // (r, j) at [r * stride]
          for (int32_t c = i; c < j; ++c) {
            const double pic = atom_pic[c - i] + column[static_cast<size_t>(c + 1) * stride];
            if (pic < floor) continue;
            const size_t below = static_cast<size_t>(c + 1) * stride + j;
            const double g = atom_gain[c - i] + square_gain[below];
            const double l = atom_loss[c - i] + square_loss[below];
            if (tol.Better(pic, g, l, best_pic, best_gain, best_loss)) {
              best_cut = c;
              best_gain = g;
              best_loss = l;
              best_pic = pic;
              best_parts = atom_parts[c - i] + square_parts[below];
            }
          }
        } else {
          // At most one: the largest (its pIC is cut_top), if within
          // tolerance. Without branches: which one wins is data-dependent.
          const auto c = static_cast<int32_t>(scratch.arg[j]);
          const size_t below = static_cast<size_t>(c + 1) * stride + j;
          const double g = atom_gain[c - i] + square_gain[below];
          const double l = atom_loss[c - i] + square_loss[below];
          const int64_t parts = atom_parts[c - i] + square_parts[below];
          const bool take =
              (cut_top >= floor) & tol.Better(cut_top, g, l, best_pic, best_gain, best_loss);
          best_cut = take ? c : best_cut;
          best_pic = take ? cut_top : best_pic;
          best_gain = take ? g : best_gain;
          best_loss = take ? l : best_loss;
          best_parts = take ? parts : best_parts;
        }
        if (cut) cut[index] = best_cut;
        best_pic_row[j] = best_pic;
        best_gain_row[j] = best_gain;
        best_loss_row[j] = best_loss;
        best_parts_row[j] = best_parts;
      }
      if (table) {
        std::copy_n(best_pic_row + i, len, table->pic.data() + row);
        std::copy_n(best_gain_row + i, len, table->gain.data() + row);
        std::copy_n(best_loss_row + i, len, table->loss.data() + row);
        std::copy_n(best_parts_row + i, len, table->parts.data() + row);
      }
      if (parent_sums) {
        const double* t_pic = best_pic_row + i;
        const double* t_gain = best_gain_row + i;
        const double* t_loss = best_loss_row + i;
        const int64_t* t_parts = best_parts_row + i;
        double* sum_pic = parent_sums->pic.data() + row;
        double* sum_gain = parent_sums->gain.data() + row;
        double* sum_loss = parent_sums->loss.data() + row;
        int64_t* sum_parts = parent_sums->parts.data() + row;
        if (first_child) {
          for (int32_t q = 0; q < len; ++q) {
            sum_pic[q] = 0.0 + t_pic[q];
            sum_gain[q] = 0.0 + t_gain[q];
            sum_loss[q] = 0.0 + t_loss[q];
            sum_parts[q] = t_parts[q];
          }
        } else {
          for (int32_t q = 0; q < len; ++q) {
            sum_pic[q] += t_pic[q];
            sum_gain[q] += t_gain[q];
            sum_loss[q] += t_loss[q];
            sum_parts[q] += t_parts[q];
          }
        }
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

  const NodeTable& root = *tables[Hierarchy::kRoot];
  size_t whole = TriangleIndex(n, 0, n - 1);
  solution.best = {root.gain[whole], root.loss[whole], root.parts[whole]};
  return solution;
}

Quality SpatiotemporalAggregation::Evaluate(double p) const { return Solve(p, false).best; }

Partition SpatiotemporalAggregation::Best(double p) const {
  Solution solution = Solve(p, true);
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
    const int32_t cut = area.atom ? area.j : solution.cut[index];
    if (cut != area.j) {
      stack.push_back({area.node, area.i, cut, true});
      stack.push_back({area.node, cut + 1, area.j, false});
    } else if (solution.spatial[index]) {
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

}  // namespace macroscope::analysis
