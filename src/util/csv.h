// CSV output (RFC 4180 quoting), shared by the commands that print CSV and
// the workflow's write-csv module.
#pragma once

#include <string>
#include <string_view>

namespace macroscope {

// The field as is, or quoted with inner quotes doubled when it holds a
// comma, a quote or a line break (CR or LF).
inline std::string CsvField(std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

}  // namespace macroscope
