#include "server/aggregation_cache.h"

#include <chrono>

namespace macroscope::server {

namespace {

// How often a request waiting for another's computation looks at its own
// cancellation.
constexpr std::chrono::milliseconds kWaitStep{20};

}  // namespace

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

const std::vector<analysis::PListEntry>& BuiltAggregation::PList(const analysis::Cancellation* cancel) const {
  std::unique_lock lock(plist_mutex_, std::defer_lock);
  while (!lock.try_lock_for(kWaitStep)) analysis::ThrowIfCancelled(cancel);
  // Set once, never changed after: the reference stays valid unlocked.
  if (!plist_) plist_ = analysis::SignificantPsExact(*aggregation_, cancel);
  return *plist_;
}

AggregationCache::Entry AggregationCache::Get(const std::string& key, const std::function<Entry()>& build,
                                              const analysis::Cancellation* cancel) {
  for (;;) {
    std::shared_future<Entry> future = Find(key, build);
    while (future.wait_for(kWaitStep) != std::future_status::ready) analysis::ThrowIfCancelled(cancel);
    try {
      return future.get();  // rethrows the build's exception
    } catch (const analysis::Cancelled&) {
      // Another request's build, given up when its client went (a build
      // runs with its own request's cancellation): this one builds (or
      // waits for) the entry again.
      analysis::ThrowIfCancelled(cancel);
    }
  }
}

std::shared_future<AggregationCache::Entry> AggregationCache::Find(const std::string& key,
                                                                   const std::function<Entry()>& build) {
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
      std::lock_guard lock(mutex_);
      Trim();
    } catch (...) {
      // Dropped before the waiters wake, so that one building again does
      // not find it.
      {
        std::lock_guard lock(mutex_);
        slots_.remove_if([&](const Slot& slot) { return slot.first == key; });
      }
      promise.set_exception(std::current_exception());
    }
  }
  return future;
}

void AggregationCache::Trim() {
  // The most recent entries that fit; entries still building count nothing.
  size_t held = 0;
  bool full = false;
  for (auto it = slots_.begin(); it != slots_.end();) {
    const bool built = it->second.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
    size_t bytes = 0;
    if (built) {
      try {
        bytes = it->second.get()->bytes();
      } catch (...) {  // a failed build, dropped by its builder
      }
    }
    full = full || (it != slots_.begin() && held + bytes > bytes_);
    if (full && built) {
      it = slots_.erase(it);
      continue;
    }
    held += bytes;
    ++it;
  }
}

}  // namespace macroscope::server
