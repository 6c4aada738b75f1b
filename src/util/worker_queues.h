// Worker threads, each filling a block queue of its own (block_queue.h)
// that the calling thread merges: the shape of the OTF2 location and CTF
// stream readers' threads. The queues and the threads start and stop
// together.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "util/block_queue.h"

namespace macroscope {

template <class Block>
class WorkerQueues {
 public:
  // Starts `workers` threads, thread w running work(w), which pushes to
  // queue(w). Make it its owner's last member: the threads may use the
  // owner's other members at once.
  WorkerQueues(size_t workers, size_t capacity, const std::function<void(size_t)>& work) {
    for (size_t w = 0; w < workers; ++w) queues_.push_back(std::make_unique<BlockQueue<Block>>(capacity));
    try {
      for (size_t w = 0; w < workers; ++w) threads_.emplace_back(work, w);
    } catch (...) {  // no thread to start: stop those that did
      Stop();
      throw;
    }
  }
  ~WorkerQueues() { Stop(); }
  WorkerQueues(const WorkerQueues&) = delete;
  WorkerQueues& operator=(const WorkerQueues&) = delete;

  size_t size() const { return queues_.size(); }
  BlockQueue<Block>& queue(size_t w) { return *queues_[w]; }
  // Cancels every queue (the workers' pushes fail) and waits for the threads.
  void Stop() {
    for (auto& queue : queues_) queue->Cancel();
    for (std::thread& t : threads_)
      if (t.joinable()) t.join();
  }

 private:
  std::vector<std::unique_ptr<BlockQueue<Block>>> queues_;
  std::vector<std::thread> threads_;
};

}  // namespace macroscope
