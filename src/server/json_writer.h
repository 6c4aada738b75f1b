// A minimal streaming JSON writer for the large answers (windows, search):
// building a DOM of a hundred thousand small objects and serialising it
// costs several times more than appending text, and those answers are on
// the UI's interactive path. Small answers use nlohmann::json.
//
// The caller writes a well-formed sequence (the writer tracks only where
// commas go); keys are the caller's literals, written as they are (no
// quote, backslash or control character in them); strings are escaped; numbers are written in the
// shortest form that reads back to the same double.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace macroscope::server {

class JsonWriter {
 public:
  // The calls on the hot path are defined here so that they inline.
  JsonWriter& BeginObject() { return Open('{'); }
  JsonWriter& EndObject() { return Close('}'); }
  JsonWriter& BeginArray() { return Open('['); }
  JsonWriter& EndArray() { return Close(']'); }
  JsonWriter& Key(std::string_view key) {
    BeforeValue();
    out_ += '"';
    out_ += key;
    out_ += "\":";
    after_key_ = true;
    return *this;
  }
  JsonWriter& String(std::string_view text);
  JsonWriter& Number(double x) {
    BeforeValue();
    if (std::isfinite(x)) {
      Append(x);
    } else {
      out_ += "null";  // JSON has no infinities; nlohmann writes null too
    }
    return *this;
  }
  JsonWriter& Integer(int64_t x) {
    BeforeValue();
    Append(x);
    return *this;
  }
  JsonWriter& Bool(bool b);
  JsonWriter& Null();

  const std::string& text() const { return out_; }
  std::string Take() { return std::move(out_); }
  void Reserve(size_t bytes) { out_.reserve(bytes); }
  size_t size() const { return out_.size(); }

 private:
  JsonWriter& Open(char c) {
    BeforeValue();
    out_ += c;
    first_.push_back(true);
    return *this;
  }
  JsonWriter& Close(char c) {
    out_ += c;
    first_.pop_back();
    return *this;
  }
  void BeforeValue() {
    if (after_key_) {
      after_key_ = false;
    } else if (!first_.empty()) {
      if (!first_.back()) out_ += ',';
      first_.back() = false;
    }
  }
  void Escaped(std::string_view text);
  // x in the shortest form that reads back the same.
  template <class T>
  void Append(T x) {
    char buffer[32];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, x);
    out_.append(buffer, ec == std::errc() ? end : buffer);
  }

  std::string out_;
  std::vector<char> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

}  // namespace macroscope::server
