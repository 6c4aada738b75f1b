#include "isolated.h"

#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "util/abort_guard.h"
#include "util/error.h"

// The inline 8-bit coverage counters of this binary (the linker's bounds of
// their section), and sanitizer hooks; weak: absent without them.
extern "C" {
extern uint8_t __start___sancov_cntrs __attribute__((weak));
extern uint8_t __stop___sancov_cntrs __attribute__((weak));
__attribute__((weak)) size_t __sanitizer_get_current_allocated_bytes();
__attribute__((weak)) int __sanitizer_install_malloc_and_free_hooks(void (*)(const volatile void*, size_t),
                                                                    void (*)(const volatile void*));
}

namespace macroscope::fuzz {

namespace {

constexpr int kOverBudget = 87;  // beside kAbortGuardExit: the child's two refusals

size_t g_limit = 0;  // child: allocated bytes at which it stops
uint64_t g_mallocs = 0;

void Say(const char* text) { (void)!write(STDERR_FILENO, text, std::strlen(text)); }

// Child only. Reads the total now and then (it costs a walk over threads).
void OnMalloc(const volatile void*, size_t size) {
  ++g_mallocs;
  if ((g_mallocs & 1023) != 0 && size < (size_t{1} << 20)) return;
  if (__sanitizer_get_current_allocated_bytes() > g_limit) {
    Say("fuzz: the child's allocations exceed the budget: input refused (a library limit, fuzz/README.md)\n");
    _exit(kOverBudget);
  }
}

struct Counters {
  uint8_t* begin = nullptr;
  size_t size = 0;
  uint8_t* shared = nullptr;  // MAP_SHARED: what the child leaves for the parent
};

const Counters& TheCounters() {
  static const Counters counters = [] {
    Counters c;
    if (&__start___sancov_cntrs == nullptr || &__stop___sancov_cntrs == nullptr) return c;
    c.begin = &__start___sancov_cntrs;
    c.size = static_cast<size_t>(&__stop___sancov_cntrs - &__start___sancov_cntrs);
    void* shared = mmap(nullptr, c.size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED) {
      std::perror("fuzz: mmap");
      std::exit(1);
    }
    c.shared = static_cast<uint8_t*>(shared);
    return c;
  }();
  return counters;
}

[[noreturn]] void Child(const std::function<void()>& read, size_t budget_mb, pid_t parent) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);  // libFuzzer's timeout ends the parent: not leave this one running
  if (getppid() != parent) _exit(0);
  if (__sanitizer_get_current_allocated_bytes != nullptr && __sanitizer_install_malloc_and_free_hooks != nullptr) {
    g_limit = __sanitizer_get_current_allocated_bytes() + (budget_mb << 20);
    __sanitizer_install_malloc_and_free_hooks(OnMalloc, [](const volatile void*) {});  // both or none
  }
  try {
    read();
  } catch (const UserError&) {
  }
  // No leak check: LeakSanitizer cannot walk a forked child (its thread
  // registry still names the parent's threads), see fuzz/README.md.
  const Counters& c = TheCounters();
  if (c.size != 0) std::memcpy(c.shared, c.begin, c.size);
  _exit(0);
}

}  // namespace

void ReadIsolated(const std::function<void()>& read, size_t budget_mb) {
  const Counters& counters = TheCounters();
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t parent = getpid();
  const pid_t child = fork();
  if (child < 0) {
    std::perror("fuzz: fork");
    std::abort();
  }
  if (child == 0) Child(read, budget_mb, parent);
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) {
      std::perror("fuzz: waitpid");
      std::abort();
    }
  }
  if (WIFEXITED(status)) {
    const int code = WEXITSTATUS(status);
    if (code == 0) {
      if (counters.size != 0) std::memcpy(counters.begin, counters.shared, counters.size);
      return;
    }
    if (code == kAbortGuardExit || code == kOverBudget) return;  // refused by the library
    std::fprintf(stderr, "fuzz: the reader's child process exited with %d: a finding, its report is above\n", code);
  } else {
    std::fprintf(stderr, "fuzz: the reader's child process died of signal %d: a finding, its report is above\n",
                 WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  }
  std::abort();  // libFuzzer's handler keeps the input
}

}  // namespace macroscope::fuzz
