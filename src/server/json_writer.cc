#include "server/json_writer.h"

#include <cstdio>

namespace macroscope::server {

JsonWriter& JsonWriter::String(std::string_view text) {
  BeforeValue();
  Escaped(text);
  return *this;
}

JsonWriter& JsonWriter::Bool(bool b) {
  BeforeValue();
  out_ += b ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::Null() {
  BeforeValue();
  out_ += "null";
  return *this;
}

void JsonWriter::Escaped(std::string_view text) {
  out_ += '"';
  // Runs of characters that need no escape are appended whole: trace names
  // and values almost never hold any that do.
  size_t run = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out_.append(text.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out_ += "\\\""; break;
      case '\\': out_ += "\\\\"; break;
      case '\n': out_ += "\\n"; break;
      case '\r': out_ += "\\r"; break;
      case '\t': out_ += "\\t"; break;
      default: {
        char buffer[8];
        std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
        out_ += buffer;
      }
    }
  }
  out_.append(text.data() + run, text.size() - run);  // UTF-8 passes through
  out_ += '"';
}

}  // namespace macroscope::server
