// What the flow modules (split, merge, limit, collect) share: their count
// parameters, the copying of entity batches and the fair reading of
// several inputs.
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "pipeline/module.h"
#include "pipeline/modules/parameter_checks.h"
#include "pipeline/params.h"
#include "pipeline/stream_types.h"

namespace macroscope::pipeline {

// The most numbered ports a module takes (merge and collect run a thread
// per input).
inline constexpr int64_t kMaxPorts = 4096;

// An integer parameter in [min, max]: a number of ports or of entities.
inline int64_t CountParam(const Params& params, std::string_view name, int64_t fallback, int64_t min,
                          int64_t max = INT64_MAX) {
  int64_t value = params.Integer(name, fallback);
  if (value < min || value > max)
    BadParameter(params, name,
                 "expected " +
                     (max == INT64_MAX ? "an integer >= " + std::to_string(min)
                                       : "an integer from " + std::to_string(min) + " to " + std::to_string(max)) +
                     ", got " + std::to_string(value));
  return value;
}

// Numbered ports: "in1".."inN", "out1".."outN".
inline std::string NumberedPort(std::string_view prefix, size_t index) {
  return std::string(prefix) + std::to_string(index + 1);
}

// Entities [first, last) of `from` (all by default) in `to`, emptied
// first: chunk by chunk, into the memory `to` already has (a ring's slot).
inline void CopyEntities(const EntityBatch& from, EntityBatch& to, size_t first = 0, size_t last = SIZE_MAX) {
  to.Clear();
  to.trace = from.trace;
  to.base = from.base;
  size_t begin = 0;  // of chunk k in `from`
  for (size_t k = 0; k < from.chunks() && begin < last; ++k) {
    const EntityChunk c = from.chunk(k);
    const size_t a = std::max(first, begin), b = std::min(last, begin + c.size());
    if (a < b) to.Append(c.Sub(a - begin, b - a));
    begin += c.size();
  }
}

// Reads every input at once, one thread each (input 0 on the caller's), and
// calls each(i, batch) for every batch of input i, one call at a time, so
// `each` may Claim and Publish an output. Batches of one input keep their
// order; inputs interleave as their batches come. An idle input never holds
// the others back: reading the inputs in turn would deadlock when they come
// from one split (it waits on in2 while we wait on in1). The first error
// (from `each` or an input) cancels the module's links, so the other readers
// stop, and is rethrown once all have stopped.
template <class T, class Each>
void ReadFairly(Module& module, const std::vector<Input<T>*>& inputs, Each each) {
  std::mutex mutex;
  std::exception_ptr error;
  bool cancelled = false;
  auto read = [&](size_t i) {
    try {
      while (const T* batch = inputs[i]->Next()) {
        std::lock_guard lock(mutex);
        each(i, *batch);
      }
    } catch (const Cancelled&) {
      std::lock_guard lock(mutex);
      cancelled = true;
    } catch (...) {
      {
        std::lock_guard lock(mutex);
        if (!error) error = std::current_exception();
      }
      for (const auto& p : module.inputs()) p->Cancel();
      for (const auto& p : module.outputs()) p->Cancel();
    }
  };
  std::vector<std::thread> threads;
  try {
    for (size_t i = 1; i < inputs.size(); ++i) threads.emplace_back(read, i);
  } catch (...) {
    for (const auto& p : module.inputs()) p->Cancel();
    for (std::thread& t : threads) t.join();
    throw;
  }
  if (!inputs.empty()) read(0);
  for (std::thread& t : threads) t.join();
  if (error) std::rethrow_exception(error);
  if (cancelled) throw Cancelled();
}

}  // namespace macroscope::pipeline
