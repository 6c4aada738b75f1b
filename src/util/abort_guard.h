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
// One guard at a time; fuzz builds (FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION)
// leave abort() alone, so that the fuzzer sees it.
#pragma once

#include <signal.h>

#include <string>

namespace macroscope {

class AbortGuard {
 public:
  explicit AbortGuard(const std::string& message);
  ~AbortGuard();
  AbortGuard(const AbortGuard&) = delete;
  AbortGuard& operator=(const AbortGuard&) = delete;

 private:
  struct sigaction previous_ {};
  int saved_stderr_ = -1;
  bool active_ = false;
};

}  // namespace macroscope
