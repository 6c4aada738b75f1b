#include "formats/paje/decoder.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <optional>

#include "formats/paje/chunk_decoder.h"
#include "util/error.h"
#include "util/mapped_file.h"

namespace macroscope::paje {

namespace {

// Bytes of input between releases of the mapped text already read: 16 MB
// keeps the mixed trace 47 MB lower (peak RSS) than 64 MB did, in as much time.
constexpr size_t kReleaseEvery = size_t{16} << 20;

// The text of the line the tokenizer read from `from` to `to`: it may have
// skipped blank lines first, and `to` is past the newline.
std::string_view LineText(const char* from, const char* to) {
  if (to > from && to[-1] == '\n') --to;
  if (const void* newline = memrchr(from, '\n', static_cast<size_t>(to - from)))
    from = static_cast<const char*>(newline) + 1;
  return {from, static_cast<size_t>(to - from)};
}

}  // namespace

void Decoder::Fail(const std::string& message) const { ThrowAt(file_, line_, message); }

void Decoder::Flush(bool last) {
  block_->last = last;
  block_->file = file_;
  queue_.Push(std::move(block_));
  if (when_ahead_ && queue_.full()) when_ahead_();
  block_ = last ? nullptr : queue_.TakeEmpty();
}

void Decoder::DecodeFiles(const std::vector<std::string>& files) {
  block_ = queue_.TakeEmpty();
  try {
    for (const auto& f : files) {
      queued_files_.push_back(f);
      bool named = true;  // files on the command line are read as given
      while (!queued_files_.empty()) {
        std::string path = queued_files_.front();
        queued_files_.pop_front();
        std::error_code ec;
        std::string key = path == "-" ? path : std::filesystem::weakly_canonical(path, ec).string();
        if (!read_files_.insert(key).second && !named) continue;  // a PajeTraceFile target is read once
        named = false;
        MappedFile file(path);
        if (!Decode(path, file.bytes(), &file)) return;
      }
    }
  } catch (const UserError& e) {
    Abandon(e.what());
  }
  Flush(true);
}

void Decoder::Abandon(const std::string& error) {
  // The failing line may have left a half-built record, and its user fields.
  if (!block_->records.empty() && block_->records.back().line == line_) {
    block_->extras.resize(block_->records.back().extras_begin);
    block_->records.pop_back();
  }
  block_->error = error;
}

void Decoder::DecodeText(const std::string& name, std::string_view text) {
  block_ = queue_.TakeEmpty();
  try {
    if (!Decode(name, text, nullptr)) return;
  } catch (const UserError& e) {
    Abandon(e.what());
  }
  queued_files_.clear();  // a text in memory has no directory to name files in
  Flush(true);
}

bool Decoder::Decode(const std::string& name, std::string_view text, MappedFile* file) {
  if (!block_->records.empty() && file_ != name) Flush(false);  // a block holds one file's records
  file_ = name;
  definitions_parser_.set_file(name);
  bytes_before_ = stats_.bytes;
  stats_.bytes += text.size();
  text_ = text.data();
  released_ = 0;
  words_.reserve(32);
  Tokenizer tokenizer(text);
  // --sort: definitions are read in file order (they come first in the
  // sorted order), event lines only noted here and decoded sorted below.
  std::optional<LineSort> sorted;
  if (sort_memory_ > 0) sorted.emplace(text, file, sort_memory_);
  // With workers, definitions are read here and each run of event lines
  // between them by the workers; the sorted order is this thread's alone.
  const bool chunks = workers_ > 1 && !sorted;
  for (;;) {
    if (!DecodeLines(tokenizer, file, sorted ? &*sorted : nullptr, chunks)) return false;
    if (tokenizer.position() == text.data() + text.size()) break;
    if (!DecodeChunks(tokenizer, text, file)) return false;
  }
  definitions_parser_.Finish();
  if (progress_ != nullptr) progress_->SetBytes(stats_.bytes);
  if (!sorted) return true;
  std::string_view sorted_line;
  uint64_t number = 0;
  uint64_t line = 0;
  while (sorted->Next(sorted_line, number)) {
    Tokenizer(sorted_line, number).Next(words_, line);  // a noted line has words
    line_ = line;
    if (!Event(words_, line)) return false;
  }
  return true;
}

bool Decoder::DecodeLines(Tokenizer& tokenizer, MappedFile* file, LineSort* sorted, bool until_event) {
  uint64_t line = 0;
  for (Tokenizer before = tokenizer; tokenizer.Next(words_, line); before = tokenizer) {
    line_ = line;
    if (!words_[0].empty() && words_[0][0] == '%') {
      ++stats_.lines;
      Definition(words_, line);
      continue;
    }
    if (definitions_parser_.in_definition())
      Fail("event line inside the definition of an event (missing %EndEventDef)");
    if (until_event) {
      tokenizer = before;
      return true;
    }
    ++stats_.lines;
    if (sorted != nullptr) {
      Note(*sorted, words_, line, LineText(before.position(), tokenizer.position()));
      continue;
    }
    if (!Event(words_, line)) return false;
    Release(file, tokenizer.position());
  }
  return true;
}

bool Decoder::DecodeChunks(Tokenizer& tokenizer, std::string_view text, MappedFile* file) {
  const char* end = text.data() + text.size();
  ChunkDecoders chunks(definitions_, queue_, {tokenizer.position(), static_cast<size_t>(end - tokenizer.position())},
                       chunk_bytes_, workers_);
  uint64_t lines = tokenizer.line();  // before the next chunk
  if (!block_->records.empty()) Flush(false);  // the records before the chunks' go first
  while (std::unique_ptr<Chunk> chunk = chunks.Next()) {
    Renumber(*chunk, strings_, lines);
    stats_.lines += chunk->word_lines;
    for (auto& block : chunk->blocks) {
      stats_.events += block->records.size();
      if (chunk->trace_files)
        for (const Record& r : block->records) QueueTraceFile(r);
      block->file = file_;
      queue_.Push(std::move(block));
    }
    if (queue_.cancelled()) return false;
    if (chunk->error_line != 0) {
      line_ = lines + chunk->error_line;
      Fail(chunk->error);
    }
    if (chunk->stop != nullptr) {
      lines += chunk->lines;
      tokenizer = Tokenizer({chunk->stop, static_cast<size_t>(end - chunk->stop)}, lines + 1);
      return true;
    }
    lines += chunk->lines;
    Release(file, chunk->text.data() + chunk->text.size());
  }
  tokenizer = Tokenizer({end, 0}, lines + 1);
  return true;
}

void Decoder::Release(MappedFile* file, const char* upto) {
  size_t done = static_cast<size_t>(upto - text_);
  if (done - released_ < kReleaseEvery) return;
  if (file != nullptr) file->Release(done);
  if (progress_ != nullptr) progress_->SetBytes(bytes_before_ + done);
  released_ = done;
}

bool Decoder::Event(const std::vector<std::string_view>& words, uint64_t line) {
  try {
    DecodeEventLine(definitions_, words, line, strings_, times_, *block_);
  } catch (const LineError& e) {
    Fail(e.message);
  }
  ++stats_.events;
  QueueTraceFile(block_->records.back());
  if (block_->records.size() < kRecordsPerBlock) return true;
  Flush(false);
  return !queue_.cancelled();
}

void Decoder::QueueFile(const Record& r) {
  if (file_ == "-") return;
  std::filesystem::path target(strings_.View(r.Get(Field::kFilename)));
  if (target.is_relative()) target = std::filesystem::path(file_).parent_path() / target;
  queued_files_.push_back(target.string());
}

// StarVZ's order (docs/paje.md#unsorted-traces): lines without a time and
// container creations first, in file order, then the others by time. A
// line this decoder will refuse goes first too, to be refused at its line.
void Decoder::Note(LineSort& sorted, const std::vector<std::string_view>& words, uint64_t line,
                   std::string_view text) const {
  const CompiledDefinition* d = definitions_.Find(words[0]);
  const int at = d != nullptr ? d->def.at(Field::kTime) : -1;
  std::optional<double> time;
  if (at >= 0 && d->def.kind != EventKind::kCreateContainer && at + 1 < static_cast<int>(words.size()))
    time = ToTime(words[at + 1]);
  const bool front = !time || std::isnan(*time);
  sorted.Add(text, line, front, front ? 0 : *time);
}

void Decoder::Definition(const std::vector<std::string_view>& words, uint64_t line) {
  auto done = definitions_parser_.Feed(words, line);
  if (!done) return;
  const std::string id = done->id;
  if (definitions_.Find(id) != nullptr) Fail("event id '" + id + "' is defined twice");
  definitions_.Add(std::move(*done), strings_);
}

}  // namespace macroscope::paje
