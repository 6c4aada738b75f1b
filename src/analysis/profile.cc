#include "analysis/profile.h"

#include <algorithm>
#include <map>
#include <span>
#include <string_view>
#include <tuple>

#include "analysis/container_scope.h"
#include "util/error.h"

namespace macroscope::analysis {

namespace {

constexpr uint32_t kNoNode = UINT32_MAX;

uint64_t StoreKey(ContainerId container, TypeId type) { return uint64_t{container} << 32 | type; }

// The tree's children, each node's in increasing function name (the order
// flame graphs draw them). In one array: node n's children are
// below[first[n], first[n + 1]).
struct Children {
  std::vector<uint32_t> first, below;

  Children(const Trace& trace, const CallTree& tree) : first(tree.nodes.size() + 1, 0) {
    for (const CallNode& node : tree.nodes)
      if (node.parent != kNoNode) ++first[node.parent + 1];
    for (size_t n = 1; n < first.size(); ++n) first[n] += first[n - 1];
    below.resize(first.back());
    std::vector<uint32_t> filled(first.begin(), first.end() - 1);
    for (uint32_t n = 0; n < tree.nodes.size(); ++n)
      if (tree.nodes[n].parent != kNoNode) below[filled[tree.nodes[n].parent]++] = n;
    for (size_t n = 0; n + 1 < first.size(); ++n)
      std::sort(below.begin() + first[n], below.begin() + first[n + 1], [&](uint32_t a, uint32_t b) {
        return trace.Str(tree.nodes[a].function) < trace.Str(tree.nodes[b].function);
      });
  }
  std::span<const uint32_t> of(uint32_t n) const { return {below.data() + first[n], below.data() + first[n + 1]}; }
};

// Calls `enter(node, depth)` for every node below `root` in depth-first
// order, children in `children`' order, and `leave(node)` once its
// subtree is done. Iterative: call stacks may be thousands deep.
template <class Enter, class Leave>
void Walk(const Children& children, uint32_t root, Enter&& enter, Leave&& leave) {
  struct Place {
    uint32_t node;
    size_t next;
  };
  std::vector<Place> stack{{root, 0}};
  while (!stack.empty()) {
    Place& top = stack.back();
    const std::span<const uint32_t> below = children.of(top.node);
    if (top.next == below.size()) {
      if (stack.size() > 1) leave(top.node);
      stack.pop_back();
      continue;
    }
    const uint32_t child = below[top.next++];
    enter(child, stack.size());  // depth 1 for a root's children
    stack.push_back({child, 0});
  }
}

}  // namespace

ProfileAccumulator::ProfileAccumulator(const Trace& trace, const ProfileRequest& request)
    : trace_(trace),
      start_(request.start.value_or(trace.start_time())),
      end_(request.end.value_or(trace.end_time())),
      call_paths_(request.call_paths),
      in_scope_(ContainersInScope(trace, request.containers, "--containers")) {
  if (!(start_ <= end_)) throw UserError("an empty window: its end is before its start");
}

bool ProfileAccumulator::Wants(const EntityStore& store) const {
  return store.kind == TypeKind::kState && in_scope_[store.container];
}

uint32_t ProfileAccumulator::Child(uint32_t parent, StringId function, LastCall& last) {
  if (last.child != kNoNode && last.function == function) return last.child;
  last.function = function;
  last.child = FindOrAddChild(parent, function);
  return last.child;
}

uint32_t ProfileAccumulator::FindOrAddChild(uint32_t parent, StringId function) {
  const uint64_t key = uint64_t{parent} << 32 | function;
  auto [it, added] = children_.try_emplace(key, static_cast<uint32_t>(tree_.nodes.size()));
  if (added) {
    CallNode node;
    node.parent = parent;
    node.function = function;
    node.container = tree_.nodes[parent].container;
    tree_.nodes.push_back(std::move(node));
  }
  return it->second;
}

uint32_t ProfileAccumulator::SumsOf(Stack& stack, StringId function) {
  if (const uint32_t* found = stack.sums_of.Find(function)) return *found;
  const auto index = static_cast<uint32_t>(stack.sums.size());
  stack.sums.emplace_back();
  stack.sums_of.Insert(function, index);
  return index;
}

void ProfileAccumulator::Add(const EntityChunk& chunk) {
  if (chunk.kind != TypeKind::kState || chunk.container >= in_scope_.size() || !in_scope_[chunk.container]) return;
  Stack& stack = stacks_[StoreKey(chunk.container, chunk.type)];
  stack.container = chunk.container;
  if (call_paths_ && stack.root == kNoNode) {
    auto [it, added] = container_roots_.try_emplace(chunk.container, static_cast<uint32_t>(tree_.nodes.size()));
    if (added) {
      CallNode root;
      root.container = chunk.container;
      tree_.nodes.push_back(std::move(root));
    }
    stack.root = it->second;
  }
  std::vector<Frame>& frames = stack.frames;
  for (size_t i = 0; i < chunk.size(); ++i) {
    const double a = chunk.start[i], b = chunk.End(i);
    // Its caller: the open state one level up that has not ended before it.
    const size_t level = chunk.Level(i);
    while (!frames.empty() && (frames.size() > level || frames.back().end < a)) {
      --stack.sums[frames.back().sums].open;
      frames.pop_back();
    }
    if (b < start_ || a > end_) continue;  // so are the states it encloses
    const double d = std::max(0.0, std::min(b, end_) - std::max(a, start_));
    const uint32_t f = SumsOf(stack, chunk.value[i]);
    Sums& sums = stack.sums[f];
    ++sums.sums.calls;
    if (sums.open++ == 0) sums.sums.inclusive.Add(d);
    sums.sums.exclusive.Add(d);
    if (frames.empty())
      stack.outermost.Add(d);
    else
      stack.sums[frames.back().sums].sums.exclusive.Add(-d);
    uint32_t n = kNoNode;
    if (call_paths_) {
      const uint32_t parent = frames.empty() ? stack.root : frames.back().node;
      n = Child(parent, chunk.value[i], frames.empty() ? stack.last : frames.back().last);
      CallNode& node = tree_.nodes[n];
      ++node.calls;
      node.inclusive.Add(d);
      node.exclusive.Add(d);
      if (parent != stack.root) tree_.nodes[parent].exclusive.Add(-d);
    }
    frames.push_back({b, f, n, {}});
  }
}

Profile ProfileAccumulator::Take() && {
  std::map<ContainerId, ContainerProfile> containers;
  for (auto& entry : stacks_) {
    Stack& stack = entry.second;  // not a structured binding: the lambda below captures it
    if (stack.sums.empty()) continue;  // no state in the window
    ContainerProfile& c = containers[stack.container];
    c.container = stack.container;
    c.outermost.Merge(stack.outermost);
    stack.sums_of.ForEach([&](uint32_t function, uint32_t index) {
      const FunctionSums& from = stack.sums[index].sums;
      FunctionSums& to = c.functions[function];
      to.calls += from.calls;
      to.inclusive.Merge(from.inclusive);
      to.exclusive.Merge(from.exclusive);
    });
  }
  Profile out;
  for (auto& [id, c] : containers) out.containers.push_back(std::move(c));
  out.tree = std::move(tree_);  // its nodes moved, not copied
  return out;
}

Profile ComputeProfile(const EntitySource& source, const ProfileRequest& request, const Cancellation* cancel) {
  const Trace& trace = source.trace();
  ProfileAccumulator profile(trace, request);
  for (uint32_t k = 0; k < trace.stores().size(); ++k) {
    if (!profile.Wants(trace.stores()[k])) continue;
    source.ForEachChunk(k, profile.start(), profile.end(), [&](const EntityChunk& chunk) {
      ThrowIfCancelled(cancel);
      profile.Add(chunk);
    });
  }
  return std::move(profile).Take();
}

Table ProfileTable(const Trace& trace, const Profile& profile) {
  Table table({"container", "function", "calls", "inclusive_ns", "exclusive_ns"});
  const TimeBase& base = trace.time_base();
  for (const ContainerProfile& c : profile.containers) {
    struct Row {
      std::string_view function;
      uint64_t calls;
      int64_t inclusive, exclusive;
    };
    std::vector<Row> rows;
    for (const auto& [function, f] : c.functions) {
      rows.push_back({trace.Str(function), f.calls, DurationNanoseconds(base, f.inclusive),
                      DurationNanoseconds(base, f.exclusive)});
    }
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
      return std::tie(b.exclusive, b.inclusive, a.function) < std::tie(a.exclusive, a.inclusive, b.function);
    });
    const std::string path = trace.ContainerPath(c.container);
    for (const Row& r : rows) {
      table.Put(path);
      table.Put(r.function);
      table.Put(r.calls);
      table.Put(r.inclusive);
      table.Put(r.exclusive);
    }
  }
  return table;
}

Table ProfileTotalTable(const Trace& trace, const Profile& profile) {
  Table table({"function", "calls", "containers", "inclusive_ns", "exclusive_ns", "inclusive_mean_ns",
               "inclusive_min_ns", "inclusive_max_ns", "exclusive_mean_ns", "exclusive_min_ns", "exclusive_max_ns",
               "imbalance"});
  const TimeBase& base = trace.time_base();
  struct Total {
    FunctionSums sums;
    int64_t containers = 0;
    int64_t inclusive_ns = 0, exclusive_ns = 0;  // the containers' rounded times summed: their mean's numerator
    int64_t inclusive_min = INT64_MAX, inclusive_max = INT64_MIN, exclusive_min = INT64_MAX,
            exclusive_max = INT64_MIN;
  };
  std::map<StringId, Total> totals;
  for (const ContainerProfile& c : profile.containers) {
    for (const auto& [function, f] : c.functions) {
      Total& t = totals[function];
      t.sums.calls += f.calls;
      t.sums.inclusive.Merge(f.inclusive);
      t.sums.exclusive.Merge(f.exclusive);
      ++t.containers;
      const int64_t inclusive = DurationNanoseconds(base, f.inclusive);
      const int64_t exclusive = DurationNanoseconds(base, f.exclusive);
      t.inclusive_ns += inclusive;
      t.exclusive_ns += exclusive;
      t.inclusive_min = std::min(t.inclusive_min, inclusive);
      t.inclusive_max = std::max(t.inclusive_max, inclusive);
      t.exclusive_min = std::min(t.exclusive_min, exclusive);
      t.exclusive_max = std::max(t.exclusive_max, exclusive);
    }
  }
  struct Row {
    std::string_view function;
    const Total* total;
    int64_t inclusive, exclusive;
  };
  std::vector<Row> rows;
  for (const auto& [function, t] : totals) {
    rows.push_back(
        {trace.Str(function), &t, DurationNanoseconds(base, t.sums.inclusive), DurationNanoseconds(base, t.sums.exclusive)});
  }
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return std::tie(b.exclusive, b.inclusive, a.function) < std::tie(a.exclusive, a.inclusive, b.function);
  });
  for (const Row& r : rows) {
    const Total& t = *r.total;
    const double n = static_cast<double>(t.containers);
    // The mean of the containers' rows (pipit's flat profile: the per
    // process sums' mean over the processes where the function occurs).
    const double inclusive_mean = static_cast<double>(t.inclusive_ns) / n;
    table.Put(r.function);
    table.Put(t.sums.calls);
    table.Put(t.containers);
    table.Put(r.inclusive);
    table.Put(r.exclusive);
    table.Put(inclusive_mean);
    table.Put(t.inclusive_min);
    table.Put(t.inclusive_max);
    table.Put(static_cast<double>(t.exclusive_ns) / n);
    table.Put(t.exclusive_min);
    table.Put(t.exclusive_max);
    if (inclusive_mean > 0) {
      table.Put(static_cast<double>(t.inclusive_max) / inclusive_mean);
    } else {
      table.PutEmpty();
    }
  }
  return table;
}

Table CallTreeTable(const Trace& trace, const CallTree& tree) {
  Table table({"id", "parent", "depth", "function", "path", "calls", "inclusive_ns", "exclusive_ns"});
  // The containers' trees merged: a call path's node is the same in each.
  CallTree merged;
  merged.nodes.emplace_back();  // the root of all
  std::vector<uint32_t> to_merged(tree.nodes.size(), 0);
  std::unordered_map<uint64_t, uint32_t> children;
  for (uint32_t n = 0; n < tree.nodes.size(); ++n) {
    const CallNode& node = tree.nodes[n];
    if (node.parent == kNoNode) continue;  // a container's root: the root of all
    const uint32_t parent = to_merged[node.parent];
    auto [it, added] = children.try_emplace(uint64_t{parent} << 32 | node.function,
                                            static_cast<uint32_t>(merged.nodes.size()));
    if (added) {
      CallNode m;
      m.parent = parent;
      m.function = node.function;
      merged.nodes.push_back(std::move(m));
    }
    CallNode& m = merged.nodes[it->second];
    m.calls += node.calls;
    m.inclusive.Merge(node.inclusive);
    m.exclusive.Merge(node.exclusive);
    to_merged[n] = it->second;
  }
  const Children below(trace, merged);
  const TimeBase& base = trace.time_base();
  std::vector<int64_t> row_of(merged.nodes.size(), -1);
  std::vector<std::string> paths(merged.nodes.size());
  int64_t next = 1;
  Walk(
      below, 0,
      [&](uint32_t n, size_t depth) {
        const CallNode& node = merged.nodes[n];
        row_of[n] = next++;
        const std::string_view function = trace.Str(node.function);
        paths[n] = node.parent == 0 ? std::string(function) : paths[node.parent] + ";" + std::string(function);
        table.Put(row_of[n]);
        if (node.parent == 0) {
          table.PutEmpty();
        } else {
          table.Put(row_of[node.parent]);
        }
        table.Put(static_cast<int64_t>(depth - 1));
        table.Put(function);
        table.Put(paths[n]);
        table.Put(node.calls);
        table.Put(DurationNanoseconds(base, node.inclusive));
        table.Put(DurationNanoseconds(base, node.exclusive));
      },
      [&](uint32_t n) { std::string().swap(paths[n]); });  // needed while its subtree is written only
  return table;
}

}  // namespace macroscope::analysis
