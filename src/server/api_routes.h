// The JSON endpoints of docs/serve.md on an httplib server. Every handler
// goes through one wrapper that turns exceptions into JSON errors:
// ApiError keeps its status, UserError is 400 (404 when it names an
// unknown type or container), anything else 500.
#pragma once

#include <httplib.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "server/aggregation_cache.h"
#include "server/client_watch.h"
#include "server/served_trace.h"

namespace macroscope::server {

// {"error": message}.
std::string ErrorJson(const std::string& message);

class ApiRoutes {
 public:
  // `watch` cancels an aggregation or p list whose client has gone or that
  // runs past its time limit.
  ApiRoutes(std::vector<std::shared_ptr<const ServedTrace>> traces, int threads, size_t cached_aggregations,
            size_t aggregation_bytes, ClientWatch& watch)
      : traces_(std::move(traces)), threads_(threads), cache_(cached_aggregations, aggregation_bytes), watch_(watch) {}

  // Adds the /api routes (and a JSON 404 for any other /api path).
  void Register(httplib::Server& http);

 private:
  // `work`'s answer, its cancellation set when the client goes or the
  // time limit passes: then 503, saying to ask for `ask_for`.
  std::string Watched(const httplib::Request& request, const std::string& ask_for,
                      const std::function<std::string(const analysis::Cancellation*)>& work) const;
  // The index `id` names (404 when none); 503 with Retry-After while
  // that trace is still being read, 503 when it could not be read.
  size_t ReadyIndex(const std::string& id) const;
  const EntitySource& ReadySource(const std::string& id) const { return traces_[ReadyIndex(id)]->source(); }

  std::vector<std::shared_ptr<const ServedTrace>> traces_;
  int threads_;
  AggregationCache cache_;
  ClientWatch& watch_;
};

}  // namespace macroscope::server
