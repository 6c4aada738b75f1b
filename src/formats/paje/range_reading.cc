#include "formats/paje/range_reading.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "formats/paje/decoding_thread.h"
#include "formats/paje/event_line.h"
#include "formats/paje/sharded_simulation.h"
#include "formats/paje/stores_exchange.h"
#include "formats/paje/tokenizer.h"
#include "util/error.h"
#include "util/mapped_file.h"

namespace macroscope::paje {

namespace {

// Where a line is in the files: the file's index above kLineBits, its line
// number (within the part's range until the parts know one another's line
// counts) below. Keys grow in reading order.
constexpr int kLineBits = 40;
constexpr uint64_t kLineMask = (uint64_t{1} << kLineBits) - 1;
uint64_t Key(size_t file, uint64_t line) { return uint64_t{file} << kLineBits | line; }
size_t FileOf(uint64_t key) { return static_cast<size_t>(key >> kLineBits); }
uint64_t LineOf(uint64_t key) { return key & kLineMask; }

// A line and its text, without the newline.
struct Line {
  uint64_t key;
  std::string_view text;
};

// Lines as they travel: the gap from the previous line's key (7 bits a
// byte, the high bit saying more follow), then the text and its newline;
// two bytes more than the text for most lines.
class LinesOut {
 public:
  void Add(const Line& line) {
    for (uint64_t gap = line.key - last_;; gap >>= 7) {
      bytes_ += static_cast<char>((gap & 0x7f) | (gap >= 0x80 ? 0x80 : 0));
      if (gap < 0x80) break;
    }
    bytes_.append(line.text);
    bytes_ += '\n';
    last_ = line.key;
  }
  std::string& bytes() { return bytes_; }

 private:
  std::string bytes_;
  uint64_t last_ = 0;
};

// The lines the parts sent, in reading order (part 0's, then part 1's...:
// ranges follow one another), their numbers made the files' by the
// sender's offsets (per file: the lines before its range in it). This
// part's own come from `mine` instead, when given.
class LineCursor {
 public:
  LineCursor(const std::vector<std::string>& bytes, const std::vector<std::vector<uint64_t>>& offset,
             const std::vector<Line>* mine, size_t me)
      : bytes_(bytes), offset_(offset), mine_(mine), me_(me) {}

  bool done() {
    for (;; ++part_, at_ = 0, key_ = 0) {
      if (part_ == bytes_.size()) return true;
      if (part_ == me_ && mine_ != nullptr ? at_ < mine_->size() : at_ < bytes_[part_].size()) return false;
    }
  }
  // The next line; call only when !done().
  Line Next() {
    const std::vector<uint64_t>& offset = offset_[part_];
    if (part_ == me_ && mine_ != nullptr) {
      const Line& line = (*mine_)[at_++];
      return {line.key + offset[FileOf(line.key)], line.text};
    }
    const std::string_view bytes = bytes_[part_];
    uint64_t gap = 0;
    for (int shift = 0;; shift += 7) {
      const auto byte = static_cast<uint8_t>(bytes[at_++]);
      gap |= uint64_t{byte & 0x7fu} << shift;
      if ((byte & 0x80) == 0) break;
    }
    const size_t newline = bytes.find('\n', at_);
    key_ += gap;
    const Line line{key_ + offset[FileOf(key_)], bytes.substr(at_, newline - at_)};
    at_ = newline + 1;
    return line;
  }

 private:
  const std::vector<std::string>& bytes_;
  const std::vector<std::vector<uint64_t>>& offset_;
  const std::vector<Line>* mine_;
  size_t me_;
  size_t part_ = 0, at_ = 0;
  uint64_t key_ = 0;  // the sender's key of the last line
};

// The files as one stream of bytes, as a whole reading reads them.
struct Stream {
  std::vector<std::string> names;
  std::deque<MappedFile> files;
  std::vector<size_t> begin;  // where each file starts in the stream; then its size
  size_t size() const { return begin.back(); }
  std::string_view text(size_t f) const { return files[f].bytes(); }
};

// The files' headers: each file's definition lines before its first
// event line (definitions of one file hold for the next).
struct Headers {
  std::vector<EventDefinition> definitions;  // in reading order
  std::vector<size_t> defined;               // by file: definitions up to its header's end
  std::vector<size_t> end;                   // by file: where the line after its header starts
  std::vector<std::vector<std::string>> user_fields;  // by file: the names its header defines, in order
  uint64_t lines = 0;  // definition lines
  bool whole = false;  // cut nothing: the whole reading judges them
  bool Inside(size_t file, size_t offset) const { return offset < end[file]; }
};

// Every file's header. A header the whole reading refuses, or a first file
// without event lines, is left to it (whole = true): its messages are then
// the single process's by construction.
void ReadHeaders(const Stream& s, bool no_strict, Headers& headers) {
  DefinitionParser parser(s.names.front(), no_strict);
  std::set<std::string> ids;
  std::vector<std::string_view> words;
  headers.whole = true;
  try {
    for (size_t f = 0; f < s.names.size(); ++f) {
      parser.set_file(s.names[f]);
      const std::string_view text = s.text(f);
      Tokenizer tokenizer(text);
      uint64_t line = 0;
      headers.user_fields.emplace_back();
      headers.end.push_back(text.size());
      for (Tokenizer before = tokenizer; tokenizer.Next(words, line); before = tokenizer) {
        if (words[0].empty() || words[0][0] != '%') {
          if (parser.in_definition()) return;
          headers.end.back() = static_cast<size_t>(before.position() - text.data());
          break;
        }
        ++headers.lines;
        if (auto done = parser.Feed(words, line)) {
          if (!ids.insert(done->id).second) return;
          for (const UserField& u : done->user_fields) headers.user_fields.back().push_back(u.name);
          headers.definitions.push_back(std::move(*done));
        }
      }
      if (f == 0 && headers.end.back() == text.size()) return;
      parser.Finish();
      headers.defined.push_back(headers.definitions.size());
    }
  } catch (const UserError&) {
    return;
  }
  headers.whole = false;
}

// By file, the definitions its lines read, their user field names interned
// in `strings`.
std::vector<std::unique_ptr<DefinitionTable>> Tables(const Headers& headers, StringPool& strings) {
  std::vector<std::unique_ptr<DefinitionTable>> tables;
  for (size_t count : headers.defined) {
    tables.push_back(std::make_unique<DefinitionTable>());
    for (size_t i = 0; i < count; ++i) tables.back()->Add(headers.definitions[i], strings);
  }
  return tables;
}

// Where part k's range starts in the stream: after the first newline at or
// after byte k * size / parts (or at the start of the next file), never
// inside the header.
size_t Boundary(const Stream& s, size_t header_end, int k, int parts) {
  if (k == 0) return header_end;
  if (k == parts) return s.size();
  const size_t at = std::max(header_end, static_cast<size_t>(uint64_t{s.size()} * k / parts));
  if (at >= s.size()) return s.size();
  const size_t f = static_cast<size_t>(std::upper_bound(s.begin.begin(), s.begin.end(), at) - s.begin.begin()) - 1;
  const std::string_view text = s.text(f);
  const size_t local = at - s.begin[f];
  const void* newline = std::memchr(text.data() + local, '\n', text.size() - local);
  if (newline == nullptr) return s.begin[f + 1];
  return s.begin[f] + static_cast<size_t>(static_cast<const char*>(newline) - text.data()) + 1;
}

// The part that simulates the entities of the container a line names (by
// its identifier, the one way a line names it: simulator.h).
int PartOfContainer(std::string_view container, int parts) {
  return static_cast<int>(std::hash<std::string_view>{}(container) % static_cast<size_t>(parts));
}

// One part's lines, sorted by who simulates them (step 1 below).
struct Sorted {
  std::vector<LinesOut> to;  // entity lines of the other parts' containers, by part
  LinesOut globals;          // lines for every part
  std::vector<Line> mine;    // entity lines of this part's containers
  std::vector<uint64_t> newlines;  // lines of the range, by file
  uint64_t lines = 0;              // lines with words
  bool cut = true;                 // false: a line forbids cutting the files
  // Gathering: the strings of the range, in the order a whole reading
  // interns them (event_line.h), for part 0's pool to number them alike.
  StringPool firsts;
};

// Goes through the lines of the stream's bytes [begin, end) once: cut into
// words, the event id looked up in the file's `tables`, nothing decoded. A
// line that does not decode stays here, to fail in its turn.
void SortLines(const Stream& s, size_t begin, size_t end, const Headers& headers,
               const std::vector<std::unique_ptr<DefinitionTable>>& tables, bool gather, int me, Sorted& out) {
  const int parts = static_cast<int>(out.to.size());
  std::vector<std::string_view> words;
  out.newlines.assign(s.names.size(), 0);
  for (size_t f = 0; f < s.names.size(); ++f) {
    const std::string_view text = s.text(f);
    const char* p = text.data() + (std::clamp(begin, s.begin[f], s.begin[f + 1]) - s.begin[f]);
    const char* stop = text.data() + (std::clamp(end, s.begin[f], s.begin[f + 1]) - s.begin[f]);
    // The range holds the file's header: its user field names come here in
    // a whole reading's order.
    if (gather && f > 0 && begin <= s.begin[f] && s.begin[f] < end)
      for (const std::string& name : headers.user_fields[f]) out.firsts.Intern(name);
    while (p < stop) {
      const char* newline = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(stop - p)));
      const char* line_end = newline != nullptr ? newline : stop;
      const Line line{Key(f, ++out.newlines[f]), {p, static_cast<size_t>(line_end - p)}};
      const bool in_header = headers.Inside(f, static_cast<size_t>(p - text.data()));
      p = newline != nullptr ? newline + 1 : stop;
      uint64_t number = 0;
      if (in_header || !Tokenizer(line.text, LineOf(line.key)).Next(words, number)) continue;
      ++out.lines;
      // A definition after the file's first event line changes how the next
      // lines read, and a PajeTraceFile event adds a file: no cutting then.
      const CompiledDefinition* d = tables[f]->Find(words[0]);
      const bool decodes = d != nullptr && static_cast<int>(words.size()) - 1 == d->def.field_count();
      if ((!words[0].empty() && words[0][0] == '%') || (decodes && d->def.kind == EventKind::kTraceFile)) {
        out.cut = false;
        return;
      }
      int part = me;
      if (decodes) {
        if (gather) {
          for (const auto& w : d->string_words) out.firsts.Intern(words[static_cast<size_t>(w.word)]);
          for (auto [word, name] : d->user_fields) out.firsts.Intern(words[static_cast<size_t>(word)]);
        }
        if (!IsEntityEvent(d->def.kind)) {
          out.globals.Add(line);
          continue;
        }
        part = PartOfContainer(words[static_cast<size_t>(d->def.at(Field::kContainer)) + 1], parts);
      }
      if (part == me) {
        out.mine.push_back(line);
      } else {
        out.to[static_cast<size_t>(part)].Add(line);
      }
    }
  }
}

// A part's first error in reading order: the line's key (UINT64_MAX: the
// end of the trace) and SimulationError::rank order the parts' errors as a
// whole simulation meets them.
struct PartError {
  uint64_t key = UINT64_MAX;
  uint64_t rank = 0;
  std::string message;  // "" when none
};

void PutError(formats::BytesOut& out, const PartError& e) {
  out.Put(e.key);
  out.Put(e.rank);
  out.PutString(e.message);
}

PartError GetError(formats::BytesIn& in) {
  PartError e;
  e.key = in.Get<uint64_t>();
  e.rank = in.Get<uint64_t>();
  e.message = std::string(in.GetString());
  return e;
}

// Throws, on every part, the first of the parts' errors in reading order.
void ThrowFirst(const std::vector<PartError>& errors) {
  const PartError* first = nullptr;
  for (const PartError& e : errors)
    if (!e.message.empty() && (first == nullptr || std::tie(e.key, e.rank) < std::tie(first->key, first->rank)))
      first = &e;
  if (first != nullptr) throw UserError(first->message);
}

// Every part's first error; with `last_key`, also the key and time of the
// last record of all (each part gives its own's). Throws, on every part,
// the first error in reading order.
void AgreeOnErrors(formats::PartExchange& share, const PartError& mine, uint64_t* last_key, double* last_time) {
  formats::BytesOut out;
  if (last_key != nullptr) out.Put(*last_key), out.Put(*last_time);
  PutError(out, mine);
  std::vector<PartError> errors;
  for (const std::string& bytes : share.AllGather(out.bytes())) {
    formats::BytesIn in(bytes);
    if (last_key != nullptr) {
      const auto key = in.Get<uint64_t>();
      const auto time = in.Get<double>();
      if (key > *last_key) *last_key = key, *last_time = time;
    }
    errors.push_back(GetError(in));
  }
  ThrowFirst(errors);
}

// Every part's stores into part 0's trace, in a whole reading's order; the
// other parts keep none.
void Gather(formats::PartExchange& share, Trace& trace, BuiltStores& mine) {
  TakeStores(trace, mine);
  std::vector<std::string> parts =
      share.Gather(share.part() == 0 ? std::string() : StoresToBytes(mine, trace.strings()));
  if (share.part() != 0) return;
  std::vector<BuiltStores> built;
  built.push_back(std::move(mine));
  for (size_t k = 1; k < parts.size(); ++k) {
    built.push_back(StoresFromBytes(parts[k], trace.strings()));
    parts[k] = std::string();
  }
  MergeStores(built, trace);
}

}  // namespace

std::optional<ReadStats> ReadPajeInParts(const std::vector<std::string>& files, const ReadOptions& options,
                                         formats::PartExchange& share, Trace& trace) {
  const int parts = share.parts(), me = share.part();
  Stream s;
  s.names = files;
  s.begin.push_back(0);
  std::string error;
  try {
    for (const std::string& name : files) {
      s.files.emplace_back(name);
      s.begin.push_back(s.begin.back() + s.files.back().bytes().size());
    }
  } catch (const UserError& e) {
    error = e.what();
  }
  share.Agree(error);
  Simulator sim(trace, options.simulator);  // first, as in a whole reading: the pool's first strings alike
  Headers headers;
  ReadHeaders(s, options.no_strict, headers);
  if (headers.whole) return std::nullopt;  // every part reads the same headers

  // 1. This part's range, its lines sorted by who simulates them: global
  // lines for every part, entity lines for the part of their container.
  Sorted sorted;
  sorted.to.resize(static_cast<size_t>(parts));
  {
    StringPool scratch;  // sorting reads the definitions' shapes only
    SortLines(s, Boundary(s, headers.end[0], me, parts), Boundary(s, headers.end[0], me + 1, parts), headers,
              Tables(headers, scratch), options.gather, me, sorted);
  }

  // 2. The parts' line counts: where each range's numbering starts, per file.
  formats::BytesOut counts;
  for (uint64_t n : sorted.newlines) counts.Put(n);
  counts.Put(sorted.lines), counts.Put<uint8_t>(sorted.cut);
  std::vector<std::vector<uint64_t>> offset(static_cast<size_t>(parts), std::vector<uint64_t>(files.size(), 0));
  const std::string_view first = s.text(0);
  offset[0][0] = static_cast<uint64_t>(std::count(first.data(), first.data() + headers.end[0], '\n'));
  ReadStats stats{headers.lines, 0, s.size()};
  bool cut = true;
  {
    const std::vector<std::string> all = share.AllGather(counts.bytes());
    for (size_t k = 0; k < all.size(); ++k) {
      formats::BytesIn in(all[k]);
      for (size_t f = 0; f < files.size(); ++f) {
        const auto newlines = in.Get<uint64_t>();
        if (k + 1 < all.size()) offset[k + 1][f] = offset[k][f] + newlines;
      }
      const auto lines = in.Get<uint64_t>();
      cut = cut && in.Get<uint8_t>() != 0;
      stats.lines += lines;
      stats.events += lines;
    }
  }
  if (!cut) return std::nullopt;  // the whole reading starts from a trace as the header left it
  if (options.gather) {
    // Part 0's pool numbers every string of the files as a whole reading
    // does (by first appearance) before anything else interns in it.
    formats::BytesOut strings;
    for (size_t id = 1; id < sorted.firsts.size(); ++id)
      strings.PutString(sorted.firsts.View(static_cast<StringId>(id)));
    const std::vector<std::string> all = share.Gather(strings.bytes());
    if (me == 0)
      for (const std::string& name : headers.user_fields[0]) trace.strings().Intern(name);
    for (const std::string& bytes : all) {
      formats::BytesIn in(bytes);
      while (!in.done()) trace.strings().Intern(in.GetString());
    }
  }

  // 3. Every part's global lines, and the entity lines of this part's
  // containers, both in reading order.
  const std::vector<std::string> global_bytes = share.AllGather(sorted.globals.bytes());
  std::vector<std::string> entity_bytes;
  {
    std::vector<std::string> to_bytes;
    for (LinesOut& out : sorted.to) to_bytes.push_back(std::move(out.bytes()));
    entity_bytes = share.AllToAll(to_bytes);
  }
  LineCursor globals(global_bytes, offset, nullptr, static_cast<size_t>(me));
  LineCursor entities(entity_bytes, offset, &sorted.mine, static_cast<size_t>(me));

  // 4. Decoded on a second thread and simulated on this one, in reading
  // order, a block (of one file) at a time: a part overlaps the two as a
  // whole reading does (reader.cc). This part's first error is kept for the
  // parts to agree on.
  const std::vector<std::unique_ptr<DefinitionTable>> tables = Tables(headers, trace.strings());
  PartError failed;
  uint64_t last_key = 0;  // 0: no record
  double last_time = -1;
  BlockQueue queue(kQueueBlocks);
  PartError undecodable;  // the decoder's error, set before its last block
  auto decode = [&] {
    std::unique_ptr<Block> block = queue.TakeEmpty();
    block->file = files.front();
    auto hand_over = [&](bool last) {
      block->last = last;
      const size_t file = block->file_index;
      if (!queue.Push(std::exchange(block, last ? nullptr : queue.TakeEmpty()))) return false;
      if (!last) {
        block->file_index = file;
        block->file = files[file];
      }
      return true;
    };
    std::vector<std::string_view> words;
    LineTimes times;
    std::optional<Line> global, entity;  // the next of each
    for (;;) {
      if (!global && !globals.done()) global = globals.Next();
      if (!entity && !entities.done()) entity = entities.Next();
      if (!global && !entity) break;
      std::optional<Line>& next = !entity || (global && global->key < entity->key) ? global : entity;
      const Line line = *next;
      next.reset();
      if (FileOf(line.key) != block->file_index) {  // a block holds one file's records
        if (!hand_over(false)) return;
        block->file_index = FileOf(line.key);
        block->file = files[block->file_index];
      }
      uint64_t number = 0;
      Tokenizer(line.text, LineOf(line.key)).Next(words, number);
      try {
        DecodeEventLine(*tables[block->file_index], words, LineOf(line.key), trace.strings(), times, *block);
      } catch (const LineError& e) {
        undecodable = {line.key, 0, MessageAt(block->file, LineOf(line.key), e.message)};
        break;
      }
      if (block->records.size() == kRecordsPerBlock && !hand_over(false)) return;
    }
    hand_over(true);
  };
  DecodingThread decoding(queue, decode);
  // Gathering: the stores this part creates, with the line that created
  // each (sharded_simulation.h's order of the merged stores).
  BuiltStores built;
  const Block* current = nullptr;
  std::function<void(size_t)> created;
  if (options.gather) {
    created = [&](size_t k) {
      for (auto store = static_cast<uint32_t>(built.created.size()); store < trace.stores().size(); ++store)
        built.created.emplace_back(Key(current->file_index, current->records[k].line), store);
    };
  }
  for (;;) {
    std::unique_ptr<Block> block = queue.Pop();
    current = block.get();
    SimulationFailure failure;
    try {
      SimulateBlock(*block, sim, false, &failure, created);
    } catch (const UserError& e) {
      failed = {Key(block->file_index, block->records[failure.index].line), failure.rank, e.what()};
      queue.Cancel();
      break;
    }
    if (!block->records.empty()) {
      last_key = Key(block->file_index, block->records.back().line);
      last_time = block->records.back().time;
    }
    if (block->last) break;
    block->Clear();
    queue.Recycle(std::move(block));
  }
  decoding.Finish();
  if (failed.message.empty()) failed = undecodable;  // an error of the lines before it comes first

  // 5. The first error of all, or the end of the trace at the time of the
  // last line (pj_dump's end), on every part.
  AgreeOnErrors(share, failed, &last_key, &last_time);
  SimulationFailure failure;
  try {
    FinishSimulation(sim, last_time, files[FileOf(last_key)], LineOf(last_key), &failure);
  } catch (const UserError& e) {
    failed = {UINT64_MAX, failure.rank, e.what()};
  }
  AgreeOnErrors(share, failed, nullptr, nullptr);
  if (options.gather) Gather(share, trace, built);
  return stats;
}

void KeepTreesOnly(Trace& trace) {
  BuiltStores dropped;
  TakeStores(trace, dropped);
}

}  // namespace macroscope::paje
