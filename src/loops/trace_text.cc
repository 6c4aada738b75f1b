#include "loops/trace_text.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "util/error.h"

namespace macroscope::loops {

namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

constexpr size_t kBlockBytes = size_t{1} << 20;

}  // namespace

std::string ShownInput(std::string_view text) {
  // Long junk (a binary file) is cut so that the message stays one line.
  std::string shown(text.substr(0, 40));
  for (char& c : shown) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  }
  if (text.size() > 40) shown += "...";
  return shown;
}

void TraceTokenizer::Token(std::string_view token, uint64_t offset, std::vector<int64_t>& out) const {
  const auto fail = [&](const char* what) {
    throw UserError(name_ + ":" + std::to_string(line_) + ":" + std::to_string(offset - line_start_ + 1) + ": " +
                    what + " '" + ShownInput(token) + "'");
  };
  size_t pos = 0;
  bool negative = false;
  if (token[0] == '-' || token[0] == '+') {
    negative = token[0] == '-';
    pos = 1;
  }
  if (pos == token.size()) fail("not an integer");
  // Accumulate the magnitude in uint64_t; the limit is 2^63 - 1, or 2^63
  // for a negative number.
  const uint64_t limit = negative ? (uint64_t{1} << 63) : (uint64_t{1} << 63) - 1;
  uint64_t magnitude = 0;
  bool overflow = false;
  for (; pos < token.size(); ++pos) {
    const char d = token[pos];
    if (d < '0' || d > '9') fail("not an integer");
    const uint64_t digit = static_cast<uint64_t>(d - '0');
    if (magnitude > (limit - digit) / 10) overflow = true;
    else magnitude = magnitude * 10 + digit;
  }
  if (overflow) fail("integer out of range");
  out.push_back(negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude));
}

void TraceTokenizer::Feed(std::string_view bytes, bool last, std::vector<int64_t>& out) {
  const size_t n = bytes.size();
  size_t i = 0;
  if (!carry_.empty()) {
    // The unfinished token goes on up to the first blank of this piece.
    while (i < n && !IsSpace(bytes[i])) ++i;
    carry_.append(bytes.data(), i);
    if (i == n && !last) {
      offset_ += n;
      return;
    }
    Token(carry_, carry_offset_, out);
    carry_.clear();
  }
  while (i < n) {
    const char c = bytes[i];
    if (IsSpace(c)) {
      if (c == '\n') {
        ++line_;
        line_start_ = offset_ + i + 1;
      }
      ++i;
      continue;
    }
    const size_t begin = i;
    while (i < n && !IsSpace(bytes[i])) ++i;
    if (i == n && !last) {
      carry_.assign(bytes.data() + begin, n - begin);
      carry_offset_ = offset_ + begin;
      break;
    }
    Token(bytes.substr(begin, i - begin), offset_ + begin, out);
  }
  offset_ += n;
}

std::vector<int64_t> ParseTrace(std::string_view bytes, std::string_view name) {
  std::vector<int64_t> values;
  values.reserve(bytes.size() / 4);
  TraceTokenizer tokenizer(name);
  tokenizer.Feed(bytes, true, values);
  if (values.empty()) throw UserError(std::string(name) + ":1:1: empty trace (no integers)");
  return values;
}

TraceReader::TraceReader(const std::string& path, std::string_view name)
    : name_(name), tokenizer_(name), block_(kBlockBytes) {
  fd_ = path == "-" ? 0 : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw UserError(path + ": cannot open (" + std::strerror(errno) + ")");
}

TraceReader::~TraceReader() {
  if (fd_ > 0) ::close(fd_);
}

size_t TraceReader::Read(std::vector<int64_t>& out, size_t max) {
  size_t given = 0;
  while (given < max) {
    if (pending_at_ == pending_.size()) {
      if (end_) break;
      pending_.clear();
      pending_at_ = 0;
      const ssize_t got = ::read(fd_, block_.data(), block_.size());
      if (got < 0) {
        if (errno == EINTR) continue;
        throw UserError(name_ + ": cannot read (" + std::strerror(errno) + ")");
      }
      end_ = got == 0;
      tokenizer_.Feed(std::string_view(block_.data(), static_cast<size_t>(got)), end_, pending_);
      if (end_ && values_ + pending_.size() == 0) throw UserError(name_ + ":1:1: empty trace (no integers)");
      continue;
    }
    const size_t take = std::min(max - given, pending_.size() - pending_at_);
    out.insert(out.end(), pending_.begin() + static_cast<std::ptrdiff_t>(pending_at_),
               pending_.begin() + static_cast<std::ptrdiff_t>(pending_at_ + take));
    pending_at_ += take;
    given += take;
    values_ += take;
  }
  return given;
}

}  // namespace macroscope::loops
