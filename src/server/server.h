// The HTTP server behind `macroscope serve`: the JSON API of docs/serve.md
// over a fixed set of traces, and the built web UI.
//
// Threading: requests run on the HTTP library's worker threads; traces are
// only read (const), built aggregations are shared through a locked cache.
// Errors: no exception leaves a request; each becomes `{"error": ...}` with
// a 4xx status (5xx for a bug). Limits: URL and headers 8 KiB, no request
// bodies, bounded answers (see window.h, entity_json.h).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "server/served_trace.h"

namespace macroscope::server {

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;                   // 0: any free port
  std::optional<std::string> token;  // required when set; generated for a non-loopback host
  std::string web_directory;         // the built UI (index.html and assets)
  int threads = 0;                   // for computing aggregations (0: one per core)
  size_t cached_aggregations = 8;
};

class Server {
 public:
  // `traces` must stay alive, indexed and unchanged while the server runs.
  Server(std::vector<ServedTrace> traces, ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds the socket; returns the port (the one picked for port 0). Throws
  // UserError when the address cannot be bound.
  int Bind();
  // Serves until Stop(); call after Bind().
  void Run();
  // From any thread but Run()'s: stop accepting and make Run() return
  // (or not start serving); returns once Run() has returned.
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
