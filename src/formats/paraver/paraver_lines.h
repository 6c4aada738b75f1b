// Line-by-line reading and integer fields, shared by the .prv, .pcf and .row
// parsers: the three files are plain text whose messages name a line.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace macroscope::paraver {

// The lines of `text` in order, without their "\n" or "\r\n"; line() is the
// 1-based number of the last line returned.
class Lines {
 public:
  explicit Lines(std::string_view text) : text_(text) {}
  bool Next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) end = text_.size();
    line = text_.substr(pos_, end - pos_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos_ = end + 1;
    ++line_;
    return true;
  }
  uint64_t line() const { return line_; }
  size_t offset() const { return pos_; }  // bytes consumed

 private:
  std::string_view text_;
  size_t pos_ = 0;
  uint64_t line_ = 0;
};

// A whole decimal field (no sign, no blanks); false otherwise.
inline bool ParseUnsigned(std::string_view s, uint64_t& out) {
  if (s.empty() || s.front() < '0' || s.front() > '9') return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

// A whole decimal field that may be negative ("-5"), as Paraver's event
// values, sizes and tags are: non-negative ones up to 2^64 - 1 (Extrae
// writes addresses), negative ones down to -2^63. `canonical` gets its
// text without leading zeros ("007" -> "7", "-0" -> "0"); false otherwise.
inline bool ParseInteger(std::string_view s, std::string& canonical) {
  const bool negative = s.starts_with('-');
  uint64_t magnitude = 0;
  if (!ParseUnsigned(negative ? s.substr(1) : s, magnitude)) return false;
  if (!negative || magnitude == 0) {
    canonical = std::to_string(magnitude);
    return true;
  }
  if (magnitude > uint64_t{1} << 63) return false;
  canonical = "-" + std::to_string(magnitude);
  return true;
}

inline std::string_view Trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

}  // namespace macroscope::paraver
