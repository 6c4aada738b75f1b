#include "server/aggregation_cache.h"

namespace macroscope::server {

BuiltAggregation::BuiltAggregation(analysis::MicroModel model, std::unique_ptr<analysis::Aggregation> aggregation)
    : model_(std::move(model)),
      aggregation_(std::move(aggregation)),
      spans_(analysis::NodeLeafSpans(model_.hierarchy())),
      nodes_(nlohmann::ordered_json::array()) {
  const auto& tree = model_.hierarchy();
  // Paths are built parent first: nodes are numbered parents before children.
  std::vector<std::string> paths(tree.size());
  for (analysis::NodeId n = 0; n < tree.size(); ++n) {
    const analysis::NodeId parent = tree.Parent(n);
    if (parent != analysis::Hierarchy::kNoParent) {
      paths[n] = paths[parent].empty() ? tree.Name(n) : paths[parent] + "/" + tree.Name(n);
    }
    nlohmann::ordered_json node;
    node["id"] = n;
    node["name"] = tree.Name(n);
    node["parent"] = parent;
    node["path"] = paths[n];
    node["leaves"] = {spans_[n].first, spans_[n].count};
    nodes_.push_back(std::move(node));
  }
}

const std::vector<analysis::PListEntry>& BuiltAggregation::PList() const {
  std::call_once(plist_once_, [this] { plist_ = analysis::SignificantPsExact(*aggregation_); });
  return plist_;
}

AggregationCache::Entry AggregationCache::Get(const std::string& key, const std::function<Entry()>& build) {
  std::promise<Entry> promise;
  std::shared_future<Entry> future;
  bool building = false;
  {
    std::lock_guard lock(mutex_);
    for (auto it = slots_.begin(); it != slots_.end(); ++it) {
      if (it->first == key) {
        slots_.splice(slots_.begin(), slots_, it);
        future = it->second;
        break;
      }
    }
    if (!future.valid()) {
      building = true;
      future = promise.get_future().share();
      slots_.emplace_front(key, future);
      if (slots_.size() > capacity_) slots_.pop_back();
    }
  }
  if (building) {
    try {
      promise.set_value(build());
    } catch (...) {
      promise.set_exception(std::current_exception());
      std::lock_guard lock(mutex_);
      slots_.remove_if([&](const Slot& slot) { return slot.first == key; });
    }
  }
  return future.get();  // rethrows the build's exception
}

}  // namespace macroscope::server
