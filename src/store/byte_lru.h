// A cache of shared values by key, bounded by the bytes they hold: the
// least recently used leave first once the budget is passed (the last one
// stays whatever its size). A value handed out lives on in its shared_ptr
// while its user holds it, cached or not. Thread-safe; a value is made
// outside the lock, so two threads may make the same one at once (the
// first kept). Internal to src/store (store_source.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace macroscope::store {

template <class V>
class ByteLru {
 public:
  explicit ByteLru(size_t budget) : budget_(budget) {}

  // The value of `key`, made by make() -> std::pair<V, size_t bytes> when
  // not held.
  template <class Make>
  std::shared_ptr<const V> Get(uint64_t key, Make&& make) {
    {
      std::lock_guard lock(mutex_);
      auto it = held_.find(key);
      if (it != held_.end()) {
        lru_.splice(lru_.begin(), lru_, it->second.place);
        return it->second.value;
      }
    }
    auto [value, bytes] = make();
    auto made = std::make_shared<const V>(std::move(value));
    std::lock_guard lock(mutex_);
    auto [it, inserted] = held_.try_emplace(key);
    if (!inserted) {
      lru_.splice(lru_.begin(), lru_, it->second.place);
      return it->second.value;
    }
    lru_.push_front(key);
    it->second = {made, bytes, lru_.begin()};
    bytes_ += bytes;
    while (bytes_ > budget_ && lru_.size() > 1) {
      auto last = held_.find(lru_.back());
      bytes_ -= last->second.bytes;
      held_.erase(last);
      lru_.pop_back();
    }
    return made;
  }

  size_t bytes() const {
    std::lock_guard lock(mutex_);
    return bytes_;
  }

 private:
  using Lru = std::list<uint64_t>;  // keys, the most recently used first
  struct Held {
    std::shared_ptr<const V> value;
    size_t bytes = 0;
    Lru::iterator place;
  };
  const size_t budget_;
  mutable std::mutex mutex_;  // guards what follows
  Lru lru_;
  std::unordered_map<uint64_t, Held> held_;
  size_t bytes_ = 0;
};

}  // namespace macroscope::store
