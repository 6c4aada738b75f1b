#include "util/abort_guard.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace macroscope {

namespace {

// What the handler needs, prepared beforehand: it may only make
// async-signal-safe calls.
char g_message[1024];
size_t g_length = 0;
int g_stderr = -1;   // the real stderr
int g_scratch = -1;  // the library's stderr while guarded

void Write(const char* text, size_t length) {
  while (length > 0) {
    ssize_t n = write(g_stderr, text, length);
    if (n <= 0) return;
    text += n;
    length -= static_cast<size_t>(n);
  }
}

// Unused in fuzz builds, where the guard leaves abort() alone.
[[maybe_unused]] void OnAbort(int) {
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
  _exit(1);
}

}  // namespace

AbortGuard::AbortGuard(const std::string& message) {
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
  std::fflush(stderr);
  g_length = std::min(message.size(), sizeof g_message);
  std::memcpy(g_message, message.data(), g_length);
  saved_stderr_ = dup(STDERR_FILENO);
  if (saved_stderr_ < 0) return;
  g_stderr = saved_stderr_;
  char name[] = "/tmp/macroscope-stderr-XXXXXX";
  g_scratch = mkstemp(name);
  if (g_scratch >= 0) {
    unlink(name);
    dup2(g_scratch, STDERR_FILENO);
  }
  struct sigaction action {};
  action.sa_handler = OnAbort;
  sigemptyset(&action.sa_mask);
  sigaction(SIGABRT, &action, &previous_);
  active_ = true;
#else
  (void)message;
#endif
}

AbortGuard::~AbortGuard() {
  if (!active_) return;
  sigaction(SIGABRT, &previous_, nullptr);
  std::fflush(stderr);
  dup2(saved_stderr_, STDERR_FILENO);
  close(saved_stderr_);
  if (g_scratch >= 0) close(g_scratch);
  g_scratch = -1;
  g_stderr = -1;
}

}  // namespace macroscope
