#include "util/heap_prefault.h"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

namespace macroscope {

namespace {
constexpr uintptr_t kStep = uintptr_t{2} << 20;  // a huge page
}

HeapPrefaulter::HeapPrefaulter() {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  if (static_cast<pid_t>(syscall(SYS_gettid)) != getpid()) return;  // not the main thread: another arena
  next_ = (reinterpret_cast<uintptr_t>(sbrk(0)) + kStep - 1) / kStep * kStep;
#endif
}

void HeapPrefaulter::Advance() {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  // Step by step up to the first step the heap has not mapped yet (ENOMEM).
  while (next_ != 0) {
    if (madvise(reinterpret_cast<void*>(next_), kStep, MADV_POPULATE_WRITE) != 0) {
      if (errno != ENOMEM) next_ = 0;  // an older kernel, or valgrind: off
      return;
    }
    next_ += kStep;
  }
#endif
}

}  // namespace macroscope
