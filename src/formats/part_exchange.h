// Reading a trace in parts: when a trace is several files (OTF2 locations),
// each of `parts()` processes reads its own share and the parts meet through
// this interface to agree on what spans them all (the time span, messages
// whose two ends are in different parts). src/mpi implements it over MPI;
// formats never see MPI.
//
// Every call is collective: every part makes the same calls in the same
// order, or the parts wait for one another forever.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <stdexcept>

namespace macroscope::formats {

class PartExchange {
 public:
  virtual ~PartExchange() = default;

  virtual int part() const = 0;
  virtual int parts() const = 0;

  // `error` is this part's UserError message ("" when it did well). Throws
  // UserError with the message of the first part that failed, on every part,
  // when any did: a bad file read by one part ends them all the same way.
  virtual void Agree(const std::string& error) = 0;

  virtual double Min(double x) = 0;
  virtual double Max(double x) = 0;
  virtual double Sum(double x) = 0;

  // `to[p]` goes to part p (to.size() == parts()); returns what every part
  // sent to this one, by sender.
  virtual std::vector<std::string> AllToAll(const std::vector<std::string>& to) = 0;
  // Every part's `mine`, by part, on every part.
  virtual std::vector<std::string> AllGather(const std::string& mine) = 0;
  // Every part's `mine`, by part, on part 0; empty elsewhere.
  virtual std::vector<std::string> Gather(const std::string& mine) = 0;
  // Part 0's `text` on every part.
  virtual std::string Broadcast(const std::string& text) = 0;
};

// What parts send one another is bytes in this machine's layout (the parts
// of one job run the same binary): numbers as they are in memory, strings
// after their length.
class BytesOut {
 public:
  template <class T>
  void Put(T x) {
    static_assert(std::is_arithmetic_v<T>, "numbers only; strings go through PutString");
    bytes_.append(reinterpret_cast<const char*>(&x), sizeof x);
  }
  void PutString(std::string_view s) {
    Put<uint64_t>(s.size());
    bytes_.append(s);
  }
  std::string& bytes() { return bytes_; }

 private:
  std::string bytes_;
};

class BytesIn {
 public:
  explicit BytesIn(std::string_view bytes) : bytes_(bytes) {}
  bool done() const { return at_ == bytes_.size(); }
  template <class T>
  T Get() {
    static_assert(std::is_arithmetic_v<T>);
    T x;
    std::memcpy(&x, Take(sizeof x), sizeof x);
    return x;
  }
  std::string_view GetString() {
    auto size = Get<uint64_t>();
    return {Take(size), size};
  }

 private:
  const char* Take(size_t n) {
    // Parts run the same binary: a short buffer is a bug, not bad input.
    if (n > bytes_.size() - at_) throw std::logic_error("part exchange: truncated message");
    const char* p = bytes_.data() + at_;
    at_ += n;
    return p;
  }
  std::string_view bytes_;
  size_t at_ = 0;
};

}  // namespace macroscope::formats
