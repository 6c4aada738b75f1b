// Cuts Pajé text into lines of words. Rules (those of pj_dump):
// blanks separate words; a word that starts with '"' runs to the next '"'
// (no escapes) or the end of the line; '#' outside a quoted word starts a
// comment that runs to the end of the line; lines without words are skipped.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace macroscope::paje {

class Tokenizer {
 public:
  explicit Tokenizer(std::string_view text, uint64_t first_line = 1)
      : p_(text.data()), end_(text.data() + text.size()), line_(first_line - 1) {}

  // Fills words with the next line that has any; returns false at the end.
  // `line` receives its 1-based number.
  bool Next(std::vector<std::string_view>& words, uint64_t& line);
  // The next unread character.
  const char* position() const { return p_; }
  // The number of the last line started (blank lines count): a Tokenizer
  // made on the text from position() with first line line() + 1 goes on
  // as this one would.
  uint64_t line() const { return line_; }

 private:
  const char* p_;
  const char* end_;
  uint64_t line_;
};

}  // namespace macroscope::paje
