// Dense numbers for 64-bit keys, for the modules that aggregate per key
// (count, statistics) at millions of entities per second: an open-addressing
// hash table (linear probing, at most half full) of key -> number, numbers
// given in order of first appearance, so per-key data lives in plain vectors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace macroscope::pipeline {

class KeyIndex {
 public:
  KeyIndex() : slots_(64) {}

  // The key's number; a new key gets size().
  uint32_t Number(uint64_t key) {
    size_t i = Slot(key);
    while (slots_[i].number_plus_one != 0) {
      if (slots_[i].key == key) return slots_[i].number_plus_one - 1;
      i = (i + 1) & (slots_.size() - 1);
    }
    const auto number = static_cast<uint32_t>(keys_.size());
    slots_[i] = {key, number + 1};
    keys_.push_back(key);
    if (keys_.size() * 2 > slots_.size()) Grow();
    return number;
  }
  size_t size() const { return keys_.size(); }
  // Keys by number.
  const std::vector<uint64_t>& keys() const { return keys_; }

 private:
  struct Entry {
    uint64_t key = 0;
    uint32_t number_plus_one = 0;  // 0: empty
  };
  size_t Slot(uint64_t key) const {
    // Fibonacci hashing: StringIds are small consecutive integers.
    return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> 32) & (slots_.size() - 1);
  }
  void Grow() {
    std::vector<Entry> old(slots_.size() * 2);
    old.swap(slots_);
    for (const Entry& e : old) {
      if (e.number_plus_one == 0) continue;
      size_t i = Slot(e.key);
      while (slots_[i].number_plus_one != 0) i = (i + 1) & (slots_.size() - 1);
      slots_[i] = e;
    }
  }

  std::vector<Entry> slots_;
  std::vector<uint64_t> keys_;
};

}  // namespace macroscope::pipeline
