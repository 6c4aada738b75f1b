#include "formats/gstreamer/debug_line.h"

#include <cstdint>
#include <limits>

namespace macroscope::gstreamer {

namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// `line` without its ANSI control sequences (ESC [ parameters final byte),
// into `out`. Other bytes, a lone ESC among them, stay.
void StripColours(std::string_view line, std::string& out) {
  out.clear();
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
      size_t j = i + 2;
      while (j < line.size() && static_cast<unsigned char>(line[j]) >= 0x20 && static_cast<unsigned char>(line[j]) <= 0x3f)
        ++j;
      if (j < line.size() && static_cast<unsigned char>(line[j]) >= 0x40 && static_cast<unsigned char>(line[j]) <= 0x7e) {
        i = j;
        continue;
      }
    }
    out += line[i];
  }
}

// Reads `count` digits (count 0: one to `max` of them) at `p` into `value`,
// saturated at UINT64_MAX (20 digits may not fit: never wrapped around).
bool Digits(std::string_view s, size_t& p, size_t count, size_t max, uint64_t& value) {
  size_t start = p;
  value = 0;
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  while (p < s.size() && IsDigit(s[p]) && (count ? p - start < count : p - start < max)) {
    const auto digit = static_cast<uint64_t>(s[p++] - '0');
    value = value > (kMax - digit) / 10 ? kMax : value * 10 + digit;
  }
  return count ? p - start == count : p > start && (p == s.size() || !IsDigit(s[p]));
}

// GST_TIME_FORMAT: "%u:%02u:%02u.%09u".
bool Time(std::string_view s, size_t& p, int64_t& ns) {
  uint64_t h, m, sec, frac;
  if (!Digits(s, p, 0, 20, h) || p >= s.size() || s[p++] != ':') return false;
  if (!Digits(s, p, 2, 2, m) || m >= 60 || p >= s.size() || s[p++] != ':') return false;
  if (!Digits(s, p, 2, 2, sec) || sec >= 60 || p >= s.size() || s[p++] != '.') return false;
  if (!Digits(s, p, 9, 9, frac)) return false;
  constexpr uint64_t kHourNs = uint64_t{3600} * 1000000000;
  constexpr auto kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (h > (kMax - kHourNs) / kHourNs) {  // only a broken clock writes these
    ns = std::numeric_limits<int64_t>::max();
  } else {
    ns = static_cast<int64_t>(h * kHourNs + (m * 60 + sec) * 1000000000 + frac);
  }
  return true;
}

void Spaces(std::string_view s, size_t& p) {
  while (p < s.size() && s[p] == ' ') ++p;
}

// A run of bytes up to the next space; false when empty or at the line's end.
bool Word(std::string_view s, size_t& p, std::string_view& word) {
  size_t start = p;
  while (p < s.size() && s[p] != ' ') ++p;
  word = s.substr(start, p - start);
  return !word.empty() && p < s.size();
}

}  // namespace

bool ParseDebugLine(std::string_view line, std::string& scratch, DebugLine& out) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.find('\x1b') != std::string_view::npos) {
    StripColours(line, scratch);
    line = scratch;
  }
  size_t p = 0;
  if (!Time(line, p, out.ns) || p >= line.size() || line[p] != ' ') return false;
  Spaces(line, p);
  uint64_t pid;
  size_t pid_start = p;
  if (!Digits(line, p, 0, 20, pid)) return false;
  out.pid = line.substr(pid_start, p - pid_start);
  std::string_view level;
  Spaces(line, p);
  if (!Word(line, p, out.thread)) return false;
  Spaces(line, p);
  if (!Word(line, p, level)) return false;
  out.level = 0;
  while (out.level < std::size(kLevels) && kLevels[out.level] != level) ++out.level;
  if (out.level == std::size(kLevels)) return false;
  Spaces(line, p);
  if (!Word(line, p, out.category)) return false;
  Spaces(line, p);

  // FILE:LINE: the first ':' followed by digits and a ':' (paths have no
  // such run; C++ function names may hold "::", so the file is found first).
  const size_t file_start = p;
  for (;; ++p) {
    p = line.find(':', p);
    if (p == std::string_view::npos) return false;
    size_t q = p + 1;
    while (q < line.size() && IsDigit(line[q])) ++q;
    if (q > p + 1 && q < line.size() && line[q] == ':') {
      out.file = line.substr(file_start, p - file_start);
      out.line = line.substr(p + 1, q - p - 1);
      p = q + 1;
      break;
    }
  }
  if (out.file.empty() || out.file.find(' ') != std::string_view::npos) return false;
  // FUNCTION: up to the ':' before "<OBJECT>", " TEXT" or the line's end.
  const size_t function_start = p;
  for (;; ++p) {
    p = line.find(':', p);
    if (p == std::string_view::npos) return false;
    if (p + 1 == line.size() || line[p + 1] == '<' || line[p + 1] == ' ') break;
  }
  out.function = line.substr(function_start, p - function_start);
  ++p;
  out.object = {};
  if (p < line.size() && line[p] == '<') {
    size_t close = p;
    do {
      close = line.find('>', close + 1);
      if (close == std::string_view::npos) return false;  // a cut line
    } while (close + 1 < line.size() && line[close + 1] != ' ');
    out.object = line.substr(p + 1, close - p - 1);
    p = close + 1;
  }
  out.text = p < line.size() ? line.substr(p + 1) : std::string_view();
  return true;
}

}  // namespace macroscope::gstreamer
