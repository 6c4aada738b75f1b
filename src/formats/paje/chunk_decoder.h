// Event lines decoded by several workers. The decoder hands over a run of
// event lines (the text between two definition lines); it is cut into
// chunks at line boundaries, each decoded on its own into blocks whose
// strings are interned in a pool of the chunk, and the chunks come back in
// input order. The decoder then interns each chunk's strings in the
// trace's pool in the chunk's id order, which is the order of their first
// appearance, so that every string gets the id the sequential path gives
// it (Renumber), and passes the blocks on.
//
// A chunk cannot be decoded on its own past a definition line ('%'): the
// definitions it adds or completes change how the next lines read. The
// worker stops there, no chunk after it is cut, and the decoder reads on
// sequentially from that line.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "formats/paje/event_line.h"
#include "formats/paje/record.h"
#include "model/string_pool.h"

namespace macroscope::paje {

// Bytes of input per chunk unless ReadOptions say otherwise.
inline constexpr size_t kChunkBytes = size_t{4} << 20;

struct Chunk {
  std::string_view text;
  std::vector<std::unique_ptr<Block>> blocks;  // records numbered within the chunk
  StringPool strings;                          // ids local to the chunk
  uint64_t lines = 0;       // lines of the chunk (before `stop` when set), blank ones too
  uint64_t word_lines = 0;  // lines decoded
  bool trace_files = false; // any PajeTraceFile record
  const char* stop = nullptr;  // start of the definition line where decoding stopped
  uint64_t error_line = 0;     // line (within the chunk) of a bad event line, 0: none
  std::string error;           // its message, without file and line
  std::exception_ptr failure;  // an internal error of the worker
  bool done = false;
};

// Gives the chunk's records the trace's string ids (interning its strings
// in `strings` in order) and their line numbers in the file, the chunk
// starting after line `lines_before`.
void Renumber(Chunk& chunk, StringPool& strings, uint64_t lines_before);

class ChunkDecoders {
 public:
  // `definitions` must not change while this object lives; blocks are
  // taken from `queue`'s empty ones.
  ChunkDecoders(const DefinitionTable& definitions, BlockQueue& queue, std::string_view text, size_t chunk_bytes,
                int workers);
  ~ChunkDecoders();  // stops the workers (chunks not handed out are dropped)
  ChunkDecoders(const ChunkDecoders&) = delete;
  ChunkDecoders& operator=(const ChunkDecoders&) = delete;

  // The next chunk in input order, decoded; null after the last one (the
  // one that stopped at a definition line or at an error, if any).
  std::unique_ptr<Chunk> Next();

 private:
  void Work();
  void Decode(Chunk& chunk) const;

  const DefinitionTable& definitions_;
  BlockQueue& queue_;
  const char* next_;  // where the next chunk starts
  const char* end_;
  size_t chunk_bytes_;
  size_t window_;  // chunks cut and not yet handed out, at most
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::unique_ptr<Chunk>> chunks_;  // cut, not handed out, in input order
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace macroscope::paje
