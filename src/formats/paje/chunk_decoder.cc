#include "formats/paje/chunk_decoder.h"

#include <pthread.h>

#include <algorithm>
#include <cstring>

#include "formats/paje/tokenizer.h"

namespace macroscope::paje {

void Renumber(Chunk& chunk, StringPool& strings, uint64_t lines_before) {
  std::vector<StringId> ids(chunk.strings.size(), kEmptyString);
  for (StringId local = 1; local < ids.size(); ++local) ids[local] = strings.Intern(chunk.strings.View(local));
  for (auto& block : chunk.blocks) {
    for (Record& r : block->records) {
      r.line += lines_before;
      for (StringId& s : r.slot) s = ids[s];
    }
    for (ExtraField& e : block->extras) e.value = ids[e.value];
  }
}

ChunkDecoders::ChunkDecoders(const DefinitionTable& definitions, BlockQueue& queue, std::string_view text,
                             size_t chunk_bytes, int workers)
    : definitions_(definitions),
      queue_(queue),
      next_(text.data()),
      end_(text.data() + text.size()),
      chunk_bytes_(std::max<size_t>(chunk_bytes, 1)),
      window_(static_cast<size_t>(workers) + 1) {
  for (int w = 0; w < workers; ++w)
    workers_.emplace_back([this] {
      pthread_setname_np(pthread_self(), "paje-chunks");  // tells the threads apart in profiles
      Work();
    });
}

ChunkDecoders::~ChunkDecoders() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  for (auto& w : workers_) w.join();
}

std::unique_ptr<Chunk> ChunkDecoders::Next() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return chunks_.empty() ? next_ == end_ : chunks_.front()->done; });
  if (chunks_.empty()) return nullptr;
  std::unique_ptr<Chunk> chunk = std::move(chunks_.front());
  chunks_.pop_front();
  lock.unlock();
  changed_.notify_all();
  if (chunk->failure) std::rethrow_exception(chunk->failure);
  return chunk;
}

void ChunkDecoders::Work() {
  for (;;) {
    Chunk* chunk;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return stopping_ || next_ == end_ || chunks_.size() < window_; });
      if (stopping_ || next_ == end_) return;
      // Up to the end of the line that holds the chunk's last byte.
      const char* cut = end_;
      if (static_cast<size_t>(end_ - next_) > chunk_bytes_) {
        const char* last = next_ + chunk_bytes_ - 1;
        const void* newline = std::memchr(last, '\n', static_cast<size_t>(end_ - last));
        if (newline != nullptr) cut = static_cast<const char*>(newline) + 1;
      }
      chunk = chunks_.emplace_back(std::make_unique<Chunk>()).get();
      chunk->text = {next_, static_cast<size_t>(cut - next_)};
      next_ = cut;
    }
    try {
      Decode(*chunk);
    } catch (...) {
      chunk->failure = std::current_exception();
    }
    {
      std::lock_guard lock(mutex_);
      chunk->done = true;
      // Nothing after a definition line or an error is wanted.
      if (chunk->stop != nullptr || chunk->error_line != 0 || chunk->failure) next_ = end_;
    }
    changed_.notify_all();
  }
}

void ChunkDecoders::Decode(Chunk& chunk) const {
  Tokenizer tokenizer(chunk.text);
  std::vector<std::string_view> words;
  words.reserve(32);
  std::unique_ptr<Block> block = queue_.TakeEmpty();
  LineTimes times;
  uint64_t line = 0;
  for (Tokenizer before = tokenizer; tokenizer.Next(words, line); before = tokenizer) {
    if (!words[0].empty() && words[0][0] == '%') {
      chunk.stop = before.position();
      chunk.lines = before.line();
      break;
    }
    try {
      DecodeEventLine(definitions_, words, line, chunk.strings, times, *block);
    } catch (const LineError& e) {
      chunk.error = e.message;
      chunk.error_line = line;
      break;
    }
    ++chunk.word_lines;
    chunk.trace_files |= block->records.back().kind == EventKind::kTraceFile;
    if (block->records.size() >= kRecordsPerBlock) {
      chunk.blocks.push_back(std::move(block));
      block = queue_.TakeEmpty();
    }
  }
  if (chunk.stop == nullptr) chunk.lines = tokenizer.line();
  if (!block->records.empty()) chunk.blocks.push_back(std::move(block));
}

}  // namespace macroscope::paje
