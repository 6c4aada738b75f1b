#include "formats/paje/record.h"

namespace macroscope::paje {

std::unique_ptr<Block> BlockQueue::TakeEmpty() {
  std::lock_guard lock(mutex_);
  if (empty_.empty()) return std::make_unique<Block>();
  auto b = std::move(empty_.back());
  empty_.pop_back();
  b->Clear();
  return b;
}

void BlockQueue::Push(std::unique_ptr<Block> block) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return full_.size() < capacity_ || cancelled_; });
  if (cancelled_) return;
  full_.push_back(std::move(block));
  changed_.notify_all();
}

std::unique_ptr<Block> BlockQueue::Pop() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return !full_.empty(); });
  auto b = std::move(full_.front());
  full_.pop_front();
  changed_.notify_all();
  return b;
}

void BlockQueue::Recycle(std::unique_ptr<Block> block) {
  std::lock_guard lock(mutex_);
  empty_.push_back(std::move(block));
}

void BlockQueue::Cancel() {
  std::lock_guard lock(mutex_);
  cancelled_ = true;
  changed_.notify_all();
}

bool BlockQueue::cancelled() const {
  std::lock_guard lock(mutex_);
  return cancelled_;
}

}  // namespace macroscope::paje
