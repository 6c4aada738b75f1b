// Communication: the messages of a trace (its links: an MPI message of
// OTF2, a Paraver communication, a Pajé link, a Chrome flow) as a matrix of
// senders and receivers at a level of the container tree, a histogram of
// their sizes, and their number and bytes over time (docs/comm.md). One
// accumulator serves `macroscope comm` and the query's comm(),
// comm_histogram() and comm_over_time().
//
// A message is a link whose two ends are known: sent by the container at
// its start (peer_start) at its start time, received by the one at its
// end. Its size is the user field a reader gives it: OTF2's "Length",
// Paraver's "size", SimGrid's "Size" (any field named length or size, in
// any case, holding a whole number of bytes).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/table.h"
#include "model/entity_chunk.h"
#include "model/trace.h"

namespace macroscope::analysis {

// Which messages and how they are grouped; the names are those of the
// options (or arguments) the messages for bad values name.
struct CommunicationRequest {
  // Messages whose send time lies in [start, end] (model times; default:
  // all). The over-time bins cover it (default: the trace's span).
  std::optional<double> start, end;
  // Messages with an end in these containers' subtrees (names or aliases;
  // empty: all).
  std::vector<std::string> containers;
  // The matrix's senders and receivers: the containers at this depth of
  // the container tree (the root's children are at 1) holding the
  // messages' ends, or the ends themselves when they are shallower; none:
  // the ends themselves.
  std::optional<int64_t> level;
  // The histogram's (default 20, as pipit's message_histogram) or the
  // over-time table's (default 100) bins.
  std::optional<int64_t> bins;
  std::string level_name = "level", bins_name = "bins", containers_name = "containers";
};

// The three tables (CommunicationAccumulator::Finish).
enum class CommunicationTable { kMatrix, kHistogram, kOverTime };

inline constexpr int64_t kDefaultSizeBins = 20;
inline constexpr int64_t kDefaultTimeBins = 100;
inline constexpr int64_t kMaxCommunicationBins = 1000000;

class CommunicationAccumulator {
 public:
  // The links of `chunk` (other kinds are skipped); `trace` names their
  // user fields (the reader's trace: it may still be being read).
  void Add(const Trace& trace, const EntityChunk& chunk);

  // The table, once the trace is complete. Throws UserError for a bad
  // request (an empty window, an unknown container, a level beyond the
  // tree, bins out of [1, 10^6]).
  Table Finish(const Trace& trace, const CommunicationRequest& request, CommunicationTable table) const;

 private:
  // kMatrix: one row per (sender, receiver), in container order: sender,
  // receiver (container paths, as the containers table's `path`),
  // messages, bytes (empty unless every message of the row has a size).
  Table Matrix(const Trace& trace, const CommunicationRequest& request) const;
  // kHistogram: numpy.histogram of the sizes of the messages that have
  // one: `bins` equal bins from the smallest size to the largest (±0.5
  // when they are equal, [0, 1] when there is none), each holding
  // [bin_start, bin_end), the last one its end too: bin_start, bin_end,
  // messages.
  Table Histogram(const Trace& trace, const CommunicationRequest& request) const;
  // kOverTime: the window (default: the trace's span) in `bins` equal
  // bins by send time: start, end (relative to the trace's start, as the query tables'
  // times: whole ticks, the edges rounded down to a tick, or the decimal
  // times of a Pajé trace), messages, bytes (empty when a message of the
  // bin has no size, or when none of the trace's has one). A bin holds
  // [start, end), the last one its end too.
  Table OverTime(const Trace& trace, const CommunicationRequest& request) const;

  struct Message {
    ContainerId sender, receiver;
    double time;
    int64_t size;  // -1: none
  };
  // The messages the request selects (window, containers).
  std::vector<const Message*> Selected(const Trace& trace, const CommunicationRequest& request) const;

  std::vector<Message> messages_;
  // Field names (StringIds of the reader's trace): 1 a size's, 2 not.
  std::vector<uint8_t> size_names_;
};

// The table's columns, without rows.
Table CommunicationColumns(CommunicationTable table);

}  // namespace macroscope::analysis
