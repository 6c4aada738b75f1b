#include "analysis/spatiotemporal_partition.h"

#include <algorithm>
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

// A worker's scratch for one node: its atoms and spatial cuts (triangle
// layout), and its best pIC, gain and loss transposed ([j * n + r] is
// (r, j)) so that the cut scan reads them contiguously.
struct Scratch {
  NodeTable atom;
  NodeTable split;
  std::vector<double> pic;
  std::vector<double> gain;
  std::vector<double> loss;
  void Resize(int32_t n) {
    atom.Resize(TriangleSize(n));
    split.Resize(TriangleSize(n));
    size_t size = static_cast<size_t>(n) * n;
    pic.resize(size);
    gain.resize(size);
    loss.resize(size);
  }
};

// max over k < len of a[k] + b[k] (-inf when len = 0): the hot loop of the
// cut scan, compiled for AVX2 and baseline. The simd reduction lets the
// compiler reorder the maxima, which is exact.
__attribute__((target_clones("avx2", "default"))) double MaxOfSums(const double* a, const double* b,
                                                                   int32_t len) {
  double top = -std::numeric_limits<double>::infinity();
#pragma omp simd reduction(max : top)
  for (int32_t k = 0; k < len; ++k) top = std::max(top, a[k] + b[k]);
  return top;
}

// How many k < len have a[k] + b[k] >= floor (computed exactly as in the
// scan that follows it, so the counts agree).
__attribute__((target_clones("avx2", "default"))) int32_t CountAtLeast(const double* a,
                                                                       const double* b, int32_t len,
                                                                       double floor) {
  int32_t count = 0;
#pragma omp simd reduction(+ : count)
  for (int32_t k = 0; k < len; ++k) count += (a[k] + b[k] >= floor) ? 1 : 0;
  return count;
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
  solution.cut.assign(cells, 0);
  solution.spatial.assign(cells, 0);
  // Without keep_cuts, one node's worth of scratch per worker stands in.
  std::vector<std::vector<int32_t>> scratch_cuts(keep_cuts ? 0 : threads_,
                                                 std::vector<int32_t>(triangle));
  std::vector<std::vector<char>> scratch_spatial(keep_cuts ? 0 : threads_,
                                                 std::vector<char>(triangle));
  std::vector<std::unique_ptr<NodeTable>> tables(tree.size());

  // Solves node k; its children's tables are complete.
  auto solve_node = [&](NodeId k, Scratch& scratch, int worker) {
    auto table = std::make_unique<NodeTable>();
    table->Resize(triangle);
    NodeTable& atom = scratch.atom;
    int32_t* cut = keep_cuts ? solution.cut.data() + static_cast<size_t>(k) * triangle
                             : scratch_cuts[worker].data();
    char* spatial = keep_cuts ? solution.spatial.data() + static_cast<size_t>(k) * triangle
                              : scratch_spatial[worker].data();
    auto children = tree.Children(k);
    // The spatial cut of every interval: sums of the children's best, one
    // child at a time over contiguous tables (same order as a per-interval
    // sum, so the same values).
    if (!children.empty()) {
      NodeTable& split = scratch.split;
      std::fill(split.pic.begin(), split.pic.end(), 0.0);
      std::fill(split.gain.begin(), split.gain.end(), 0.0);
      std::fill(split.loss.begin(), split.loss.end(), 0.0);
      std::fill(split.parts.begin(), split.parts.end(), 0);
      for (NodeId child : children) {
        const NodeTable& t = *tables[child];
        for (size_t x = 0; x < triangle; ++x) {
          split.pic[x] += t.pic[x];
          split.gain[x] += t.gain[x];
          split.loss[x] += t.loss[x];
          split.parts[x] += t.parts[x];
        }
      }
    }
    for (int32_t i = n - 1; i >= 0; --i) {
      const double* part_gain = qualities_.gain_row(k, i);
      const double* part_loss = qualities_.loss_row(k, i);
      const size_t row = TriangleRow(n, i);
      // Atoms of row i: the part itself or, better, the children's best.
      const double* split_pic = scratch.split.pic.data() + row;
      const double* split_gain = scratch.split.gain.data() + row;
      const double* split_loss = scratch.split.loss.data() + row;
      const int64_t* split_parts = scratch.split.parts.data() + row;
      double* row_atom_pic = atom.pic.data() + row;
      double* row_atom_gain = atom.gain.data() + row;
      double* row_atom_loss = atom.loss.data() + row;
      int64_t* row_atom_parts = atom.parts.data() + row;
      char* row_spatial = spatial + row;
      for (int32_t q = 0; q < n - i; ++q) {
        const double g0 = part_gain[q];
        const double l0 = part_loss[q];
        const double pic0 = Pic(p, g0, l0);
        const bool split =
            !children.empty() &&
            TieRule(p, g0, l0).Better(split_pic[q], split_gain[q], split_loss[q], pic0, g0, l0);
        row_atom_pic[q] = split ? split_pic[q] : pic0;
        row_atom_gain[q] = split ? split_gain[q] : g0;
        row_atom_loss[q] = split ? split_loss[q] : l0;
        row_atom_parts[q] = split ? split_parts[q] : 1;
        row_spatial[q] = split ? 1 : 0;
      }
      // Best of row i: the atom, or a leftmost cut c: atom [i, c] followed
      // by the best of [c + 1, j] (rows below i are complete).
      const double* atom_pic = atom.pic.data() + row;  // (i, c) at [c - i]
      const double* atom_gain = atom.gain.data() + row;
      const double* atom_loss = atom.loss.data() + row;
      for (int32_t j = i; j < n; ++j) {
        const size_t index = row + (j - i);
        TieRule rule(p, part_gain[j - i], part_loss[j - i]);
        int32_t best_cut = j;
        double best_pic = atom_pic[j - i];
        double best_gain = atom_gain[j - i];
        double best_loss = atom_loss[j - i];
        int64_t best_parts = atom.parts[index];
        if (j > i) {
          // (r, j) for r in (i, j] at [r] of the transposed buffers.
          const double* col_pic = scratch.pic.data() + static_cast<size_t>(j) * n;
          const double* col_gain = scratch.gain.data() + static_cast<size_t>(j) * n;
          const double* col_loss = scratch.loss.data() + static_cast<size_t>(j) * n;
          // Pass 1: the largest pIC over the cuts (vectorised).
          const double cut_top = MaxOfSums(atom_pic, col_pic + i + 1, j - i);
          const double top = std::max(cut_top, best_pic);
          // Pass 2: the tie rule among the cuts within tolerance of it
          // (usually one: each partition has a single leftmost-cut form);
          // counted first (vectorised) so that the scan can stop early.
          const double floor = top - rule.pic_tolerance();
          int32_t near =
              cut_top < floor ? 0 : CountAtLeast(atom_pic, col_pic + i + 1, j - i, floor);
          for (int32_t c = i; near > 0; ++c) {
            const double pic = atom_pic[c - i] + col_pic[c + 1];
            if (pic < floor) continue;
            --near;
            const double g = atom_gain[c - i] + col_gain[c + 1];
            const double l = atom_loss[c - i] + col_loss[c + 1];
            if (rule.Better(pic, g, l, best_pic, best_gain, best_loss)) {
              best_cut = c;
              best_gain = g;
              best_loss = l;
              best_pic = pic;
              best_parts = atom.parts[row + (c - i)] + table->parts[TriangleIndex(n, c + 1, j)];
            }
          }
        }
        cut[index] = best_cut;
        table->pic[index] = best_pic;
        table->gain[index] = best_gain;
        table->loss[index] = best_loss;
        table->parts[index] = best_parts;
        const size_t transposed = static_cast<size_t>(j) * n + i;
        scratch.pic[transposed] = best_pic;
        scratch.gain[transposed] = best_gain;
        scratch.loss[transposed] = best_loss;
      }
    }
    for (NodeId child : children) tables[child].reset();
    tables[k] = std::move(table);
  };

  std::vector<Scratch> scratch(threads_);
  ParallelFor(static_cast<int64_t>(frontier_.size()), threads_, [&](int64_t f, int worker) {
    scratch[worker].Resize(n);
    for (NodeId k : SubtreePostOrder(tree, frontier_[f])) solve_node(k, scratch[worker], worker);
  });
  scratch[0].Resize(n);
  for (NodeId k : upper_) solve_node(k, scratch[0], 0);

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
