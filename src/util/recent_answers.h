// A direct-mapped cache of the recent answers of a costlier lookup (a hash
// map's, whose lookup divides), by a 64-bit key: one entry per slot, the
// slot by Fibonacci hashing. Where a few keys come again and again (a
// trace's (type, value) pairs), most lookups end here.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace macroscope {

template <class Value, int kBits = 8>
class RecentAnswers {
 public:
  struct Entry {
    uint64_t key = UINT64_MAX;  // none yet
    Value value{};
  };
  // The entry `key` would be in: its answer when entry.key == key.
  Entry& Slot(uint64_t key) { return entries_[(key * 0x9E3779B97F4A7C15ULL) >> (64 - kBits)]; }

 private:
  std::array<Entry, size_t{1} << kBits> entries_{};
};

}  // namespace macroscope
