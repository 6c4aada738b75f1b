// Interned strings: every name, value, key and alias of a trace is stored
// once and referred to by a 32-bit StringId. Id 0 is the empty string.
//
// One thread interns. Another may View() any id it was handed by the
// interning thread through a synchronising channel (a mutex-protected
// queue): stored views never move, so reading them needs no lock.
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
  std::string_view View(StringId id) const { return chunks_[id >> kChunkBits][id & kChunkMask]; }
  size_t size() const { return size_; }

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
  // Views in fixed chunks whose table never grows: ids stay readable while
  // the interning thread appends.
  static constexpr int kChunkBits = 16;
  static constexpr uint32_t kChunkMask = (1u << kChunkBits) - 1;
  static constexpr size_t kMaxChunks = size_t{1} << (32 - kChunkBits);
  std::unique_ptr<std::unique_ptr<std::string_view[]>[]> chunks_;
  size_t size_ = 0;
  void Append(std::string_view view);
  std::vector<Slot> slots_;
};

}  // namespace macroscope
