// What the readings of a CTF trace's streams in shares have in common: the
// plan (which share reads which stream files), the scratch folders its
// graphs read, the blocks of CtfEvents a share's graph fills, and the merge
// of the shares' blocks in the order the one graph delivers their events
// (stream_threads.h explains the order). Where the blocks come from is the
// merge's BlockSource: worker threads of this process (stream_threads.cc's
// Workers), or the parts of an MPI job (stream_parts.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "formats/ctf/babeltrace_source.h"
#include "formats/ctf/ctf_event.h"
#include "util/worker_queues.h"

namespace macroscope::ctf {

inline constexpr size_t kBlockEvents = 2048;
inline constexpr size_t kQueuedBlocks = 4;  // per worker: bounds the memory of events decoded ahead

// --- the plan: which share reads which stream files --------------------------

struct Share {
  size_t dir;                      // index in the trace directories
  std::vector<std::string> files;  // stream files of that directory
  uintmax_t bytes = 0;
};

struct Plan {
  std::vector<std::vector<Share>> workers;  // each worker's shares, by directory
  // Per directory: the whole trace's id of each stream src.ctf.fs numbers
  // itself, by the name of its first file.
  std::vector<std::map<std::string, uint64_t, std::less<>>> auto_ids;
};

// The stream files of `dirs` (whose src.ctf.fs output ports are `ports`)
// shared by up to `workers` workers, largest first to the least loaded; a
// single worker when the trace must stay whole.
Plan MakePlan(const std::vector<std::string>& dirs, const std::vector<std::vector<std::string>>& ports, int workers);

// The workers' trace folders: ROOT/W/D holds links to directory D's
// metadata, index folder and worker W's stream files (every worker's, or
// `only` one's). Removed at the end.
class ScratchFolders {
 public:
  ScratchFolders(const std::vector<std::string>& dirs, const Plan& plan, std::optional<size_t> only = std::nullopt);
  ~ScratchFolders();
  ScratchFolders(const ScratchFolders&) = delete;
  ScratchFolders& operator=(const ScratchFolders&) = delete;
  const std::vector<std::string>& inputs(size_t w) const { return inputs_[w]; }

 private:
  std::filesystem::path root_;
  std::vector<std::vector<std::string>> inputs_;
};

// --- blocks -------------------------------------------------------------------

struct Block {
  std::vector<std::pair<uint32_t, CtfStreamIdentity>> streams;  // begun since the previous block
  std::vector<CtfEvent> events;  // the first `count` are this block's (the rest: capacity kept for reuse)
  size_t count = 0;
  bool last = false;             // the worker's last block
  std::exception_ptr failure;    // last block only: why the worker stopped short
};

// Each worker's blocks, in order, for the merge.
class BlockSource {
 public:
  virtual ~BlockSource() = default;
  // Worker w's next block, waiting for it.
  virtual std::unique_ptr<Block> Pop(size_t w) = 0;
  // A block the merge is done with.
  virtual void Recycle(size_t w, std::unique_ptr<Block> block) = 0;
};

// Worker threads, each running its graph into blocks.
class Workers : public BlockSource {
 public:
  explicit Workers(std::vector<std::unique_ptr<CtfGraph>>& graphs)
      : graphs_(graphs), workers_(graphs.size(), kQueuedBlocks, [this](size_t w) { Work(w); }) {}

  std::unique_ptr<Block> Pop(size_t w) override { return workers_.queue(w).Pop(); }
  // A block the merge is done with, for the worker to fill again.
  void Recycle(size_t w, std::unique_ptr<Block> block) override;
  void Stop() { workers_.Stop(); }

 private:
  void Work(size_t w);

  std::vector<std::unique_ptr<CtfGraph>>& graphs_;
  WorkerQueues<Block> workers_;  // last: its threads start with it
};

// --- the merge ----------------------------------------------------------------

// A stream as the merge orders it: the muxer's keys in the whole trace.
struct StreamKey {
  size_t dir = 0;
  CtfStreamIdentity id;  // stream_id: the whole trace's
  std::string path;      // the real file's path, as the whole graph names it
  uint32_t index = UINT32_MAX;  // the whole reading's stream index, from its first event
};

// The merge on the calling thread of the blocks of the plan's workers.
class Merge {
 public:
  Merge(const std::vector<std::string>& dirs, const std::string& label, const Plan& plan, BlockSource& source)
      : dirs_(dirs), label_(label), plan_(plan), source_(source), streams_(plan.workers.size()),
        traces_(dirs.size()) {}

  // Events in the whole graph's order to on_event; false (having handed
  // none) when the one graph must read the trace instead. Throws
  // on_event's exceptions; a worker's failure after its first event is
  // `failure()`.
  bool Run(const std::function<void(const CtfEvent&)>& on_event);
  uint64_t events() const { return events_; }
  std::exception_ptr failure() const { return failure_; }

 private:
  void Register(size_t w, Block& block);
  StreamKey& Key(size_t w, const CtfEvent& e) { return streams_[w][e.stream]; }
  const CtfTraceInfo& Trace(size_t dir, const CtfTraceInfo& seen);

  const std::vector<std::string>& dirs_;
  const std::string& label_;
  const Plan& plan_;
  BlockSource& source_;
  std::vector<std::vector<StreamKey>> streams_;  // per worker, by its stream index
  std::vector<std::unique_ptr<CtfTraceInfo>> traces_;
  std::optional<StreamKey> first_;  // the first stream registered: the clock the others must be like
  bool clocks_differ_ = false;
  uint32_t stream_count_ = 0, trace_count_ = 0;
  uint64_t events_ = 0;
  std::exception_ptr failure_;
};

// After a merge stopped on a worker's `failure`: the one graph reads the
// trace again for babeltrace2's message on it (a UserError), else `failure`
// is thrown. Call under the AbortGuard.
[[noreturn]] void ThrowWorkerFailure(const std::vector<std::string>& dirs, const std::string& label,
                                     std::exception_ptr failure);

}  // namespace macroscope::ctf
