#include "server/client_watch.h"

#include <poll.h>

#include <vector>

#include "server/connection_sockets.h"

namespace macroscope::server {

ClientWatch::ClientWatch(std::chrono::seconds time_limit)
    : time_limit_(time_limit), poller_([this] { Poll(); }) {}

ClientWatch::~ClientWatch() {
  {
    std::lock_guard lock(mutex_);
    ended_ = true;
  }
  changed_.notify_all();
  poller_.join();
}

ClientWatch::Ticket::~Ticket() { watch_.Forget(id_); }

std::unique_ptr<ClientWatch::Ticket> ClientWatch::Watch(const httplib::Request& request) {
  // Found before taking the lock: it reads the process's descriptors.
  const int fd = FindConnectionSocket(request.local_port, request.remote_addr, request.remote_port);
  std::unique_ptr<Ticket> ticket;
  {
    std::lock_guard lock(mutex_);
    ticket.reset(new Ticket(*this, next_id_++));
    if (stopped_) ticket->cancellation_.Cancel();
    watched_.emplace(ticket->id_, Watched{fd, Clock::now() + time_limit_, ticket.get()});
  }
  changed_.notify_all();
  return ticket;
}

void ClientWatch::Stop() {
  std::lock_guard lock(mutex_);
  stopped_ = true;
  for (auto& [id, watched] : watched_) watched.ticket->cancellation_.Cancel();
}

void ClientWatch::Forget(uint64_t id) {
  std::lock_guard lock(mutex_);
  watched_.erase(id);
}

void ClientWatch::Poll() {
  std::unique_lock lock(mutex_);
  std::vector<uint64_t> ids;
  std::vector<pollfd> fds;
  while (!ended_) {
    if (watched_.empty()) {
      changed_.wait(lock);
      continue;
    }
    const Clock::time_point now = Clock::now();
    ids.clear();
    fds.clear();
    for (auto& [id, watched] : watched_) {
      Ticket& ticket = *watched.ticket;
      if (ticket.cancellation_.cancelled()) continue;
      if (now >= watched.deadline) {
        ticket.expired_ = true;
        ticket.cancellation_.Cancel();
        continue;
      }
      if (watched.fd < 0) continue;
      ids.push_back(id);
      // POLLRDHUP: the client closed its side (a browser's abort, a
      // script's close); POLLHUP and POLLERR (always reported): a reset.
      fds.push_back({watched.fd, POLLRDHUP, 0});
    }
    // The sockets stay open while their tickets live, and a ticket
    // forgotten meanwhile is not looked up again below: the lock can be
    // let go during the poll.
    lock.unlock();
    const int ready = fds.empty() ? 0 : poll(fds.data(), fds.size(), 0);
    lock.lock();
    for (size_t i = 0; ready > 0 && i < fds.size(); ++i) {
      if ((fds[i].revents & (POLLRDHUP | POLLHUP | POLLERR)) == 0) continue;
      auto it = watched_.find(ids[i]);
      if (it != watched_.end()) it->second.ticket->cancellation_.Cancel();
    }
    changed_.wait_for(lock, kPollInterval);
  }
}

}  // namespace macroscope::server
