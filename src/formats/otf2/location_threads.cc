#include "formats/otf2/location_threads.h"

#include <memory>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "formats/otf2/location_events.h"
#include "util/heap_prefault.h"
#include "util/worker_queues.h"
#include "util/error.h"

namespace macroscope::otf2 {

namespace {

constexpr size_t kBlockRecords = 4096;
constexpr size_t kQueuedBlocks = 4;  // per worker: bounds the memory of records decoded ahead

// Why a worker stopped short, to be told when the sequential reader would.
struct Failure {
  bool set = false;
  // Before any record: how far the worker had opened its locations.
  OpenProgress progress = {};
  // Reading a location's next record failed: the library's reason, told
  // after the worker's last record with the translator's count.
  bool after_records = false;
  // Closing the readers failed, after every record.
  bool at_end = false;
  std::string message;  // the UserError's text; the reason when after_records
};

// Records as a worker decoded them, their attributes and metric values
// copied into the block.
struct Block {
  struct Extent {
    uint32_t attributes, metrics;  // first index in `attributes`, in `types` and `values`
  };
  std::vector<EventRecord> records;
  std::vector<Extent> extents;
  std::vector<RawAttribute> attributes;
  std::vector<OTF2_Type> types;
  std::vector<OTF2_MetricValue> values;
  bool last = false;  // the worker's last block
  Failure failure;    // last block only

  Block() {
    records.reserve(kBlockRecords);
    extents.reserve(kBlockRecords);
  }
  void Add(const EventRecord& r) {
    extents.push_back({static_cast<uint32_t>(attributes.size()), static_cast<uint32_t>(values.size())});
    // Most records have neither attributes nor metric values.
    if (!r.attributes.empty()) attributes.insert(attributes.end(), r.attributes.begin(), r.attributes.end());
    if (!r.metric_values.empty()) {
      types.insert(types.end(), r.metric_types.begin(), r.metric_types.end());
      values.insert(values.end(), r.metric_values.begin(), r.metric_values.end());
    }
    records.push_back(r);  // its views are set by Seal(), once the vectors stop growing
  }
  // Empty again, its vectors keeping their capacity.
  void Clear() {
    records.clear();
    extents.clear();
    attributes.clear();
    types.clear();
    values.clear();
  }
  void Seal() {
    for (size_t i = 0; i < records.size(); ++i) {
      EventRecord& r = records[i];
      const Extent& e = extents[i];
      r.attributes = {attributes.data() + e.attributes, r.attributes.size()};
      r.metric_types = {types.data() + e.metrics, r.metric_types.size()};
      r.metric_values = {values.data() + e.metrics, r.metric_values.size()};
    }
  }
};

// The workers, their queues of blocks, and the merge on the calling thread.
class Threads {
 public:
  Threads(const std::string& anchor, const Definitions& defs, std::unordered_map<OTF2_LocationRef, int> worker_of,
          int workers)
      : anchor_(anchor),
        defs_(defs),
        worker_of_(std::move(worker_of)),
        workers_(static_cast<size_t>(workers), kQueuedBlocks, [this](size_t w) { Work(static_cast<int>(w)); }) {}
  Threads(const Threads&) = delete;
  Threads& operator=(const Threads&) = delete;

  void Merge(EventTranslator& translator);

 private:
  class Sink;
  void Work(int w);
  BlockQueue<Block>& Queue(int w) { return workers_.queue(static_cast<size_t>(w)); }
  // Hands a block to the merge; false when the merge has stopped.
  bool Push(int w, std::unique_ptr<Block> block) { return Queue(w).Push(std::move(block)); }
  std::unique_ptr<Block> Pop(int w) { return Queue(w).Pop(); }

  const std::string& anchor_;
  const Definitions& defs_;
  const std::unordered_map<OTF2_LocationRef, int> worker_of_;
  // The heap the translation grows (the stores), faulted in ahead by worker
  // 0 while the translation has its blocks to do (util/heap_prefault.h).
  HeapPrefaulter prefaulter_;
  WorkerQueues<Block> workers_;  // last: its threads start with it
};

// A worker's records into blocks.
class Threads::Sink : public RecordSink {
 public:
  Sink(Threads& threads, int w) : threads_(threads), w_(w), block_(threads.Queue(w).TakeEmpty()) {}
  OTF2_CallbackCode Take(const EventRecord& record) override {
    if (block_->records.size() == kBlockRecords) {
      block_->Seal();
      if (w_ == 0 && threads_.Queue(w_).full()) threads_.prefaulter_.Advance();  // ahead: it would wait
      if (!threads_.Push(w_, std::exchange(block_, threads_.Queue(w_).TakeEmpty()))) return OTF2_CALLBACK_INTERRUPT;
    }
    block_->Add(record);
    return OTF2_CALLBACK_SUCCESS;
  }
  void Last(Failure failure) {
    block_->Seal();
    block_->last = true;
    block_->failure = std::move(failure);
    threads_.Push(w_, std::move(block_));
  }

 private:
  Threads& threads_;
  int w_;
  std::unique_ptr<Block> block_;
};

void Threads::Work(int w) {
  LibraryErrorCapture capture;  // this thread's library messages
  Sink sink(*this, w);
  Failure failure;
  OpenProgress progress;
  try {
    // The archive opened on the calling thread already: failures here are
    // the library's, told as the calling thread would.
    const ReaderPtr reader = OpenReader(anchor_, capture);
    OpenLocations(reader.get(), anchor_, capture, defs_,
                  [&](OTF2_LocationRef location) {
                    auto it = worker_of_.find(location);
                    return it != worker_of_.end() && it->second == w;
                  },
                  progress);
    OTF2_GlobalEvtReader* events = nullptr;
    OTF2_ErrorCode code = ReadLocationEvents(reader.get(), anchor_, capture, sink, &events);
    if (Queue(w).cancelled()) return;
    if (code != OTF2_SUCCESS) {
      failure = {.set = true, .after_records = true, .message = Reason(code, capture)};
    } else {
      failure.at_end = true;
      Check(OTF2_Reader_CloseGlobalEvtReader(reader.get(), events), anchor_, "bad event records", capture);
      Check(OTF2_Reader_CloseEvtFiles(reader.get()), anchor_, "bad event records", capture);
      failure.at_end = false;
    }
  } catch (const UserError& e) {
    failure.set = true;
    failure.progress = progress;
    failure.message = e.what();
  } catch (const std::exception& e) {  // not bad input: an internal error, told as such
    failure = {.set = true, .message = std::string("internal error: ") + e.what()};
  }
  sink.Last(std::move(failure));
}

void Threads::Merge(EventTranslator& translator) {
  const int workers = static_cast<int>(workers_.size());
  std::vector<std::unique_ptr<Block>> head(static_cast<size_t>(workers));
  std::vector<size_t> next(static_cast<size_t>(workers), 0);
  // The worker's next record, waiting for its next block; false when it has none left.
  auto fetch = [&](int w) {
    auto& block = head[static_cast<size_t>(w)];
    size_t& i = next[static_cast<size_t>(w)];
    while (i == block->records.size()) {
      if (block->last) return false;
      block->Clear();
      Queue(w).Recycle(std::exchange(block, Pop(w)));
      i = 0;
    }
    return true;
  };
  std::vector<bool> live(static_cast<size_t>(workers));
  for (int w = 0; w < workers; ++w) {
    head[static_cast<size_t>(w)] = Pop(w);
    live[static_cast<size_t>(w)] = fetch(w);
  }
  // One reader opens every location before it reads a record: the first
  // failure to open, in its order.
  const Failure* first = nullptr;
  for (const auto& block : head) {
    const Failure& f = block->failure;
    if (!f.set || f.after_records || f.at_end || !block->records.empty()) continue;
    if (first == nullptr || std::tie(f.progress.stage, f.progress.position) <
                                std::tie(first->progress.stage, first->progress.position))
      first = &f;
  }
  if (first != nullptr) throw UserError(first->message);

  for (;;) {
    int least = -1;
    for (int w = 0; w < workers; ++w) {
      if (!live[static_cast<size_t>(w)]) continue;
      const EventRecord& r = head[static_cast<size_t>(w)]->records[next[static_cast<size_t>(w)]];
      if (least < 0) {
        least = w;
        continue;
      }
      const EventRecord& l = head[static_cast<size_t>(least)]->records[next[static_cast<size_t>(least)]];
      if (std::tie(r.time, r.location) < std::tie(l.time, l.location)) least = w;
    }
    if (least < 0) break;
    const auto w = static_cast<size_t>(least);
    if (translator.Take(head[w]->records[next[w]++]) != OTF2_CALLBACK_SUCCESS && translator.error())
      std::rethrow_exception(translator.error());
    live[w] = fetch(least);
    const Failure& f = head[w]->failure;
    if (!live[w] && f.set && f.after_records)
      throw UserError(anchor_ + ": bad event records after record " + std::to_string(translator.records()) + ": " +
                      f.message);
  }
  for (const auto& block : head)
    if (block->failure.set) throw UserError(block->failure.message);
}

}  // namespace

void ReadOnThreads(const std::string& anchor, const Definitions& defs,
                   const std::function<bool(OTF2_LocationRef)>& mine, int threads, EventTranslator& translator) {
  std::unordered_map<OTF2_LocationRef, int> worker_of;
  for (const auto& [location, unused] : defs.locations)
    if (mine(location)) worker_of.emplace(location, static_cast<int>(worker_of.size() % static_cast<size_t>(threads)));
  const int workers = static_cast<int>(std::min(worker_of.size(), static_cast<size_t>(threads)));
  Threads running(anchor, defs, std::move(worker_of), workers);
  running.Merge(translator);
}

}  // namespace macroscope::otf2
