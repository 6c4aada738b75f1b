#include "util/abort_guard.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace macroscope {

namespace {

#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
constexpr bool kRedirectStderr = false;
#else
constexpr bool kRedirectStderr = true;
#endif

// What the handler needs, prepared beforehand: it may only make
// async-signal-safe calls.
char g_message[1024];
size_t g_length = 0;
int g_stderr = STDERR_FILENO;  // the real stderr
int g_scratch = -1;            // the library's stderr while guarded
struct sigaction g_previous {};
thread_local volatile sig_atomic_t g_own_code = 0;  // per thread: the handler runs on the aborting one

void Write(const char* text, size_t length) {
  while (length > 0) {
    ssize_t n = write(g_stderr, text, length);
    if (n <= 0) return;
    text += n;
    length -= static_cast<size_t>(n);
  }
}

void OnAbort(int) {
  if (g_own_code > 0) {
    // Ours: the previous handler takes it once this one returns (SIGABRT
    // is blocked until then), with what was written to stderr meanwhile
    // (e.g. std::terminate's message) back on stderr.
    if (g_scratch >= 0 && lseek(g_scratch, 0, SEEK_SET) == 0) {
      char text[4096];
      for (ssize_t n; (n = read(g_scratch, text, sizeof text)) > 0;) Write(text, static_cast<size_t>(n));
      dup2(g_stderr, STDERR_FILENO);
    }
    sigaction(SIGABRT, &g_previous, nullptr);
    raise(SIGABRT);
    return;
  }
  Write(g_message, g_length);
  // The first line the library printed (its assertion), without the
  // decoration before the first ASCII letter.
  char text[512];
  ssize_t n = g_scratch >= 0 && lseek(g_scratch, 0, SEEK_SET) == 0 ? read(g_scratch, text, sizeof text) : -1;
  size_t begin = 0;
  size_t end = n > 0 ? static_cast<size_t>(n) : 0;
  while (begin < end && !((text[begin] >= 'a' && text[begin] <= 'z') || (text[begin] >= 'A' && text[begin] <= 'Z')))
    ++begin;
  for (size_t i = begin; i < end; ++i) {
    if (text[i] == '\n') {
      end = i;
      break;
    }
  }
  if (begin < end) {
    Write(": ", 2);
    Write(text + begin, end - begin);
  }
  Write("\n", 1);
  _exit(kAbortGuardExit);
}

}  // namespace

AbortGuard::AbortGuard(const std::string& message) {
  std::fflush(stderr);
  g_length = std::min(message.size(), sizeof g_message);
  std::memcpy(g_message, message.data(), g_length);
  if (kRedirectStderr) {
    saved_stderr_ = dup(STDERR_FILENO);
    if (saved_stderr_ < 0) return;
    g_stderr = saved_stderr_;
    char name[] = "/tmp/macroscope-stderr-XXXXXX";
    g_scratch = mkstemp(name);
    if (g_scratch >= 0) {
      unlink(name);
      dup2(g_scratch, STDERR_FILENO);
    }
  }
  struct sigaction action {};
  action.sa_handler = OnAbort;
  sigemptyset(&action.sa_mask);
  sigaction(SIGABRT, &action, &previous_);
  g_previous = previous_;
  active_ = true;
}

AbortGuard::~AbortGuard() {
  if (!active_) return;
  sigaction(SIGABRT, &previous_, nullptr);
  if (saved_stderr_ >= 0) {
    std::fflush(stderr);
    dup2(saved_stderr_, STDERR_FILENO);
    close(saved_stderr_);
  }
  if (g_scratch >= 0) close(g_scratch);
  g_scratch = -1;
  g_stderr = STDERR_FILENO;
}

AbortGuard::OwnCode::OwnCode() { g_own_code = g_own_code + 1; }
AbortGuard::OwnCode::~OwnCode() { g_own_code = g_own_code - 1; }

}  // namespace macroscope
