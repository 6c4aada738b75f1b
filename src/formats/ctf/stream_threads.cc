#include "formats/ctf/stream_threads.h"

#include <stdlib.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <system_error>
#include <utility>

#include "formats/ctf/babeltrace_source.h"
#include "util/abort_guard.h"
#include "util/worker_queues.h"
#include "util/error.h"

namespace macroscope::ctf {

namespace {

namespace fs = std::filesystem;

constexpr size_t kBlockEvents = 2048;
constexpr size_t kQueuedBlocks = 4;  // per worker: bounds the memory of events decoded ahead

// --- the plan: which worker reads which stream files -------------------------

// The data stream files src.ctf.fs reads in `dir`: its regular files but the
// metadata and hidden ones, by name.
std::vector<std::string> StreamFiles(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    std::error_code type_ec;
    if (name == "metadata" || name.empty() || name[0] == '.' || !it->is_regular_file(type_ec)) continue;
    files.push_back(std::move(name));
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The text after a port name's last " | ": a stream id, or the path of the
// stream's first file when it has none (then src.ctf.fs numbers it).
std::string PortStream(const std::string& port) {
  size_t bar = port.rfind(" | ");
  return bar == std::string::npos ? port : port.substr(bar + 3);
}
std::string PortTrace(const std::string& port) { return port.substr(0, port.find(" | ")); }

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

Plan MakePlan(const std::vector<std::string>& dirs, const std::vector<std::vector<std::string>>& ports, int threads) {
  Plan plan;
  // Several directories of one trace UUID compare by stream id across
  // traces: each then stays whole, numbered as in the whole graph.
  std::map<std::string, int> uuid_count;
  for (const auto& p : ports) ++uuid_count[PortTrace(p.front())];
  bool whole = std::any_of(uuid_count.begin(), uuid_count.end(), [](const auto& c) { return c.second > 1; });

  std::vector<Share> shares;
  for (size_t d = 0; d < dirs.size(); ++d) {
    auto& ids = plan.auto_ids.emplace_back();
    for (const std::string& port : ports[d]) {
      std::string stream = PortStream(port);
      if (!stream.empty() && stream[0] == '/') ids.emplace(fs::path(stream).filename().string(), ids.size());
    }
    std::vector<std::string> files = StreamFiles(dirs[d]);
    auto size = [&](const std::string& f) {
      std::error_code ec;
      uintmax_t n = fs::file_size(fs::path(dirs[d]) / f, ec);
      return ec ? 0 : n;
    };
    // A stream of several files (same stream_instance_id) would be split:
    // src.ctf.fs made fewer streams than there are files.
    if (whole || files.size() != ports[d].size()) {
      Share s{d, files, 0};
      for (const std::string& f : files) s.bytes += size(f);
      shares.push_back(std::move(s));
    } else {
      for (const std::string& f : files) shares.push_back({d, {f}, size(f)});
    }
  }
  size_t workers = std::min(shares.size(), static_cast<size_t>(std::max(threads, 1)));
  plan.workers.resize(workers);
  if (workers <= 1) return plan;
  // Largest first, to the least loaded worker.
  std::stable_sort(shares.begin(), shares.end(), [](const Share& a, const Share& b) { return a.bytes > b.bytes; });
  std::vector<uintmax_t> load(workers, 0);
  for (Share& s : shares) {
    size_t w = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    load[w] += s.bytes + 1;
    auto& mine = plan.workers[w];
    auto same = std::find_if(mine.begin(), mine.end(), [&](const Share& m) { return m.dir == s.dir; });
    if (same == mine.end()) {
      mine.push_back(std::move(s));
    } else {
      same->files.insert(same->files.end(), s.files.begin(), s.files.end());
    }
  }
  for (auto& mine : plan.workers)
    std::sort(mine.begin(), mine.end(), [](const Share& a, const Share& b) { return a.dir < b.dir; });
  return plan;
}

// The workers' trace folders: ROOT/W/D holds links to directory D's
// metadata, index folder and worker W's stream files. Removed at the end.
class ScratchFolders {
 public:
  ScratchFolders(const std::vector<std::string>& dirs, const Plan& plan) {
    std::string pattern = (fs::absolute(fs::temp_directory_path()) / "macroscope-ctf-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw UserError(pattern + ": cannot create a scratch folder");
    root_ = pattern;
    for (size_t w = 0; w < plan.workers.size(); ++w) {
      auto& inputs = inputs_.emplace_back();
      for (const Share& s : plan.workers[w]) {
        fs::path folder = root_ / std::to_string(w) / std::to_string(s.dir);
        fs::create_directories(folder);
        fs::path real = fs::absolute(dirs[s.dir]);
        fs::create_symlink(real / "metadata", folder / "metadata");
        std::error_code ec;
        if (fs::is_directory(real / "index", ec)) fs::create_directory_symlink(real / "index", folder / "index");
        for (const std::string& f : s.files) fs::create_symlink(real / f, folder / f);
        inputs.push_back(folder.string());
      }
    }
  }
  ~ScratchFolders() {
    std::error_code ec;
    fs::remove_all(root_, ec);  // links only: their targets stay
  }
  ScratchFolders(const ScratchFolders&) = delete;
  ScratchFolders& operator=(const ScratchFolders&) = delete;
  const std::vector<std::string>& inputs(size_t w) const { return inputs_[w]; }

 private:
  fs::path root_;
  std::vector<std::vector<std::string>> inputs_;
};

// --- the workers --------------------------------------------------------------

struct Block {
  std::vector<std::pair<uint32_t, CtfStreamIdentity>> streams;  // begun since the previous block
  std::vector<CtfEvent> events;  // the first `count` are this block's (the rest: capacity kept for reuse)
  size_t count = 0;
  bool last = false;             // the worker's last block
  std::exception_ptr failure;    // last block only: why the worker stopped short
};

// A stream as the merge orders it: the muxer's keys in the whole trace.
struct StreamKey {
  size_t dir = 0;
  CtfStreamIdentity id;  // stream_id: the whole trace's
  std::string path;      // the real file's path, as the whole graph names it
  uint32_t index = UINT32_MAX;  // the whole reading's stream index, from its first event
};

template <typename T>
int CompareOptional(const std::optional<T>& a, const std::optional<T>& b) {
  if (a && b) return *a < *b ? -1 : *b < *a ? 1 : 0;
  return a ? -1 : b ? 1 : 0;  // present before absent
}

int Compare(std::string_view a, std::string_view b) { return a < b ? -1 : b < a ? 1 : 0; }

// flt.utils.muxer's order of two event messages of different streams at
// equal times (common_muxing_compare_messages, babeltrace2 2.0).
bool Before(const CtfEvent& a, const StreamKey& ka, const CtfEvent& b, const StreamKey& kb) {
  if (int c = CompareOptional(ka.id.trace_uuid, kb.id.trace_uuid)) return c < 0;
  if (int c = CompareOptional(ka.id.trace_name, kb.id.trace_name)) return c < 0;
  if (ka.id.stream_class_id != kb.id.stream_class_id) return ka.id.stream_class_id < kb.id.stream_class_id;
  if (ka.id.stream_id != kb.id.stream_id) return ka.id.stream_id < kb.id.stream_id;
  if (a.event_class_id != b.event_class_id) return a.event_class_id < b.event_class_id;
  if (int c = Compare(a.name, b.name)) return c < 0;
  return ka.path < kb.path;
}

// The worker threads, each running its graph into blocks for the merge.
class Workers {
 public:
  explicit Workers(std::vector<std::unique_ptr<CtfGraph>>& graphs)
      : graphs_(graphs), workers_(graphs.size(), kQueuedBlocks, [this](size_t w) { Work(w); }) {}
  Workers(const Workers&) = delete;
  Workers& operator=(const Workers&) = delete;

  std::unique_ptr<Block> Pop(size_t w) { return workers_.queue(w).Pop(); }
  // A block the merge is done with, for the worker to fill again.
  void Recycle(size_t w, std::unique_ptr<Block> block) {
    block->streams.clear();
    block->count = 0;
    workers_.queue(w).Recycle(std::move(block));
  }
  void Stop() { workers_.Stop(); }

 private:
  void Work(size_t w) {
    BlockQueue<Block>& queue = workers_.queue(w);
    std::unique_ptr<Block> block = queue.TakeEmpty();
    struct Stopped {};
    try {
      graphs_[w]->Run(
          [&](CtfEvent& e) {
            if (block->count == kBlockEvents && !queue.Push(std::exchange(block, queue.TakeEmpty()))) throw Stopped{};
            if (block->count == block->events.size()) block->events.emplace_back();
            std::swap(block->events[block->count++], e);  // no copy: the sink refills what it gets back
          },
          [&](uint32_t stream, const CtfStreamIdentity& id) { block->streams.emplace_back(stream, id); });
    } catch (const Stopped&) {
      return;
    } catch (...) {
      block->failure = std::current_exception();
    }
    block->last = true;
    queue.Push(std::move(block));
  }

  std::vector<std::unique_ptr<CtfGraph>>& graphs_;
  WorkerQueues<Block> workers_;  // last: its threads start with it
};

// The muxer takes streams whose default clock classes are all absent, all
// of Unix epoch origin, all of one UUID, or one and the same clock class;
// anything else the one graph decides (and refuses).
bool AlikeClocks(const StreamKey& first, const StreamKey& s) {
  const CtfStreamIdentity &a = first.id, &b = s.id;
  if (a.has_clock != b.has_clock) return false;
  if (!a.has_clock) return true;
  if (a.clock_unix_epoch != b.clock_unix_epoch) return false;
  if (a.clock_unix_epoch) return true;
  if (a.clock_uuid != b.clock_uuid) return false;
  return a.clock_uuid || (first.dir == s.dir && a.clock_name == b.clock_name);
}

// The merge on the calling thread. Returns false, before any event, when
// the one graph must read the trace instead.
class Merge {
 public:
  Merge(const std::vector<std::string>& dirs, const std::string& label, const Plan& plan, Workers& workers)
      : dirs_(dirs), label_(label), plan_(plan), workers_(workers), streams_(plan.workers.size()),
        traces_(dirs.size()) {}

  // Events in the whole graph's order to on_event; false (having handed
  // none) when the one graph must read the trace instead. Throws
  // on_event's exceptions; a worker's failure after its first event is
  // `failure()`.
  bool Run(const std::function<void(const CtfEvent&)>& on_event) {
    const size_t n = plan_.workers.size();
    std::vector<std::unique_ptr<Block>> head(n);
    std::vector<size_t> next(n, 0);
    std::vector<bool> live(n);
    // The worker's next event, waiting for its next block; false when it
    // has none left.
    auto fetch = [&](size_t w) {
      auto& block = head[w];
      while (next[w] == block->count) {
        if (block->last) return false;
        workers_.Recycle(w, std::exchange(block, workers_.Pop(w)));
        next[w] = 0;
        Register(w, *block);
      }
      return true;
    };
    for (size_t w = 0; w < n; ++w) {
      head[w] = workers_.Pop(w);
      Register(w, *head[w]);
      live[w] = fetch(w);
      // Failing before its first event: the one graph fails as it does.
      if (!live[w] && head[w]->failure) return false;
    }
    // Streams begin before their first events (their beginnings have no
    // time): usually all are known by now.
    if (clocks_differ_) return false;

    for (;;) {
      size_t least = n;
      int64_t least_time = 0;
      for (size_t w = 0; w < n; ++w) {
        if (!live[w]) continue;
        const CtfEvent& e = head[w]->events[next[w]];
        int64_t time = e.time_ns.value_or(INT64_MIN);  // no clock: the muxer's last time, alike for all
        if (least == n || time < least_time ||
            (time == least_time && Before(e, Key(w, e), head[least]->events[next[least]],
                                          Key(least, head[least]->events[next[least]])))) {
          least = w;
          least_time = time;
        }
      }
      if (least == n) break;
      CtfEvent& e = head[least]->events[next[least]++];
      StreamKey& key = Key(least, e);
      if (key.index == UINT32_MAX) key.index = stream_count_++;
      e.stream = key.index;
      e.trace = &Trace(key.dir, *e.trace);
      ++events_;
      {
        AbortGuard::OwnCode ours;  // an abort in here is our bug, not babeltrace2's
        on_event(e);
      }
      live[least] = fetch(least);
      if (!live[least] && head[least]->failure) {
        failure_ = head[least]->failure;
        return true;
      }
      if (clocks_differ_) {  // a stream begun late: the one graph refuses the trace
        failure_ =
            std::make_exception_ptr(UserError(label_ + ": cannot decode the CTF trace: streams of unlike clocks"));
        return true;
      }
    }
    return true;
  }
  uint64_t events() const { return events_; }
  std::exception_ptr failure() const { return failure_; }

 private:
  // A worker's streams that begin in `block`, with their keys in the whole trace.
  void Register(size_t w, Block& block) {
    for (auto& [index, id] : block.streams) {
      auto& mine = streams_[w];
      if (mine.size() <= index) mine.resize(index + 1);
      StreamKey& key = mine[index];
      fs::path path(id.path);
      // The worker's folder for directory D is .../W/D.
      key.dir = static_cast<size_t>(std::stoul(path.parent_path().filename().string()));
      std::string file = path.filename().string();
      const auto& ids = plan_.auto_ids[key.dir];
      if (auto it = ids.find(file); it != ids.end()) id.stream_id = it->second;
      key.path = (fs::absolute(dirs_[key.dir]).lexically_normal() / file).string();
      key.id = std::move(id);
      if (!first_) first_ = key;
      if (!AlikeClocks(*first_, key)) clocks_differ_ = true;
    }
  }
  StreamKey& Key(size_t w, const CtfEvent& e) { return streams_[w][e.stream]; }
  // The whole reading's trace for directory `dir`, numbered by first event.
  const CtfTraceInfo& Trace(size_t dir, const CtfTraceInfo& seen) {
    auto& slot = traces_[dir];
    if (!slot) {
      slot = std::make_unique<CtfTraceInfo>(seen);
      slot->index = trace_count_++;
    }
    return *slot;
  }

  const std::vector<std::string>& dirs_;
  const std::string& label_;
  const Plan& plan_;
  Workers& workers_;
  std::vector<std::vector<StreamKey>> streams_;  // per worker, by its stream index
  std::vector<std::unique_ptr<CtfTraceInfo>> traces_;
  std::optional<StreamKey> first_;  // the first stream registered: the clock the others must be like
  bool clocks_differ_ = false;
  uint32_t stream_count_ = 0, trace_count_ = 0;
  uint64_t events_ = 0;
  std::exception_ptr failure_;
};

}  // namespace

uint64_t ForEachCtfEventOnThreads(const std::vector<std::string>& trace_directories, const std::string& label,
                                  const std::function<void(const CtfEvent&)>& on_event, PacketOverlaps& overlaps,
                                  int threads) {
  if (threads <= 1) return ForEachCtfEvent(trace_directories, label, on_event, overlaps);
  AbortGuard guard(CtfAbortMessage(label));
  // The one graph, as ForEachCtfEvent (under this guard).
  auto sequential = [&](const std::function<void(const CtfEvent&)>& handler) {
    return CtfGraph(trace_directories, label, overlaps).Run([&](CtfEvent& e) { handler(e); });
  };
  // Opening the whole trace indexes every stream file: its errors are the
  // sequential reading's.
  const Plan plan = MakePlan(trace_directories, CtfStreamPorts(trace_directories, label), threads);
  if (plan.workers.size() <= 1) return sequential(on_event);

  std::optional<ScratchFolders> folders;
  std::vector<PacketOverlaps> counted(plan.workers.size());
  std::vector<std::unique_ptr<CtfGraph>> graphs;
  try {
    folders.emplace(trace_directories, plan);
    for (size_t w = 0; w < plan.workers.size(); ++w)
      graphs.push_back(std::make_unique<CtfGraph>(folders->inputs(w), label, counted[w]));
  } catch (const std::exception&) {  // no scratch folder, or a part refused where the whole was not
    graphs.clear();
    return sequential(on_event);
  }
  std::exception_ptr failure;
  uint64_t events = 0;
  {
    Workers workers(graphs);
    Merge merge(trace_directories, label, plan, workers);
    bool ran = merge.Run(on_event);
    if (!ran) {
      workers.Stop();
      graphs.clear();
      return sequential(on_event);
    }
    failure = merge.failure();
    events = merge.events();
  }
  graphs.clear();
  if (failure) {
    // A worker failed after its first event: the one graph's message for it.
    PacketOverlaps ignored;
    try {
      CtfGraph(trace_directories, label, ignored).Run([](CtfEvent&) {});
    } catch (const UserError&) {
      throw;
    } catch (...) {
    }
    std::rethrow_exception(failure);
  }
  for (const PacketOverlaps& c : counted) {
    overlaps.packets += c.packets;
    overlaps.total_ns += c.total_ns;
    overlaps.max_ns = std::max(overlaps.max_ns, c.max_ns);
  }
  return events;
}

}  // namespace macroscope::ctf
