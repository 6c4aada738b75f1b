#include "formats/paje/tokenizer.h"

#include <array>
#include <cstring>

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

}  // namespace

bool Tokenizer::NextAny(std::vector<std::string_view>& words, uint64_t& line) {
  while (p_ < end_) {
    words.clear();
    ++line_;
    const char* p = p_;
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
