// The reader's back half: decoded records into the simulator, on one
// thread (SimulateBlock, the sequential path) or sharded by container on
// several (ShardedSimulation).
//
// Sharding: a record about a container's entities (states, events,
// variables, links: everything Pajé keeps in the stores, stacks and
// pending links of the record's `Container` field) goes to the shard that
// owns that container; definitions and container creation and destruction
// go to every shard, in input order, so each shard holds the whole type
// and container trees with the same ids. Shard 0 builds in the reader's
// trace, the others in traces sharing its string pool; Finish() moves
// their stores into the reader's trace in the order the sequential
// simulator creates them. The result, the messages and the lines of errors
// are the sequential path's: every shard runs a whole block before the
// first error in input order is reported.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "formats/paje/record.h"
#include "formats/paje/simulator.h"

namespace macroscope::paje {

// A record about the entities of its `Container` (states, events,
// variables, links), simulated by the shard (or part) that owns it.
inline bool IsEntityEvent(EventKind kind) { return kind >= EventKind::kNewEvent && kind <= EventKind::kEndLink; }

// One decoded record into the simulator; throws SimulationError.
void SimulateRecord(const Record& r, std::span<const ExtraField> extras, Simulator& sim);

// Where an error of a simulation in parts came from, to tell which of the
// parts' errors a whole simulation meets first.
struct SimulationFailure {
  uint64_t index = 0;  // the record in its block; UINT64_MAX: the end of the trace
  size_t rank = 0;     // SimulationError::rank
};

// The block's records in order, their stores fetched a few lines ahead.
// Throws UserError "file:line: message" for the first bad record, with a
// hint to --sort for time going backwards unless the lines were `sorted`;
// fills `failure` first when given. `done(k)`, when given, after record k.
void SimulateBlock(const Block& block, Simulator& sim, bool sorted, SimulationFailure* failure = nullptr,
                   const std::function<void(size_t)>& done = {});

// The end of the trace (Simulator::Finish) at `last_time`, after line
// `line` of `file` (the last record's, which an error names); throws
// UserError, filling `failure` first when given.
void FinishSimulation(Simulator& sim, double last_time, std::string_view file, uint64_t line,
                      SimulationFailure* failure = nullptr);

// The entity stores one of several simulators built apart (a shard, or a
// part of a reading in parts), each owning the entities of its containers.
struct BuiltStores {
  std::vector<EntityStore> stores;
  // Per container (all of the trace's): its (type, store) list.
  std::vector<std::vector<std::pair<TypeId, uint32_t>>> lists;
  // The stores it created, each with the record that created it (any
  // number growing in input order: its position, its line): the order of
  // the merged trace's stores.
  std::vector<std::pair<uint64_t, uint32_t>> created;
};

// Moves `trace`'s stores out into a BuiltStores (`created` left as it was).
void TakeStores(Trace& trace, BuiltStores& built);

// Appends the stores of `built` (by builder) to `trace`, which has none,
// numbered as one simulator numbers them (in the order of the records that
// created them), and gives its containers their lists (each container's
// from the one builder that owns it).
void MergeStores(std::vector<BuiltStores>& built, Trace& trace);

class ShardedSimulation {
 public:
  // `shards` >= 2 threads, this one among them. Build it before the
  // decoder starts: the shards' traces intern in the reader's pool.
  ShardedSimulation(Trace& trace, const SimulatorOptions& options, int shards, bool sorted);
  ~ShardedSimulation();
  ShardedSimulation(const ShardedSimulation&) = delete;
  ShardedSimulation& operator=(const ShardedSimulation&) = delete;

  // As SimulateBlock, all shards at once; returns when they are done with it.
  void Simulate(const Block& block);
  // As FinishSimulation; then the reader's trace holds every store.
  void Finish(double last_time, std::string_view file, uint64_t line);

 private:
  struct Shard;
  class LockedSink;
  // Runs `job` on every shard (this thread takes shard 0), then throws the
  // first error in input order, if any.
  void Round(const std::function<void(Shard&)>& job);
  void Work(Shard& shard);
  void Merge();

  Trace& trace_;
  bool sorted_;
  std::unique_ptr<LockedSink> sink_;
  std::vector<std::unique_ptr<Shard>> shards_;
  uint64_t position_ = 0;  // records before the current block

  std::mutex mutex_;
  std::condition_variable start_, done_;
  const std::function<void(Shard&)>* job_ = nullptr;
  uint64_t round_ = 0;
  int running_ = 0;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace macroscope::paje
