// Reads Chrome Trace Event JSON (the format of chrome://tracing, catapult
// and Perfetto's JSON importer) into the trace model, through the Pajé
// simulator like every other reader.
//
// Stages: (1) parse the file event by event (json_events.h: the bare-array
// form and the {"traceEvents": [...]} object form; no DOM of the file),
// letting go of the mapped text behind the parser; (2) keep each event as a
// compact record (processes and threads are found first, names from M
// metadata); (3) match B/E per thread, turn slices into properly nested
// push/pop pairs and everything into one time-ordered stream of simulator
// calls; (4) replay it. The records of (2) and (3) are sorted in a memory
// budget: beyond it they go to sorted runs in $TMPDIR and are merged back
// (util/external_sort.h), so that with a sink (streaming) the memory does
// not grow with the file (docs/streaming.md). The mapping is documented in
// docs/chrome.md.
//
// As browsers read it: an event that cannot be used (not an object, no
// string "ph", a field of the wrong type, an unknown phase, an E without a
// B...) is skipped and counted in ReadReport, with the first few reasons
// and their byte offsets. What stays fatal (UserError "FILE:LINE: message"):
// text that is not JSON (LINE:COLUMN of the syntax error), a top level that
// is neither an event array nor an object with "traceEvents", and input the
// simulator refuses. Problems that lose nothing structural (unmatched flow
// ends, overlapping slices) are counted too, never dropped silently.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "formats/paje/line_sort.h"
#include "formats/paje/simulator.h"
#include "model/trace.h"

namespace macroscope::chrome {

struct ReadReport {
  uint64_t events = 0;  // elements of the event arrays
  uint64_t bytes = 0;
  std::map<std::string, uint64_t> phases;  // events per "ph"

  // What they became.
  uint64_t slices = 0;            // states: B/E pairs (and unclosed B) + X
  uint64_t instants = 0;          // i/I/R events
  uint64_t counter_values = 0;    // one per (C event, numeric arg)
  uint64_t flows = 0;             // links (s->t, t->t, s->f, t->f, flow v2 pairs; oldest open first)
  uint64_t async_events = 0;      // b/e/n/S/T/p/F as punctual "Async" events
  uint64_t object_events = 0;     // N/O/D as punctual "Object" events
  uint64_t names = 0;             // M process_name/thread_name/…sort_index/labels used

  // Counted problems (shown as one warning line by the format's front door).
  uint64_t unclosed_slices = 0;       // B without E: closed at the trace end
  uint64_t truncated_slices = 0;      // slices overlapping their parent: cut at its end
  uint64_t unmatched_flow_starts = 0; // s/t never closed by a t/f of the same (cat, id): dropped
  uint64_t unmatched_flow_ends = 0;   // f without an open s/t of its (cat, id): dropped
  uint64_t ignored_counter_args = 0;  // counter args that are not numbers
  uint64_t ignored_metadata = 0;      // M events other than names/sort indexes/labels

  // Events skipped whole (docs/chrome.md lists the reasons): how many, per
  // reason in the order met (at most kSkipReasons distinct, the rest
  // together as "for other reasons"), and the first kSkipSamples.
  static constexpr size_t kSkipReasons = 16, kSkipSamples = 3;
  struct SkippedEvent {
    std::string reason;
    std::string file;  // empty: the first file read
    uint64_t offset;   // byte offset (from 0) of the event in its file
  };
  uint64_t skipped = 0;
  std::vector<std::pair<std::string, uint64_t>> skip_reasons;
  std::vector<SkippedEvent> skip_samples;
  void Skip(std::string reason, std::string file, uint64_t offset);
  uint64_t Skipped(std::string_view reason) const;  // events skipped for `reason`

  // One human-readable line per non-zero problem counter; all the skipped
  // events in one: "3 events skipped: 1 without a string \"ph\" (byte 1234), ...".
  std::vector<std::string> Warnings() const;
};

// Reads `files` (merged as one trace) into `trace`, simulated, with the
// time span set to [first, last] timestamp; model times are whole
// nanoseconds from the first time read (time base 1/10^9 s, origin that
// time): the files' microseconds, read exactly from their text. An event
// whose time a double of nanoseconds would not hold exactly (2^53 ns or
// more from that origin, beyond 64 bits, digits below the nanosecond) is
// skipped and counted, as any other unusable event.
// `simulation`: only `sink` and `drain_interval` apply (no -i, -z).
// `memory`: bytes of records sorted in memory before runs go to temporary
// files (the budget of Pajé's --sort, whose hidden --sort-memory sets both).
ReadReport ReadChrome(const std::vector<std::string>& files, Trace& trace,
                      const paje::SimulatorOptions& simulation = {}, size_t memory = paje::kSortMemory);

// Reads one trace held in memory; `name` stands for the file in messages.
ReadReport ReadChromeText(std::string_view text, const std::string& name, Trace& trace,
                          const paje::SimulatorOptions& simulation = {}, size_t memory = paje::kSortMemory);

// True when `head` (the first bytes of a file) looks like Chrome JSON: first
// non-blank byte '[' or '{' and a "ph" or "traceEvents" key.
bool LooksLikeChrome(std::string_view head);

}  // namespace macroscope::chrome
