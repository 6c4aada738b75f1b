// Blocks of work passed from one producer thread to one consumer thread:
// at most `capacity` full blocks in flight (the producer waits beyond), and
// blocks given back are handed out again, so that their vectors keep their
// capacity and steady state allocates nothing. The consumer may cancel:
// the producer's waiting and later pushes then fail, and it stops.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

namespace macroscope {

template <class Block>
class BlockQueue {
 public:
  explicit BlockQueue(size_t capacity) : capacity_(capacity) {}

  // Producer: a block to fill, maybe one the consumer gave back (as it
  // was given back).
  std::unique_ptr<Block> TakeEmpty() {
    std::lock_guard lock(mutex_);
    if (empty_.empty()) return std::make_unique<Block>();
    std::unique_ptr<Block> block = std::move(empty_.back());
    empty_.pop_back();
    return block;
  }
  // Producer: hands a block over, waiting while the queue is full; false
  // (the block dropped) once the consumer has cancelled.
  bool Push(std::unique_ptr<Block> block) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return full_.size() < capacity_ || cancelled_; });
    if (cancelled_) return false;
    full_.push_back(std::move(block));
    changed_.notify_all();
    return true;
  }
  // Consumer: the next full block, waiting for it.
  std::unique_ptr<Block> Pop() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return !full_.empty(); });
    std::unique_ptr<Block> block = std::move(full_.front());
    full_.pop_front();
    changed_.notify_all();
    return block;
  }
  // Consumer: gives a block back for the producer to fill again.
  void Recycle(std::unique_ptr<Block> block) {
    std::lock_guard lock(mutex_);
    if (empty_.size() < capacity_) empty_.push_back(std::move(block));
  }
  // Consumer: stops the producer (its pushes fail from now on).
  void Cancel() {
    std::lock_guard lock(mutex_);
    cancelled_ = true;
    changed_.notify_all();
  }
  // Producer: whether a push would wait now.
  bool full() const {
    std::lock_guard lock(mutex_);
    return full_.size() >= capacity_;
  }
  // Producer: whether the consumer has cancelled.
  bool cancelled() const {
    std::lock_guard lock(mutex_);
    return cancelled_;
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::unique_ptr<Block>> full_;
  std::vector<std::unique_ptr<Block>> empty_;
  size_t capacity_;
  bool cancelled_ = false;
};

}  // namespace macroscope
