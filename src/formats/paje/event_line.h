// One event line into a Record: the work the sequential decoder and the
// chunk workers (chunk_decoder.h) share, so that both give the same
// records. Strings are interned in the pool they are given, field by field
// in Field order, then the user fields: the order in which a pool first
// sees them is the sequential one.
#pragma once

#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "formats/paje/event_definitions.h"
#include "formats/paje/record.h"
#include "model/string_pool.h"
#include "util/packed_bytes.h"

namespace macroscope::paje {

struct CompiledDefinition {
  EventDefinition def;
  std::vector<std::pair<int, StringId>> user_fields;  // position, name in the trace's pool
  // Precomputed from def for the hot loop: the word of the time (-1: none),
  // of a variable change's value (-1: none), and the string fields in
  // Field order with their words and their record slots (-1: a field the
  // simulator does not read, interned all the same so that ids do not
  // depend on it).
  int time_word = -1;
  int number_word = -1;
  struct StringWord {
    int field;
    int word;
    int slot;
  };
  std::vector<StringWord> string_words;
};

// The definitions read so far, found by id. Chunk workers only read it:
// it changes only while no worker runs.
class DefinitionTable {
 public:
  const CompiledDefinition* Find(std::string_view id) const {
    // Every event line asks, mostly with an id of one or two digits.
    if (id.size() == 2 && id[0] >= '1' && id[0] <= '9' && id[1] >= '0' && id[1] <= '9') {
      const size_t n = static_cast<size_t>(id[0] - '0') * 10 + static_cast<size_t>(id[1] - '0');
      return n < by_number_.size() ? by_number_[n] : nullptr;
    }
    return FindAny(id);
  }
  // The caller has checked that the id is new; user field names are
  // interned in `strings` (the trace's pool).
  void Add(EventDefinition def, StringPool& strings);

 private:
  const CompiledDefinition* FindAny(std::string_view id) const;
  std::deque<CompiledDefinition> definitions_;
  std::vector<const CompiledDefinition*> by_number_;  // ids that are small integers
  std::vector<std::pair<std::string, const CompiledDefinition*>> by_name_;
};

// A bad event line; the caller adds the file and line to the message.
struct LineError {
  std::string message;
};

// A time word ('+' allowed in front), or nothing when it is not a number.
std::optional<double> ToTime(std::string_view word);

// The time words of a run of event lines, in their order. Most lines
// repeat the time of the line before (four in five of the benchmarks'
// mixed trace): the last word's time is kept, and its word again costs a
// comparison instead of a parse.
class LineTimes {
 public:
  // The time of `word`; throws LineError when it is not a number.
  double Of(std::string_view word) {
    if (word.size() - 1 < kPackedMax) {  // 1 to 16 bytes
      const PackedBytes bytes = PackBytes(word);
      if (word.size() == size_ && bytes == bytes_) return time_;
      return Parse(word, bytes);
    }
    return Parse(word, {});
  }

 private:
  double Parse(std::string_view word, PackedBytes bytes);
  size_t size_ = 0;  // of the last word (0: none, or a word of more than 16 bytes)
  PackedBytes bytes_;
  double time_ = 0;
};

// Appends the record of one event line (words[0]: its event id) to
// `block`, its strings interned in `strings`, its time read through
// `times` (the lines before it in the same run). Throws LineError, leaving
// the block as it was.
void DecodeEventLine(const DefinitionTable& definitions, const std::vector<std::string_view>& words, uint64_t line,
                     StringPool& strings, LineTimes& times, Block& block);

}  // namespace macroscope::paje
