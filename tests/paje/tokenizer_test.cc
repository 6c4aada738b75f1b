// The tokenizer cuts short lines from bit masks of 32 characters at a
// time (when 32 remain) and everything else one character at a time
// (tokenizer.h): both must cut the same words. A line alone, with its
// newline and under 32 characters, takes the one-character way; the whole
// text, lines one after the other, takes the other way for most of them.
// Random lines of blanks of every kind, quotes, comments, NULs, word
// characters, and the control and high bytes on either side of the blanks'
// codes (words, for pj_dump).
#include <gtest/gtest.h>

#include <ostream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "formats/paje/tokenizer.h"

namespace macroscope::paje {
namespace {

struct Line {
  uint64_t number;
  std::vector<std::string> words;
  bool operator==(const Line&) const = default;
};

void PrintTo(const Line& line, std::ostream* out) {
  *out << line.number << ":";
  for (const std::string& w : line.words) *out << " [" << w << "]";
}

std::vector<Line> Cut(std::string_view text, uint64_t first_line) {
  std::vector<Line> lines;
  Tokenizer tokens(text, first_line);
  std::vector<std::string_view> words;
  uint64_t number = 0;
  while (tokens.Next(words, number)) lines.push_back({number, {words.begin(), words.end()}});
  return lines;
}

TEST(TokenizerTest, ShortLinesCutAsCharacterByCharacter) {
  std::mt19937_64 rng(3);
  const std::string alphabet("ab1. \t\r\v\f\"#x\0\x08\x0e\x1f\x21\x7f\x80\x89\xff", 21);
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    std::vector<Line> expected;
    const int lines = 1 + static_cast<int>(rng() % 40);
    for (int i = 0; i < lines; ++i) {
      std::string line;
      // Under 31 characters (so that alone, with its newline, it is under
      // 32), or over 32 (too long for the masks either way).
      const size_t length = rng() % 8 == 0 ? 33 + rng() % 30 : rng() % 31;
      for (size_t k = 0; k < length; ++k) {
        // Mostly words and spaces, the other characters now and then.
        const uint64_t pick = rng() % 20;
        line += pick < 10 ? "ab1."[pick % 4] : pick < 16 ? ' ' : alphabet[rng() % alphabet.size()];
      }
      // A quote takes the next character whatever it is, a newline too
      // (and then the next line): not what a line alone can show.
      if (!line.empty() && line.back() == '"') line += 'a';
      const bool newline = i + 1 < lines || rng() % 2 == 0;
      for (Line& l : Cut(line + (newline ? "\n" : ""), static_cast<uint64_t>(i) + 1)) expected.push_back(std::move(l));
      text += line + (newline ? "\n" : "");
    }
    ASSERT_EQ(Cut(text, 1), expected) << "round " << round;
  }
}

}  // namespace
}  // namespace macroscope::paje
