#include "formats/paje/sharded_simulation.h"

#include <pthread.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>

#include "util/error.h"

namespace macroscope::paje {

void SimulateRecord(const Record& r, std::span<const ExtraField> extras, Simulator& sim) {
  using K = EventKind;
  using F = Field;
  auto f = [&](Field field) { return r.Get(field); };
  switch (r.kind) {
    case K::kDefineContainerType: sim.DefineContainerType(f(F::kType), f(F::kName), f(F::kAlias)); break;
    case K::kDefineStateType:
      sim.DefineEntityType(TypeKind::kState, f(F::kType), f(F::kName), f(F::kAlias), f(F::kColor));
      break;
    case K::kDefineEventType:
      sim.DefineEntityType(TypeKind::kEvent, f(F::kType), f(F::kName), f(F::kAlias), f(F::kColor));
      break;
    case K::kDefineVariableType:
      sim.DefineEntityType(TypeKind::kVariable, f(F::kType), f(F::kName), f(F::kAlias), f(F::kColor));
      break;
    case K::kDefineLinkType:
      sim.DefineLinkType(f(F::kType), f(F::kStartContainerType), f(F::kEndContainerType), f(F::kName), f(F::kAlias));
      break;
    case K::kDefineEntityValue: sim.DefineValue(f(F::kType), f(F::kName), f(F::kAlias), f(F::kColor)); break;
    case K::kCreateContainer:
      sim.CreateContainer(r.time, f(F::kType), f(F::kContainer), f(F::kName), f(F::kAlias), extras);
      break;
    case K::kDestroyContainer: sim.DestroyContainer(r.time, f(F::kType), f(F::kName)); break;
    case K::kNewEvent: sim.NewEvent(r.time, f(F::kType), f(F::kContainer), f(F::kValue), extras); break;
    case K::kSetState: sim.SetState(r.time, f(F::kType), f(F::kContainer), f(F::kValue), extras); break;
    case K::kPushState: sim.PushState(r.time, f(F::kType), f(F::kContainer), f(F::kValue), extras); break;
    case K::kPopState: sim.PopState(r.time, f(F::kType), f(F::kContainer), extras); break;
    case K::kResetState: sim.ResetState(r.time, f(F::kType), f(F::kContainer), extras); break;
    case K::kSetVariable:
      sim.ChangeVariable(Simulator::VariableOp::kSet, r.time, f(F::kType), f(F::kContainer), double{r.number},
                         extras);
      break;
    case K::kAddVariable:
      sim.ChangeVariable(Simulator::VariableOp::kAdd, r.time, f(F::kType), f(F::kContainer), double{r.number},
                         extras);
      break;
    case K::kSubVariable:
      sim.ChangeVariable(Simulator::VariableOp::kSub, r.time, f(F::kType), f(F::kContainer), double{r.number},
                         extras);
      break;
    case K::kStartLink:
      sim.StartLink(r.time, f(F::kType), f(F::kContainer), f(F::kStartContainer), f(F::kValue), f(F::kKey), extras);
      break;
    case K::kEndLink:
      sim.EndLink(r.time, f(F::kType), f(F::kContainer), f(F::kEndContainer), f(F::kValue), f(F::kKey), extras);
      break;
    case K::kTraceFile: break;  // the decoder reads the named file
  }
}

namespace {

// Simulates the records of the block that `mine` accepts, fetching their
// stores ahead once there are many (Simulator::FetchAhead); `done(k)` after
// record k. Fills `failure` before throwing UserError.
template <class Mine, class Done>
void SimulateRecords(const Block& block, Simulator& sim, bool sorted, Mine mine, Done done,
                     SimulationFailure& failure) {
  const std::vector<Record>& records = block.records;
  constexpr size_t kAhead = 16;  // lines between a prefetch stage and the next
  const bool ahead = sim.FetchAhead();
  for (size_t k = 0; k < records.size(); ++k) {
    if (ahead && k + 2 * kAhead < records.size()) {
      const Record& far = records[k + 2 * kAhead];
      if (mine(far)) sim.Prefetch(far.slot[kTypeSlot], far.slot[kContainerSlot], 0);
    }
    if (ahead && k + kAhead < records.size()) {
      const Record& near = records[k + kAhead];
      if (mine(near)) sim.Prefetch(near.slot[kTypeSlot], near.slot[kContainerSlot], 1);
    }
    const Record& r = records[k];
    if (!mine(r)) continue;
    try {
      const uint32_t extras_end =
          k + 1 < records.size() ? records[k + 1].extras_begin : static_cast<uint32_t>(block.extras.size());
      SimulateRecord(r, {block.extras.data() + r.extras_begin, extras_end - r.extras_begin}, sim);
    } catch (const TimeOrderError& e) {
      failure = {k, e.rank};
      ThrowAt(block.file, r.line, std::string(e.what()) + (sorted ? "" : " (read it with --sort)"));
    } catch (const SimulationError& e) {
      failure = {k, e.rank};
      ThrowAt(block.file, r.line, e.what());
    }
    done(k);
  }
}

void Finish(Simulator& sim, double last_time, std::string_view file, uint64_t line, SimulationFailure& failure) {
  try {
    sim.Finish(last_time);
  } catch (const SimulationError& e) {
    failure = {UINT64_MAX, e.rank};
    ThrowAt(file, line, std::string("end of trace: ") + e.what());
  }
}

// The shard of a container identifier: ids are mixed first, as the ids of
// containers often go by twos or more (a name and an alias interned each).
int ShardOf(StringId container, int shards) {
  uint64_t x = container;
  x *= 0x9E3779B97F4A7C15ULL;
  return static_cast<int>((x >> 32) % static_cast<uint64_t>(shards));
}

}  // namespace

void SimulateBlock(const Block& block, Simulator& sim, bool sorted, SimulationFailure* failure,
                   const std::function<void(size_t)>& done) {
  SimulationFailure ignored;
  SimulateRecords(
      block, sim, sorted, [](const Record&) { return true; },
      [&done](size_t k) {
        if (done) done(k);
      },
      failure != nullptr ? *failure : ignored);
}

void FinishSimulation(Simulator& sim, double last_time, std::string_view file, uint64_t line,
                      SimulationFailure* failure) {
  SimulationFailure ignored;
  Finish(sim, last_time, file, line, failure != nullptr ? *failure : ignored);
}

// The shards' sink: hand-overs come from several threads, one at a time.
// A store is one container's, and one shard simulates all of a
// container's entities, so each store fills in one shard only, in the
// merged store's order: a chunk's `index` (its place in the store) is
// already the merged trace's. Its `store` is the shard trace's number.
class ShardedSimulation::LockedSink : public EntitySink {
 public:
  explicit LockedSink(EntitySink& sink) : sink_(sink) {}
  void Completed(const Trace& trace, const EntityChunk& chunk) override {
    std::lock_guard lock(mutex_);
    sink_.Completed(trace, chunk);
  }

 private:
  EntitySink& sink_;
  std::mutex mutex_;
};

struct ShardedSimulation::Shard {
  int index = 0;
  std::unique_ptr<Trace> own;  // null for shard 0, which builds in the reader's trace
  Trace* trace = nullptr;
  std::unique_ptr<Simulator> sim;
  // The stores it created, with the record that created each (counted
  // from the start of the input): the order of the merged trace's stores.
  std::vector<std::pair<uint64_t, uint32_t>> created;
  std::exception_ptr error;
  uint64_t error_at = 0;  // the record of the error (UINT64_MAX: the end)
  size_t error_rank = 0;
};

ShardedSimulation::ShardedSimulation(Trace& trace, const SimulatorOptions& options, int shards, bool sorted)
    : trace_(trace), sorted_(sorted) {
  SimulatorOptions shard_options = options;
  if (options.sink != nullptr) {
    sink_ = std::make_unique<LockedSink>(*options.sink);
    shard_options.sink = sink_.get();
  }
  for (int i = 0; i < std::max(shards, 2); ++i) {
    auto shard = std::make_unique<Shard>();
    shard->index = i;
    if (i == 0) {
      shard->trace = &trace;
    } else {
      shard->own = std::make_unique<Trace>(trace.shared_strings());
      shard->own->SetTimeBase(trace.time_base());
      shard->trace = shard->own.get();
    }
    shard->sim = std::make_unique<Simulator>(*shard->trace, shard_options);
    shards_.push_back(std::move(shard));
  }
  for (size_t i = 1; i < shards_.size(); ++i) {
    threads_.emplace_back([this, i] {
      pthread_setname_np(pthread_self(), ("paje-shard-" + std::to_string(i)).c_str());
      Work(*shards_[i]);
    });
  }
}

ShardedSimulation::~ShardedSimulation() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  start_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void ShardedSimulation::Work(Shard& shard) {
  uint64_t seen = 0;
  for (;;) {
    const std::function<void(Shard&)>* job = nullptr;
    {
      std::unique_lock lock(mutex_);
      start_.wait(lock, [&] { return stop_ || round_ != seen; });
      if (stop_) return;
      seen = round_;
      job = job_;
    }
    (*job)(shard);
    {
      std::lock_guard lock(mutex_);
      --running_;
    }
    done_.notify_one();
  }
}

void ShardedSimulation::Round(const std::function<void(Shard&)>& job) {
  // A shard stops at its first error; it keeps the error for the others
  // to finish the round, and an earlier error of another shard wins.
  auto guarded = [&job](Shard& shard) {
    if (shard.error) return;
    try {
      job(shard);
    } catch (...) {
      shard.error = std::current_exception();
    }
  };
  const std::function<void(Shard&)> run = guarded;
  {
    std::lock_guard lock(mutex_);
    job_ = &run;
    running_ = static_cast<int>(shards_.size()) - 1;
    ++round_;
  }
  start_.notify_all();
  run(*shards_[0]);
  {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return running_ == 0; });
  }
  const Shard* first = nullptr;
  for (const auto& s : shards_) {
    if (s->error && (first == nullptr || std::tie(s->error_at, s->error_rank) < std::tie(first->error_at, first->error_rank)))
      first = s.get();
  }
  if (first != nullptr) std::rethrow_exception(first->error);
}

void ShardedSimulation::Simulate(const Block& block) {
  const int count = static_cast<int>(shards_.size());
  const uint64_t position = position_;
  Round([&](Shard& shard) {
    SimulationFailure failure{UINT64_MAX, 0};  // an internal error: after any error of the input
    auto mine = [&](const Record& r) {
      return !IsEntityEvent(r.kind) || ShardOf(r.Get(Field::kContainer), count) == shard.index;
    };
    size_t known = shard.trace->stores().size();
    auto done = [&](size_t k) {
      for (; known < shard.trace->stores().size(); ++known)
        shard.created.emplace_back(position + k, static_cast<uint32_t>(known));
    };
    try {
      SimulateRecords(block, *shard.sim, sorted_, mine, done, failure);
    } catch (...) {
      shard.error_at = failure.index == UINT64_MAX ? UINT64_MAX : position + failure.index;
      shard.error_rank = failure.rank;
      throw;
    }
  });
  position_ += block.records.size();
}

void ShardedSimulation::Finish(double last_time, std::string_view file, uint64_t line) {
  Round([&](Shard& shard) {
    SimulationFailure failure;
    try {
      paje::Finish(*shard.sim, last_time, file, line, failure);
    } catch (...) {
      shard.error_at = UINT64_MAX;
      shard.error_rank = failure.rank;
      throw;
    }
  });
  Merge();
}

void TakeStores(Trace& trace, BuiltStores& built) {
  built.stores = trace.TakeStores();
  built.lists.clear();
  for (ContainerId c = 0; c < trace.containers().size(); ++c)
    built.lists.push_back(std::exchange(trace.container(c).stores, {}));
}

void MergeStores(std::vector<BuiltStores>& built, Trace& trace) {
  struct Made {
    uint64_t record;
    size_t builder;
    uint32_t store;
  };
  std::vector<Made> made;
  for (size_t k = 0; k < built.size(); ++k)
    for (auto [record, store] : built[k].created) made.push_back({record, k, store});
  std::sort(made.begin(), made.end(), [](const Made& a, const Made& b) {
    return std::tie(a.record, a.builder, a.store) < std::tie(b.record, b.builder, b.store);
  });
  std::vector<std::vector<uint32_t>> renumber;
  for (const BuiltStores& b : built) renumber.emplace_back(b.stores.size(), kNone);
  for (const Made& m : made)
    renumber[m.builder][m.store] = trace.AppendStore(std::move(built[m.builder].stores[m.store]));
  for (ContainerId c = 0; c < trace.containers().size(); ++c) {
    std::vector<std::pair<TypeId, uint32_t>> stores;
    for (size_t k = 0; k < built.size(); ++k)
      for (auto [type, store] : built[k].lists[c]) stores.emplace_back(type, renumber[k][store]);
    trace.container(c).stores = std::move(stores);
  }
}

// The shards' stores into the reader's trace.
void ShardedSimulation::Merge() {
  std::vector<BuiltStores> built(shards_.size());
  for (size_t k = 0; k < shards_.size(); ++k) {
    TakeStores(*shards_[k]->trace, built[k]);
    built[k].created = std::move(shards_[k]->created);
  }
  MergeStores(built, trace_);
}

}  // namespace macroscope::paje
