#include "server/server.h"

#include <httplib.h>
#include <sys/socket.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "server/access.h"
#include "server/api_error.h"
#include "server/api_routes.h"
#include "server/client_watch.h"
#include "server/connection_sockets.h"
#include "server/static_files.h"
#include "util/error.h"

namespace macroscope::server {

namespace {

// Request line and headers together; a longer request line is refused by
// the HTTP library itself (414).
constexpr size_t kMaxHeaderBytes = 8192;
// Requests served on one connection before it is closed: each connection
// has a thread of its own, so a long-lived one costs nothing more.
constexpr size_t kKeepAliveRequests = 1000;

size_t HeaderBytes(const httplib::Request& request) {
  size_t bytes = request.target.size();
  for (const auto& [name, value] : request.headers) bytes += name.size() + value.size() + 4;
  return bytes;
}

uint64_t ContentLength(const httplib::Request& request) {
  const std::string text = request.get_header_value("Content-Length");
  // A length that does not parse counts as a body: it is refused too.
  if (text.empty()) return 0;
  char* end = nullptr;
  const unsigned long long length = std::strtoull(text.c_str(), &end, 10);
  return *end == '\0' ? length : 1;
}

bool IsApi(const std::string& path) { return path == "/api" || path.compare(0, 5, "/api/") == 0; }

// httplib keeps a connection open whatever the answer's Connection header
// says (only the request's counts). Once the answer is sent (the logger
// runs then), the reading side of the socket is shut: httplib's wait for
// the next request ends at once. Shut before, it would take the connection
// for gone and send nothing.
void CloseAfterAnswer(const httplib::Request& request, const httplib::Response& response) {
  if (response.get_header_value("Connection") != "close" || request.get_header_value("Connection") == "close") {
    return;
  }
  const int fd = FindConnectionSocket(request.local_port, request.remote_addr, request.remote_port);
  if (fd >= 0) shutdown(fd, SHUT_RD);
}

// httplib listens with a backlog of 5 (CPPHTTPLIB_LISTEN_BACKLOG, fixed
// in Debian's compiled library): a burst of connections — a page opening
// its six, a few clients at once — overflowed it, and each connection
// beyond waited for its SYN to be sent again, a second later. Listening
// again on the bound socket raises the backlog.
class HttpServer : public httplib::Server {
 public:
  void RaiseBacklog() { ::listen(svr_sock_, SOMAXCONN); }
};

}  // namespace

struct Server::Impl {
  Impl(std::vector<std::shared_ptr<const ServedTrace>> traces, ServerOptions options)
      : options(std::move(options)),
        watch(std::chrono::seconds(this->options.max_compute_seconds)),
        pool(this->options.limits),
        api(std::move(traces), this->options.threads, this->options.cached_aggregations,
            this->options.aggregation_bytes, watch),
        files(this->options.web_directory) {}

  void Configure();

  ServerOptions options;
  ClientWatch watch;
  ConnectionPool pool;
  std::string token;
  ApiRoutes api;
  StaticFiles files;
  HttpServer http;
  int port = -1;
  std::atomic<bool> stop_requested{false}, started{false}, finished{false};
};

void Server::Impl::Configure() {
  // Nothing is uploaded: a body is refused before it is read.
  http.set_payload_max_length(0);
  http.set_keep_alive_timeout(options.idle_timeout);
  http.set_keep_alive_max_count(kKeepAliveRequests);
  http.set_read_timeout(options.read_timeout, 0);
  http.set_write_timeout(options.read_timeout, 0);
  // Called once an answer has been sent.
  http.set_logger(CloseAfterAnswer);
  // Called when Run() starts listening, once the port is known.
  http.new_task_queue = [this] { return pool.NewTaskQueue(port); };
  http.set_pre_routing_handler([this](const httplib::Request& request, httplib::Response& response) {
    auto refuse = [&](int status, const std::string& message) {
      response.status = status;
      response.set_header("Connection", "close");
      response.set_content(ErrorJson(message), kJsonType);
      return httplib::Server::HandlerResponse::Handled;
    };
    const std::string refusal = pool.Refusal(request);
    if (!refusal.empty()) {
      response.set_header("Retry-After", "1");
      return refuse(503, refusal);
    }
    if (request.method != "GET" && request.method != "HEAD") return refuse(405, "only GET is served");
    if (HeaderBytes(request) > kMaxHeaderBytes) return refuse(431, "request headers longer than 8 KiB");
    if (request.has_header("Transfer-Encoding") || ContentLength(request) > 0) {
      return refuse(413, "requests carry no body");
    }
    if (IsApi(request.path) && !token.empty() && !CarriesToken(request, token)) {
      response.status = 401;
      response.set_content(ErrorJson("missing or wrong access token"), kJsonType);
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  api.Register(http);
  http.Get(".*", [this](const httplib::Request& request, httplib::Response& response) {
    StaticAnswer answer = files.Get(request.path);
    response.status = answer.status;
    response.set_content(std::move(answer.body), answer.content_type.c_str());
  });
  // Errors the library raises itself (414 for a long URL, 400 for a bad
  // request line) get a JSON body too.
  http.set_error_handler(httplib::Server::HandlerWithResponse(
      [](const httplib::Request&, httplib::Response& response) {
        if (response.body.empty()) {
          response.set_content(ErrorJson("request refused (HTTP " + std::to_string(response.status) + ")"),
                               kJsonType);
        }
        return httplib::Server::HandlerResponse::Handled;
      }));
  http.set_exception_handler([](const httplib::Request&, httplib::Response& response, std::exception_ptr) {
    response.status = 500;
    response.set_content(ErrorJson("internal error"), kJsonType);
  });
}

Server::Server(std::vector<std::shared_ptr<const ServedTrace>> traces, ServerOptions options)
    : impl_(std::make_unique<Impl>(std::move(traces), std::move(options))) {
  const auto& o = impl_->options;
  if (o.limits.max_connections < 1) throw UserError("--max-connections must be at least 1");
  if (o.limits.max_client_connections < 1) throw UserError("--max-client-connections must be at least 1");
  if (o.idle_timeout < 1) throw UserError("--idle-timeout must be at least 1 (second)");
  if (o.read_timeout < 1) throw UserError("--read-timeout must be at least 1 (second)");
  if (o.max_compute_seconds < 1) throw UserError("--max-compute-seconds must be at least 1");
  if (impl_->options.token) {
    impl_->token = *impl_->options.token;
    if (impl_->token.empty()) throw UserError("--token must not be empty");
  } else if (impl_->options.host != "127.0.0.1") {
    impl_->token = RandomToken();
  }
  impl_->Configure();
}

Server::~Server() = default;

int Server::Bind() {
  const auto& o = impl_->options;
  if (o.port < 0 || o.port > 65535) throw UserError("--port must be in [0, 65535]");
  bool bound = o.port == 0 ? (impl_->port = impl_->http.bind_to_any_port(o.host)) > 0
                           : impl_->http.bind_to_port(o.host, o.port);
  if (!bound) {
    throw UserError("cannot listen on " + o.host + ":" + std::to_string(o.port) +
                    " (address in use or not available)");
  }
  if (o.port != 0) impl_->port = o.port;
  impl_->http.RaiseBacklog();
  return impl_->port;
}

void Server::Run() {
  impl_->started = true;
  if (!impl_->stop_requested) impl_->http.listen_after_bind();
  impl_->finished = true;
}

void Server::Stop() {
  impl_->stop_requested = true;
  // The computations first: their threads then answer at once, and the
  // pool's shutdown (when the listening loop ends) waits for nothing long.
  impl_->watch.Stop();
  // httplib's stop() acts only on a server already listening: a stop that
  // comes between Run()'s check and the listening loop is repeated until
  // Run() returns.
  while (impl_->started && !impl_->finished) {
    if (impl_->http.is_running()) impl_->http.stop();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

const std::string& Server::token() const { return impl_->token; }

bool Server::web_built() const { return impl_->files.built(); }

std::string Server::Url(const std::string& view) const {
  const std::string& host = impl_->options.host;
  // An IPv6 literal is written in brackets in a URL.
  const bool v6 = host.find(':') != std::string::npos;
  std::string url = "http://" + (v6 ? "[" + host + "]" : host) + ":" + std::to_string(impl_->port) + "/";
  std::string query = impl_->token.empty() ? "" : "token=" + impl_->token;
  if (!view.empty()) query += (query.empty() ? "" : "&") + view;
  return query.empty() ? url : url + "?" + query;
}

}  // namespace macroscope::server
