// The threads that serve the connections, in place of cpp-httplib's fixed
// pool. httplib serves a connection on one thread for as long as it is
// kept alive, and its pool has max(8, cores - 1) threads: a few idle
// browser tabs were enough to leave a new request waiting for their
// keep-alive timeout. Here every connection gets a thread of its own, up
// to max_connections at once. The connections beyond are still read, by
// at most kRefusingThreads threads, to answer their requests 503. A
// connection counts for its client's address from its first request on;
// beyond max_client_connections from one address, it is answered 503 too.
// Idle and half-sent connections end at the server's timeouts (server.h),
// which bounds how long each holds its thread.
//
// Admission is decided in a request handler (Refusal), which sees the
// address; the pool tells it which connection it serves through a record
// of the serving thread.
//
// Threading: NewTaskQueue's queue is driven by httplib's listening thread;
// Refusal is called on the pool's threads; Shutdown once, from the
// listening thread (through the queue), after it has stopped accepting.
#pragma once

#include <httplib.h>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace macroscope::server {

struct ConnectionLimits {
  size_t max_connections = 256;         // served at once, each on a thread
  size_t max_client_connections = 128;  // from one address, once they have sent a request
};

class ConnectionPool {
 public:
  static constexpr size_t kRefusingThreads = 4;
  // How long Shutdown lets the connections under way end by themselves
  // before it shuts their sockets down.
  static constexpr std::chrono::milliseconds kShutdownGrace{200};

  explicit ConnectionPool(ConnectionLimits limits) : limits_(limits) {}
  ~ConnectionPool();
  ConnectionPool(const ConnectionPool&) = delete;
  ConnectionPool& operator=(const ConnectionPool&) = delete;

  // For httplib::Server::new_task_queue: a queue that hands the connections
  // accepted on `port` to this pool. httplib owns it; its shutdown() is
  // Shutdown(port).
  httplib::TaskQueue* NewTaskQueue(int port);

  // Empty when the connection `request` came on may be served, else why it
  // is not (the request is answered 503). Call on every request.
  std::string Refusal(const httplib::Request& request);

 private:
  class Queue;

  void Enqueue(std::function<void()> serve);
  // A thread's loop: runs the admitted (or the refused) connections until
  // the pool shuts down.
  void Work(bool admitted);
  // Waits up to kShutdownGrace for the connections under way, then shuts
  // down the sockets on `port` and joins every thread.
  void Shutdown(int port);

  const ConnectionLimits limits_;
  std::mutex mutex_;
  std::condition_variable admitted_ready_, refused_ready_, ended_;
  bool shutting_down_ = false;
  // Connections accepted within the limit, queued or served, and those
  // beyond it, waiting for a refusing thread.
  std::deque<std::function<void()>> admitted_, refused_;
  size_t open_ = 0;  // admitted connections not yet closed
  size_t idle_admitting_ = 0, idle_refusing_ = 0, refusing_threads_ = 0;
  std::map<std::string, size_t> per_client_;
  std::vector<std::thread> threads_;
};

}  // namespace macroscope::server
