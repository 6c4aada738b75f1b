// `macroscope serve`: serves the web UI and the JSON API of docs/serve.md
// at once, reads the traces on a thread of its own meanwhile, and serves
// until SIGINT or SIGTERM.
#include <atomic>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <list>
#include <memory>
#include <optional>
#include <thread>

#include <malloc.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/memory_option.h"
#include "cli/trace_loading.h"
#include "server/server.h"
#include "server/stop_signals.h"
#include "store/store.h"
#include "store/store_source.h"
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
  std::string read_after;  // hidden, for tests: the reading starts once this file exists
  size_t memory = store::CacheBudget::DefaultBytes();  // bytes a store's caches keep, and the aggregations' (--memory)
};

// One served trace and what answers about it: a trace read whole into
// memory, or a chunked store opened, its chunks read as queries reach them.
struct ServedData {
  LoadedTrace loaded;
  std::optional<TraceSource> in_memory;
  std::unique_ptr<store::StoreSource> store;
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

// Reads one served trace on the reading thread: the reader counts into
// the trace's progress (answered by the trace list), the trace is indexed
// and published — summarized here, before any request can see it. A
// chunked store is opened instead, its description and directory read
// (docs/store.md): it is ready at once, whatever its size, and holds at
// most `memory` bytes of decoded chunks. Returns the line that tells a
// script reading the output that the trace is ready.
std::string ReadServedTrace(const std::string& file, formats::ReadOptions options, size_t memory,
                            server::ServedTrace& served, ServedData& out) {
  options.progress = &served.progress();
  uint64_t events = 0;
  const auto start = std::chrono::steady_clock::now();
  try {
    if (store::IsChunkedStore(file)) {
      out.store = std::make_unique<store::StoreSource>(file, store::CacheBudget::Serving(memory));
      events = out.store->reader().stats().events;
      served.Publish(*out.store);
    } else {
      LoadTrace({file}, options, out.loaded);
      out.loaded.trace.BuildIndexes();
      events = out.loaded.stats.events;
      served.Publish(out.in_memory.emplace(out.loaded.trace));
    }
  } catch (...) {
    served.Fail();
    throw;
  }
  const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
  char line[128];
  std::snprintf(line, sizeof line, " (%s, %llu events, %.2f s)", served.format().c_str(),
                static_cast<unsigned long long>(events), seconds.count());
  return "macroscope: read " + file + line;
}

// Hidden --read-after: the reading waits until `file` exists, so that a
// test sees every trace still being read, whatever the machine's speed.
void WaitForFile(const std::string& file) {
  while (!std::filesystem::exists(file)) std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

void RunServe(ServeArgs& args) {
  // A served store's decoded chunks come and go, freed on other threads
  // than those that made them: blocks from this size on are mapped and
  // unmapped at once (a fixed threshold, where glibc would raise it as
  // blocks are freed), so that what the cache lets go goes back to the
  // system instead of piling up in per-thread arenas.
  mallopt(M_MMAP_THRESHOLD, 256 * 1024);
  if (args.token_option->count() > 0) args.server.token = args.token;
  // Watched from the start, before any thread (the reader's, the server's)
  // exists. While a trace is still being read, a signal ends the command
  // at once: a reading cannot be interrupted, and nothing is written.
  // Once every trace is read, it stops the server gracefully.
  std::atomic<server::Server*> all_read{nullptr};
  std::optional<server::StopSignals> stop;
  stop.emplace([&all_read](int signal) {
    if (server::Server* http = all_read.load()) {
      http->Stop();
    } else {
      std::_Exit(128 + signal);
    }
  });
  // The formats first (a look at each file's head): the list names them
  // while they are read, and a file that is no trace fails before the
  // server starts.
  std::vector<std::shared_ptr<server::ServedTrace>> served;
  for (const auto& file : args.files) {
    const std::string name = std::filesystem::path(file).filename().string();
    served.push_back(std::make_shared<server::ServedTrace>(name.empty() ? file : name,
                                                           std::string(formats::Detect(file).name)));
  }
  // Writing to a client that went away must not kill the server.
  std::signal(SIGPIPE, SIG_IGN);
  // A list: the server keeps pointers into its elements.
  std::list<ServedData> loaded;
  std::exception_ptr failure;  // the reading's, rethrown here: its message and exit code as any command's
  {
    server::ServerOptions options = args.server;
    options.aggregation_bytes = args.memory;  // as much again for the cached aggregations
    server::Server http({served.begin(), served.end()}, options);
    http.Bind();
    if (!http.web_built()) {
      std::printf("macroscope: the web UI is not built in %s (make web); serving the API only\n",
                  args.server.web_directory.c_str());
    }
    std::printf("macroscope: serving %zu trace(s) at %s\n", args.files.size(),
                http.Url(InitialView(args)).c_str());
    std::fflush(stdout);
    // One trace after the other, in the order given: the first is ready
    // soonest (the workbench opens it), and they do not share the cores.
    std::jthread reader([&] {
      try {
        if (!args.read_after.empty()) WaitForFile(args.read_after);
        for (size_t i = 0; i < args.files.size(); ++i) {
          const std::string line =
              ReadServedTrace(args.files[i], args.read, args.memory, *served[i], loaded.emplace_back());
          // Before the last line: a script that stops the server once it
          // reads that line gets a graceful stop (exit 0), not the exit of
          // a signal during a reading.
          if (i + 1 == args.files.size()) all_read = &http;
          std::printf("%s\n", line.c_str());
          std::fflush(stdout);
        }
      } catch (...) {
        // Nothing half-read is served: the server stops, the command fails.
        failure = std::current_exception();
        http.Stop();
      }
    });
    http.Run();
    reader.join();
    stop.reset();  // the watcher ends before the server it may call goes
  }
  if (failure) std::rethrow_exception(failure);
  // Taken back whole by the exit: a stop stays quick however large the traces.
  for (ServedData& data : loaded) DropAtExit(std::move(data.loaded.trace));
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
                  "Seconds an aggregation, a p list, a window or a search may compute before it is cancelled (503)")
      ->capture_default_str()
      ->check(CLI::Range(1, 86400));
  cmd->add_option("--p", args->p, "The p the printed URL opens the overview at (default: the quality curves' knee)")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--slices", args->slices, "The time slices the printed URL opens the overview with (default 100)")
      ->check(CLI::Range(1, 10000));
  AddMemoryOption(*cmd, args->memory,
                  ", and as much for the cached aggregations; default: a sixteenth of the machine's memory");
  // Hidden, for tests: the reading starts once this file exists.
  cmd->add_option("--read-after", args->read_after)->group("");
  AddReadOptions(*cmd, args->read);
  cmd->callback([args] { RunServe(*args); });
}

}  // namespace macroscope::cli
