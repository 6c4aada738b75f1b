#include "analysis/micro_model.h"

#include <cmath>
#include <stdexcept>

#include "util/error.h"

namespace macroscope::analysis {

MicroModel::MicroModel(Hierarchy hierarchy, std::vector<std::string> types, int32_t slices)
    : hierarchy_(std::move(hierarchy)), types_(std::move(types)), slices_(slices) {
  if (slices_ < 1) throw std::invalid_argument("a model needs at least one slice");
  for (size_t a = 0; a < types_.size(); ++a) {
    for (size_t b = a + 1; b < types_.size(); ++b) {
      if (types_[a] == types_[b]) throw std::invalid_argument("duplicate type " + types_[a]);
    }
  }
  leaves_ = hierarchy_.Leaves();
  leaf_index_.assign(hierarchy_.size(), -1);
  for (size_t i = 0; i < leaves_.size(); ++i) leaf_index_[leaves_[i]] = static_cast<int32_t>(i);
  series_.resize(leaves_.size() * types_.size());
}

void MicroModel::set_range(TimeRange range) {
  if (!std::isfinite(range.begin) || !std::isfinite(range.end) || !(range.begin < range.end)) {
    throw std::invalid_argument("a time range needs begin < end");
  }
  range_ = range;
}

std::optional<int32_t> MicroModel::LeafIndex(NodeId leaf) const {
  if (leaf < 0 || leaf >= hierarchy_.size() || leaf_index_[leaf] < 0) return std::nullopt;
  return leaf_index_[leaf];
}

std::optional<int32_t> MicroModel::TypeIndex(std::string_view name) const {
  for (size_t i = 0; i < types_.size(); ++i) {
    if (types_[i] == name) return static_cast<int32_t>(i);
  }
  return std::nullopt;
}

std::vector<double>& MicroModel::MutableSeries(NodeId leaf, int32_t type, int32_t slice) {
  auto index = LeafIndex(leaf);
  if (!index) throw std::invalid_argument("not a leaf of the model");
  if (type < 0 || type >= type_count()) throw std::invalid_argument("no such type");
  if (slice < 0 || slice >= slices_) throw std::invalid_argument("slice out of range");
  return series_[static_cast<size_t>(*index) * types_.size() + type];
}

void MicroModel::Add(NodeId leaf, int32_t type, int32_t slice, double value) {
  if (!std::isfinite(value) || value < 0) {
    throw std::invalid_argument("model values must be finite and >= 0");
  }
  auto& series = MutableSeries(leaf, type, slice);
  if (value == 0) return;
  if (series.empty()) series.assign(slices_, 0.0);
  series[slice] += value;
}

void MicroModel::AddSeries(NodeId leaf, int32_t type, std::vector<double> values) {
  if (values.size() != static_cast<size_t>(slices_)) throw std::invalid_argument("a series of another slice count");
  bool any = false;
  for (const double v : values) {
    if (!std::isfinite(v) || v < 0) throw std::invalid_argument("model values must be finite and >= 0");
    any = any || v > 0;
  }
  if (!any) return;
  auto& series = MutableSeries(leaf, type, 0);
  if (series.empty()) {
    series = std::move(values);
    for (double& v : series) v = v + 0.0;  // as 0 + v in Add(): -0 becomes 0
    return;
  }
  for (int32_t t = 0; t < slices_; ++t) series[t] += values[t];
}

double MicroModel::Value(NodeId leaf, int32_t type, int32_t slice) const {
  auto& series = const_cast<MicroModel*>(this)->MutableSeries(leaf, type, slice);
  return series.empty() ? 0.0 : series[slice];
}

int64_t MicroModel::NonZeroSeriesCount() const {
  int64_t count = 0;
  for (const auto& series : series_) count += series.empty() ? 0 : 1;
  return count;
}

MicroModel MicroModel::Coarsen(int32_t factor) const {
  if (factor < 1 || slices_ % factor != 0) {
    throw std::invalid_argument("the coarsening factor must divide the slice count");
  }
  MicroModel out(hierarchy_, types_, slices_ / factor);
  out.range_ = range_;
  for (size_t s = 0; s < series_.size(); ++s) {
    if (series_[s].empty()) continue;
    auto& target = out.series_[s];
    target.assign(out.slices_, 0.0);
    for (int32_t t = 0; t < slices_; ++t) target[t / factor] += series_[s][t];
  }
  return out;
}

MicroModel MicroModel::SelectTypes(const std::vector<std::string>& names) const {
  std::vector<int32_t> picked;
  for (const auto& name : names) {
    auto index = TypeIndex(name);
    if (!index) throw UserError("unknown type '" + name + "'");
    for (int32_t already : picked) {
      if (already == *index) throw UserError("type '" + name + "' given twice");
    }
    picked.push_back(*index);
  }
  MicroModel out(hierarchy_, names, slices_);
  out.range_ = range_;
  for (int32_t leaf = 0; leaf < leaf_count(); ++leaf) {
    for (size_t t = 0; t < picked.size(); ++t) {
      out.series_[static_cast<size_t>(leaf) * picked.size() + t] =
          series_[static_cast<size_t>(leaf) * types_.size() + picked[t]];
    }
  }
  return out;
}

MicroModel MicroModel::SelectContainers(const std::vector<std::string>& paths) const {
  // keep[n]: n is in a selected subtree or is an ancestor of a selected node.
  std::vector<char> selected(hierarchy_.size(), 0);
  for (const auto& path : paths) {
    auto node = hierarchy_.FindPath(path);
    if (!node) throw UserError("unknown container '" + path + "'");
    selected[*node] = 1;
  }
  std::vector<char> keep(hierarchy_.size(), 0);
  for (NodeId n = 0; n < hierarchy_.size(); ++n) {
    bool in_subtree = false;
    for (NodeId a = n; a != Hierarchy::kNoParent; a = hierarchy_.Parent(a)) {
      if (selected[a]) {
        in_subtree = true;
        break;
      }
    }
    if (!in_subtree) continue;
    for (NodeId a = n; a != Hierarchy::kNoParent; a = hierarchy_.Parent(a)) keep[a] = 1;
  }
  // Rebuild in the original order; `map` takes old ids to new ones.
  Hierarchy tree;
  std::vector<NodeId> map(hierarchy_.size(), -1);
  map[Hierarchy::kRoot] = Hierarchy::kRoot;
  for (NodeId n = 1; n < hierarchy_.size(); ++n) {
    if (keep[n]) map[n] = tree.AddChild(map[hierarchy_.Parent(n)], hierarchy_.Name(n));
  }
  MicroModel out(std::move(tree), types_, slices_);
  out.range_ = range_;
  for (int32_t leaf = 0; leaf < leaf_count(); ++leaf) {
    NodeId mapped = map[leaves_[leaf]];
    if (mapped < 0) continue;
    auto new_index = out.LeafIndex(mapped);
    // A kept node that was a leaf stays a leaf: its subtree was kept whole.
    for (int32_t t = 0; t < type_count(); ++t) {
      out.series_[static_cast<size_t>(*new_index) * types_.size() + t] =
          series_[static_cast<size_t>(leaf) * types_.size() + t];
    }
  }
  return out;
}

size_t MicroModel::bytes() const {
  size_t bytes = sizeof *this + series_.capacity() * sizeof(std::vector<double>);
  for (const auto& series : series_) bytes += series.capacity() * sizeof(double);
  return bytes;
}

}  // namespace macroscope::analysis
