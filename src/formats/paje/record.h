// What the decoder hands the simulator: event lines already cut, their
// strings interned and their numbers parsed, in blocks passed between two
// threads through a small bounded queue.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "formats/paje/event_definitions.h"
#include "model/trace.h"
#include "util/block_queue.h"

namespace macroscope::paje {

struct Record {
  EventKind kind;
  uint64_t line;
  double time;    // the current time after this line (0 for an untimed line)
  double number;  // variable value
  std::array<StringId, kFieldCount> field;  // interned, kEmptyString when absent
  uint32_t extras_begin;
  uint32_t extras_count;
  StringId Get(Field f) const { return field[static_cast<int>(f)]; }
};

// Records per block a decoder fills before handing it over.
inline constexpr size_t kRecordsPerBlock = 8192;

struct Block {
  std::vector<Record> records;
  std::vector<ExtraField> extras;
  std::string file;      // the file the records come from (for messages)
  size_t file_index = 0; // its place among the files read (a reading in parts keys lines by it)
  std::string error;     // set on the last block when decoding failed
  bool last = false;
  void Clear() {
    records.clear();
    extras.clear();
    error.clear();
    last = false;
  }
};

// Blocks go from the decoding thread to the simulating one; the simulating
// thread clears a block before it gives it back.
using BlockQueue = macroscope::BlockQueue<Block>;

}  // namespace macroscope::paje
