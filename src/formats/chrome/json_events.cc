#include "formats/chrome/json_events.h"

#include <algorithm>
#include <iterator>
#include <utility>
#include <vector>

namespace macroscope::chrome {

namespace {

using Json = nlohmann::json;

// A pointer into the text that records how far the parser has read: SAX
// callbacks carry no position, and the elements' offsets are wanted.
class TrackedChar {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  TrackedChar(const char* p, const char** read) : p_(p), read_(read) {}
  reference operator*() const { return *p_; }
  TrackedChar& operator++() {
    *read_ = ++p_;
    return *this;
  }
  TrackedChar operator++(int) {
    TrackedChar old = *this;
    ++*this;
    return old;
  }
  bool operator==(const TrackedChar& other) const { return p_ == other.p_; }

 private:
  const char* p_;
  const char** read_;
};

bool InNumber(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

// Follows the structure of the text; builds the element of the event array
// under way, if any, and hands it over when it is complete.
class Splitter {
 public:
  Splitter(std::string_view text, JsonEvents& out, const std::function<void(const JsonEvent&)>& on_event)
      : text_(text), read_(text.data()), out_(out), on_event_(on_event) {}

  const char** read() { return &read_; }

  bool null() { return Value(Json(nullptr)); }
  bool boolean(bool v) { return Value(Json(v)); }
  bool number_integer(Json::number_integer_t v) { return Value(Json(v)); }
  bool number_unsigned(Json::number_unsigned_t v) { return Value(Json(v)); }
  bool number_float(Json::number_float_t v, const Json::string_t& text) {
    float_text_ = &text;
    const bool ok = Value(Json(v));
    float_text_ = nullptr;
    return ok;
  }
  bool string(Json::string_t& v) { return Value(Json(std::move(v))); }
  bool binary(Json::binary_t& v) { return Value(Json(Json::binary_t(std::move(v)))); }
  bool start_object(std::size_t) { return Open(Json::object(), false); }
  bool start_array(std::size_t) { return Open(Json::array(), true); }
  bool end_object() { return Close(); }
  bool end_array() { return Close(); }
  bool key(Json::string_t& k) {
    if (skipping_ > 0) return true;
    if (!stack_.empty()) {
      key_ = std::move(k);
    } else if (depth_ == 1 && out_.top == JsonEvents::Top::kObject) {
      events_key_ = k == "traceEvents";
    }
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) {
    out_.error = ex.what();
    out_.error_overflow = ex.id == 406;
    if (out_.error_overflow) {
      // position: just after the number; its first character is wanted.
      size_t start = std::min(position, text_.size());
      while (start > 0 && InNumber(text_[start - 1])) --start;
      out_.error_offset = start;
    } else {
      // position: characters read, the one the parser stopped on included.
      out_.error_offset = position > 0 ? position - 1 : 0;
    }
    return false;
  }

 private:
  uint64_t Read() const { return static_cast<uint64_t>(read_ - text_.data()); }
  // Where a value goes: into the element under way, or it starts one.
  Json* Place(Json v) {
    if (stack_.empty()) {
      element_ = std::move(v);
      return &element_;
    }
    Json& parent = *stack_.back();
    if (parent.is_array()) {
      parent.push_back(std::move(v));
      return &parent.back();
    }
    Json& slot = parent[key_];  // a repeated key keeps its last value, as nlohmann's own parser does
    slot = std::move(v);
    if (stack_.size() == 1 && (key_ == "ts" || key_ == "dur"))  // a time of the event itself
      (key_ == "ts" ? ts_text_ : dur_text_) = float_text_ != nullptr ? *float_text_ : std::string();
    return &slot;
  }
  bool InEventArray() const { return event_depth_ >= 0 && depth_ == event_depth_; }
  void Seen(JsonEvents::Top top) {
    if (out_.top == JsonEvents::Top::kNone) out_.top = top;
  }
  bool Value(Json v) {
    Seen(JsonEvents::Top::kOther);
    if (skipping_ > 0) return true;
    if (!stack_.empty()) {
      Place(std::move(v));
    } else if (InEventArray()) {
      // The scalar's token is read (a number one character beyond): it
      // starts at the first byte after the last element that is neither
      // blank nor the comma.
      uint64_t start = boundary_;
      while (start < text_.size() && (text_[start] == ' ' || text_[start] == '\t' || text_[start] == '\n' ||
                                      text_[start] == '\r' || text_[start] == ','))
        ++start;
      element_offset_ = start;
      element_ = std::move(v);
      Hand();
    }
    return true;
  }
  bool Open(Json v, bool array) {
    if (skipping_ > 0) {
      ++skipping_;
      return true;
    }
    const bool starts = stack_.empty() && InEventArray();
    if (starts) element_offset_ = Read() - 1;  // the bracket just read
    if (!stack_.empty() || starts) {
      if (stack_.size() >= static_cast<size_t>(kMaxEventDepth)) {
        skipping_ = 1;
        too_deep_ = true;
        return true;
      }
      stack_.push_back(Place(std::move(v)));
      return true;
    }
    if (out_.top == JsonEvents::Top::kNone) {
      out_.top = array ? JsonEvents::Top::kArray : JsonEvents::Top::kObject;
      if (array) event_depth_ = 1;
    } else if (array && depth_ == 1 && out_.top == JsonEvents::Top::kObject && events_key_) {
      event_depth_ = 2;
      out_.event_array = true;
    }
    ++depth_;
    events_key_ = false;
    if (InEventArray()) boundary_ = Read();
    return true;
  }
  bool Close() {
    if (skipping_ > 0) {
      --skipping_;
      return true;
    }
    if (!stack_.empty()) {
      stack_.pop_back();
      if (stack_.empty()) Hand();
      return true;
    }
    if (depth_ == event_depth_) event_depth_ = -1;
    --depth_;
    return true;
  }
  void Hand() {
    ++out_.count;
    if (too_deep_) element_ = Json();
    on_event_(JsonEvent{element_, element_offset_, too_deep_, ts_text_, dur_text_});
    element_ = Json();
    ts_text_.clear();
    dur_text_.clear();
    too_deep_ = false;
    boundary_ = Read();
  }

  std::string_view text_;
  const char* read_;  // how far the parser has read (TrackedChar)
  JsonEvents& out_;
  const std::function<void(const JsonEvent&)>& on_event_;
  int64_t depth_ = 0;         // containers open outside the element under way
  int64_t event_depth_ = -1;  // depth_ inside the event array, -1 outside it
  bool events_key_ = false;  // the last key of the top-level object was "traceEvents"
  Json element_;
  uint64_t element_offset_ = 0;
  uint64_t boundary_ = 0;  // where the last element (or the event array's bracket) ended
  bool too_deep_ = false;  // the element under way nests deeper than kMaxEventDepth
  uint64_t skipping_ = 0;  // containers open beyond kMaxEventDepth, not built
  std::vector<Json*> stack_;  // the element's containers open, outermost first
  std::string key_;
  const std::string* float_text_ = nullptr;  // the text of the double being placed
  std::string ts_text_, dur_text_;           // JsonEvent's, for the element under way
};

}  // namespace

JsonEvents ForEachJsonEvent(std::string_view text, const std::function<void(const JsonEvent&)>& on_event) {
  JsonEvents out;
  Splitter splitter(text, out, on_event);
  const char* end = text.data() + text.size();
  Json::sax_parse(TrackedChar(text.data(), splitter.read()), TrackedChar(end, splitter.read()), &splitter);
  return out;
}

}  // namespace macroscope::chrome
