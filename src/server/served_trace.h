// A trace the server answers about, listed from the moment the server
// starts: `serve` binds at once and reads its traces afterwards, so a
// trace is first being read (its reader counts into progress()), then
// ready — read, indexed and summarized — or failed. The server never owns
// nor changes a trace and never waits for one: until it is ready it
// answers its progress. Once ready, a trace never changes again and every
// query on it is const, hence thread-safe.
//
// Threading: one thread (the command's reader) calls progress(),
// Publish() and Fail(); any thread reads. State changes are published
// with release / acquire ordering: a thread that sees kReady sees the
// trace and its summary whole.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "analysis/trace_summary.h"
#include "model/entity_source.h"
#include "model/trace.h"
#include "util/progress_line.h"

namespace macroscope::server {

class ServedTrace {
 public:
  enum class State { kLoading, kReady, kFailed };

  // `name`: shown to the user (the file's base name); `format`: the
  // reader's name ("paje", "otf2", "store", ...).
  ServedTrace(std::string name, std::string format)
      : name_(std::move(name)), format_(std::move(format)) {}
  ServedTrace(const ServedTrace&) = delete;
  ServedTrace& operator=(const ServedTrace&) = delete;

  const std::string& name() const { return name_; }
  const std::string& format() const { return format_; }

  // What the reading counts into (formats::ReadOptions::progress): the
  // server answers it in the trace list.
  Progress& progress() { return progress_; }
  const Progress& progress() const { return progress_; }

  // `source` is ready (a trace read and indexed, or a store opened):
  // summarizes it on the calling thread — before anyone may ask — then
  // publishes it. It must stay alive and unchanged for the life of the
  // server.
  void Publish(const EntitySource& source) {
    std::vector<uint64_t> sizes(source.trace().stores().size());
    for (uint32_t k = 0; k < sizes.size(); ++k) sizes[k] = source.size(k);
    summary_ = analysis::SummarizeTrace(source.trace(), sizes);
    source_ = &source;
    state_.store(State::kReady, std::memory_order_release);
  }
  void Fail() { state_.store(State::kFailed, std::memory_order_release); }

  State state() const { return state_.load(std::memory_order_acquire); }
  // Only once state() is kReady.
  const EntitySource& source() const { return *source_; }
  const Trace& trace() const { return source_->trace(); }
  const analysis::TraceSummary& summary() const { return summary_; }

 private:
  const std::string name_;
  const std::string format_;
  Progress progress_;
  // Written once, by Publish(), before state_ says kReady.
  const EntitySource* source_ = nullptr;
  analysis::TraceSummary summary_;
  std::atomic<State> state_{State::kLoading};
};

}  // namespace macroscope::server
