// What the decoder hands the simulator: event lines already cut, their
// strings interned and their numbers parsed, in blocks passed between two
// threads through a small bounded queue.
#pragma once

#include <array>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "formats/paje/event_definitions.h"
#include "model/trace.h"

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
  std::string error;     // set on the last block when decoding failed
  bool last = false;
  void Clear() {
    records.clear();
    extras.clear();
    error.clear();
    last = false;
  }
};

// Single producer, single consumer; at most `capacity` blocks in flight,
// and blocks are recycled so steady state allocates nothing.
class BlockQueue {
 public:
  explicit BlockQueue(size_t capacity) : capacity_(capacity) {}
  std::unique_ptr<Block> TakeEmpty();            // producer: a block to fill
  void Push(std::unique_ptr<Block> block);       // producer: hand it over (waits when full)
  std::unique_ptr<Block> Pop();                  // consumer: next full block (waits)
  void Recycle(std::unique_ptr<Block> block);    // consumer: give a block back
  void Cancel();                                 // consumer: stop the producer
  bool cancelled() const;

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::unique_ptr<Block>> full_;
  std::vector<std::unique_ptr<Block>> empty_;
  size_t capacity_;
  bool cancelled_ = false;
};

}  // namespace macroscope::paje
