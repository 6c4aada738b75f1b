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

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace macroscope::server {

class JsonWriter {
 public:
  // The calls on the hot path are defined here so that they inline. Each
  // makes room for what it writes once, then writes through a pointer: a
  // window answer is a few hundred thousand small arrays, and appending
  // piece by piece to a std::string cost twice as much.
  JsonWriter& BeginObject() { return Open('{'); }
  JsonWriter& EndObject() { return Close('}'); }
  JsonWriter& BeginArray() { return Open('['); }
  JsonWriter& EndArray() { return Close(']'); }
  // Writes on inside an array that another writer opened (and wrote
  // elements to, when `has_elements`): the parts of one large answer are
  // written in parallel, then appended to one another.
  JsonWriter& ResumeArray(bool has_elements) {
    first_.push_back(!has_elements);
    return *this;
  }
  JsonWriter& Key(std::string_view key) {
    char* p = Room(key.size() + 4);
    p = BeforeValue(p);
    *p++ = '"';
    p = std::copy(key.begin(), key.end(), p);
    *p++ = '"';
    *p++ = ':';
    Commit(p);
    after_key_ = true;
    return *this;
  }
  JsonWriter& String(std::string_view text);
  JsonWriter& Number(double x) {
    char* p = BeforeValue(Room(kMaxNumber + 1));
    if (std::isfinite(x)) {
      Commit(std::to_chars(p, p + kMaxNumber, x).ptr);
    } else {
      Commit(std::copy_n("null", 4, p));  // JSON has no infinities; nlohmann writes null too
    }
    return *this;
  }
  JsonWriter& Integer(int64_t x) {
    char* p = BeforeValue(Room(kMaxNumber + 1));
    Commit(std::to_chars(p, p + kMaxNumber, x).ptr);
    return *this;
  }
  JsonWriter& Bool(bool b);
  JsonWriter& Null();

  std::string_view text() const { return {out_.data(), size_}; }
  std::string Take() {
    out_.resize(size_);
    size_ = 0;
    return std::move(out_);
  }
  void Reserve(size_t bytes) { out_.reserve(bytes); }
  size_t size() const { return size_; }

 private:
  // Room for any number in the shortest form that reads back the same.
  static constexpr size_t kMaxNumber = 32;

  JsonWriter& Open(char c) {
    char* p = BeforeValue(Room(2));
    *p++ = c;
    Commit(p);
    first_.push_back(true);
    return *this;
  }
  JsonWriter& Close(char c) {
    char* p = Room(1);
    *p++ = c;
    Commit(p);
    first_.pop_back();
    return *this;
  }
  // Where the next n bytes go: out_ is kept longer than what is written
  // (size_), and cut to it by Take().
  char* Room(size_t n) {
    if (size_ + n > out_.size()) Grow(n);
    return out_.data() + size_;
  }
  void Grow(size_t n);
  void Commit(const char* end) { size_ = static_cast<size_t>(end - out_.data()); }
  // Writes the comma a value needs at p (one byte of room); returns where
  // the value goes.
  char* BeforeValue(char* p) {
    if (after_key_) {
      after_key_ = false;
    } else if (!first_.empty()) {
      if (!first_.back()) *p++ = ',';
      first_.back() = false;
    }
    return p;
  }

  std::string out_;
  size_t size_ = 0;          // bytes written
  std::vector<char> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

}  // namespace macroscope::server
