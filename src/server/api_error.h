// The errors a request handler raises. The routing layer (routes.cc) turns
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

class ApiError : public std::runtime_error {
 public:
  ApiError(int status, const std::string& message) : std::runtime_error(message), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

// 400: a parameter is missing, malformed or out of range.
[[noreturn]] inline void BadRequest(const std::string& message) { throw ApiError(400, message); }
// 404: the trace, container, type or entity named does not exist.
[[noreturn]] inline void NotFound(const std::string& message) { throw ApiError(404, message); }

}  // namespace macroscope::server
