// The front half of the Pajé reader: reads the files in order, cuts lines
// into words, parses the header's event definitions, and turns each event
// line into a Record (strings interned, numbers parsed, field count
// checked). Meant to run on its own thread while the simulator consumes
// its blocks; it is the only writer of the trace's string pool meanwhile
// (its chunk workers intern in pools of their own).
#pragma once

#include <deque>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "formats/paje/event_definitions.h"
#include "formats/paje/event_line.h"
#include "formats/paje/line_sort.h"
#include "formats/paje/record.h"
#include "formats/paje/tokenizer.h"
#include "model/string_pool.h"
#include "util/mapped_file.h"
#include "util/progress_line.h"

namespace macroscope::paje {

struct DecodeStats {
  uint64_t lines = 0;
  uint64_t events = 0;
  uint64_t bytes = 0;
};

class Decoder {
 public:
  Decoder(StringPool& strings, bool no_strict, BlockQueue& queue)
      : strings_(strings), queue_(queue), definitions_parser_("", no_strict) {}

  // Decodes the files ("-" is standard input) and the files they name with
  // PajeTraceFile. Always ends by pushing a block with last = true, whose
  // error is set if the input is bad ("file:line: message").
  void DecodeFiles(const std::vector<std::string>& files);
  // Same for one text in memory, `name` standing for its file.
  void DecodeText(const std::string& name, std::string_view text);
  // Decode each file's event lines in time order (--sort, line_sort.h),
  // sorting up to `memory` bytes in memory.
  void SortLines(size_t memory) { sort_memory_ = memory; }
  // Decode event lines on `workers` threads (chunk_decoder.h), in chunks of
  // about `chunk_bytes`; 1 (the default): on this one.
  void UseWorkers(int workers, size_t chunk_bytes) {
    workers_ = workers;
    chunk_bytes_ = chunk_bytes;
  }

  // Runs `hook` on the decoding thread when it is ahead: after handing
  // over a block that fills the queue (its next block would wait). Work
  // given there (heap_prefault.h) goes to whichever thread has time.
  void WhenAhead(std::function<void()> hook) { when_ahead_ = std::move(hook); }
  // Tells `progress` the bytes decoded (every 16 MB of a file and at its end).
  void ReportTo(Progress* progress) { progress_ = progress; }

  const DecodeStats& stats() const { return stats_; }

 private:
  // Returns false when the consumer cancelled.
  bool Decode(const std::string& name, std::string_view text, MappedFile* file);
  // Lines one by one from the tokenizer's position (event lines noted in
  // `sorted` when given); with `until_event`, stops before the first event
  // line outside a definition. Returns false when the consumer cancelled.
  bool DecodeLines(Tokenizer& tokenizer, MappedFile* file, LineSort* sorted, bool until_event);
  // The event lines from the tokenizer's position by the workers, up to the
  // next definition line (where the tokenizer is left) or the end.
  bool DecodeChunks(Tokenizer& tokenizer, std::string_view text, MappedFile* file);
  // Decodes one event line; returns false when the consumer cancelled.
  bool Event(const std::vector<std::string_view>& words, uint64_t line);
  // A PajeTraceFile record queues the file it names. Inline, the test of
  // every record.
  void QueueTraceFile(const Record& r) {
    if (r.kind == EventKind::kTraceFile) QueueFile(r);
  }
  void QueueFile(const Record& r);
  void Note(LineSort& sorted, const std::vector<std::string_view>& words, uint64_t line, std::string_view text) const;
  void Definition(const std::vector<std::string_view>& words, uint64_t line);
  // The bytes of the current file before `upto` will not be read again.
  void Release(MappedFile* file, const char* upto);
  [[noreturn]] void Fail(const std::string& message) const;
  void Flush(bool last);
  void Abandon(const std::string& error);

  StringPool& strings_;
  BlockQueue& queue_;
  DefinitionParser definitions_parser_;
  DefinitionTable definitions_;
  LineTimes times_;
  std::deque<std::string> queued_files_;
  std::set<std::string> read_files_;
  std::unique_ptr<Block> block_;
  std::string file_;
  uint64_t line_ = 0;
  DecodeStats stats_;
  size_t sort_memory_ = 0;  // 0: file order
  int workers_ = 1;         // 1: no chunk workers
  size_t chunk_bytes_ = 0;
  const char* text_ = nullptr;  // the current file's text
  size_t released_ = 0;
  Progress* progress_ = nullptr;
  uint64_t bytes_before_ = 0;  // of the files decoded before the current one         // bytes of it released
  std::vector<std::string_view> words_;
  std::function<void()> when_ahead_;
};

}  // namespace macroscope::paje
