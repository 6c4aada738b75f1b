#include "formats/chrome/json_events.h"

#include <utility>
#include <vector>

namespace macroscope::chrome {

namespace {

using Json = nlohmann::json;

// Follows the structure of the text; builds the element of the event array
// under way, if any, and hands it over when it is complete.
class Splitter {
 public:
  Splitter(JsonEvents& out, const std::function<void(const Json&)>& on_event) : out_(out), on_event_(on_event) {}

  bool null() { return Value(Json(nullptr)); }
  bool boolean(bool v) { return Value(Json(v)); }
  bool number_integer(Json::number_integer_t v) { return Value(Json(v)); }
  bool number_unsigned(Json::number_unsigned_t v) { return Value(Json(v)); }
  bool number_float(Json::number_float_t v, const Json::string_t&) { return Value(Json(v)); }
  bool string(Json::string_t& v) { return Value(Json(std::move(v))); }
  bool binary(Json::binary_t& v) { return Value(Json(Json::binary_t(std::move(v)))); }
  bool start_object(std::size_t) { return Open(Json::object(), false); }
  bool start_array(std::size_t) { return Open(Json::array(), true); }
  bool end_object() { return Close(); }
  bool end_array() { return Close(); }
  bool key(Json::string_t& k) {
    if (!stack_.empty()) {
      key_ = std::move(k);
    } else if (depth_ == 1 && out_.top == JsonEvents::Top::kObject) {
      events_key_ = k == "traceEvents";
    }
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) {
    out_.error_byte = position;
    out_.error_id = ex.id;
    out_.error = ex.what();
    return false;
  }

 private:
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
    return &slot;
  }
  bool InEventArray() const { return event_depth_ >= 0 && depth_ == event_depth_; }
  void Seen(JsonEvents::Top top) {
    if (out_.top == JsonEvents::Top::kNone) out_.top = top;
  }
  bool Value(Json v) {
    Seen(JsonEvents::Top::kOther);
    if (!stack_.empty()) {
      Place(std::move(v));
    } else if (InEventArray()) {
      element_ = std::move(v);
      Hand();
    }
    return true;
  }
  bool Open(Json v, bool array) {
    if (!stack_.empty() || InEventArray()) {
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
    return true;
  }
  bool Close() {
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
    on_event_(element_);
    element_ = Json();
  }

  JsonEvents& out_;
  const std::function<void(const Json&)>& on_event_;
  int depth_ = 0;          // containers open outside the element under way
  int event_depth_ = -1;   // depth_ inside the event array, -1 outside it
  bool events_key_ = false;  // the last key of the top-level object was "traceEvents"
  Json element_;
  std::vector<Json*> stack_;  // the element's containers open, outermost first
  std::string key_;
};

}  // namespace

JsonEvents ForEachJsonEvent(std::string_view text, const std::function<void(const Json&)>& on_event) {
  JsonEvents out;
  Splitter splitter(out, on_event);
  Json::sax_parse(text.begin(), text.end(), &splitter);
  return out;
}

}  // namespace macroscope::chrome
