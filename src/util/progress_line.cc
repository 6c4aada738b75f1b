#include "util/progress_line.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <algorithm>

namespace macroscope {

namespace {

using Clock = std::chrono::steady_clock;

// The delay before the line shows, in seconds: a second, or the environment's.
double Delay() {
  if (const char* text = std::getenv("MACROSCOPE_PROGRESS_DELAY")) {
    char* end = nullptr;
    const double d = std::strtod(text, &end);
    if (end != text && d >= 0) return d;
  }
  return 1.0;
}

// Three significant digits and a decimal prefix: "1.20 GB", "118 MB/s",
// "41.2 M entities", "512 entities".
std::string Scaled(double x, const char* unit) {
  static const char* const kPrefixes[] = {"", "k", "M", "G", "T", "P"};
  int p = 0;
  while (x >= 999.5 && p < 5) {
    x /= 1000;
    ++p;
  }
  char buffer[48];
  const int decimals = p == 0 ? 0 : x < 9.995 ? 2 : x < 99.95 ? 1 : 0;
  const bool word = unit[0] != 'B';  // a unit that is a word stands apart from the prefix
  std::snprintf(buffer, sizeof buffer, "%.*f %s%s%s", decimals, x, kPrefixes[p], word && p > 0 ? " " : "", unit);
  return buffer;
}

std::string Duration(double seconds) {
  const long s = std::lround(seconds);
  char buffer[32];
  if (s < 60)
    std::snprintf(buffer, sizeof buffer, "%ld s", s);
  else if (s < 3600)
    std::snprintf(buffer, sizeof buffer, "%ld min %02ld s", s / 60, s % 60);
  else
    std::snprintf(buffer, sizeof buffer, "%ld h %02ld min", s / 3600, s / 60 % 60);
  return buffer;
}

}  // namespace

std::string HumanBytes(double bytes) { return Scaled(bytes, "B"); }

ProgressLine::ProgressLine(std::string what, const Progress& progress) : what_(std::move(what)), progress_(progress) {
  if (isatty(STDERR_FILENO) == 1) thread_ = std::thread([this, delay = Delay()] { Run(delay); });
}

ProgressLine::~ProgressLine() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
  if (drawn_) std::fputs("\r\x1b[K", stderr);
}

std::string ProgressText(std::string_view what, const Progress& progress, double seconds) {
  const uint64_t bytes = progress.bytes();
  const uint64_t total = progress.total_bytes();
  const uint64_t entities = progress.entities();
  std::string line = std::string(what) + ":";
  std::string sep = " ";
  if (total > 0) {
    const double share = std::min(1.0, static_cast<double>(bytes) / static_cast<double>(total));
    char percent[16];
    std::snprintf(percent, sizeof percent, " (%.0f%%)", std::floor(share * 100));
    line += sep + HumanBytes(static_cast<double>(bytes)) + " of " + HumanBytes(static_cast<double>(total)) + percent;
    sep = ", ";
    if (seconds > 0 && bytes > 0) {
      const double rate = static_cast<double>(bytes) / seconds;
      line += sep + Scaled(rate, "B/s");
      if (bytes < total) line += sep + Duration(static_cast<double>(total - bytes) / rate) + " left";
    }
  }
  if (entities > 0 || total == 0) {
    line += sep + Scaled(static_cast<double>(entities), "entities");
    sep = ", ";
    if (total == 0 && seconds > 0) line += sep + Scaled(static_cast<double>(entities) / seconds, "entities/s");
  }
  return line;
}

void ProgressLine::Run(double delay) {
  const Clock::time_point start = Clock::now();
  std::unique_lock lock(mutex_);
  if (wake_.wait_for(lock, std::chrono::duration<double>(delay), [&] { return stop_; })) return;
  do {
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    std::fprintf(stderr, "\r%s\x1b[K", ProgressText(what_, progress_, seconds).c_str());
    std::fflush(stderr);
    drawn_ = true;
  } while (!wake_.wait_for(lock, std::chrono::milliseconds(200), [&] { return stop_; }));
}

}  // namespace macroscope
