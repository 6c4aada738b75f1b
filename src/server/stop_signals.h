// A graceful stop on SIGINT and SIGTERM: the signals are blocked in the
// constructing thread (and so in every thread it starts afterwards) and a
// watcher thread waits for them, then calls `on_signal` once, outside any
// signal handler.
//
// Construct it in the main thread before any other thread starts.
#pragma once

#include <atomic>
#include <functional>
#include <thread>

namespace macroscope::server {

class StopSignals {
 public:
  explicit StopSignals(std::function<void(int)> on_signal);
  ~StopSignals();  // stops watching (no call of on_signal after it returns)
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // The signal received, 0 when none.
  int received() const { return received_; }

 private:
  std::atomic<bool> done_{false};
  std::atomic<int> received_{0};
  std::thread watcher_;
};

}  // namespace macroscope::server
