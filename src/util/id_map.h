// A hash map from 32-bit ids (interned strings) to small values that only
// grows: one flat array probed linearly, so an insertion allocates nothing
// (but when the array doubles) and a lookup mostly reads one cache line.
// For the link keys a Pajé container has used, which only accumulate (a
// message trace has millions): std::unordered_set allocated a node a key,
// chased a pointer a lookup and freed every node at the end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace macroscope {

template <class Value>
class IdMap {
 public:
  static constexpr uint32_t kNoId = UINT32_MAX;  // not a key: marks a free entry

  // The value of `id`, or null. The pointer holds until the next Insert.
  Value* Find(uint32_t id) {
    if (size_ == 0) return nullptr;
    for (size_t i = Home(id);; i = (i + 1) & mask_) {
      Entry& e = entries_[i];
      if (e.id == id) return &e.value;
      if (e.id == kNoId) return nullptr;
    }
  }
  // Adds `id`, which is not in the map yet.
  void Insert(uint32_t id, Value value) {
    if (2 * (size_ + 1) > entries_.size()) Grow();
    Place(id, std::move(value));
    ++size_;
  }
  size_t size() const { return size_; }
  // f(id, value&) for every entry, in no particular order.
  template <class F>
  void ForEach(F&& f) {
    for (Entry& e : entries_)
      if (e.id != kNoId) f(e.id, e.value);
  }

 private:
  struct Entry {
    uint32_t id = kNoId;
    Value value{};
  };
  // Fibonacci hashing: ids come in runs (a trace's keys are interned one
  // after the other), which the multiplication spreads over the table.
  size_t Home(uint32_t id) const { return static_cast<size_t>((id * 0x9E3779B97F4A7C15ULL) >> shift_); }
  void Place(uint32_t id, Value value) {
    size_t i = Home(id);
    while (entries_[i].id != kNoId) i = (i + 1) & mask_;
    entries_[i] = {id, std::move(value)};
  }
  void Grow() {
    std::vector<Entry> old = std::exchange(entries_, std::vector<Entry>(entries_.empty() ? 16 : 2 * entries_.size()));
    mask_ = entries_.size() - 1;
    shift_ = 64 - __builtin_ctzll(entries_.size());
    for (Entry& e : old)
      if (e.id != kNoId) Place(e.id, std::move(e.value));
  }

  std::vector<Entry> entries_;  // a power of two, at most half full
  size_t size_ = 0;
  size_t mask_ = 0;
  int shift_ = 64;
};

}  // namespace macroscope
