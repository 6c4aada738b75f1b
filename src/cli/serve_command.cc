// `macroscope serve`: reads the traces, then serves the web UI and the JSON
// API of docs/serve.md until SIGINT or SIGTERM.
#include <atomic>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <list>
#include <memory>
#include <optional>

#include "cli/commands.h"
#include "cli/trace_loading.h"
#include "server/server.h"
#include "server/stop_signals.h"
#include "util/error.h"

#ifndef MACROSCOPE_WEB_DIST
#define MACROSCOPE_WEB_DIST "web/dist"
#endif

namespace macroscope::cli {

namespace {

struct ServeArgs {
  std::vector<std::string> files;
  formats::ReadOptions read;
  server::ServerOptions server;
  std::string token;
  CLI::Option* token_option = nullptr;
  // The view the printed URL opens (--p, --slices): unset, the workbench's defaults.
  std::optional<double> p;
  std::optional<int> slices;
};

// The query parameters of the workbench's view that --p and --slices ask for.
std::string InitialView(const ServeArgs& args) {
  std::string view;
  auto add = [&view](const std::string& parameter) { view += (view.empty() ? "" : "&") + parameter; };
  if (args.p) {
    char p[32];  // the shortest text that reads back as the same double: 0.06, not 0.0599…
    const auto end = std::to_chars(p, p + sizeof p, *args.p).ptr;
    add("p=" + std::string(p, end));
  }
  if (args.slices) add("slices=" + std::to_string(*args.slices));
  return view;
}

void RunServe(ServeArgs& args) {
  if (args.token_option->count() > 0) args.server.token = args.token;
  // Watched from the start, before any thread (the readers' included)
  // exists: while traces load, a signal ends the command at once (nothing
  // is written); once the server exists, it stops it gracefully.
  std::atomic<server::Server*> running{nullptr};
  std::optional<server::StopSignals> stop;
  stop.emplace([&running](int signal) {
    if (server::Server* http = running.load()) {
      http->Stop();
    } else {
      std::_Exit(128 + signal);
    }
  });
  // A list: LoadedTrace does not move, and the server keeps pointers.
  std::list<LoadedTrace> loaded;
  std::vector<server::ServedTrace> served;
  for (const auto& file : args.files) {
    LoadedTrace& trace = loaded.emplace_back();
    const std::string format(formats::Detect(file).name);
    LoadTrace({file}, args.read, trace);
    trace.trace.BuildIndexes();
    const std::string name = std::filesystem::path(file).filename().string();
    served.push_back({name.empty() ? file : name, format, &trace.trace});
    std::printf("macroscope: read %s (%s, %llu events, %.2f s)\n", file.c_str(), format.c_str(),
                static_cast<unsigned long long>(trace.stats.events), trace.seconds);
    std::fflush(stdout);
  }
  // Writing to a client that went away must not kill the server.
  std::signal(SIGPIPE, SIG_IGN);
  {
    server::Server http(std::move(served), args.server);
    http.Bind();
    running = &http;
    if (!http.web_built()) {
      std::printf("macroscope: the web UI is not built in %s (make web); serving the API only\n",
                  args.server.web_directory.c_str());
    }
    std::printf("macroscope: serving %zu trace(s) at %s\n", args.files.size(),
                http.Url(InitialView(args)).c_str());
    std::fflush(stdout);
    http.Run();
    stop.reset();  // the watcher ends before the server it may call goes
  }
  // Taken back whole by the exit: a stop stays quick however large the traces.
  for (LoadedTrace& trace : loaded) DropAtExit(std::move(trace.trace));
}

}  // namespace

void RegisterServeCommand(CLI::App& app) {
  auto args = std::make_shared<ServeArgs>();
  CLI::App* cmd = app.add_subcommand("serve", "Serve the web UI and its JSON API over traces (docs/serve.md)");
  cmd->add_option("TRACE", args->files, "Traces to serve (any supported format, or a store), each on its own")
      ->required();
  cmd->add_option("--port", args->server.port, "TCP port (0: any free port)")->capture_default_str();
  cmd->add_option("--host", args->server.host, "Address to bind; any other than 127.0.0.1 requires a token")
      ->capture_default_str();
  args->token_option = cmd->add_option("--token", args->token,
                                       "Access token for /api (default: random when --host is given)");
  args->server.web_directory = MACROSCOPE_WEB_DIST;
  cmd->add_option("--web", args->server.web_directory, "Directory of the built web UI")->capture_default_str();
  cmd->add_option("--threads", args->server.threads, "Threads computing an aggregation (0: one per core)")
      ->capture_default_str();
  cmd->add_option("--max-connections", args->server.limits.max_connections,
                  "Connections served at once (a thread each); beyond, requests are answered 503")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--max-client-connections", args->server.limits.max_client_connections,
                  "Connections one client address may have once they have sent a request; beyond, 503")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--idle-timeout", args->server.idle_timeout,
                  "Seconds a kept-alive connection may wait for its next request before it is closed")
      ->capture_default_str()
      ->check(CLI::Range(1, 3600));
  cmd->add_option("--read-timeout", args->server.read_timeout,
                  "Seconds a request may stall while it is sent (and an answer while it is read)")
      ->capture_default_str()
      ->check(CLI::Range(1, 3600));
  cmd->add_option("--max-compute-seconds", args->server.max_compute_seconds,
                  "Seconds an aggregation or p list may compute before it is cancelled (503)")
      ->capture_default_str()
      ->check(CLI::Range(1, 86400));
  cmd->add_option("--p", args->p, "The p the printed URL opens the overview at (default: the quality curves' knee)")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--slices", args->slices, "The time slices the printed URL opens the overview with (default 100)")
      ->check(CLI::Range(1, 10000));
  AddReadOptions(*cmd, args->read);
  cmd->callback([args] { RunServe(*args); });
}

}  // namespace macroscope::cli
