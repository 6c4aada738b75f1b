#include "formats/paje/decoding_thread.h"

#include <pthread.h>

#include <memory>
#include <utility>

namespace macroscope::paje {

DecodingThread::DecodingThread(BlockQueue& queue, std::function<void()> decode, bool threaded) : queue_(queue) {
  auto run = [this, decode = std::move(decode)] {
    try {
      decode();
    } catch (...) {
      failure_ = std::current_exception();
      // No Cancel() first: a cancelled queue drops what is pushed, and the
      // simulating side would wait for this last block for ever.
      auto last = std::make_unique<Block>();
      last->last = true;
      queue_.Push(std::move(last));
    }
  };
  if (!threaded) {
    run();
    return;
  }
  thread_ = std::thread([run = std::move(run)] {
    pthread_setname_np(pthread_self(), "paje-decoder");  // tells the threads apart in profiles
    run();
  });
}

DecodingThread::~DecodingThread() {
  if (!thread_.joinable()) return;
  queue_.Cancel();
  thread_.join();
}

void DecodingThread::Finish() {
  if (thread_.joinable()) thread_.join();
  if (failure_) std::rethrow_exception(failure_);
}

}  // namespace macroscope::paje
