// Starting `macroscope serve` for a test and talking to it.
#pragma once

#include <httplib.h>
#include <sys/types.h>

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace macroscope::server::testing {

// `macroscope serve --port 0 ARGS...`, started and waited for (its start-up
// line parsed) and, unless `wait_until_read` is false, until every trace
// is read (its "read" line printed, or the output ends); stopped with
// SIGTERM on destruction.
class ServeProcess {
 public:
  explicit ServeProcess(const std::vector<std::string>& args, bool wait_until_read = true);
  ~ServeProcess();
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;

  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  const std::string& host() const { return host_; }
  const std::string& token() const { return token_; }
  const std::string& output() const { return output_; }  // everything printed until the constructor returned
  // A client on 127.0.0.1:port.
  std::unique_ptr<httplib::Client> Client() const;
  // SIGTERM, then the exit status (-1 unless it exited normally).
  int Stop();
  // `signal`, then the exit status (-1 unless it exited normally) if the
  // process ends within `limit` (polled every 5 ms); else -2, after
  // killing it.
  int StopWithin(int signal, std::chrono::milliseconds limit);

 private:
  pid_t pid_ = -1;
  int port_ = 0;
  std::string host_, token_, output_;
};

// `text` as a URL's query parameter value (httplib's own encoding).
inline std::string UrlEncoded(const std::string& text) { return httplib::detail::encode_query_param(text); }

// GET path; fails the test unless the answer is JSON with `status`.
nlohmann::json GetJson(httplib::Client& client, const std::string& path, int status = 200);

// Bytes sent as is on a fresh connection; the raw answer (status line, headers, body).
std::string RawRequest(int port, const std::string& request);
// The status code of a raw answer.
int RawStatus(const std::string& answer);

// A connection to 127.0.0.1:port (blocking; -1 on failure), with receive
// and send timeouts of `timeout_ms`.
int ConnectLoopback(int port, int timeout_ms = 10000);
// Sends all of `bytes`; false on failure.
bool SendAll(int fd, const std::string& bytes);
// Reads one answer (up to its Content-Length, or the end); "" when none
// came before the socket's timeout.
std::string ReadAnswer(int fd);
// The value of header `name` in a raw answer ("" when absent).
std::string RawHeader(const std::string& answer, const std::string& name);
// The body of a raw answer.
std::string RawBody(const std::string& answer);

// The source tree's file `relative`.
std::string SourcePath(const std::string& relative);
// Runs `macroscope ARGS`; fails the test unless it exits 0; its stdout.
std::string RunMacroscope(const std::string& args);

}  // namespace macroscope::server::testing
