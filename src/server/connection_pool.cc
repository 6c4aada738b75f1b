#include "server/connection_pool.h"

#include <system_error>

#include "server/connection_sockets.h"

namespace macroscope::server {

namespace {

// The connection the current thread serves, seen by its request handlers.
struct ServedConnection {
  const ConnectionPool* pool = nullptr;
  bool over_limit = false;
  bool counted = false;  // in its client's count (after its first request)
  std::string client;
};

thread_local ServedConnection* current_connection = nullptr;

}  // namespace

class ConnectionPool::Queue : public httplib::TaskQueue {
 public:
  Queue(ConnectionPool& pool, int port) : pool_(pool), port_(port) {}
  void enqueue(std::function<void()> serve) override { pool_.Enqueue(std::move(serve)); }
  void shutdown() override { pool_.Shutdown(port_); }

 private:
  ConnectionPool& pool_;
  int port_;
};

ConnectionPool::~ConnectionPool() {
  {
    std::lock_guard lock(mutex_);
    shutting_down_ = true;
  }
  admitted_ready_.notify_all();
  refused_ready_.notify_all();
  for (auto& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
}

httplib::TaskQueue* ConnectionPool::NewTaskQueue(int port) { return new Queue(*this, port); }

void ConnectionPool::Enqueue(std::function<void()> serve) {
  std::lock_guard lock(mutex_);
  const bool admitted = open_ < limits_.max_connections;
  auto& jobs = admitted ? admitted_ : refused_;
  jobs.push_back(std::move(serve));
  if (admitted) ++open_;
  // A thread per admitted connection (so at most max_connections of
  // them); the refusals share a few.
  const size_t idle = admitted ? idle_admitting_ : idle_refusing_;
  const bool spawn = jobs.size() > idle && (admitted || refusing_threads_ < kRefusingThreads);
  if (spawn) {
    try {
      threads_.emplace_back([this, admitted] { Work(admitted); });
      if (!admitted) ++refusing_threads_;
    } catch (const std::system_error&) {
      // No thread to be had: the connection waits for one to be free.
    }
  }
  (admitted ? admitted_ready_ : refused_ready_).notify_one();
}

void ConnectionPool::Work(bool admitted) {
  auto& jobs = admitted ? admitted_ : refused_;
  auto& idle = admitted ? idle_admitting_ : idle_refusing_;
  auto& ready = admitted ? admitted_ready_ : refused_ready_;
  std::unique_lock lock(mutex_);
  for (;;) {
    ++idle;
    ready.wait(lock, [&] { return !jobs.empty() || shutting_down_; });
    --idle;
    // Once shutting down, the queued connections are still run: each owns
    // its socket, and httplib closes it at once when the server has
    // stopped.
    if (jobs.empty()) return;
    std::function<void()> serve = std::move(jobs.front());
    jobs.pop_front();
    lock.unlock();
    ServedConnection connection;
    connection.pool = this;
    connection.over_limit = !admitted;
    current_connection = &connection;
    serve();
    current_connection = nullptr;
    lock.lock();
    if (connection.counted) {
      auto it = per_client_.find(connection.client);
      if (--it->second == 0) per_client_.erase(it);
    }
    if (admitted) --open_;
    if (shutting_down_) ended_.notify_all();
  }
}

std::string ConnectionPool::Refusal(const httplib::Request& request) {
  ServedConnection* connection = current_connection;
  if (connection == nullptr || connection->pool != this) return "";
  if (connection->over_limit) {
    return "the server already serves " + std::to_string(limits_.max_connections) +
           " connections (serve --max-connections); retry later";
  }
  if (connection->counted) return "";
  std::lock_guard lock(mutex_);
  size_t& count = per_client_[request.remote_addr];
  if (count >= limits_.max_client_connections) {
    return "too many connections from " + request.remote_addr + " (at most " +
           std::to_string(limits_.max_client_connections) + ": serve --max-client-connections); retry later";
  }
  ++count;
  connection->counted = true;
  connection->client = request.remote_addr;
  return "";
}

void ConnectionPool::Shutdown(int port) {
  {
    std::unique_lock lock(mutex_);
    shutting_down_ = true;
    admitted_ready_.notify_all();
    refused_ready_.notify_all();
    ended_.wait_for(lock, kShutdownGrace, [&] { return open_ == 0; });
  }
  // What is still open waits for a client (idle, half-sent, or a slow
  // reader of its answer): ended now rather than at its timeout.
  ShutDownConnections(port);
  for (auto& thread : threads_) thread.join();
  threads_.clear();
}

}  // namespace macroscope::server
