// The text form of an integer trace: 64-bit signed integers separated by
// whitespace (spaces, tabs, newlines), parsed whole or streamed in blocks.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace macroscope::loops {

// The parser of both forms: bytes are fed in pieces of any size (a token
// may straddle two pieces); positions in messages are those of the whole
// text. Throws UserError "name:line:col: not an integer 'tok'" for junk and
// "name:line:col: integer out of range 'tok'" for overflow.
class TraceTokenizer {
 public:
  explicit TraceTokenizer(std::string_view name) : name_(name) {}

  // Appends the integers of `bytes` to `out`; with `last` false, a token
  // at the very end is kept until the next piece.
  void Feed(std::string_view bytes, bool last, std::vector<int64_t>& out);

 private:
  void Token(std::string_view token, uint64_t offset, std::vector<int64_t>& out) const;

  std::string name_;
  std::string carry_;          // an unfinished token
  uint64_t carry_offset_ = 0;  // its offset in the whole text
  uint64_t offset_ = 0;        // bytes fed so far
  uint64_t line_ = 1;
  uint64_t line_start_ = 0;    // offset of the current line's first byte
};

// Parses `bytes`; `name` is the file name used in messages. Also throws
// "name:1:1: empty trace (no integers)" when nothing is found.
std::vector<int64_t> ParseTrace(std::string_view bytes, std::string_view name);

// A trace file (or standard input, "-") read block by block, so that a
// trace of any length takes the memory of one block: the modeller streams
// it (FindModel) and --verify reads it again (FirstDifference).
class TraceReader {
 public:
  // Throws UserError naming the file when it cannot be opened.
  TraceReader(const std::string& path, std::string_view name);
  ~TraceReader();
  TraceReader(const TraceReader&) = delete;
  TraceReader& operator=(const TraceReader&) = delete;

  // Appends up to `max` values to `out`; returns how many (0: the end).
  // Throws at the end when the whole trace held no integer.
  size_t Read(std::vector<int64_t>& out, size_t max);
  const std::string& name() const { return name_; }
  bool rereadable() const { return fd_ != 0; }  // not standard input

 private:
  std::string name_;
  int fd_ = -1;
  bool end_ = false;
  uint64_t values_ = 0;
  TraceTokenizer tokenizer_;
  std::vector<char> block_;
  std::vector<int64_t> pending_;
  size_t pending_at_ = 0;
};

// A piece of bad input as a message shows it: at most 40 characters (then
// "..."), control and non-ASCII bytes as '?', so that the message stays one
// printable line.
std::string ShownInput(std::string_view text);

}  // namespace macroscope::loops
