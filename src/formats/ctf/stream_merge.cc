#include "formats/ctf/stream_merge.h"

#include <stdlib.h>

#include <algorithm>
#include <string_view>
#include <system_error>

#include "util/abort_guard.h"
#include "util/error.h"

namespace macroscope::ctf {

namespace fs = std::filesystem;

namespace {

// --- the plan ----------------------------------------------------------------

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

}  // namespace

Plan MakePlan(const std::vector<std::string>& dirs, const std::vector<std::vector<std::string>>& ports, int workers) {
  Plan plan;
  // Several directories of one trace UUID compare by stream id across
  // traces: each then stays whole, numbered as in the whole graph.
  std::map<std::string, int> uuid_count;
  for (const auto& p : ports)
    if (!p.empty()) ++uuid_count[PortTrace(p.front())];  // a trace without streams has no port
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
  size_t used = std::min(shares.size(), static_cast<size_t>(std::max(workers, 1)));
  plan.workers.resize(used);
  if (used <= 1) return plan;
  // Largest first, to the least loaded worker.
  std::stable_sort(shares.begin(), shares.end(), [](const Share& a, const Share& b) { return a.bytes > b.bytes; });
  std::vector<uintmax_t> load(used, 0);
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

ScratchFolders::ScratchFolders(const std::vector<std::string>& dirs, const Plan& plan, std::optional<size_t> only) {
  std::string pattern = (fs::absolute(fs::temp_directory_path()) / "macroscope-ctf-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) throw UserError(pattern + ": cannot create a scratch folder");
  root_ = pattern;
  inputs_.resize(plan.workers.size());
  for (size_t w = 0; w < plan.workers.size(); ++w) {
    if (only && w != *only) continue;
    for (const Share& s : plan.workers[w]) {
      fs::path folder = root_ / std::to_string(w) / std::to_string(s.dir);
      fs::create_directories(folder);
      fs::path real = fs::absolute(dirs[s.dir]);
      fs::create_symlink(real / "metadata", folder / "metadata");
      std::error_code ec;
      if (fs::is_directory(real / "index", ec)) fs::create_directory_symlink(real / "index", folder / "index");
      for (const std::string& f : s.files) fs::create_symlink(real / f, folder / f);
      inputs_[w].push_back(folder.string());
    }
  }
}

ScratchFolders::~ScratchFolders() {
  std::error_code ec;
  fs::remove_all(root_, ec);  // links only: their targets stay
}


namespace {

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

}  // namespace

// --- the workers --------------------------------------------------------------

void Workers::Recycle(size_t w, std::unique_ptr<Block> block) {
  block->streams.clear();
  block->count = 0;
  workers_.queue(w).Recycle(std::move(block));
}

void Workers::Work(size_t w) {
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

// --- the merge ----------------------------------------------------------------

bool Merge::Run(const std::function<void(const CtfEvent&)>& on_event) {
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
      source_.Recycle(w, std::exchange(block, source_.Pop(w)));
      next[w] = 0;
      Register(w, *block);
    }
    return true;
  };
  for (size_t w = 0; w < n; ++w) {
    head[w] = source_.Pop(w);
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

// A worker's streams that begin in `block`, with their keys in the whole trace.
void Merge::Register(size_t w, Block& block) {
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

// The whole reading's trace for directory `dir`, numbered by first event.
const CtfTraceInfo& Merge::Trace(size_t dir, const CtfTraceInfo& seen) {
  auto& slot = traces_[dir];
  if (!slot) {
    slot = std::make_unique<CtfTraceInfo>(seen);
    slot->index = trace_count_++;
  }
  return *slot;
}

void ThrowWorkerFailure(const std::vector<std::string>& dirs, const std::string& label, std::exception_ptr failure) {
  PacketOverlaps ignored;
  try {
    CtfGraph(dirs, label, ignored).Run([](CtfEvent&) {});
  } catch (const UserError&) {
    throw;
  } catch (...) {
  }
  std::rethrow_exception(failure);
}

}  // namespace macroscope::ctf
