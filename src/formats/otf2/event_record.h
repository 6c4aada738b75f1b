// One OTF2 event record as the reader uses it, unpacked from the library's
// callback arguments: what the OTF2 library decodes (event_record.cc's
// callbacks) and what the event translator maps (event_translator.h). The
// two meet through a RecordSink, so that records decoded on other threads
// (location_threads.h) reach the translator exactly as those decoded on its
// own.
#pragma once

#include <cstdint>
#include <span>

#include <otf2/otf2.h>

namespace macroscope::otf2 {

// One entry of a record's attribute list.
struct RawAttribute {
  OTF2_AttributeRef ref;
  OTF2_Type type;
  OTF2_AttributeValue value;
};

struct EventRecord {
  enum class Kind : uint8_t { kPunctual, kProgramBegin, kEnter, kLeave, kMessage, kMetric };
  Kind kind = Kind::kPunctual;
  OTF2_LocationRef location = 0;
  OTF2_TimeStamp time = 0;  // clock-corrected by the library
  // kPunctual: the record kind as otf2-print names it ("PROGRAM_END");
  // kMessage: "MPI_SEND", "MPI_ISEND", "MPI_RECV" or "MPI_IRECV". Static text.
  const char* name = "";
  // kProgramBegin: the program's string; kEnter: the region; kMetric: the metric.
  uint64_t ref = 0;
  // kMessage
  bool send = false;
  uint32_t peer = 0;  // the receiver's rank for a send, the sender's for a receive
  OTF2_CommRef comm = 0;
  uint32_t tag = 0;
  uint64_t length = 0;
  // kMetric: one type and value per member. Views valid for one Take().
  std::span<const OTF2_Type> metric_types = {};
  std::span<const OTF2_MetricValue> metric_values = {};
  std::span<const RawAttribute> attributes = {};  // valid for one Take()
};

class RecordSink {
 public:
  virtual ~RecordSink() = default;
  // One record, in the global reader's order; OTF2_CALLBACK_INTERRUPT stops
  // the reading.
  virtual OTF2_CallbackCode Take(const EventRecord& record) = 0;
};

// Sets a callback for every event record kind OTF2 3.0 knows (and the
// "unknown record" one), each handing its record to the RecordSink given as
// the reader's user data.
void RegisterRecordCallbacks(OTF2_GlobalEvtReaderCallbacks* callbacks);

}  // namespace macroscope::otf2
