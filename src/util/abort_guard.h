// While alive, turns abort() into a clear error. C libraries such as
// babeltrace2 stop the process with a failed assert() when corrupt input
// trips one of their internal checks; under a guard the user gets one line
// on stderr — the guard's message, then the library's own assertion text —
// and exit status 1 instead of a core dump. The process cannot go on (the
// library's state is undefined), so it ends there; commands write their
// outputs through AtomicFile after reading, so nothing is left half
// written. Meanwhile the library's stderr goes to a scratch file (that is
// where the assertion text is read from).
//
// An abort while an OwnCode is alive (our callbacks, run by the library) is
// a bug of ours, not the library's: the guard lets it through to the
// previous handler (the default one, or libFuzzer's, which reports it).
//
// Fuzz builds (FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION) keep the guard
// but leave stderr alone, so that sanitizer reports stay visible, and exit
// with kAbortGuardExit: a fuzz target reading in a child process
// (fuzz/isolated.h) tells that from a sanitizer's report (exit 1).
//
// One guard at a time, on one thread.
#pragma once

#include <signal.h>

#include <string>

namespace macroscope {

#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
inline constexpr int kAbortGuardExit = 86;
#else
inline constexpr int kAbortGuardExit = 1;
#endif

class AbortGuard {
 public:
  explicit AbortGuard(const std::string& message);
  ~AbortGuard();
  AbortGuard(const AbortGuard&) = delete;
  AbortGuard& operator=(const AbortGuard&) = delete;

  // Marks our own code run from inside the guarded library (its callbacks).
  class OwnCode {
   public:
    OwnCode();
    ~OwnCode();
    OwnCode(const OwnCode&) = delete;
    OwnCode& operator=(const OwnCode&) = delete;
  };

 private:
  struct sigaction previous_ {};
  int saved_stderr_ = -1;
  bool active_ = false;
};

}  // namespace macroscope
