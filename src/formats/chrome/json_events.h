// The trace events of a Chrome JSON text, one at a time: nlohmann's SAX
// parser walks the text and only the current element of the event array
// (the top-level array, or the top-level object's "traceEvents" array) is
// built as a JSON value, so a file of any size parses in the memory of its
// largest event. Other values of the top-level object are parsed (checked)
// and dropped. Each element comes with the byte offset where it starts,
// so that a caller can name it and let go of the text before it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace macroscope::chrome {

// An element nested deeper than this is not built (too_deep below):
// nlohmann's dump() and copies recurse once per level, and the stack holds
// a few thousand at most. The parser itself does not recurse.
constexpr int kMaxEventDepth = 1000;

struct JsonEvent {
  const nlohmann::json& value;  // null when too_deep
  uint64_t offset;              // byte offset (from 0) of the element's first character
  bool too_deep;                // nested deeper than kMaxEventDepth levels: skipped whole
  // The text of the element's "ts" and "dur" members when they are numbers
  // nlohmann holds as doubles (a fraction, an exponent, or beyond 64-bit
  // integers: "1.5", "1e3", "-9223372036854775809"); empty for any other
  // value. Times are read from it exactly, not from the rounded double.
  std::string_view ts_text, dur_text;
};

struct JsonEvents {
  enum class Top { kNone, kArray, kObject, kOther } top = Top::kNone;
  bool event_array = false;  // the top-level object had a "traceEvents" array
  uint64_t count = 0;        // elements of the event array(s)
  // The first syntax error: the byte offset (from 0) of the character where
  // the parser stopped (of the number's first digit for a number too large
  // for a double, nlohmann's error 406), and nlohmann's message. Empty
  // `error` when the text is valid JSON.
  size_t error_offset = 0;
  bool error_overflow = false;  // the number too large for a double
  std::string error;
};

// Calls `on_event` for every element of the event array, in order, while
// the text is parsed; exceptions from `on_event` propagate.
JsonEvents ForEachJsonEvent(std::string_view text, const std::function<void(const JsonEvent&)>& on_event);

}  // namespace macroscope::chrome
