// Built aggregations kept between requests, so that a request with another
// p runs only the best-cut step and one for the p list reuses the
// qualities.
//
// Thread-safety: every member may be called from any request thread. A
// build runs outside the lock; concurrent requests for the same key wait
// for the one build rather than repeat it. A build that throws is not
// kept: its waiters get the same exception and the next request retries —
// except a cancelled build (its client went away), which a waiter still
// wanting the result starts again.
#pragma once

#include <cstddef>
#include <functional>
#include <future>
#include <list>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/aggregation.h"
#include "analysis/cancellation.h"
#include "analysis/micro_model.h"
#include "analysis/p_list.h"
#include "analysis/part_values.h"

namespace macroscope::server {

// One model and its aggregation, immutable once built except for the p
// list, computed on first use.
class BuiltAggregation {
 public:
  BuiltAggregation(analysis::MicroModel model, std::unique_ptr<analysis::Aggregation> aggregation);

  const analysis::MicroModel& model() const { return model_; }
  const analysis::Aggregation& aggregation() const { return *aggregation_; }
  const std::vector<analysis::LeafSpan>& spans() const { return spans_; }
  // [{"id","name","parent","path","leaves":[first,count]}] for every node.
  const nlohmann::ordered_json& nodes() const { return nodes_; }
  // Bytes it holds: the model and the aggregation's qualities.
  size_t bytes() const { return model_.bytes() + aggregation_->bytes(); }
  // The significant p values (exact method), computed by the first call
  // (another waits for it). Throws analysis::Cancelled once `cancel` is
  // set; the next call computes them again.
  const std::vector<analysis::PListEntry>& PList(const analysis::Cancellation* cancel = nullptr) const;

 private:
  analysis::MicroModel model_;
  std::unique_ptr<analysis::Aggregation> aggregation_;
  std::vector<analysis::LeafSpan> spans_;
  nlohmann::ordered_json nodes_;
  mutable std::timed_mutex plist_mutex_;
  mutable std::optional<std::vector<analysis::PListEntry>> plist_;
};

class AggregationCache {
 public:
  using Entry = std::shared_ptr<const BuiltAggregation>;
  // At most `capacity` entries, and `bytes` of those built (the newest is
  // kept whatever its size).
  AggregationCache(size_t capacity, size_t bytes) : capacity_(capacity), bytes_(bytes) {}

  // The entry of `key`, built with `build` when absent; the least recently
  // used entries are dropped beyond the capacity or the bytes (requests
  // holding one keep it).
  // Waiting for another request's build, throws analysis::Cancelled once
  // `cancel` is set.
  Entry Get(const std::string& key, const std::function<Entry()>& build,
            const analysis::Cancellation* cancel = nullptr);

 private:
  using Slot = std::pair<std::string, std::shared_future<Entry>>;
  // The slot's future, after building it here when the key was absent.
  std::shared_future<Entry> Find(const std::string& key, const std::function<Entry()>& build);
  // Drops the least recently used entries built, but the first, while
  // those built hold more than bytes_ (under mutex_).
  void Trim();
  std::mutex mutex_;
  size_t capacity_;
  size_t bytes_;
  std::list<Slot> slots_;  // most recently used first
};

}  // namespace macroscope::server
