// Giving up a long analysis whose result nobody waits for any more: the
// caller (the server, when a client goes away or it stops) sets the flag
// from any thread; the analyses poll it between steps short enough — one
// row of a quality table, one p of a p list, one chunk of entities — that
// they stop within milliseconds, by throwing Cancelled. Nothing
// half-built is handed back: partial results are freed as the exception
// unwinds.
#pragma once

#include <atomic>
#include <stdexcept>

namespace macroscope::analysis {

class Cancelled : public std::runtime_error {
 public:
  Cancelled() : std::runtime_error("computation cancelled") {}
};

// Thread-safety: Cancel() and cancelled() from any thread.
class Cancellation {
 public:
  void Cancel() { cancelled_.store(true, std::memory_order_relaxed); }
  bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> cancelled_{false};
};

// Throws Cancelled when `cancel` is set and cancelled; null never cancels.
inline void ThrowIfCancelled(const Cancellation* cancel) {
  if (cancel != nullptr && cancel->cancelled()) throw Cancelled();
}

}  // namespace macroscope::analysis
