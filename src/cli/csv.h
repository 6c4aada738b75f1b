// CSV output shared by the commands that print CSV (RFC 4180 quoting).
#pragma once

#include <string>

namespace macroscope::cli {

// The field as is, or quoted with inner quotes doubled when it holds a
// comma, a quote or a line break.
inline std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

}  // namespace macroscope::cli
