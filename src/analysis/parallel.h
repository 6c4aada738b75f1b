// A minimal parallel loop over std::thread.
#pragma once

#include <cstdint>
#include <functional>

namespace macroscope::analysis {

// Threads used when a caller passes 0: the hardware concurrency, at least 1.
int DefaultThreadCount();

// Runs fn(index, worker) for every index in [0, count), spread dynamically
// over min(threads, count) workers (worker in [0, workers)). An exception
// thrown by fn stops the loop early and is rethrown in the caller.
// Returns the number of workers used.
int ParallelFor(int64_t count, int threads, const std::function<void(int64_t, int)>& fn);

}  // namespace macroscope::analysis
