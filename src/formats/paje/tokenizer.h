// Cuts Pajé text into lines of words. Rules (those of pj_dump):
// blanks separate words; a word that starts with '"' runs to the next '"'
// (no escapes) or the end of the line; '#' outside a quoted word starts a
// comment that runs to the end of the line; lines without words are skipped.
#pragma once

#include <bit>
#include <cstdint>
#include <string_view>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace macroscope::paje {

class Tokenizer {
 public:
  explicit Tokenizer(std::string_view text, uint64_t first_line = 1)
      : p_(text.data()), end_(text.data() + text.size()), line_(first_line - 1) {}

  // Fills words with the next line that has any; returns false at the end.
  // `line` receives its 1-based number.
  bool Next(std::vector<std::string_view>& words, uint64_t& line) {
    // Inline, the usual line (ShortLine): every line of a trace comes here.
#if defined(__SSE2__)
    if (end_ - p_ >= 32) {
      words.clear();
      if (const char* newline = ShortLine(p_, words); newline != nullptr && !words.empty()) {
        p_ = newline + 1;
        line = ++line_;
        return true;
      }
    }
#endif
    return NextAny(words, line);
  }
  // The next unread character.
  const char* position() const { return p_; }
  // The number of the last line started (blank lines count): a Tokenizer
  // made on the text from position() with first line line() + 1 goes on
  // as this one would.
  uint64_t line() const { return line_; }

 private:
#if defined(__SSE2__)
  // Most lines are short words between single blanks: a line that ends
  // within the 32 characters at p, with no quote and no comment, is cut
  // from bit masks of those characters (16 at a time) instead of one
  // character at a time. Returns the end of the line, or null for NextAny.
  static const char* ShortLine(const char* p, std::vector<std::string_view>& words) {
    const __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i high = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16));
    const uint32_t newline = Mask(_mm_cmpeq_epi8(low, _mm_set1_epi8('\n')), _mm_cmpeq_epi8(high, _mm_set1_epi8('\n')));
    if (newline == 0) return nullptr;
    const int length = std::countr_zero(newline);
    const uint32_t line = (uint32_t{1} << length) - 1;  // length < 32
    if ((Mask(QuoteOrHash(low), QuoteOrHash(high)) & line) != 0) return nullptr;
    const uint32_t word = ~Mask(Blank(low), Blank(high)) & line;
    for (uint32_t starts = word & ~(word << 1); starts != 0; starts &= starts - 1) {
      const int start = std::countr_zero(starts);
      words.emplace_back(p + start, std::countr_zero(~(word >> start)));
    }
    return p + length;
  }
  static uint32_t Mask(__m128i low, __m128i high) {
    return static_cast<uint32_t>(_mm_movemask_epi8(low)) | static_cast<uint32_t>(_mm_movemask_epi8(high)) << 16;
  }
  static __m128i QuoteOrHash(__m128i v) {
    return _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('#')));
  }
  // ' ', or '\t' '\n' '\v' '\f' '\r' (9 to 13: at most 4 above 9, unsigned);
  // '\n' ends the line before any blank counts.
  static __m128i Blank(__m128i v) {
    const __m128i above_tab = _mm_sub_epi8(v, _mm_set1_epi8('\t'));
    return _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
                        _mm_cmpeq_epi8(_mm_min_epu8(above_tab, _mm_set1_epi8(4)), above_tab));
  }
#endif
  // Next, for any line: the character-by-character loop.
  bool NextAny(std::vector<std::string_view>& words, uint64_t& line);
  const char* p_;
  const char* end_;
  uint64_t line_;
};

}  // namespace macroscope::paje
