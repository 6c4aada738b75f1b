// The errors a request handler raises. The routing layer (api_routes.cc) turns
// each into `{"error": message}` with its status; nothing escapes a handler.
#pragma once

#include <stdexcept>
#include <string>

namespace macroscope::server {

// The content type of every API answer. With the charset parameter,
// cpp-httplib (which only compresses "application/json" exactly) leaves the
// answers uncompressed: on loopback, brotli made a 3.6 MB window answer
// take 5 s instead of 50 ms, and the larger ones longer still.
inline constexpr const char* kJsonType = "application/json; charset=utf-8";
// A table as a file (the query's rows to download).
inline constexpr const char* kCsvType = "text/csv; charset=utf-8";

class ApiError : public std::runtime_error {
 public:
  // `retry_soon`: the answer tells the client to ask again in a second
  // (Retry-After: 1), as for a trace still being read.
  ApiError(int status, const std::string& message, bool retry_soon = false)
      : std::runtime_error(message), status_(status), retry_soon_(retry_soon) {}
  int status() const { return status_; }
  bool retry_soon() const { return retry_soon_; }

 private:
  int status_;
  bool retry_soon_;
};

// 400: a parameter is missing, malformed or out of range.
[[noreturn]] inline void BadRequest(const std::string& message) { throw ApiError(400, message); }
// 404: the trace, container, type or entity named does not exist.
[[noreturn]] inline void NotFound(const std::string& message) { throw ApiError(404, message); }

}  // namespace macroscope::server
