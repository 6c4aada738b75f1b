// Cancels the work of requests whose client has gone away, the work that
// runs past its time limit, and all work when the server stops. A request
// handler about to compute (an aggregation, a p list) takes a Ticket: its
// Cancellation is set as soon as the request's connection is closed or
// reset by the client — a thread polls the watched sockets every
// kPollInterval —, once the ticket is older than the time limit, or when
// Stop() is called.
//
// Threading: every member may be called from any thread. A Ticket must not
// outlive its ClientWatch.
#pragma once

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "analysis/cancellation.h"

namespace macroscope::server {

class ClientWatch {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::milliseconds kPollInterval{20};

  explicit ClientWatch(std::chrono::seconds time_limit);
  ~ClientWatch();
  ClientWatch(const ClientWatch&) = delete;
  ClientWatch& operator=(const ClientWatch&) = delete;

  std::chrono::seconds time_limit() const { return time_limit_; }

  // The cancellation of one request's work, watched while the ticket lives.
  class Ticket {
   public:
    ~Ticket();
    Ticket(const Ticket&) = delete;
    Ticket& operator=(const Ticket&) = delete;
    const analysis::Cancellation* cancellation() const { return &cancellation_; }
    // Whether it was cancelled for running past the time limit.
    bool expired() const { return expired_; }

   private:
    friend class ClientWatch;
    Ticket(ClientWatch& watch, uint64_t id) : watch_(watch), id_(id) {}
    ClientWatch& watch_;
    uint64_t id_;
    analysis::Cancellation cancellation_;
    std::atomic<bool> expired_{false};
  };

  // Watches the connection `request` came on. When its socket cannot be
  // found, the work is cancelled only by the time limit and Stop().
  std::unique_ptr<Ticket> Watch(const httplib::Request& request);

  // Cancels every watched request's work, and that of requests watched
  // from now on.
  void Stop();

 private:
  struct Watched {
    int fd;
    Clock::time_point deadline;
    Ticket* ticket;
  };
  void Forget(uint64_t id);
  void Poll();

  const std::chrono::seconds time_limit_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool stopped_ = false, ended_ = false;
  uint64_t next_id_ = 0;
  std::map<uint64_t, Watched> watched_;
  std::thread poller_;
};

}  // namespace macroscope::server
