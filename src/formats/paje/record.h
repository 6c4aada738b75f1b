// What the decoder hands the simulator: event lines already cut, their
// strings interned and their numbers parsed, in blocks passed between two
// threads through a small bounded queue.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "formats/paje/event_definitions.h"
#include "model/trace.h"
#include "util/block_queue.h"

namespace macroscope::paje {

// The fields the simulator reads, per event kind, in a record's slots (five
// at most): a record is 48 bytes instead of 104 with a slot for every
// field of the format, and blocks of records pass between two threads
// through memory (10 M records, 500 MB, for the benchmark's mix).
inline constexpr int kRecordSlots = 5;
inline constexpr auto kRecordSlot = [] {
  using F = Field;
  std::array<std::array<int8_t, kFieldCount>, kEventKindCount> slot{};
  for (auto& kind : slot) kind.fill(-1);
  auto set = [&](EventKind kind, std::initializer_list<Field> fields) {
    int8_t next = 0;
    for (Field f : fields) slot[static_cast<int>(kind)][static_cast<int>(f)] = next++;
  };
  for (EventKind k : {EventKind::kDefineContainerType, EventKind::kDefineStateType, EventKind::kDefineEventType,
                      EventKind::kDefineVariableType, EventKind::kDefineEntityValue})
    set(k, {F::kType, F::kName, F::kAlias, F::kColor});
  set(EventKind::kDefineLinkType, {F::kType, F::kName, F::kAlias, F::kStartContainerType, F::kEndContainerType});
  set(EventKind::kCreateContainer, {F::kType, F::kContainer, F::kName, F::kAlias});
  set(EventKind::kDestroyContainer, {F::kType, F::kName});
  for (EventKind k : {EventKind::kNewEvent, EventKind::kSetState, EventKind::kPushState, EventKind::kPopState,
                      EventKind::kResetState, EventKind::kSetVariable, EventKind::kAddVariable,
                      EventKind::kSubVariable})
    set(k, {F::kType, F::kContainer, F::kValue});
  set(EventKind::kStartLink, {F::kType, F::kContainer, F::kValue, F::kKey, F::kStartContainer});
  set(EventKind::kEndLink, {F::kType, F::kContainer, F::kValue, F::kKey, F::kEndContainer});
  set(EventKind::kTraceFile, {F::kFilename});
  return slot;
}();

struct Record {
  uint64_t line;
  double time;  // the current time after this line (0 for an untimed line)
  std::array<StringId, kRecordSlots> slot;  // interned, kEmptyString when absent (kRecordSlot)
  // Its user fields: the block's extras from here to the next record's
  // extras_begin (or the block's last).
  uint32_t extras_begin;
  float number;  // variable value: single precision, as pj_dump reads it (strtof)
  EventKind kind;
  StringId Get(Field f) const {
    const int8_t at = kRecordSlot[static_cast<int>(kind)][static_cast<int>(f)];
    return at < 0 ? kEmptyString : slot[static_cast<size_t>(at)];
  }
};
static_assert(sizeof(Record) == 48);

// Where the type and the container are in every kind that has them (the
// simulator fetches an event's store ahead from these two).
inline constexpr int kTypeSlot = 0, kContainerSlot = 1;
static_assert([] {
  for (const auto& kind : kRecordSlot) {
    const int8_t type = kind[static_cast<int>(Field::kType)], container = kind[static_cast<int>(Field::kContainer)];
    if ((type != -1 && type != kTypeSlot) || (container != -1 && container != kContainerSlot)) return false;
  }
  return true;
}());

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

// Blocks decoded ahead of the simulation at most (about 8 ms of work): the
// two threads take about as long, each slower in turn (the heap's growth,
// a column's doubling, the other processes), and a deeper queue rides
// those out. On the benchmark's mix, median of 25: 4 blocks 0.365 s,
// 8 0.359 s, 16 0.354 s, 32 0.350 s, 64 0.347 s; 32 cost 12 MB of peak RSS.
inline constexpr size_t kQueueBlocks = 32;

}  // namespace macroscope::paje
