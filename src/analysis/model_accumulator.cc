#include "analysis/model_accumulator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

#include "util/error.h"

namespace macroscope::analysis {

namespace {

bool IsTimeSum(Metric m) {
  return m == Metric::kStateTime || m == Metric::kMeanStateDuration || m == Metric::kVariableMean;
}

// A node name usable in a slash path: no '/', unique among its siblings.
std::string NodeName(std::string_view name, const Hierarchy& h, NodeId parent) {
  std::string base(name.empty() ? "(unnamed)" : name);
  std::replace(base.begin(), base.end(), '/', '_');
  std::string candidate = base;
  for (int k = 2; h.FindChild(parent, candidate); ++k) candidate = base + "#" + std::to_string(k);
  return candidate;
}

}  // namespace

Grid Grid::OfBins(const TimeBins& bins, int level, uint64_t first_bin, int32_t slices) {
  const uint64_t end_bin = first_bin + static_cast<uint64_t>(slices);
  Grid grid(bins.Edge(first_bin, level), bins.Edge(end_bin, level), slices);
  grid.bins = bins;
  grid.level = level;
  grid.first_bin = first_bin;
  return grid;
}

int32_t Grid::SliceOf(double t) const {
  auto s = static_cast<int32_t>((t - begin) / width);
  return std::clamp(s, int32_t{0}, slices - 1);
}

int32_t Grid::SliceAt(double t) const {
  if (bins) {
    const uint64_t j = bins->Bin(t, level);
    return j >= first_bin && j - first_bin < static_cast<uint64_t>(slices) ? static_cast<int32_t>(j - first_bin) : -1;
  }
  return t >= begin && t < end ? SliceOf(t) : -1;
}

ModelAccumulator::ModelAccumulator(Metric metric, Grid grid)
    : metric_(metric), kind_(MetricKind(metric)), grid_(grid) {}

void ModelAccumulator::Reserve(size_t stores) {
  if (stores > stores_.size()) stores_.resize(stores);
}

ModelAccumulator::Series& ModelAccumulator::Find(StoreSeries& store, ContainerId holder, StringId value) {
  // A store mostly holds a few values: a walk beats a map, up to a point.
  constexpr size_t kWalked = 16;
  const uint64_t key = uint64_t{holder} << 32 | value;
  if (store.series.size() <= kWalked) {
    for (Series& s : store.series)
      if (s.value == value && s.holder == holder) return s;
  } else if (auto it = store.index.find(key); it != store.index.end()) {
    return store.series[it->second];
  }
  if (store.series.size() == kWalked)
    for (uint32_t i = 0; i < kWalked; ++i)
      store.index.emplace(uint64_t{store.series[i].holder} << 32 | store.series[i].value, i);
  if (store.series.size() >= kWalked) store.index.emplace(key, static_cast<uint32_t>(store.series.size()));
  Series& s = store.series.emplace_back();
  s.holder = holder;
  s.value = value;
  const size_t T = static_cast<size_t>(grid_.slices);
  if (IsTimeSum(metric_)) s.sum.resize(T);
  if (!IsTimeSum(metric_) || metric_ == Metric::kMeanStateDuration) s.plain.assign(T, PlainStart());
  return s;
}

void ModelAccumulator::Add(uint32_t index, const EntityChunk& s) {
  if (s.kind != kind_ || s.empty()) return;
  if (index >= stores_.size()) stores_.resize(index + 1);  // streaming: one thread
  StoreSeries& store = stores_[index];
  Series* last = nullptr;  // consecutive entities mostly share their series
  for (size_t i = 0; i < s.size(); ++i) {
    const ContainerId holder = kind_ == TypeKind::kLink ? s.peer_start[i] : s.container;
    if (holder == kNone) continue;
    const StringId value = kind_ == TypeKind::kVariable ? kEmptyString : s.value[i];
    if (last == nullptr || last->value != value || last->holder != holder) last = &Find(store, holder, value);
    AddOne(*last, s.start[i], s.End(i), kind_ == TypeKind::kVariable ? s.number[i] : 0);
  }
}

void ModelAccumulator::Add(uint32_t index, ContainerId container, const EntityCopy& e) {
  const ContainerId holder = kind_ == TypeKind::kLink ? e.from : container;
  if (holder == kNone) return;
  if (index >= stores_.size()) stores_.resize(index + 1);
  const StringId value = kind_ == TypeKind::kVariable ? kEmptyString : e.value;
  AddOne(Find(stores_[index], holder, value), e.start, e.end, kind_ == TypeKind::kVariable ? e.number : 0);
}

void ModelAccumulator::AddOne(Series& series, double a, double b, double x) const {
  switch (metric_) {
    case Metric::kStateCount:
    case Metric::kEventCount:
    case Metric::kLinkCount:
      if (const int32_t t = grid_.SliceAt(a); t >= 0) Feed(series, t, 1, 0);
      break;
    default: grid_.Spread(a, b, [&](int32_t t, double d) { Feed(series, t, d, x); }); break;
  }
}

void ModelAccumulator::AddCell(uint32_t index, ContainerId container, int32_t t, const LodCell& c) {
  const ContainerId holder = kind_ == TypeKind::kLink ? c.row : container;
  if (holder == kNone || c.cell.count == 0) return;
  if (index >= stores_.size()) stores_.resize(index + 1);
  StoreSeries& store = stores_[index];
  if (kind_ == TypeKind::kVariable) {
    Series& series = Find(store, holder, kEmptyString);
    if (t != series.slice) Settle(series, t);
    switch (metric_) {
      case Metric::kVariableMin: series.slice_plain = std::min(series.slice_plain, c.cell.min); break;
      case Metric::kVariableMax: series.slice_plain = std::max(series.slice_plain, c.cell.max); break;
      default: throw std::logic_error("AddCell: the metric needs each entity");
    }
    return;
  }
  for (const ValueTally& tally : c.cell.tallies) {
    Series& series = Find(store, holder, tally.value);
    if (t != series.slice) Settle(series, t);
    switch (metric_) {
      case Metric::kStateTime: series.slice_sum.Merge(tally.time); break;
      case Metric::kMeanStateDuration:
        series.slice_sum.Merge(tally.time);
        series.slice_plain += static_cast<double>(tally.count);
        break;
      default: series.slice_plain += static_cast<double>(tally.count); break;
    }
  }
}

void ModelAccumulator::Feed(Series& series, int32_t t, double d, double x) const {
  if (t != series.slice) Settle(series, t);
  switch (metric_) {
    case Metric::kStateTime: series.slice_sum.Add(d); break;
    case Metric::kMeanStateDuration:
      series.slice_sum.Add(d);
      series.slice_plain += 1;
      break;
    case Metric::kStateCount:
    case Metric::kEventCount:
    case Metric::kLinkCount: series.slice_plain += 1; break;
    case Metric::kVariableMean: series.slice_sum.Add(x * d / grid_.width); break;
    case Metric::kVariableMin: series.slice_plain = std::min(series.slice_plain, x); break;
    case Metric::kVariableMax: series.slice_plain = std::max(series.slice_plain, x); break;
  }
}

void ModelAccumulator::Settle(Series& series, int32_t next) const {
  if (const int32_t t = series.slice; t >= 0) {
    if (!series.sum.empty()) {
      std::array<double, 2>& cell = series.sum[t];
      double hi, lo;
      if (cell[0] == 0 && cell[1] == 0 && series.slice_sum.AsPair(hi, lo)) {
        cell = {hi, lo};  // the common case: a slice summed once
      } else {
        ExactSum& crowded = series.crowded[t];
        if (!std::isnan(cell[0])) {
          crowded.Add(cell[0]);
          crowded.Add(cell[1]);
          cell = {std::numeric_limits<double>::quiet_NaN(), 0};
        }
        crowded.Merge(series.slice_sum);
      }
      series.slice_sum = ExactSum();
    }
    if (!series.plain.empty()) {
      double& cell = series.plain[t];
      if (metric_ == Metric::kVariableMin) cell = std::min(cell, series.slice_plain);
      else if (metric_ == Metric::kVariableMax) cell = std::max(cell, series.slice_plain);
      else cell += series.slice_plain;
    }
  }
  series.slice = next;
  series.slice_plain = PlainStart();
}

double ModelAccumulator::PlainStart() const {
  if (metric_ == Metric::kVariableMin) return std::numeric_limits<double>::infinity();
  if (metric_ == Metric::kVariableMax) return -std::numeric_limits<double>::infinity();
  return 0;
}

void ModelAccumulator::Close(uint32_t index) {
  if (index >= stores_.size()) return;
  for (Series& series : stores_[index].series) {
    if (!series.closed.empty()) continue;
    Settle(series, -1);
    series.closed.resize(static_cast<size_t>(grid_.slices));
    for (size_t t = 0; t < series.closed.size(); ++t) {
      double x = series.plain.empty() ? 0 : series.plain[t];
      if (!series.sum.empty()) {
        const std::array<double, 2>& cell = series.sum[t];
        x = std::isnan(cell[0]) ? series.crowded.at(static_cast<int32_t>(t)).Value() : cell[0] + cell[1];
      }
      if (metric_ == Metric::kMeanStateDuration) x = series.plain[t] > 0 ? x / series.plain[t] : 0;
      series.closed[t] = x;
    }
    std::vector<std::array<double, 2>>().swap(series.sum);
    std::unordered_map<int32_t, ExactSum>().swap(series.crowded);
    std::vector<double>().swap(series.plain);
  }
}

MicroModel ModelAccumulator::Model(const Trace& trace, const ModelRequest& request) {
  for (uint32_t index = 0; index < stores_.size(); ++index) Close(index);

  // Entity types of the metric's kind, filtered by name.
  std::set<TypeId> kept_types;
  for (TypeId t = 0; t < trace.types().size(); ++t)
    if (trace.type(t).kind == kind_) kept_types.insert(t);
  if (!request.types.empty()) {
    std::set<TypeId> chosen;
    for (const auto& name : request.types) {
      bool found = false;
      for (TypeId t : kept_types)
        if (trace.Str(trace.type(t).name) == name || trace.Str(trace.type(t).alias) == name) {
          chosen.insert(t);
          found = true;
        }
      if (!found) throw UserError("unknown " + std::string(TypeKindName(kind_)) + " type '" + name + "'");
    }
    kept_types = std::move(chosen);
  }

  // Hierarchy mirroring the containers that carry kept entities (and their ancestors).
  Hierarchy hierarchy;
  std::vector<NodeId> node_of(trace.containers().size(), -1);
  node_of[kRootContainer] = Hierarchy::kRoot;
  std::vector<ContainerId> order{kRootContainer};
  for (size_t i = 0; i < order.size(); ++i) {
    const Container& c = trace.container(order[i]);
    for (ContainerId child : c.children) {
      node_of[child] = hierarchy.AddChild(node_of[order[i]], NodeName(trace.Str(trace.container(child).name), hierarchy,
                                                                     node_of[order[i]]));
      order.push_back(child);
    }
  }
  // Container filter: keep only entities under the given paths.
  std::vector<bool> in_scope(trace.containers().size(), request.containers.empty());
  for (const auto& path : request.containers) {
    auto node = hierarchy.FindPath(path);
    if (!node) throw UserError("unknown container '" + path + "'");
    for (size_t c = 0; c < node_of.size(); ++c) {
      for (NodeId n = node_of[c]; n != Hierarchy::kNoParent; n = hierarchy.Parent(n))
        if (n == *node) {
          in_scope[c] = true;
          break;
        }
    }
  }

  // Model types: "Type:value" for valued kinds, the type name for variables.
  // Types of one name under different container types (the "Region" of CPU
  // threads and of GPU streams) are one model type: a leaf holds one of
  // them, and the overview shows one name once.
  std::map<std::pair<TypeId, StringId>, int32_t> type_index;
  std::map<std::string, int32_t> index_of_name;
  std::vector<std::string> type_names;
  auto type_of = [&](TypeId t, StringId v) {
    auto [it, fresh] = type_index.emplace(std::make_pair(t, v), 0);
    if (fresh) {
      std::string name(trace.Str(trace.type(t).name));
      if (kind_ != TypeKind::kVariable) name += ":" + std::string(trace.Str(v));
      auto [named, new_name] = index_of_name.emplace(name, static_cast<int32_t>(type_names.size()));
      if (new_name) type_names.push_back(name);
      it->second = named->second;
    }
    return it->second;
  };
  const std::vector<EntityStore>& stores = trace.stores();
  auto relevant = [&](uint32_t index) {
    return index < stores.size() && stores[index].kind == kind_ && kept_types.count(stores[index].type) > 0;
  };
  // Names of types, leaves for containers that hold data.
  std::vector<NodeId> leaf_of(trace.containers().size(), -1);
  for (uint32_t index = 0; index < stores_.size(); ++index) {
    if (!relevant(index)) continue;
    for (const Series& series : stores_[index].series) {
      if (!in_scope[series.holder]) continue;
      if (leaf_of[series.holder] < 0) leaf_of[series.holder] = hierarchy.LeafFor(node_of[series.holder]);
      type_of(stores[index].type, series.value);
    }
  }
  // Model types in name order, so that the output does not depend on the
  // order entities were met.
  std::vector<std::string> sorted_names = type_names;
  std::sort(sorted_names.begin(), sorted_names.end());
  std::vector<int32_t> remap(type_names.size());
  for (size_t i = 0; i < type_names.size(); ++i)
    remap[i] = static_cast<int32_t>(std::lower_bound(sorted_names.begin(), sorted_names.end(), type_names[i]) -
                                    sorted_names.begin());

  // Every leaf that holds data was created above: the hierarchy is final.
  MicroModel model(std::move(hierarchy), std::move(sorted_names), grid_.slices);
  model.set_range({grid_.begin, grid_.end, trace.time_base()});
  // Store by store, each store's series in model type order: a cell that
  // several stores feed (types of one name) sums them in one order.
  std::vector<std::pair<int32_t, Series*>> by_type;
  for (uint32_t index = 0; index < stores_.size(); ++index) {
    if (!relevant(index)) continue;
    by_type.clear();
    for (Series& series : stores_[index].series)
      if (in_scope[series.holder]) by_type.emplace_back(remap[type_index.at({stores[index].type, series.value})], &series);
    std::stable_sort(by_type.begin(), by_type.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    for (const auto& [j, series] : by_type) {
      std::vector<double>& values = series->closed;
      for (double& x : values)
        if (!std::isfinite(x) || x <= 0) x = 0;  // the model holds values >= 0; empty slices stay 0
      model.AddSeries(leaf_of[series->holder], j, std::move(values));
    }
  }
  return model;
}

void ModelSink::Completed(const Trace&, const EntityChunk& chunk) {
  accumulator_.Add(chunk.store, chunk);
}

}  // namespace macroscope::analysis
