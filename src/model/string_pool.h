// Interned strings: every name, value, key and alias of a trace is stored
// once and referred to by a 32-bit StringId. Id 0 is the empty string.
//
// Not thread-safe; readers that tokenize in parallel intern on one thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <unordered_map>
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
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const noexcept;
  };
  std::vector<std::unique_ptr<char[]>> blocks_;  // stable storage for the bytes
  size_t block_used_ = 0;
  size_t block_size_ = 0;
  std::vector<std::string_view> views_;
  std::unordered_map<std::string_view, StringId, Hash, std::equal_to<>> ids_;
};

}  // namespace macroscope
