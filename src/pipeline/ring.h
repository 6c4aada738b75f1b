// A link of a workflow: a bounded single-producer, multi-consumer ring of
// batches with one read cursor per consumer, so every consumer sees every
// batch (broadcast) and none is copied. The producer fills a slot in place
// (its vectors keep their capacity from lap to lap) and may reuse it only
// once every consumer has released it: a slow consumer holds the producer
// back, so memory stays at capacity slots whatever the stream's length.
//
// Close() ends the stream after the batches already published; Cancel()
// stops it at once: every waiting or later call throws Cancelled, which
// unwinds the modules of a workflow that is stopping.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace macroscope::pipeline {

// Thrown inside a module when its workflow is stopping; not an error of
// the module (the workflow reports the error that caused the stop).
class Cancelled : public std::exception {
 public:
  const char* what() const noexcept override { return "workflow cancelled"; }
};

template <class T>
class Ring {
 public:
  Ring(size_t capacity, size_t consumers) : slots_(capacity), cursors_(consumers, 0) {
    if (capacity == 0) throw std::invalid_argument("a ring needs at least one slot");
  }

  size_t consumers() const { return cursors_.size(); }

  // Producer: the next slot to fill, holding whatever it held a lap ago.
  // Waits while every slot is still being read.
  T& Claim() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return cancelled_ || head_ - Slowest() < slots_.size(); });
    if (cancelled_) throw Cancelled();
    return slots_[head_ % slots_.size()];
  }
  // Producer: makes the claimed slot readable.
  void Publish() {
    {
      std::lock_guard lock(mutex_);
      ++head_;
    }
    changed_.notify_all();
  }
  // Producer: no more batches.
  void Close() {
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
    }
    changed_.notify_all();
  }

  // Consumer `c`: the next batch, or nullptr at the end of the stream.
  // The batch stays valid until Release(c).
  const T* Peek(size_t c) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return cancelled_ || cursors_[c] < head_ || closed_; });
    if (cancelled_) throw Cancelled();
    if (cursors_[c] == head_) return nullptr;
    return &slots_[cursors_[c] % slots_.size()];
  }
  void Release(size_t c) {
    {
      std::lock_guard lock(mutex_);
      ++cursors_[c];
    }
    changed_.notify_all();
  }
  // Consumer `c` leaves early (a limit that has what it needs): it no
  // longer holds the producer back.
  void Detach(size_t c) {
    {
      std::lock_guard lock(mutex_);
      cursors_[c] = UINT64_MAX;
    }
    changed_.notify_all();
  }

  void Cancel() {
    {
      std::lock_guard lock(mutex_);
      cancelled_ = true;
    }
    changed_.notify_all();
  }

 private:
  // Called with the lock held. With no consumer nothing is ever held back.
  uint64_t Slowest() const {
    uint64_t slowest = head_;
    for (uint64_t c : cursors_) slowest = std::min(slowest, c);
    return slowest;
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<T> slots_;
  std::vector<uint64_t> cursors_;  // batches each consumer has released
  uint64_t head_ = 0;              // batches published
  bool closed_ = false;
  bool cancelled_ = false;
};

}  // namespace macroscope::pipeline
