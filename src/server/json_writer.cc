#include "server/json_writer.h"

#include <algorithm>

namespace macroscope::server {

JsonWriter& JsonWriter::String(std::string_view text) {
  // Room for the worst case, every byte escaped as \u00XX, plus quotes and comma.
  char* p = BeforeValue(Room(6 * text.size() + 3));
  *p++ = '"';
  // Runs of characters that need no escape are copied whole: trace names
  // and values almost never hold any that do.
  size_t run = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    p = std::copy(text.data() + run, text.data() + i, p);
    run = i + 1;
    *p++ = '\\';
    switch (c) {
      case '"': *p++ = '"'; break;
      case '\\': *p++ = '\\'; break;
      case '\n': *p++ = 'n'; break;
      case '\r': *p++ = 'r'; break;
      case '\t': *p++ = 't'; break;
      default: {
        static constexpr char kHex[] = "0123456789abcdef";
        p = std::copy_n("u00", 3, p);
        *p++ = kHex[c >> 4];
        *p++ = kHex[c & 15];
      }
    }
  }
  p = std::copy(text.data() + run, text.data() + text.size(), p);  // UTF-8 passes through
  *p++ = '"';
  Commit(p);
  return *this;
}

void JsonWriter::Grow(size_t n) {
  // Lengthens out_ (zero-filled) by steps inside the reserved capacity, so
  // that a generous Reserve() costs no writes; past it, the string doubles.
  constexpr size_t kStep = 64 << 10;
  out_.resize(std::max(size_ + n, std::min(out_.capacity(), out_.size() + kStep)));
}

JsonWriter& JsonWriter::Bool(bool b) {
  char* p = BeforeValue(Room(6));
  Commit(b ? std::copy_n("true", 4, p) : std::copy_n("false", 5, p));
  return *this;
}

JsonWriter& JsonWriter::Null() {
  char* p = BeforeValue(Room(5));
  Commit(std::copy_n("null", 4, p));
  return *this;
}

}  // namespace macroscope::server
