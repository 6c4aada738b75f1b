#include "analysis/trace_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "analysis/parallel.h"
#include "util/error.h"

namespace macroscope::analysis {

namespace {

constexpr std::pair<std::string_view, Metric> kMetrics[] = {
    {"state-time", Metric::kStateTime},        {"state-count", Metric::kStateCount},
    {"event-count", Metric::kEventCount},      {"mean-state-duration", Metric::kMeanStateDuration},
    {"variable-mean", Metric::kVariableMean},  {"variable-min", Metric::kVariableMin},
    {"variable-max", Metric::kVariableMax},    {"link-count", Metric::kLinkCount},
};

TypeKind KindOf(Metric m) {
  switch (m) {
    case Metric::kStateTime:
    case Metric::kStateCount:
    case Metric::kMeanStateDuration: return TypeKind::kState;
    case Metric::kEventCount: return TypeKind::kEvent;
    case Metric::kVariableMean:
    case Metric::kVariableMin:
    case Metric::kVariableMax: return TypeKind::kVariable;
    case Metric::kLinkCount: return TypeKind::kLink;
  }
  return TypeKind::kState;
}

// A node name usable in a slash path: no '/', unique among its siblings.
std::string NodeName(std::string_view name, const Hierarchy& h, NodeId parent) {
  std::string base(name.empty() ? "(unnamed)" : name);
  std::replace(base.begin(), base.end(), '/', '_');
  std::string candidate = base;
  for (int k = 2; h.FindChild(parent, candidate); ++k) candidate = base + "#" + std::to_string(k);
  return candidate;
}

// Slices as a grid over [begin, end).
struct Grid {
  double begin, end, width;
  int32_t slices;
  int32_t SliceOf(double t) const {
    auto s = static_cast<int32_t>((t - begin) / width);
    return std::clamp(s, int32_t{0}, slices - 1);
  }
  // Calls f(slice, overlap) for every slice [a, b) meets.
  template <class F>
  void Spread(double a, double b, F&& f) const {
    a = std::max(a, begin);
    b = std::min(b, end);
    if (!(a < b)) return;
    for (int32_t s = SliceOf(a); s < slices; ++s) {
      double lo = begin + s * width, hi = s + 1 == slices ? end : lo + width;
      if (lo >= b) break;
      double overlap = std::min(b, hi) - std::max(a, lo);
      if (overlap > 0) f(s, overlap);
    }
  }
};

// Per-type accumulators over the slices of one store, by model type: one
// table reused from store to store (only the types met are reset), where a
// map per store would cost a walk per entity.
class Accumulators {
 public:
  Accumulators(size_t types, int32_t slices) : table_(types), slices_(slices) {}
  std::vector<double>& Get(int32_t type, double init) {
    std::vector<double>& v = table_[type];
    if (v.empty()) {
      v.assign(slices_, init);
      used_.push_back(type);
    }
    return v;
  }
  const std::vector<double>& operator[](int32_t type) const { return table_[type]; }
  // The types met since Clear(), in increasing order.
  const std::vector<int32_t>& Used() {
    std::sort(used_.begin(), used_.end());
    return used_;
  }
  void Clear() {
    for (int32_t type : used_) table_[type].clear();
    used_.clear();
  }

 private:
  std::vector<std::vector<double>> table_;
  std::vector<int32_t> used_;
  int32_t slices_;
};

}  // namespace

std::optional<Metric> MetricFromName(std::string_view name) {
  for (auto& [n, m] : kMetrics)
    if (n == name) return m;
  return std::nullopt;
}

std::vector<std::string> MetricNames() {
  std::vector<std::string> names;
  for (auto& [n, m] : kMetrics) names.emplace_back(n);
  return names;
}

MicroModel BuildModel(const Trace& trace, const ModelRequest& request) {
  if (request.slices < 1) throw UserError("--slices must be at least 1");
  const TypeKind kind = KindOf(request.metric);
  double begin = request.start.value_or(trace.start_time());
  double end = request.end.value_or(trace.end_time());
  if (!(begin < end))
    throw UserError("empty time range [" + std::to_string(begin) + ", " + std::to_string(end) + "]");
  if (begin < trace.start_time() || end > trace.end_time())
    throw UserError("time range [" + std::to_string(begin) + ", " + std::to_string(end) +
                    "] is outside the trace's span [" + std::to_string(trace.start_time()) + ", " +
                    std::to_string(trace.end_time()) + "]");

  // Entity types of the metric's kind, filtered by name.
  std::set<TypeId> kept_types;
  for (TypeId t = 0; t < trace.types().size(); ++t)
    if (trace.type(t).kind == kind) kept_types.insert(t);
  if (!request.types.empty()) {
    std::set<TypeId> chosen;
    for (const auto& name : request.types) {
      bool found = false;
      for (TypeId t : kept_types)
        if (trace.Str(trace.type(t).name) == name || trace.Str(trace.type(t).alias) == name) {
          chosen.insert(t);
          found = true;
        }
      if (!found) throw UserError("unknown " + std::string(TypeKindName(kind)) + " type '" + name + "'");
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
  auto type_of_slow = [&](TypeId t, StringId v) {
    auto key = std::make_pair(t, kind == TypeKind::kVariable ? kEmptyString : v);
    auto [it, fresh] = type_index.emplace(key, 0);
    if (fresh) {
      std::string name(trace.Str(trace.type(t).name));
      if (kind != TypeKind::kVariable) name += ":" + std::string(trace.Str(v));
      auto [named, new_name] = index_of_name.emplace(name, static_cast<int32_t>(type_names.size()));
      if (new_name) type_names.push_back(name);
      it->second = named->second;
    }
    return it->second;
  };
  // In front of the map, a table by value for the type of the store at
  // hand (stores are per type): one load per entity instead of a map walk.
  TypeId cached_type = static_cast<TypeId>(-1);
  std::vector<int32_t> by_value;
  std::vector<StringId> cached_values;
  auto type_of = [&](TypeId t, StringId v) {
    if (t != cached_type) {
      for (StringId c : cached_values) by_value[c] = -1;
      cached_values.clear();
      cached_type = t;
    }
    if (v >= by_value.size()) by_value.resize(v + 1, -1);
    if (by_value[v] < 0) {
      by_value[v] = type_of_slow(t, v);
      cached_values.push_back(v);
    }
    return by_value[v];
  };
  auto relevant = [&](const EntityStore& s) {
    return s.kind == kind && kept_types.count(s.type) && s.size() > 0;
  };
  // First pass: names of types, leaves for containers that hold data.
  std::vector<NodeId> leaf_of(trace.containers().size(), -1);
  auto leaf_for = [&](ContainerId c) {
    if (leaf_of[c] < 0) leaf_of[c] = hierarchy.LeafFor(node_of[c]);
    return leaf_of[c];
  };
  for (const EntityStore& s : trace.stores()) {
    if (!relevant(s)) continue;
    for (size_t i = 0; i < s.size(); ++i) {
      ContainerId holder = kind == TypeKind::kLink ? s.peer_start[i] : s.container;
      if (holder == kNone || !in_scope[holder]) continue;
      leaf_for(holder);
      type_of(s.type, kind == TypeKind::kVariable ? kEmptyString : s.value[i]);
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
  MicroModel model(std::move(hierarchy), std::move(sorted_names), request.slices);
  model.set_range({begin, end, trace.time_base()});
  const Grid grid{begin, end, (end - begin) / request.slices, request.slices};
  const int32_t T = request.slices;

  // Second pass, store by store: each store feeds its own (leaf, model
  // type) series — but link counts, which go to the sender's leaf — so the
  // stores are spread over threads and every value is summed in the same
  // order whatever their number.
  struct Worker {
    Accumulators acc, count;
    std::vector<int32_t> by_value;  // the model type of each value of the store at hand, -1: not looked up
    std::vector<StringId> looked_up;
  };
  const int threads = kind == TypeKind::kLink ? 1 : request.threads == 0 ? DefaultThreadCount() : request.threads;
  std::vector<Worker> workers;
  for (int w = 0; w < std::max(threads, 1); ++w)
    workers.push_back({Accumulators(type_names.size(), T), Accumulators(type_names.size(), T), {}, {}});
  auto model_type = [&](Worker& w, TypeId t, StringId v) {
    if (v >= w.by_value.size()) w.by_value.resize(v + 1, -1);
    if (w.by_value[v] < 0) {
      w.by_value[v] = remap[type_index.at({t, kind == TypeKind::kVariable ? kEmptyString : v})];
      w.looked_up.push_back(v);
    }
    return w.by_value[v];
  };
  const std::vector<EntityStore>& stores = trace.stores();
  ParallelFor(static_cast<int64_t>(stores.size()), threads, [&](int64_t index, int worker) {
    const EntityStore& s = stores[index];
    if (!relevant(s)) return;
    if (kind != TypeKind::kLink && !in_scope[s.container]) return;
    Worker& w = workers[worker];
    for (StringId v : w.looked_up) w.by_value[v] = -1;  // stores are per type
    w.looked_up.clear();
    // Per store, dense per-type accumulators over the slices.
    Accumulators& acc = w.acc;
    Accumulators& count = w.count;
    acc.Clear();
    count.Clear();
    for (size_t i = 0; i < s.size(); ++i) {
      double a = s.start[i], b = s.End(i);
      switch (request.metric) {
        case Metric::kStateTime: {
          auto& v = acc.Get(model_type(w, s.type, s.value[i]), 0.0);
          grid.Spread(a, b, [&](int32_t t, double d) { v[t] += d; });
          break;
        }
        case Metric::kMeanStateDuration: {
          int32_t j = model_type(w, s.type, s.value[i]);
          auto& v = acc.Get(j, 0.0);
          auto& n = count.Get(j, 0.0);
          grid.Spread(a, b, [&](int32_t t, double d) { v[t] += d; n[t] += 1; });
          break;
        }
        case Metric::kStateCount:
        case Metric::kEventCount:
          if (a >= begin && a < end) acc.Get(model_type(w, s.type, s.value[i]), 0.0)[grid.SliceOf(a)] += 1;
          break;
        case Metric::kLinkCount: {
          ContainerId from = s.peer_start[i];
          if (from == kNone || !in_scope[from] || !(a >= begin && a < end)) break;
          model.Add(leaf_of[from], model_type(w, s.type, s.value[i]), grid.SliceOf(a), 1);
          break;
        }
        case Metric::kVariableMean: {
          auto& v = acc.Get(model_type(w, s.type, kEmptyString), 0.0);
          double x = s.number[i];
          grid.Spread(a, b, [&](int32_t t, double d) { v[t] += x * d / grid.width; });
          break;
        }
        case Metric::kVariableMin:
        case Metric::kVariableMax: {
          bool is_min = request.metric == Metric::kVariableMin;
          double none = is_min ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
          auto& v = acc.Get(model_type(w, s.type, kEmptyString), none);
          double x = s.number[i];
          grid.Spread(a, b, [&](int32_t t, double) { v[t] = is_min ? std::min(v[t], x) : std::max(v[t], x); });
          break;
        }
      }
    }
    if (acc.Used().empty()) return;
    NodeId leaf = leaf_of[s.container];
    for (int32_t j : acc.Used()) {
      const std::vector<double>& v = acc[j];
      for (int32_t t = 0; t < T; ++t) {
        double x = v[t];
        if (request.metric == Metric::kMeanStateDuration) x = count[j][t] > 0 ? x / count[j][t] : 0;
        if (!std::isfinite(x) || x <= 0) continue;  // the model holds values >= 0; empty slices stay 0
        model.Add(leaf, j, t, x);  // this store's series only: no other thread writes it
      }
    }
  });
  return model;
}

}  // namespace macroscope::analysis
