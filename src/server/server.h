// The HTTP server behind `macroscope serve`: the JSON API of docs/serve.md
// over a fixed set of traces, and the built web UI. It serves from the
// start, while the traces are still being read: a trace not yet ready is
// listed with its progress and its endpoints answer 503 (served_trace.h).
//
// Threading: each connection is served on a thread of its own, up to a
// bound (connection_pool.h); traces are only read (const), built
// aggregations are shared through a locked cache. Errors: no exception
// leaves a request; each becomes `{"error": ...}` with a 4xx status (503
// beyond the connection limits or for work cancelled by a stop, 500 for a
// bug). Limits: URL and headers 8 KiB, no request bodies, bounded answers
// (see window.h, entity_json.h), timeouts on idle and slow connections;
// an aggregation or p list is cancelled when its client goes away.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "server/connection_pool.h"
#include "server/served_trace.h"

namespace macroscope::server {

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;                   // 0: any free port
  std::optional<std::string> token;  // required when set; generated for a non-loopback host
  std::string web_directory;         // the built UI (index.html and assets)
  int threads = 0;                   // for computing aggregations (0: one per core)
  size_t cached_aggregations = 8;
  // Bytes the cached aggregations may hold (models and qualities: a
  // spatiotemporal one of 256 slices over 1000 leaves is about 600 MB);
  // the newest is kept whatever its size.
  size_t aggregation_bytes = size_t{1} << 30;
  ConnectionLimits limits;
  int idle_timeout = 5;  // seconds a kept-alive connection may wait for its next request
  int read_timeout = 5;  // seconds a request may pause while it is sent (an answer while it is read)
  int max_compute_seconds = 300;  // an aggregation or p list is cancelled (503) beyond
};

class Server {
 public:
  // `traces`: ready or still being read (their reader publishes them).
  Server(std::vector<std::shared_ptr<const ServedTrace>> traces, ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds the socket; returns the port (the one picked for port 0). Throws
  // UserError when the address cannot be bound.
  int Bind();
  // Serves until Stop(); call after Bind().
  void Run();
  // From any thread but Run()'s: cancel the computations under way, stop
  // accepting, close the connections and make Run() return (or not start
  // serving); returns once Run() has returned, within a fraction of a
  // second.
  void Stop();

  // The token requests must carry, empty when none is required.
  const std::string& token() const;
  // "http://HOST:PORT/" (+ "?token=T"), for the start-up line. `view`:
  // more query parameters of the workbench's URL (web/src/state/url.ts),
  // "p=0.12&slices=50", for the view the link opens.
  std::string Url(const std::string& view = "") const;
  bool web_built() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace macroscope::server
