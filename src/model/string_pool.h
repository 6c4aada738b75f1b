// Interned strings: every name, value, key and alias of a trace is stored
// once and referred to by a 32-bit StringId. Id 0 is the empty string.
//
// Not thread-safe; readers that tokenize in parallel intern on one thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace macroscope {

using StringId = uint32_t;
inline constexpr StringId kEmptyString = 0;

class StringPool {
 public:
  StringPool();
  StringId Intern(std::string_view text);
  // The id of text if it was interned before; kNoId otherwise.
  static constexpr StringId kNoId = UINT32_MAX;
  StringId Find(std::string_view text) const;
  std::string_view View(StringId id) const { return views_[id]; }
  size_t size() const { return views_.size(); }

 private:
  static uint64_t Hash(std::string_view s) noexcept;
  // Open addressing, linear probing, at most half full. A slot holds the
  // id + 1 (0 = empty) and 32 bits of the hash to skip most comparisons.
  struct Slot {
    uint32_t id_plus_one = 0;
    uint32_t hash = 0;
  };
  size_t Probe(std::string_view text, uint64_t hash) const;
  void Grow();

  std::vector<std::unique_ptr<char[]>> blocks_;  // stable storage for the bytes
  size_t block_used_ = 0;
  size_t block_size_ = 0;
  std::vector<std::string_view> views_;
  std::vector<Slot> slots_;
};

}  // namespace macroscope
