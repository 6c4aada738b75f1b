#include "model/string_pool.h"

#include <algorithm>
#include <cstring>

#include "util/packed_bytes.h"

namespace macroscope {

namespace {
// Blocks grow from small to large: a pool may hold a few strings only (a
// chunk's, in the Pajé reader).
constexpr size_t kFirstBlockSize = 4096;
constexpr size_t kBlockSize = 1 << 20;
}

uint64_t StringPool::Hash(std::string_view s) noexcept {
  // FNV-1a over 8-byte words: names in traces are short.
  uint64_t h = 0xcbf29ce484222325ULL;
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    h = (h ^ w) * 0x100000001b3ULL;
    h ^= h >> 29;
  }
  for (; i < s.size(); ++i) h = (h ^ static_cast<unsigned char>(s[i])) * 0x100000001b3ULL;
  return h ^ (h >> 32);
}

void StringPool::Append(std::string_view view) {
  uint64_t x = uint64_t{size_} + kFirstChunk;
  int chunk = std::bit_width(x) - 1 - kFirstChunkBits;
  uint64_t offset = x - (uint64_t{1} << (chunk + kFirstChunkBits));
  if (offset == 0) chunks_[chunk] = std::make_unique<std::string_view[]>(uint64_t{1} << (chunk + kFirstChunkBits));
  chunks_[chunk][offset] = view;
  ++size_;
}

StringPool::StringPool() {
  slots_.resize(1024);
  Append({});
  uint64_t h = Hash({});
  slots_[Probe({}, h)] = {1, static_cast<uint32_t>(h)};
  indexed_ = size_;
}

void StringPool::AddUnindexed(std::string_view text) { Append(Store(text)); }

void StringPool::IndexRest() {
  for (size_t id = indexed_; id < size_; ++id) {
    const std::string_view text = View(static_cast<StringId>(id));
    const uint64_t hash = Hash(text);
    const size_t slot = Probe(text, hash);
    if (slots_[slot].id_plus_one != 0) continue;  // added twice: the first id stays
    slots_[slot] = {static_cast<uint32_t>(id + 1), static_cast<uint32_t>(hash)};
    if ((id + 1) * 2 > slots_.size()) Grow();
  }
  indexed_ = size_;
}

size_t StringPool::Probe(std::string_view text, uint64_t hash) const {
  size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (s.id_plus_one == 0) return i;
    if (s.hash == static_cast<uint32_t>(hash) && View(s.id_plus_one - 1) == text) return i;
  }
}

void StringPool::Grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.size() * 2, Slot{});
  size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.id_plus_one == 0) continue;
    // Its home from the hash's low 32 bits the slot keeps, no string read
    // again, while the table has 2^32 slots or fewer.
    size_t i = (mask >> 32 == 0 ? s.hash : Hash(View(s.id_plus_one - 1))) & mask;
    while (slots_[i].id_plus_one != 0) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

StringId StringPool::Find(std::string_view text) const {
  const Slot& s = slots_[Probe(text, Hash(text))];
  if (s.id_plus_one != 0) return s.id_plus_one - 1;
  for (size_t id = indexed_; id < size_; ++id)
    if (View(static_cast<StringId>(id)) == text) return static_cast<StringId>(id);
  return kNoId;
}

StringId StringPool::InternMissed(std::string_view text) {
  if (text.empty()) return kEmptyString;  // id 0, interned first (and its data() may be null)
  if (!cache_) cache_ = std::make_unique<Cached[]>(kCacheEntries);
  if (text.size() <= kShortMax) {  // missed by Intern's lookup (or the cache was new)
    const uint64_t key = PackBytes(text).first;
    return InternNew(text, Hash(text), &cache_[ShortSlot(key, text.size())], key);
  }
  uint64_t hash = Hash(text);
  Cached* cached = nullptr;
  if (text.size() <= kCachedMax) {
    // Other bits than the slot's, so that neighbours in the table spread.
    cached = &cache_[(hash >> 40) & (kCacheEntries - 1)];
    if (cached->size == text.size() && std::memcmp(cached->bytes, text.data(), text.size()) == 0)
      return cached->id_plus_one - 1;
  }
  return InternNew(text, hash, cached, 0);
}

StringId StringPool::InternNew(std::string_view text, uint64_t hash, Cached* cached, uint64_t short_key) {
  if (indexed_ < size_) IndexRest();
  size_t slot = Probe(text, hash);
  if (uint32_t found = slots_[slot].id_plus_one; found != 0) {
    if (cached != nullptr) {
      cached->id_plus_one = found;
      cached->size = static_cast<uint8_t>(text.size());
      if (text.size() <= kShortMax)
        std::memcpy(cached->bytes, &short_key, sizeof short_key);
      else
        std::memcpy(cached->bytes, text.data(), text.size());
    }
    return found - 1;
  }
  auto id = static_cast<StringId>(size_);
  Append(Store(text));
  slots_[slot] = {id + 1, static_cast<uint32_t>(hash)};
  if (size_ * 2 > slots_.size()) Grow();
  indexed_ = size_;
  return id;
}

std::string_view StringPool::Store(std::string_view text) {
  if (text.empty()) return {};
  if (block_used_ + text.size() > block_size_) {
    block_size_ = std::max(std::clamp(2 * block_size_, kFirstBlockSize, kBlockSize), text.size());
    blocks_.push_back(std::make_unique<char[]>(block_size_));
    block_used_ = 0;
  }
  char* dest = blocks_.back().get() + block_used_;
  std::memcpy(dest, text.data(), text.size());
  block_used_ += text.size();
  return std::string_view(dest, text.size());
}

}  // namespace macroscope
