#include "formats/paje/tokenizer.h"

#include <array>
#include <bit>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace macroscope::paje {

namespace {

inline bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// The characters that end a bare word, looked up in one load instead of
// seven comparisons: the inner loop of every read.
constexpr std::array<bool, 256> kEndsWord = [] {
  std::array<bool, 256> ends{};
  for (char c : {' ', '\t', '\r', '\v', '\f', '\n', '#'}) ends[static_cast<unsigned char>(c)] = true;
  return ends;
}();

#if defined(__SSE2__)
// Bits of the 32 characters at p equal to any of `chars`.
template <char... kChars>
uint32_t Matches(__m128i low, __m128i high) {
  auto mask = [](__m128i v) {
    __m128i any = _mm_setzero_si128();
    ((any = _mm_or_si128(any, _mm_cmpeq_epi8(v, _mm_set1_epi8(kChars)))), ...);
    return static_cast<uint32_t>(_mm_movemask_epi8(any));
  };
  return mask(low) | mask(high) << 16;
}

// Most lines are short words between single blanks: a line that ends
// within the 32 characters at p, with no quote and no comment, is cut from
// bit masks of those characters (16 at a time) instead of one character
// at a time. Returns the end of the line, or null for the general loop.
const char* ShortLine(const char* p, std::vector<std::string_view>& words) {
  const __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i high = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16));
  const uint32_t newline = Matches<'\n'>(low, high);
  if (newline == 0) return nullptr;
  const int length = std::countr_zero(newline);
  const uint32_t line = (uint32_t{1} << length) - 1;  // length < 32
  if ((Matches<'"', '#'>(low, high) & line) != 0) return nullptr;
  const uint32_t word = ~Matches<' ', '\t', '\r', '\v', '\f'>(low, high) & line;
  for (uint32_t starts = word & ~(word << 1); starts != 0; starts &= starts - 1) {
    const int start = std::countr_zero(starts);
    words.emplace_back(p + start, std::countr_zero(~(word >> start)));
  }
  return p + length;
}
#endif

}  // namespace

bool Tokenizer::Next(std::vector<std::string_view>& words, uint64_t& line) {
  while (p_ < end_) {
    words.clear();
    ++line_;
    const char* p = p_;
#if defined(__SSE2__)
    if (end_ - p >= 32) {
      if (const char* newline = ShortLine(p, words)) {
        p_ = newline + 1;
        if (words.empty()) continue;
        line = line_;
        return true;
      }
    }
#endif
    while (p < end_ && *p != '\n') {
      char c = *p;
      if (IsBlank(c)) {
        ++p;
        continue;
      }
      if (c == '#') {  // comment: skip to the end of the line
        const char* nl = static_cast<const char*>(std::memchr(p, '\n', end_ - p));
        p = nl ? nl : end_;
        break;
      }
      if (c == '"') {
        // As pj_dump: the character after the opening quote is always part
        // of the word, so `""` is the one-character word `"`.
        const char* start = ++p;
        if (p < end_) ++p;
        while (p < end_ && *p != '"' && *p != '\n') ++p;
        words.emplace_back(start, p - start);
        if (p < end_ && *p == '"') ++p;
        continue;
      }
      const char* start = p;
      while (p < end_ && !kEndsWord[static_cast<unsigned char>(*p)]) ++p;
      words.emplace_back(start, p - start);
    }
    p_ = p < end_ ? p + 1 : end_;
    if (!words.empty()) {
      line = line_;
      return true;
    }
  }
  return false;
}

}  // namespace macroscope::paje
