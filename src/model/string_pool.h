// Interned strings: every name, value, key and alias of a trace is stored
// once and referred to by a 32-bit StringId. Id 0 is the empty string.
//
// One thread interns. Another may View() any id it was handed by the
// interning thread through a synchronising channel (a mutex-protected
// queue): stored views never move, so reading them needs no lock.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "util/packed_bytes.h"

namespace macroscope {

using StringId = uint32_t;
inline constexpr StringId kEmptyString = 0;

class StringPool {
 public:
  StringPool();
  StringId Intern(std::string_view text) {
    // Inline, the cache's hit on a short string: most of a trace's lines
    // are such words, and a call costs them more than the lookup.
    if (text.size() - 1 < kShortMax && cache_) {
      const uint64_t key = PackBytes(text).first;
      const Cached& cached = cache_[ShortSlot(key, text.size())];
      uint64_t held;
      std::memcpy(&held, cached.bytes, sizeof held);
      if (cached.size == text.size() && held == key) return cached.id_plus_one - 1;
    }
    return InternMissed(text);
  }
  // Adds `text` as the next id without looking it up: a store's strings,
  // known to be distinct, read at open without building the lookup table
  // (77 % of the opening's time on a generated store of 10^9 entities,
  // whose links have millions of keys). Intern puts them in the table
  // first; Find looks through them one by one. Were a text added twice, Find gives its first id.
  void AddUnindexed(std::string_view text);

  // The id of text if it was interned or added before; kNoId otherwise.
  // Strings added unindexed are compared one by one, without the table's
  // memory (a window's value filter on a 10^9-entity store: 35–48 ms).
  static constexpr StringId kNoId = UINT32_MAX;
  StringId Find(std::string_view text) const;
  std::string_view View(StringId id) const {
    uint64_t x = uint64_t{id} + kFirstChunk;
    int chunk = std::bit_width(x) - 1 - kFirstChunkBits;
    return chunks_[chunk][x - (uint64_t{1} << (chunk + kFirstChunkBits))];
  }
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

  // Before the table, a direct-mapped cache of short strings found before:
  // a hit compares the bytes within one cache line, where the table costs
  // up to three dependent misses (slot, view, bytes) once it outgrows the
  // caches (a trace's link keys make it millions of slots). Strings enter
  // it on their second interning, so that one-off keys seldom evict the
  // names and values every line repeats.
  // Strings of up to 8 bytes (most of a line's: types, values, container
  // names) are found by their bytes packed in one word
  // (util/packed_bytes.h), without hashing them byte by byte or calling
  // memcmp: they hold that word in their first 8 bytes.
  struct Cached {
    uint32_t id_plus_one = 0;
    uint8_t size = 0;
    char bytes[27];
  };
  static constexpr size_t kCachedMax = sizeof(Cached::bytes);
  static constexpr size_t kShortMax = 8;
  static constexpr size_t kCacheEntries = 8192;
  // The cache entry of a short string, from its packed bytes and size.
  static size_t ShortSlot(uint64_t key, size_t size) {
    static_assert(kCacheEntries == 1 << (64 - 51));
    return ((key ^ uint64_t{size} << 56) * 0x9e3779b97f4a7c15ULL) >> 51;
  }
  std::unique_ptr<Cached[]> cache_;  // allocated on the first Intern
  // Intern past the inline hit: the empty string, longer strings, misses.
  StringId InternMissed(std::string_view text);
  void Grow();
  // Past the cache: finds or adds text in the table; a string found there
  // enters `cached` (when given; short ones as `short_key`).
  StringId InternNew(std::string_view text, uint64_t hash, Cached* cached, uint64_t short_key);

  std::vector<std::unique_ptr<char[]>> blocks_;  // stable storage for the bytes
  size_t block_used_ = 0;
  size_t block_size_ = 0;
  // Views in chunks that never move, chunk k holding 2^(k+10) views, so the
  // chunk table is fixed and ids stay readable while the interning thread
  // appends.
  static constexpr int kFirstChunkBits = 10;
  static constexpr uint64_t kFirstChunk = uint64_t{1} << kFirstChunkBits;
  static constexpr int kChunks = 33 - kFirstChunkBits;
  std::array<std::unique_ptr<std::string_view[]>, kChunks> chunks_;
  size_t size_ = 0;
  void Append(std::string_view view);
  // Copies text into the blocks; its stable view.
  std::string_view Store(std::string_view text);
  // Puts the ids from indexed_ on into the table.
  void IndexRest();
  std::vector<Slot> slots_;
  size_t indexed_ = 0;  // ids below are in the table
};

}  // namespace macroscope
