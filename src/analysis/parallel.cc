#include "analysis/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace macroscope::analysis {

int DefaultThreadCount() {
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

int ParallelFor(int64_t count, int threads, const std::function<void(int64_t, int)>& fn) {
  if (threads <= 0) threads = DefaultThreadCount();
  int workers = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(threads, count)));
  std::atomic<int64_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto run = [&](int worker) {
    while (!failed.load(std::memory_order_relaxed)) {
      int64_t index = next.fetch_add(1, std::memory_order_relaxed);
      if (index >= count) return;
      try {
        fn(index, worker);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
        failed = true;
      }
    }
  };
  if (workers == 1) {
    run(0);
  } else {
    std::vector<std::thread> pool;
    for (int w = 1; w < workers; ++w) pool.emplace_back(run, w);
    run(0);
    for (auto& thread : pool) thread.join();
  }
  if (error) std::rethrow_exception(error);
  return workers;
}

}  // namespace macroscope::analysis
