// The trace events of a Chrome JSON text, one at a time: nlohmann's SAX
// parser walks the text and only the current element of the event array
// (the top-level array, or the top-level object's "traceEvents" array) is
// built as a JSON value, so a file of any size parses in the memory of its
// largest event. Other values of the top-level object are parsed (checked)
// and dropped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace macroscope::chrome {

struct JsonEvents {
  enum class Top { kNone, kArray, kObject, kOther } top = Top::kNone;
  bool event_array = false;  // the top-level object had a "traceEvents" array
  uint64_t count = 0;        // elements of the event array(s)
  // The first syntax error: byte offset (as nlohmann's parse_error::byte),
  // nlohmann's exception id (406: a number too large for a double) and
  // message. Empty `error` when the text is valid JSON.
  size_t error_byte = 0;
  int error_id = 0;
  std::string error;
};

// Calls `on_event` for every element of the event array, in order, while
// the text is parsed; exceptions from `on_event` propagate.
JsonEvents ForEachJsonEvent(std::string_view text, const std::function<void(const nlohmann::json&)>& on_event);

}  // namespace macroscope::chrome
