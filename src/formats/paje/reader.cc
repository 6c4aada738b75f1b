#include "formats/paje/reader.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>

#include "formats/paje/decoder.h"
#include "formats/paje/decoding_thread.h"
#include "formats/paje/range_reading.h"
#include "formats/paje/record.h"
#include "formats/paje/sharded_simulation.h"
#include "util/error.h"
#include "util/heap_prefault.h"

namespace macroscope::paje {

namespace {

// Fuzz builds decode first, then simulate, on one thread, without chunk
// workers: the threads' timing would change what the fuzzer sees from run
// to run (fuzz/run's check mode must give the same result for the same
// commit).
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
constexpr bool kDecoderThread = false;
#else
constexpr bool kDecoderThread = true;
#endif

// Runs `decode` (which fills the queue) on a second thread while this one
// simulates, so parsing and simulation overlap (decoding_thread.h).
template <class Decode>
ReadStats Run(Trace& trace, const ReadOptions& options, int threads_option, Decode decode) {
  BlockQueue queue(kDecoderThread ? kQueueBlocks : SIZE_MAX);
  Decoder decoder(trace.strings(), options.no_strict, queue);
  decoder.ReportTo(options.simulator.progress);
  if (options.sort) decoder.SortLines(std::max<size_t>(options.sort_memory, 1));
  // By default the decoding workers take the cores the simulating thread
  // leaves: on 2 cores that is the sequential decoder, which 2 workers did
  // not beat there, and which holds no chunks in waiting (90 MB less).
  const int threads = threads_option > 0 ? threads_option
                                         : std::max(1, static_cast<int>(std::thread::hardware_concurrency()) - 1);
  if (kDecoderThread && threads > 1) decoder.UseWorkers(threads, options.chunk_bytes);
  Simulator simulator(trace, options.simulator);
  std::optional<ShardedSimulation> sharded;  // before the decoder starts: its shards intern
  if (options.simulator.shards > 1) sharded.emplace(trace, options.simulator, options.simulator.shards, options.sort);
  // The heap this thread grows is faulted in ahead by the decoding one
  // (heap_prefault.h) when it is ahead; when it is not, each thread
  // faults its own pages. On the mix of the benchmark, where the two
  // threads take about as long, always on the decoding thread was
  // 0.384 s against 0.368 s (median of 30).
  HeapPrefaulter prefaulter;
  if (kDecoderThread) decoder.WhenAhead([&prefaulter] { prefaulter.Advance(); });
  DecodingThread decoding(queue, [&] { decode(decoder); }, kDecoderThread);
  double last_time = -1;  // pj_dump's "no event yet"
  std::string last_file;   // and where the last record came from
  uint64_t last_line = 0;
  for (;;) {
    std::unique_ptr<Block> block = queue.Pop();
    if (sharded) {
      sharded->Simulate(*block);
    } else {
      SimulateBlock(*block, simulator, options.sort);
    }
    if (!block->records.empty()) {
      last_time = block->records.back().time;
      last_line = block->records.back().line;
      if (last_file != block->file) last_file = block->file;
    }
    if (block->last) {
      decoding.Finish();
      if (!block->error.empty()) throw UserError(block->error);
      break;
    }
    block->Clear();
    queue.Recycle(std::move(block));
  }
  if (sharded) {
    sharded->Finish(last_time, last_file, last_line);
  } else {
    FinishSimulation(simulator, last_time, last_file, last_line);
  }
  const DecodeStats& s = decoder.stats();
  return {s.lines, s.events, s.bytes};
}

}  // namespace

ReadStats ReadPaje(const std::vector<std::string>& files, const ReadOptions& options, Trace& trace, int threads,
                   formats::PartExchange* share) {
  // --sort orders the whole file, and a sink would see each part's entities
  // alone: those are read whole; so is a file in one part (the threaded
  // reading below is faster than a part's single thread).
  if (share != nullptr && share->parts() > 1 && !files.empty() &&
      std::find(files.begin(), files.end(), "-") == files.end() && !options.sort &&
      options.simulator.sink == nullptr) {
    if (std::optional<ReadStats> stats = ReadPajeInParts(files, options, *share, trace)) return *stats;
  }
  if (Progress* progress = options.simulator.progress) {
    uint64_t total = 0;
    for (const std::string& f : files) {
      struct stat st {};
      if (f != "-" && stat(f.c_str(), &st) == 0) total += static_cast<uint64_t>(st.st_size);
    }
    progress->SetTotalBytes(total);
  }
  ReadStats stats = Run(trace, options, threads, [&](Decoder& d) { d.DecodeFiles(files); });
  // Every part read it whole: part 0 alone keeps the entities, so that the
  // reductions of the parts count them once.
  if (share != nullptr && share->part() != 0) KeepTreesOnly(trace);
  return stats;
}

ReadStats ReadPajeText(std::string_view text, const std::string& name, const ReadOptions& options, Trace& trace,
                       int threads) {
  return Run(trace, options, threads, [&](Decoder& d) { d.DecodeText(name, text); });
}

bool LooksLikePaje(std::string_view head) {
  return head.find("%EventDef") != std::string_view::npos || head.find("% EventDef") != std::string_view::npos;
}

}  // namespace macroscope::paje
