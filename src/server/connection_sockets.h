// The sockets of the server's own connections, which cpp-httplib does not
// hand to request handlers: found among the process's descriptors
// (/proc/self/fd, Linux) by their addresses. A connection's local port and
// peer name it uniquely while it is open.
#pragma once

#include <string>

namespace macroscope::server {

// The descriptor of the connected TCP socket on `local_port` whose peer is
// `peer_address` (numeric, as httplib's Request::remote_addr) and
// `peer_port`; -1 when there is none.
int FindConnectionSocket(int local_port, const std::string& peer_address, int peer_port);

// Shuts down, both ways, every connected TCP socket on `local_port`: a
// thread waiting to read a request or to send an answer on one sees the end
// at once. Call once nothing accepts on that port any more (so that no
// descriptor is reused for another connection meanwhile). Returns how many.
int ShutDownConnections(int local_port);

}  // namespace macroscope::server
