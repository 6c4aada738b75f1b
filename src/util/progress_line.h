// How far a long job is: its threads count into a Progress (atomics, no
// lock), and whoever shows it reads it — the progress line below on a
// terminal, the server's trace list for a trace being read.
//
// The line: one line on standard error, redrawn in place, saying what the
// job does, how much of it is done (bytes of a known total, or entities),
// the rate, and the time left when the total is known.
//
//   reading big.paje: 1.2 GB of 2.2 GB (55%), 118 MB/s, 8 s left, 41.2 M entities
//
// Shown only when standard error is a terminal, and only once the job has
// run for a second (MACROSCOPE_PROGRESS_DELAY=SECONDS changes that delay,
// for tests); erased when the job ends, so that the terminal keeps only
// the command's own output. Nothing at all when standard error is piped.
// A thread of the line's own redraws it five times a second.
//
// (Debian ships no C++ progress-bar library; Boost's progress_display
// draws a bar of stars over several lines, without rate or time left.)
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace macroscope {

class Progress {
 public:
  void SetBytes(uint64_t done) { bytes_.store(done, std::memory_order_relaxed); }
  void AddEntities(uint64_t n) { entities_.fetch_add(n, std::memory_order_relaxed); }
  // 0: unknown.
  void SetTotalBytes(uint64_t total) { total_.store(total, std::memory_order_relaxed); }

  uint64_t bytes() const { return bytes_.load(std::memory_order_relaxed); }
  uint64_t total_bytes() const { return total_.load(std::memory_order_relaxed); }
  uint64_t entities() const { return entities_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> total_{0};
  std::atomic<uint64_t> bytes_{0};
  std::atomic<uint64_t> entities_{0};
};

// The line's text for the job `what` after `seconds` of work (without the
// terminal's codes).
std::string ProgressText(std::string_view what, const Progress& progress, double seconds);

class ProgressLine {
 public:
  // `what`: "reading big.paje". Draws `progress` while this object lives,
  // when standard error is a terminal (see above).
  ProgressLine(std::string what, const Progress& progress);
  ~ProgressLine();  // erases the line
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

 private:
  void Run(double delay);

  std::string what_;
  const Progress& progress_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  bool drawn_ = false;
  std::thread thread_;
};

// "1.2 GB", "118 MB", "512 B": decimal units, three significant digits.
std::string HumanBytes(double bytes);

}  // namespace macroscope
