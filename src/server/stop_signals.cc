#include "server/stop_signals.h"

#include <pthread.h>
#include <signal.h>

#include <ctime>

namespace macroscope::server {

namespace {

sigset_t StopSet() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

}  // namespace

StopSignals::StopSignals(std::function<void(int)> on_signal) {
  sigset_t set = StopSet();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  watcher_ = std::thread([this, on_signal = std::move(on_signal)] {
    const sigset_t watched = StopSet();
    // A short timeout so that the destructor's request to finish is seen
    // without sending ourselves a signal.
    const timespec tick{0, 100'000'000};
    while (!done_) {
      int signal = sigtimedwait(&watched, nullptr, &tick);
      if (signal > 0) {
        received_ = signal;
        on_signal(signal);
        return;
      }
    }
  });
}

StopSignals::~StopSignals() {
  done_ = true;
  watcher_.join();
}

}  // namespace macroscope::server
