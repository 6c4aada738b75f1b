// The bytes of a short string in two words, read within the string only
// (overlapping loads, so nothing past its end is touched): with the
// string's size, the words tell the string. For the lookups every line of
// a trace makes on short words (the string pool's cache, the Pajé
// decoder's last time word): one comparison of words instead of a hash
// computed byte by byte and a call to memcmp.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace macroscope {

struct PackedBytes {
  uint64_t first = 0;
  uint64_t second = 0;  // 0 up to 8 bytes
  bool operator==(const PackedBytes&) const = default;
};

inline constexpr size_t kPackedMax = 16;

// A string of 1 to kPackedMax bytes.
inline PackedBytes PackBytes(std::string_view text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  if (n > 8) {
    PackedBytes b;
    std::memcpy(&b.first, p, 8);
    std::memcpy(&b.second, p + n - 8, 8);
    return b;
  }
  if (n >= 4) {
    uint32_t first, last;
    std::memcpy(&first, p, 4);
    std::memcpy(&last, p + n - 4, 4);
    return {first | uint64_t{last} << 32, 0};
  }
  return {p[0] | uint64_t{p[n / 2]} << 8 | uint64_t{p[n - 1]} << 16, 0};
}

}  // namespace macroscope
