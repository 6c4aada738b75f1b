#include "model/string_pool.h"

#include <cstring>

namespace macroscope {

namespace {
constexpr size_t kBlockSize = 1 << 20;
}

size_t StringPool::Hash::operator()(std::string_view s) const noexcept {
  // FNV-1a over 8-byte words: names in traces are short, and this beats
  // std::hash's murmur on them.
  uint64_t h = 0xcbf29ce484222325ULL;
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    h = (h ^ w) * 0x100000001b3ULL;
    h ^= h >> 29;
  }
  for (; i < s.size(); ++i) h = (h ^ static_cast<unsigned char>(s[i])) * 0x100000001b3ULL;
  return static_cast<size_t>(h ^ (h >> 32));
}

StringPool::StringPool() {
  views_.emplace_back();
  ids_.emplace(std::string_view(), kEmptyString);
}

StringId StringPool::Find(std::string_view text) const {
  auto it = ids_.find(text);
  return it == ids_.end() ? kNoId : it->second;
}

StringId StringPool::Intern(std::string_view text) {
  auto it = ids_.find(text);
  if (it != ids_.end()) return it->second;
  if (block_used_ + text.size() > block_size_) {
    block_size_ = std::max(kBlockSize, text.size());
    blocks_.push_back(std::make_unique<char[]>(block_size_));
    block_used_ = 0;
  }
  char* dest = blocks_.back().get() + block_used_;
  if (!text.empty()) std::memcpy(dest, text.data(), text.size());
  block_used_ += text.size();
  std::string_view stored(dest, text.size());
  auto id = static_cast<StringId>(views_.size());
  views_.push_back(stored);
  ids_.emplace(stored, id);
  return id;
}

}  // namespace macroscope
