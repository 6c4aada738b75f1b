#include "serve_process.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <regex>
#include <string_view>
#include <thread>

namespace macroscope::server::testing {

ServeProcess::ServeProcess(const std::vector<std::string>& args, bool wait_until_read) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) throw std::runtime_error("pipe");
  std::vector<std::string> argv_text = {MACROSCOPE_BINARY, "serve", "--port", "0"};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  pid_ = fork();
  if (pid_ == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    dup2(pipe_fds[1], STDERR_FILENO);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    std::vector<char*> argv;
    for (auto& a : argv_text) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(pipe_fds[1]);
  // Read until the start-up line (or the end of the output: a failure),
  // then until a "read" line for each trace it names.
  FILE* out = fdopen(pipe_fds[0], "r");
  char line[4096];
  // The token, if any, comes first in the query; the view (--p, --slices) after it.
  const std::regex serving(
      R"(^macroscope: serving (\d+) trace\(s\) at http://([^/]+):(\d+)/(\?token=([0-9a-zA-Z]+))?([?&][^\n]*)?\n$)");
  size_t unread = 0;
  while ((port_ == 0 || unread > 0) && fgets(line, sizeof line, out)) {
    output_ += line;
    std::cmatch m;
    if (port_ == 0 && std::regex_match(line, m, serving)) {
      unread = wait_until_read ? std::stoul(m[1]) : 0;
      host_ = m[2];
      port_ = std::stoi(m[3]);
      token_ = m[5];
    } else if (port_ != 0 && std::string_view(line).starts_with("macroscope: read ")) {
      --unread;
    }
  }
  // The server writes nothing more but the lines of traces still being
  // read; closing our end is safe (it would only get EPIPE, which it
  // ignores).
  fclose(out);
  if (port_ == 0) {
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    throw std::runtime_error("serve did not start: " + output_);
  }
}

ServeProcess::~ServeProcess() { Stop(); }

int ServeProcess::StopWithin(int signal, std::chrono::milliseconds limit) {
  if (pid_ <= 0) return -1;
  kill(pid_, signal);
  const auto deadline = std::chrono::steady_clock::now() + limit;
  int status = 0;
  pid_t done = 0;
  while ((done = waitpid(pid_, &status, WNOHANG)) == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (done == 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return -2;
  }
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int ServeProcess::Stop() {
  if (pid_ <= 0) return -1;
  kill(pid_, SIGTERM);
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::unique_ptr<httplib::Client> ServeProcess::Client() const {
  auto client = std::make_unique<httplib::Client>("127.0.0.1", port_);
  client->set_read_timeout(60, 0);
  return client;
}

nlohmann::json GetJson(httplib::Client& client, const std::string& path, int status) {
  // As a browser asks (Chromium always offers brotli).
  auto result = client.Get(path.c_str(), {{"Accept-Encoding", "br, gzip, deflate"}});
  EXPECT_TRUE(result) << path << ": no answer";
  if (!result) return nullptr;
  EXPECT_EQ(result->status, status) << path << ": " << result->body;
  EXPECT_EQ(result->get_header_value("Content-Type"), "application/json; charset=utf-8") << path;
  // Never compressed: on loopback compressing costs far more than sending.
  EXPECT_EQ(result->get_header_value("Content-Encoding"), "") << path;
  auto json = nlohmann::json::parse(result->body, nullptr, false);
  EXPECT_FALSE(json.is_discarded()) << path << ": not JSON: " << result->body.substr(0, 200);
  if (status != 200 && !json.is_discarded()) {
    EXPECT_TRUE(json.contains("error") && json["error"].is_string()) << path << ": " << result->body;
  }
  return json;
}

int ConnectLoopback(int port, int timeout_ms) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    close(fd);
    return -1;
  }
  timeval timeout{timeout_ms / 1000, (timeout_ms % 1000) * 1000};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
  return fd;
}

bool SendAll(int fd, const std::string& bytes) {
  size_t sent = 0;
  while (sent < bytes.size()) {
    ssize_t n = send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += static_cast<size_t>(n);
  }
  return true;
}

std::string ReadAnswer(int fd) {
  // Half-closing our side would make the server drop some answers, so
  // the answer is read up to its Content-Length (or the server's close).
  std::string answer;
  char buffer[65536];
  ssize_t n;
  while ((n = recv(fd, buffer, sizeof buffer, 0)) > 0) {
    answer.append(buffer, static_cast<size_t>(n));
    const size_t end_of_headers = answer.find("\r\n\r\n");
    if (end_of_headers == std::string::npos) continue;
    const std::string length = RawHeader(answer, "Content-Length");
    const size_t body = length.empty() ? 0 : std::stoul(length);
    if (answer.size() >= end_of_headers + 4 + body) break;
  }
  return answer;
}

std::string RawHeader(const std::string& answer, const std::string& name) {
  const std::string headers = answer.substr(0, answer.find("\r\n\r\n"));
  std::smatch m;
  const std::regex header("\r\n" + name + ": ([^\r]*)", std::regex::icase);
  return std::regex_search(headers, m, header) ? std::string(m[1]) : "";
}

std::string RawBody(const std::string& answer) {
  const size_t end_of_headers = answer.find("\r\n\r\n");
  return end_of_headers == std::string::npos ? "" : answer.substr(end_of_headers + 4);
}

std::string RawRequest(int port, const std::string& request) {
  std::string answer;
  const int fd = ConnectLoopback(port);
  if (fd < 0) return answer;
  if (SendAll(fd, request)) answer = ReadAnswer(fd);
  close(fd);
  return answer;
}

int RawStatus(const std::string& answer) {
  std::smatch m;
  static const std::regex status_line(R"(^HTTP/1\.[01] (\d{3}))");
  return std::regex_search(answer, m, status_line) ? std::stoi(m[1]) : -1;
}

std::string SourcePath(const std::string& relative) { return std::string(MACROSCOPE_SOURCE_DIR) + "/" + relative; }

std::string RunMacroscope(const std::string& args) {
  std::string command = std::string("'") + MACROSCOPE_BINARY + "' " + args;
  FILE* pipe = popen(command.c_str(), "r");
  std::string out;
  if (!pipe) {
    ADD_FAILURE() << "cannot run " << command;
    return out;
  }
  char buffer[65536];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  int status = pclose(pipe);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << command;
  return out;
}

}  // namespace macroscope::server::testing
