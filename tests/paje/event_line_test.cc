// The decoding of one event line's numbers: times (double) and variable
// values (single precision, as pj_dump's strtof) must be the values
// std::from_chars gives, to the bit, for every word — the decoder reads
// plain decimals on a fast path of its own (event_line.cc), and anything
// else through from_chars. Random words of every shape near the fast
// path's limits (digit counts, places after the point, signs, exponents).
#include <gtest/gtest.h>

#include <bit>
#include <charconv>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "formats/paje/event_line.h"
#include "formats/paje/tokenizer.h"

namespace macroscope::paje {
namespace {

// A random number word: a sign, up to 24 digits with a point somewhere (or
// none, or first or last), sometimes an exponent or a stray letter.
std::string RandomNumberWord(std::mt19937_64& rng) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  std::string w;
  if (pick(4) == 0) w += '-';
  const int digits = pick(25);
  const int point = pick(digits + 3) - 1;  // -1 and beyond the digits: no point
  for (int i = 0; i < digits; ++i) {
    if (i == point) w += '.';
    w += static_cast<char>('0' + (pick(3) == 0 ? 0 : pick(10)));
  }
  if (point == digits) w += '.';
  if (pick(20) == 0) w += "e" + std::to_string(pick(40) - 20);
  if (pick(50) == 0) w.insert(static_cast<size_t>(pick(static_cast<int>(w.size()) + 1)), "x");
  return w;
}

template <class T>
std::optional<T> FromChars(const std::string& w) {
  T v{};
  auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
  if (ec != std::errc() || end != w.data() + w.size()) return std::nullopt;
  return v;
}

TEST(EventLineNumbers, TimesAreFromCharsValues) {
  std::mt19937_64 rng(7);
  int plain = 0;
  for (int i = 0; i < 300000; ++i) {
    const std::string w = RandomNumberWord(rng);
    std::optional<double> expected = FromChars<double>(w);
    std::optional<double> got = ToTime(w);
    ASSERT_EQ(got.has_value(), expected.has_value()) << w;
    if (!got) continue;
    ++plain;
    ASSERT_EQ(std::bit_cast<uint64_t>(*got), std::bit_cast<uint64_t>(*expected)) << w;
    ASSERT_EQ(std::bit_cast<uint64_t>(*ToTime("+" + w)), std::bit_cast<uint64_t>(*expected)) << w;
  }
  EXPECT_GT(plain, 200000);
}

// The short words most traces have: every word of up to 4 characters
// around digits, and random ones of up to 9 digits before and after the
// point, some with a character next to '0' or '9' that a digit test could
// let through.
TEST(EventLineNumbers, ShortWordsAreFromCharsValues) {
  const std::string alphabet = "0159./:-e";
  std::vector<std::string> words{""};
  for (size_t begin = 0, length = 1; length <= 4; ++length) {
    const size_t end = words.size();
    for (size_t i = begin; i < end; ++i)
      for (char c : alphabet) words.push_back(words[i] + c);
    begin = end;
  }
  std::mt19937_64 rng(5);
  for (int i = 0; i < 200000; ++i) {
    std::string w;
    const int whole = static_cast<int>(rng() % 10), fraction = static_cast<int>(rng() % 11) - 1;
    for (int d = 0; d < whole; ++d) w += static_cast<char>('0' + rng() % 10);
    if (fraction >= 0) w += '.';
    for (int d = 0; d < fraction; ++d) w += static_cast<char>('0' + rng() % 10);
    if (!w.empty() && rng() % 8 == 0) w[rng() % w.size()] = "/:.-"[rng() % 4];
    words.push_back(w);
  }
  for (const std::string& w : words) {
    std::optional<double> expected = FromChars<double>(w);
    std::optional<double> got = ToTime(w);
    ASSERT_EQ(got.has_value(), expected.has_value()) << w;
    if (got) {
      ASSERT_EQ(std::bit_cast<uint64_t>(*got), std::bit_cast<uint64_t>(*expected)) << w;
    }
  }
}

// A line's time is its own word's, whatever came before: runs of words
// that repeat, differ by one character anywhere (of 1 to 20 characters,
// across the 8- and 16-byte limits of the kept word), or are no numbers.
TEST(EventLineNumbers, LineTimesAreEachWordsOwn) {
  std::mt19937_64 rng(3);
  std::vector<std::string> words;
  for (size_t length = 1; length <= 20; ++length) {
    const std::string base = std::string("12345678901234567890").substr(0, length);
    words.push_back(base);
    for (size_t at = 0; at < length; ++at) {
      std::string w = base;
      w[at] = at == 0 ? '+' : rng() % 4 == 0 ? 'x' : '7';
      words.push_back(w);
    }
    words.push_back(base.substr(0, length - 1) + ".5");
  }
  LineTimes times;
  size_t k = 0;
  for (int i = 0; i < 200000; ++i) {
    if (rng() % 2 == 0) k = rng() % words.size();  // else the word before again
    const std::string& w = words[k];
    std::optional<double> expected = ToTime(w);
    if (!expected) {
      EXPECT_THROW(times.Of(w), LineError) << w;
      continue;
    }
    ASSERT_EQ(std::bit_cast<uint64_t>(times.Of(w)), std::bit_cast<uint64_t>(*expected)) << w;
  }
}

TEST(EventLineNumbers, VariableValuesAreSinglePrecisionFromCharsValues) {
  StringPool strings;
  DefinitionParser parser("test", false);
  std::optional<EventDefinition> def;
  uint64_t line = 0;
  for (const char* text : {"%EventDef PajeSetVariable 14", "% Time date", "% Type string", "% Container string",
                           "% Value double", "%EndEventDef"}) {
    std::vector<std::string_view> words;
    uint64_t number = 0;
    Tokenizer tokens(text);
    ASSERT_TRUE(tokens.Next(words, number));
    def = parser.Feed(words, ++line);
  }
  ASSERT_TRUE(def.has_value());
  DefinitionTable table;
  table.Add(*def, strings);
  std::mt19937_64 rng(11);
  LineTimes times;
  for (int i = 0; i < 300000; ++i) {
    const std::string w = RandomNumberWord(rng);
    std::optional<float> expected = FromChars<float>(w);
    Block block;
    const std::vector<std::string_view> words{"14", "1", "V", "c", w};
    try {
      DecodeEventLine(table, words, 1, strings, times, block);
    } catch (const LineError&) {
      ASSERT_FALSE(expected.has_value()) << w;
      continue;
    }
    ASSERT_TRUE(expected.has_value()) << w;
    ASSERT_EQ(std::bit_cast<uint32_t>(block.records.back().number), std::bit_cast<uint32_t>(*expected)) << w;
  }
}

}  // namespace
}  // namespace macroscope::paje
