#include "loops/trace_text.h"

#include <string>

#include "util/error.h"

namespace macroscope::loops {

namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

[[noreturn]] void Fail(std::string_view name, uint64_t line, uint64_t col, std::string_view what,
                       std::string_view token) {
  // Long junk (a binary file) is cut so that the message stays one line.
  std::string shown(token.substr(0, 40));
  for (char& c : shown) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  }
  if (token.size() > 40) shown += "...";
  throw UserError(std::string(name) + ":" + std::to_string(line) + ":" + std::to_string(col) + ": " +
                  std::string(what) + " '" + shown + "'");
}

}  // namespace

std::vector<int64_t> ParseTrace(std::string_view bytes, std::string_view name) {
  std::vector<int64_t> values;
  values.reserve(bytes.size() / 4);
  uint64_t line = 1;
  size_t line_start = 0;
  size_t i = 0;
  const size_t n = bytes.size();
  while (i < n) {
    const char c = bytes[i];
    if (IsSpace(c)) {
      if (c == '\n') {
        ++line;
        line_start = i + 1;
      }
      ++i;
      continue;
    }
    const size_t begin = i;
    while (i < n && !IsSpace(bytes[i])) ++i;
    const std::string_view token = bytes.substr(begin, i - begin);
    const uint64_t col = begin - line_start + 1;
    size_t pos = 0;
    bool negative = false;
    if (token[0] == '-' || token[0] == '+') {
      negative = token[0] == '-';
      pos = 1;
    }
    if (pos == token.size()) Fail(name, line, col, "not an integer", token);
    // Accumulate the magnitude in uint64_t; the limit is 2^63 - 1, or 2^63
    // for a negative number.
    const uint64_t limit = negative ? (uint64_t{1} << 63) : (uint64_t{1} << 63) - 1;
    uint64_t magnitude = 0;
    bool overflow = false;
    for (; pos < token.size(); ++pos) {
      const char d = token[pos];
      if (d < '0' || d > '9') Fail(name, line, col, "not an integer", token);
      const uint64_t digit = static_cast<uint64_t>(d - '0');
      if (magnitude > (limit - digit) / 10) overflow = true;
      else magnitude = magnitude * 10 + digit;
    }
    if (overflow) Fail(name, line, col, "integer out of range", token);
    values.push_back(negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude));
  }
  if (values.empty()) throw UserError(std::string(name) + ":1:1: empty trace (no integers)");
  return values;
}

}  // namespace macroscope::loops
