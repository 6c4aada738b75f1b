#include "server/connection_sockets.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <system_error>

namespace macroscope::server {

namespace {

struct Names {
  sockaddr_storage local{}, peer{};
  socklen_t peer_length = sizeof peer;
};

int PortOf(const sockaddr_storage& address) {
  if (address.ss_family == AF_INET) return ntohs(reinterpret_cast<const sockaddr_in&>(address).sin_port);
  return ntohs(reinterpret_cast<const sockaddr_in6&>(address).sin6_port);
}

// The numeric host, as httplib writes Request::remote_addr.
std::string HostOf(const sockaddr_storage& address, socklen_t length) {
  char host[NI_MAXHOST];
  if (getnameinfo(reinterpret_cast<const sockaddr*>(&address), length, host, sizeof host, nullptr, 0,
                  NI_NUMERICHOST) != 0) {
    return "";
  }
  return host;
}

// Calls `visit(fd, names)` for every connected IPv4 or IPv6 socket of the
// process on `local_port`, until it returns true.
void ForEachConnection(int local_port, const std::function<bool(int, const Names&)>& visit) {
  namespace fs = std::filesystem;
  std::error_code error;
  for (fs::directory_iterator it("/proc/self/fd", error); !error && it != fs::directory_iterator();
       it.increment(error)) {
    const std::string name = it->path().filename().string();
    char* end = nullptr;
    const long number = std::strtol(name.c_str(), &end, 10);
    if (*end != '\0') continue;
    const int fd = static_cast<int>(number);
    Names names;
    socklen_t local_length = sizeof names.local;
    // Not a socket, not TCP/IP, another port, or not connected (the
    // listening socket): one of these tests fails.
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&names.local), &local_length) != 0) continue;
    if (names.local.ss_family != AF_INET && names.local.ss_family != AF_INET6) continue;
    if (PortOf(names.local) != local_port) continue;
    if (getpeername(fd, reinterpret_cast<sockaddr*>(&names.peer), &names.peer_length) != 0) continue;
    if (visit(fd, names)) return;
  }
}

}  // namespace

int FindConnectionSocket(int local_port, const std::string& peer_address, int peer_port) {
  int found = -1;
  ForEachConnection(local_port, [&](int fd, const Names& names) {
    if (PortOf(names.peer) != peer_port || HostOf(names.peer, names.peer_length) != peer_address) return false;
    found = fd;
    return true;
  });
  return found;
}

int ShutDownConnections(int local_port) {
  int count = 0;
  ForEachConnection(local_port, [&](int fd, const Names&) {
    if (shutdown(fd, SHUT_RDWR) == 0) ++count;
    return false;
  });
  return count;
}

}  // namespace macroscope::server
